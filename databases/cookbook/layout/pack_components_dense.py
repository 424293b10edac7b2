# ---
# title = "Pack many components densely into bins of a maximum size"
# summary = "Packs a list of components as tightly as possible with gf.pack (rectangle packing), a spacing in um between them and an optional maximum bin size in um; it returns one component per bin. Use it to fill a die area with test structures; gf.grid keeps a regular grid."
# kind = "sandbox"
# tags = ["pack", "bin packing", "dense", "fill die", "arrange", "floorplan"]
# apis = ["gdsfactory.pack", "gdsfactory.components.rectangle"]
# [expect]
# files = ["packed.gds"]
# cells = ["PACKED"]
# layers = ["1/0"]
# stdout = ["5 rectangles in 1 bin"]
# bbox = {"PACKED" = [2.525, 2.525, 57.525, 42.525]}
# ---
import gdsfactory as gf

spacing = 5.0                 # um between packed items
max_size = (60.0, None)       # um, bin width limit (height free)
cell_name = "PACKED"

gf.gpdk.PDK.activate()

items = [gf.components.rectangle(size=(10.0 * i, 10.0), layer=(1, 0)) for i in range(1, 6)]
bins = gf.pack(items, spacing=spacing, max_size=max_size)
c = gf.Component(cell_name)
c << bins[0]
c.write_gds("packed.gds", with_metadata=False)

print(f"{cell_name}: {len(items)} rectangles in {len(bins)} bin, {c.xsize:.1f} x {c.ysize:.1f} um")
