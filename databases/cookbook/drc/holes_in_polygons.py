# ---
# title = "Find polygons with holes and measure the holes"
# summary = "Merges a layer of in.gds, selects the polygons that contain holes (Region.with_holes) and extracts the holes themselves (Region.holes) with their count and area in um2, written to holes.json. Use it where holes are forbidden (some mask/e-beam flows) or to check the openings of frames and rings."
# kind = "sandbox"
# tags = ["drc", "holes", "polygon with hole", "openings", "donut", "frame", "ring", "with_holes"]
# apis = ["pya.Region.new", "pya.Region.merged", "pya.Region.holes", "pya.Region.with_holes", "pya.Region.area"]
# fixture = "drc_rules"
# [expect]
# files = ["holes.json"]
# json_values = {"holes.json" = {"polygons" = 5, "polygons_with_holes" = 1, "holes" = 1, "hole_area_um2" = 4.0}}
# stdout = ["1 of 5 polygons have holes"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (2, 0)

layout = pya.Layout()
layout.read(GDS)
dbu = layout.dbu
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER))).merged()
holey = region.with_holes(1, None, False)    # polygons with at least one hole (no upper limit)
holes = region.holes()                       # each hole as a polygon
report = {"polygons": region.count(), "polygons_with_holes": holey.count(), "holes": holes.count(),
          "hole_area_um2": round(holes.area() * dbu ** 2, 6)}
with open("holes.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{holey.count()} of {region.count()} polygons have holes ({holes.count()} holes, {report['hole_area_um2']} um2)")
