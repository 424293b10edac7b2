# ---
# title = "Area per layer in um2, merged (overlaps counted once) and raw (sum of shapes)"
# summary = "Reads a layout and, for every layer, collects all shapes under the top cell (hierarchy flattened) into a Region. Reports the raw area (each shape's area summed, overlaps counted twice) and the merged area (union, overlaps counted once) in um2 to layer_areas.csv. Use the merged value for coverage or density."
# kind = "sandbox"
# tags = ["area", "layer area", "merged area", "overlap", "um2", "statistics", "csv", "coverage"]
# apis = ["pya.Region", "pya.Region.area", "pya.Region.merged_semantics", "pya.Cell.begin_shapes_rec", "pya.Layout.get_info"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"layer_areas.csv" = 6}
# files = ["layer_areas.csv"]
# csv_columns = {"layer_areas.csv" = ["layer", "datatype", "raw_area_um2", "merged_area_um2"]}
# stdout = ["1/0: raw 918.800 um2, merged 907.350 um2"]
# ---
import csv

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "layer_areas.csv"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()
um2 = layout.dbu ** 2            # area in dbu^2 -> um^2

rows = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    region = db.Region(top.begin_shapes_rec(li))   # all shapes, hierarchy flattened
    merged = region.area() * um2                    # merged semantics (default): overlaps once
    region.merged_semantics = False
    raw = region.area() * um2                       # raw: every shape's own area summed
    rows.append([info.layer, info.datatype, round(raw, 6), round(merged, 6)])

rows.sort()
with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["layer", "datatype", "raw_area_um2", "merged_area_um2"])
    w.writerows(rows)
for layer, datatype, raw, merged in rows:
    print(f"{layer}/{datatype}: raw {raw:.3f} um2, merged {merged:.3f} um2")
print(f"wrote {OUTPUT} ({len(rows)} layers)")
