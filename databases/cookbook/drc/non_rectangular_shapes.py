# ---
# title = "Find the shapes that are not plain rectangles"
# summary = "Splits a merged layer of in.gds into rectangles and non-rectangles (Region.rectangles / non_rectangles) and counts polygons that are not even rectilinear (Region.non_rectilinear), written to shape_types.json. Use it for flows that accept only boxes (some e-beam or fill tools) or to find odd geometry."
# kind = "sandbox"
# tags = ["drc", "rectangles", "non-rectangular", "non-rectilinear", "boxes only", "shape type", "polygon check"]
# apis = ["pya.Region.rectangles", "pya.Region.non_rectangles", "pya.Region.non_rectilinear", "pya.Region.count"]
# fixture = "drc_rules"
# [expect]
# files = ["shape_types.json"]
# json_values = {"shape_types.json" = {"2/0" = {"rectangles" = 3, "non_rectangles" = 2, "non_rectilinear" = 0}, "5/0" = {"rectangles" = 1, "non_rectangles" = 2, "non_rectilinear" = 2}}}
# stdout = ["5/0: 1 rectangles, 2 other"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYERS = [(2, 0), (5, 0)]

layout = pya.Layout()
layout.read(GDS)
top = layout.top_cell()
report = {}
for ld in LAYERS:
    region = pya.Region(top.begin_shapes_rec(layout.layer(*ld))).merged()
    report[f"{ld[0]}/{ld[1]}"] = {"rectangles": region.rectangles().count(),
                                  "non_rectangles": region.non_rectangles().count(),
                                  "non_rectilinear": region.non_rectilinear().count()}   # any non-90-degree edge
with open("shape_types.json", "w") as f:
    json.dump(report, f, indent=2)
for key, r in report.items():
    print(f"{key}: {r['rectangles']} rectangles, {r['non_rectangles']} other ({r['non_rectilinear']} not rectilinear)")
