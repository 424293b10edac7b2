# ---
# title = "Rectangle of a given width and height on a layer, lower-left corner at the origin"
# summary = "Draws a filled rectangle with gdsfactory (gf.components.rectangle) of width x height in um on a layer given as (layer, datatype); centered=False keeps the lower-left corner at (0, 0). It has four electrical edge ports. In a KLayout layout that is already open, insert a pya.DBox instead."
# kind = "sandbox"
# tags = ["rectangle", "box", "square", "polygon", "shape", "layer", "lower left corner"]
# apis = ["gdsfactory.components.rectangle", "gdsfactory.Component.write_gds"]
# [expect]
# files = ["rect.gds"]
# cells = ["RECT_30x12"]
# layers = ["3/0"]
# bbox = {"RECT_30x12" = [0.0, 0.0, 30.0, 12.0]}
# stdout = ["area 360.0 um2"]
# ---
import gdsfactory as gf

width, height = 30.0, 12.0   # um
layer = (3, 0)               # (layer, datatype)
cell_name = "RECT_30x12"

gf.gpdk.PDK.activate()

c = gf.Component(cell_name)
c << gf.components.rectangle(size=(width, height), layer=layer, centered=False)
c.write_gds("rect.gds", with_metadata=False)

print(f"{cell_name}: {c.xsize:.1f} x {c.ysize:.1f} um on {layer[0]}/{layer[1]}, area {c.area(layer=layer):.1f} um2")
