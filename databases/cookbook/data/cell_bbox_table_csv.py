# ---
# title = "Table of every cell's bounding box and size in um"
# summary = "Reads a layout and writes cell_bboxes.csv with one row per cell: name, xmin, ymin, xmax, ymax, width, height in um (in the cell's own coordinates, sub-cells included). Empty cells get an empty box (zeros). Use it to check device footprints in a library."
# kind = "sandbox"
# tags = ["bbox", "cell size", "footprint", "every cell", "library", "csv", "width", "height"]
# apis = ["pya.Layout.each_cell", "pya.Cell.dbbox", "pya.Cell.name", "pya.Cell.is_empty"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"cell_bboxes.csv" = 8}
# files = ["cell_bboxes.csv"]
# csv_columns = {"cell_bboxes.csv" = ["cell", "xmin", "ymin", "xmax", "ymax", "width", "height"]}
# stdout = ["8 cells", "MMI1X2: 20.000 x 6.000 um", "PLACEHOLDER: empty"]
# ---
import csv

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "cell_bboxes.csv"

layout = db.Layout()
layout.read(INPUT)

rows = []
for cell in layout.each_cell():
    if cell.is_empty():           # no shapes and no instances
        print(f"{cell.name}: empty")
        rows.append([cell.name, 0, 0, 0, 0, 0, 0])
        continue
    b = cell.dbbox()              # um, cell coordinates
    rows.append([cell.name, b.left, b.bottom, b.right, b.top, round(b.width(), 6), round(b.height(), 6)])
    print(f"{cell.name}: {b.width():.3f} x {b.height():.3f} um")

rows.sort()
with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["cell", "xmin", "ymin", "xmax", "ymax", "width", "height"])
    w.writerows(rows)
print(f"wrote {OUTPUT}: {len(rows)} cells")
