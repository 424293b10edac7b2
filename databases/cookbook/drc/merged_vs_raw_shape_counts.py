# ---
# title = "Raw vs merged shape counts and area of a layer through the hierarchy"
# summary = "Collects a layer of in.gds through all levels of hierarchy (begin_shapes_rec), and compares the raw shape count (every placed shape) with the merged polygon count (overlapping and touching pieces fused) and the merged area in um2; writes them to merge.json. Use it before DRC to see how much overlap a layer has."
# kind = "sandbox"
# tags = ["drc", "merge", "merged", "raw shapes", "flatten", "overlap", "hierarchy", "polygon count"]
# apis = ["pya.Cell.begin_shapes_rec", "pya.Region.new", "pya.Region.count", "pya.Region.merged", "pya.Region.area"]
# fixture = "hier_array"
# [expect]
# files = ["merge.json"]
# json_values = {"merge.json" = {"raw_shapes" = 15, "merged_polygons" = 8, "merged_area_um2" = 46.0, "raw_area_um2" = 49.5}}
# stdout = ["15 placed shapes -> 8 merged polygons"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)

layout = pya.Layout()
layout.read(GDS)
dbu = layout.dbu
raw = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER)))   # flat: one polygon per placement
merged = raw.merged()
raw_area = sum(p.area() for p in raw.each()) * dbu ** 2    # overlaps counted twice (Region.area would merge)
report = {"raw_shapes": raw.count(), "merged_polygons": merged.count(),
          "raw_area_um2": round(raw_area, 6), "merged_area_um2": round(merged.area() * dbu ** 2, 6)}
with open("merge.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{LAYER[0]}/{LAYER[1]}: {raw.count()} placed shapes -> {merged.count()} merged polygons, "
      f"{report['merged_area_um2']:g} um2")
