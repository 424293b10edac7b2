# ---
# title = "Minimum area check: list the shapes smaller than an area"
# summary = "Merges a layer of in.gds and selects the polygons whose area is below a minimum in um2 (Region.with_area, bounds in dbu^2), then writes their count, areas and positions to min_area.json. Use it for min-area rules or to find slivers left by booleans."
# kind = "sandbox"
# tags = ["drc", "min area", "small shapes", "area check", "slivers", "tiny polygons", "with_area"]
# apis = ["pya.Region.new", "pya.Region.merged", "pya.Region.with_area", "pya.Polygon.area", "pya.Polygon.bbox"]
# fixture = "drc_rules"
# [expect]
# files = ["min_area.json"]
# json_values = {"min_area.json" = {"violations" = 2, "areas_um2" = [0.36, 0.64]}}
# stdout = ["2 shapes below 1.0 um2"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (2, 0)
MIN_AREA = 1.0                # um2

layout = pya.Layout()
layout.read(GDS)
dbu = layout.dbu
merged = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER))).merged()
small = merged.with_area(0, int(MIN_AREA / dbu ** 2), False)      # [0, MIN_AREA) in dbu^2
polys = sorted(small.each(), key=lambda p: p.area())
report = {"violations": small.count(), "min_area_um2": MIN_AREA,
          "areas_um2": [round(p.area() * dbu ** 2, 6) for p in polys],
          "centers_um": [[p.bbox().center().x * dbu, p.bbox().center().y * dbu] for p in polys]}
with open("min_area.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{small.count()} shapes below {MIN_AREA} um2 on {LAYER[0]}/{LAYER[1]}")
