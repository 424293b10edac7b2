# ---
# title = "Count how often each cell is placed below the active cell of the open layout (CSV)"
# summary = "Runs in KLayout on the open layout: walks the hierarchy from the active cell, multiplying through nested placements and counting every array member, and writes instance_counts.csv (cell, placements, instance_records) next to the script. Nothing in the layout is changed. Use it for a bill of devices or to check array sizes."
# kind = "edit"
# tags = ["instance count", "placements", "how many", "bill of materials", "arrays", "open layout", "usage", "csv"]
# apis = ["pya.Cell.each_inst", "pya.Instance.size", "pya.Instance.cell_index", "pya.Layout.cell"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"instance_counts.csv" = 7}
# files = ["instance_counts.csv"]
# csv_columns = {"instance_counts.csv" = ["cell", "placements", "instance_records"]}
# stdout = ["STRAIGHT: 12", "PAD: 8", "GC: 4", "29 placements"]
# ---
import csv

OUTPUT = "instance_counts.csv"
placements, records = {}, {}


def walk(parent, multiplier):
    for inst in parent.each_inst():
        n = multiplier * inst.size()             # array members times the parent's own placements
        ci = inst.cell_index
        placements[ci] = placements.get(ci, 0) + n
        records[ci] = records.get(ci, 0) + 1
        walk(layout.cell(ci), n)


walk(cell, 1)
rows = sorted([layout.cell(ci).name, n, records[ci]] for ci, n in placements.items())
with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["cell", "placements", "instance_records"])
    w.writerows(rows)
for name, n, r in rows:
    print(f"{name}: {n}")
print(f"wrote {OUTPUT}: {len(rows)} cells, {sum(r[1] for r in rows)} placements below {cell.name}")
