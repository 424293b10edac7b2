# ---
# title = "Minimum overlap check between two layers"
# summary = "Where layer A and layer B overlap, checks that the overlap is at least a minimum in um (A.overlap_check(B, d)) and lists the too-small overlaps with their size in overlap.json; also reports the total overlap area. Use it for contact-to-heater, doping-to-waveguide or metal-to-pad overlap rules."
# kind = "sandbox"
# tags = ["drc", "overlap", "min overlap", "overlap check", "two layers", "intersection width", "landing"]
# apis = ["pya.Region.new", "pya.Region.overlap_check", "pya.Region.__and__", "klayout.db.EdgePair.distance", "pya.Region.area"]
# fixture = "drc_rules"
# [expect]
# files = ["overlap.json"]
# json_values = {"overlap.json" = {"violations" = 1, "overlaps_um" = [0.2], "overlap_area_um2" = 0.4}}
# stdout = ["1 overlaps smaller than 0.5 um"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER_A = (3, 0)
LAYER_B = (6, 0)
MIN_OVERLAP = 0.5             # um

layout = pya.Layout()
layout.read(GDS)
top, dbu = layout.top_cell(), layout.dbu
a = pya.Region(top.begin_shapes_rec(layout.layer(*LAYER_A)))
b = pya.Region(top.begin_shapes_rec(layout.layer(*LAYER_B)))
errors = a.overlap_check(b, int(round(MIN_OVERLAP / dbu)))
report = {"violations": errors.count(), "overlaps_um": sorted(round(ep.distance() * dbu, 6) for ep in errors.each()),
          "overlap_area_um2": round((a & b).area() * dbu ** 2, 6)}
with open("overlap.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{errors.count()} overlaps smaller than {MIN_OVERLAP} um between {LAYER_A} and {LAYER_B}")
