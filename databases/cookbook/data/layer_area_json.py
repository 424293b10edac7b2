# ---
# title = "Merged area of each layer in um2 written to a JSON file"
# summary = "Reads a layout, merges all shapes of each layer under the top cell (hierarchy flattened, overlaps counted once) and writes layer_area.json mapping 'L/D' to the area in um2, plus the total. Use layer_area_merged_vs_raw_csv for a table that also shows the raw sum."
# kind = "sandbox"
# tags = ["area", "um2", "per layer", "json", "merged", "statistics", "layer report"]
# apis = ["pya.Region", "pya.Region.area", "pya.Cell.begin_shapes_rec", "pya.Layout.get_info"]
# fixture = "data_chip"
# [expect]
# files = ["layer_area.json"]
# json_values = {"layer_area.json" = {"1/0" = 907.35, "3/0" = 1476.0, "49/0" = 51200.0, "66/0" = 0.0}}
# stdout = ["6 layers"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "layer_area.json"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

areas = {}
for li in layout.layer_indexes():
    info = layout.get_info(li)
    region = db.Region(top.begin_shapes_rec(li))      # flattened shapes of this layer
    # Region.area() merges first; dbu^2 converts to um^2 (texts have no area)
    areas[f"{info.layer}/{info.datatype}"] = round(region.area() * layout.dbu ** 2, 6)

with open(OUTPUT, "w") as f:
    json.dump(areas, f, indent=2)
print(f"wrote {OUTPUT}: {len(areas)} layers, total {sum(areas.values()):.3f} um2")
