# ---
# title = "Spacing rule that applies only to long parallel runs (min projection length)"
# summary = "Uses space_check's min_projection argument (in dbu, 5th positional) so only gaps where the two edges run alongside each other for at least a length in um are reported; short facing edges and corner-to-corner gaps drop out. Counts for several run lengths go to parallel_run.json. Use it for coupling/crosstalk rules on long parallel waveguides or wires."
# kind = "sandbox"
# tags = ["drc", "parallel run length", "min projection", "coupling", "crosstalk", "space check", "long parallel"]
# apis = ["pya.Region.space_check", "pya.Region.Euclidian", "pya.EdgePairs.count"]
# fixture = "drc_rules"
# [expect]
# files = ["parallel_run.json"]
# json_values = {"parallel_run.json" = {"0" = 4, "2" = 2, "5" = 1}}
# stdout = ["run >= 5 um: 1"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_SPACE = 0.5               # um
RUN_LENGTHS = [0, 2, 5]       # um, minimum parallel run (projection) that the rule applies to

layout = pya.Layout()
layout.read(GDS)
dbu = layout.dbu
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER)))
d = int(round(MIN_SPACE / dbu))
counts = {}
for run in RUN_LENGTHS:
    # (d, whole_edges, metrics, ignore_angle, min_projection, max_projection)
    errors = region.space_check(d, False, pya.Region.Euclidian, None, int(round(run / dbu)), None)
    counts[str(run)] = errors.count()
    print(f"space < {MIN_SPACE} um with parallel run >= {run} um: {errors.count()}")
with open("parallel_run.json", "w") as f:
    json.dump(counts, f, indent=2)
