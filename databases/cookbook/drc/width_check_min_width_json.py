# ---
# title = "Minimum width check on one layer of a GDS, violations to JSON"
# summary = "Reads in.gds, flattens one layer of the top cell into a Region and runs width_check with the minimum width in um (converted to dbu); every place narrower than the rule becomes an edge pair. Writes the count and each marker's box in um to width.json. Use it for min-width / min-linewidth rules of waveguides or metal."
# kind = "sandbox"
# tags = ["drc", "min width", "width check", "linewidth", "narrow", "design rule", "violations", "json"]
# apis = ["pya.Layout.read", "pya.Layout.top_cell", "pya.Cell.begin_shapes_rec", "pya.Region.new", "pya.Region.width_check", "pya.EdgePairs.count", "pya.EdgePair.bbox"]
# fixture = "drc_rules"
# [expect]
# files = ["width.json"]
# json_values = {"width.json" = {"rule" = "width", "layer" = "1/0", "min_um" = 0.5, "violations" = 1}}
# stdout = ["1 width violations"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_WIDTH = 0.5               # um
REPORT = "width.json"

layout = pya.Layout()
layout.read(GDS)
top = layout.top_cell()
region = pya.Region(top.begin_shapes_rec(layout.layer(*LAYER)))   # flat, sub-cells included
errors = region.width_check(int(round(MIN_WIDTH / layout.dbu)))   # rule in dbu
markers = [ep.bbox().to_dtype(layout.dbu) for ep in errors.each()]
result = {"rule": "width", "layer": f"{LAYER[0]}/{LAYER[1]}", "min_um": MIN_WIDTH,
          "violations": errors.count(),
          "markers_um": [[b.left, b.bottom, b.right, b.top] for b in markers]}
with open(REPORT, "w") as f:
    json.dump(result, f, indent=2)
print(f"{errors.count()} width violations (< {MIN_WIDTH} um) on {LAYER[0]}/{LAYER[1]} -> {REPORT}")
