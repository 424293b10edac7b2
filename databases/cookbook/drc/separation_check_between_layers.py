# ---
# title = "Minimum separation between two different layers (e.g. heater to metal)"
# summary = "Runs separation_check between layer A and layer B of in.gds with a minimum distance in um, so shapes of A closer than the rule to shapes of B are reported (overlapping shapes are not: check those with an AND). Writes the count and the measured distances in um to separation.json."
# kind = "sandbox"
# tags = ["drc", "separation", "layer to layer spacing", "clearance", "heater", "metal", "two layers", "distance"]
# apis = ["pya.Region.new", "pya.Region.separation_check", "klayout.db.EdgePair.distance", "pya.EdgePairs.count"]
# fixture = "drc_rules"
# [expect]
# files = ["separation.json"]
# json_values = {"separation.json" = {"violations" = 1, "distances_um" = [0.5]}}
# stdout = ["1 places where 3/0 is closer than 1.0 um to 6/0"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER_A = (3, 0)              # metal
LAYER_B = (6, 0)              # heater
MIN_SEP = 1.0                 # um

layout = pya.Layout()
layout.read(GDS)
top, dbu = layout.top_cell(), layout.dbu


def region(ld):
    return pya.Region(top.begin_shapes_rec(layout.layer(*ld)))


errors = region(LAYER_A).separation_check(region(LAYER_B), int(round(MIN_SEP / dbu)))
distances = sorted(round(ep.distance() * dbu, 6) for ep in errors.each())
with open("separation.json", "w") as f:
    json.dump({"violations": errors.count(), "min_um": MIN_SEP, "distances_um": distances}, f, indent=2)
print(f"{errors.count()} places where {LAYER_A[0]}/{LAYER_A[1]} is closer than {MIN_SEP} um to {LAYER_B[0]}/{LAYER_B[1]}")
