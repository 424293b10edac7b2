# ---
# title = "Find features narrower than a width by shrinking and regrowing (opening)"
# summary = "Shrinks a layer of in.gds by half the minimum width and grows it back (a morphological opening): features narrower than the rule vanish, so original minus opened is exactly the too-narrow material, as areas rather than edge pairs. Writes count and area (um2) to narrow.json and the pieces to narrow.gds on a marker layer."
# kind = "sandbox"
# tags = ["drc", "min width", "size down size up", "opening", "undersize oversize", "narrow parts", "sliver"]
# apis = ["pya.Region.sized", "pya.Region.__sub__", "pya.Region.area", "pya.Layout.write", "pya.Shapes.insert"]
# fixture = "drc_rules"
# [expect]
# files = ["narrow.json", "narrow.gds"]
# layers = ["100/0"]
# json_values = {"narrow.json" = {"narrow_polygons" = 1, "narrow_area_um2" = 4.0}}
# stdout = ["1 narrow pieces, 4 um2"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_WIDTH = 0.5               # um
MARKER = (100, 0)

layout = pya.Layout()
layout.read(GDS)
dbu = layout.dbu
top = layout.top_cell()
region = pya.Region(top.begin_shapes_rec(layout.layer(*LAYER))).merged()
half = int(round(MIN_WIDTH / 2 / dbu))
opened = region.sized(-half).sized(half)       # what survives a MIN_WIDTH-wide "brush"
narrow = region - opened
top.shapes(layout.layer(*MARKER)).insert(narrow)
layout.write("narrow.gds")                     # a copy of the input plus the marker layer
report = {"narrow_polygons": narrow.count(), "narrow_area_um2": round(narrow.area() * dbu ** 2, 6)}
with open("narrow.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{narrow.count()} narrow pieces, {report['narrow_area_um2']:g} um2 below {MIN_WIDTH} um on {LAYER[0]}/{LAYER[1]}")
