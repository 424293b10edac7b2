# ---
# title = "How many times each cell is placed in the whole chip (arrays and nesting expanded)"
# summary = "Reads a layout and counts, for each cell, its total number of placements under the top cell: nested placements are multiplied through the hierarchy and every member of an array counts. Writes instance_counts.csv (cell, placements, direct_instances) where direct_instances counts instance records (an array is one)."
# kind = "sandbox"
# tags = ["instance count", "placements", "how many", "usage", "arrays", "references", "csv", "hierarchy"]
# apis = ["pya.Cell.each_inst", "pya.Instance.size", "pya.Instance.cell_index", "pya.Layout.top_cell"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"instance_counts.csv" = 7}
# files = ["instance_counts.csv"]
# csv_columns = {"instance_counts.csv" = ["cell", "placements", "direct_instances"]}
# stdout = ["STRAIGHT: 12 placements", "PAD: 8 placements", "MMI1X2: 2 placements", "29 placements in total"]
# ---
import csv

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "instance_counts.csv"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

placements = {}   # cell index -> placements in the flattened chip
records = {}      # cell index -> number of instance records (an array counts once)


def walk(cell, multiplier):
    for inst in cell.each_inst():
        n = multiplier * inst.size()              # array members times the parent's placements
        ci = inst.cell_index
        placements[ci] = placements.get(ci, 0) + n
        records[ci] = records.get(ci, 0) + 1
        walk(layout.cell(ci), n)


walk(top, 1)
rows = sorted([layout.cell(ci).name, n, records[ci]] for ci, n in placements.items())
with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["cell", "placements", "direct_instances"])
    w.writerows(rows)
for name, n, r in rows:
    print(f"{name}: {n} placements ({r} instance records)")
print(f"wrote {OUTPUT}: {len(rows)} cells, {sum(r[1] for r in rows)} placements in total")
