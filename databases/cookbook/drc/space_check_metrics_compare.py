# ---
# title = "Spacing check with Euclidian, Square and Projection metrics compared"
# summary = "Runs space_check on a layer of in.gds with each distance metric (the third positional argument: pya.Region.Euclidian, Square, Projection) and writes the counts to metrics.json. Euclidian also flags corner-to-corner gaps; Projection only flags edges that face each other. Use it to pick the metric a foundry rule means."
# kind = "sandbox"
# tags = ["drc", "metrics", "euclidian", "projection", "square", "corner to corner", "space check", "options"]
# apis = ["pya.Region.space_check", "pya.Region.Euclidian", "pya.Region.Square", "pya.Region.Projection", "pya.EdgePairs.count"]
# fixture = "drc_rules"
# [expect]
# files = ["metrics.json"]
# json_values = {"metrics.json" = {"Euclidian" = 4, "Square" = 4, "Projection" = 2}}
# stdout = ["Euclidian 4", "Projection 2"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_SPACE = 0.5               # um

layout = pya.Layout()
layout.read(GDS)
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER)))
d = int(round(MIN_SPACE / layout.dbu))
counts = {}
for name, metric in [("Euclidian", pya.Region.Euclidian), ("Square", pya.Region.Square),
                     ("Projection", pya.Region.Projection)]:
    counts[name] = region.space_check(d, False, metric).count()   # (d, whole_edges, metrics)
with open("metrics.json", "w") as f:
    json.dump(counts, f, indent=2)
print(", ".join(f"{k} {v}" for k, v in counts.items()))
