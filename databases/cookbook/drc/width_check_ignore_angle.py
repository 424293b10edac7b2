# ---
# title = "Width check at sharp corners: the ignore_angle option"
# summary = "Runs width_check on a layer with non-Manhattan shapes of in.gds with different ignore_angle values (4th positional argument, degrees): corners whose edges meet at an angle below it are checked, those at or above it are ignored. The default (90) flags every acute corner; a small value keeps only spikes. Counts go to ignore_angle.json."
# kind = "sandbox"
# tags = ["drc", "ignore angle", "acute corners", "width check", "options", "tip", "spike", "angle"]
# apis = ["pya.Region.width_check", "pya.Region.Euclidian", "pya.EdgePairs.count"]
# fixture = "drc_rules"
# [expect]
# files = ["ignore_angle.json"]
# json_values = {"ignore_angle.json" = {"90" = 4, "45" = 1, "10" = 0}}
# stdout = ["ignore_angle 90: 4", "ignore_angle 45: 1", "ignore_angle 10: 0"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (5, 0)
MIN_WIDTH = 0.5               # um
ANGLES = [90, 45, 10]         # degrees

layout = pya.Layout()
layout.read(GDS)
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER)))
d = int(round(MIN_WIDTH / layout.dbu))
counts = {}
for a in ANGLES:
    # positional: (d, whole_edges, metrics, ignore_angle); KLayout 0.28 takes no keyword arguments here
    counts[str(a)] = region.width_check(d, False, pya.Region.Euclidian, a).count()
    print(f"ignore_angle {a}: {counts[str(a)]} width errors")
with open("ignore_angle.json", "w") as f:
    json.dump(counts, f, indent=2)
