# ---
# title = "Minimum spacing check on one layer, with each gap's distance, to JSON"
# summary = "Runs space_check on a merged layer of in.gds (rule in um, converted to dbu) and records every violating gap's measured distance in um (EdgePair.distance) and location, plus the smallest gap, in space.json. Gaps inside one polygon (notches) count too; use isolated_check for gaps between different shapes only."
# kind = "sandbox"
# tags = ["drc", "min space", "spacing", "gap", "clearance", "space check", "design rule", "distance"]
# apis = ["pya.Region.new", "pya.Region.space_check", "klayout.db.EdgePair.distance", "pya.EdgePair.bbox", "pya.EdgePairs.each"]
# fixture = "drc_rules"
# [expect]
# files = ["space.json"]
# json_values = {"space.json" = {"violations" = 4, "min_gap_um" = 0.3, "min_um" = 0.5}}
# stdout = ["4 gaps below 0.5 um"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_SPACE = 0.5               # um
REPORT = "space.json"

layout = pya.Layout()
layout.read(GDS)
dbu = layout.dbu
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER))).merged()
errors = region.space_check(int(round(MIN_SPACE / dbu)))
gaps = [{"distance_um": round(ep.distance() * dbu, 6),          # EdgePair.distance: dbu (klayout 0.30)
         "center_um": [ep.bbox().center().x * dbu, ep.bbox().center().y * dbu]} for ep in errors.each()]
result = {"layer": f"{LAYER[0]}/{LAYER[1]}", "min_um": MIN_SPACE, "violations": len(gaps),
          "min_gap_um": min((g["distance_um"] for g in gaps), default=None), "gaps": gaps}
with open(REPORT, "w") as f:
    json.dump(result, f, indent=2)
print(f"{len(gaps)} gaps below {MIN_SPACE} um on {LAYER[0]}/{LAYER[1]}, smallest {result['min_gap_um']} um")
