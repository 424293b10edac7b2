# ---
# title = "Grow (or shrink) a component's shapes on a layer by a distance"
# summary = "Sizes all polygons on one layer of a component outwards by a distance in um with Component.offset(layer, distance) (negative shrinks), on a flattened copy, e.g. to make a keep-out or a bias. Prints bbox and area before and after."
# kind = "sandbox"
# tags = ["offset", "grow", "bias", "size", "expand", "shrink", "keep-out", "dilate"]
# apis = ["gdsfactory.Component.offset", "gdsfactory.Component.copy", "gdsfactory.Component.area"]
# [expect]
# files = ["mmi_grown.gds"]
# cells = ["MMI_GROWN"]
# layers = ["1/0"]
# bbox = {"MMI_GROWN" = [-11.0, -2.25, 16.5, 2.25]}
# stdout = ["area 36.25 -> 100.27 um2"]
# ---
import gdsfactory as gf

distance = 1.0       # um, outwards
layer = (1, 0)
cell_name = "MMI_GROWN"

gf.gpdk.PDK.activate()

c = gf.components.mmi1x2().copy()
c.name = cell_name
before = c.area(layer=layer)
c.offset(layer=layer, distance=distance)
c.write_gds("mmi_grown.gds", with_metadata=False)

print(f"{cell_name}: area {before:.2f} -> {c.area(layer=layer):.2f} um2, bbox {c.bbox()}")
