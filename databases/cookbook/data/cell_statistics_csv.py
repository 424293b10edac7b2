# ---
# title = "Statistics table per cell: shapes, instances, child cells, parents and area"
# summary = "Reads a layout and writes cell_stats.csv with one row per cell: its own shapes (all layers), instance records and array members it places, distinct child cells, number of parent cells, and the merged area of its own shapes on one layer in um2. Use it to spot heavy cells, unused cells (0 parents and not top) or flat data sitting in the top cell."
# kind = "sandbox"
# tags = ["statistics", "cell statistics", "per cell", "table", "csv", "shapes", "instances", "usage", "report"]
# apis = ["pya.Layout.each_cell", "pya.Cell.shapes", "pya.Cell.each_inst", "pya.Cell.child_cells", "pya.Cell.parent_cells", "pya.Region.area"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"cell_stats.csv" = 8}
# files = ["cell_stats.csv"]
# csv_columns = {"cell_stats.csv" = ["cell", "shapes", "instance_records", "placed_members", "child_cells", "parent_cells", "area_um2"]}
# stdout = ["8 cells", "TOP: 8 shapes, 9 instance records, 19 placed members, 7 children", "GC: 14 shapes"]
# ---
import csv

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "cell_stats.csv"
AREA_LAYER = (1, 0)       # layer whose own-shape area is reported

layout = db.Layout()
layout.read(INPUT)
area_li = layout.find_layer(*AREA_LAYER)

rows = []
for cell in layout.each_cell():
    shapes = sum(cell.shapes(li).size() for li in layout.layer_indexes())   # this cell's own shapes
    insts = list(cell.each_inst())
    members = sum(inst.size() for inst in insts)                             # arrays expanded
    area = db.Region(cell.shapes(area_li)).area() * layout.dbu ** 2 if area_li is not None else 0.0
    rows.append([cell.name, shapes, len(insts), members, cell.child_cells(), cell.parent_cells(), round(area, 6)])

rows.sort()
with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["cell", "shapes", "instance_records", "placed_members", "child_cells", "parent_cells", "area_um2"])
    w.writerows(rows)
for r in rows:
    print(f"{r[0]}: {r[1]} shapes, {r[2]} instance records, {r[3]} placed members, {r[4]} children")
print(f"wrote {OUTPUT}: {len(rows)} cells")
