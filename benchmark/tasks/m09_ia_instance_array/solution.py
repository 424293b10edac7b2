import csv
import os

unit = layout.cell("UNIT")
cols, rows, px, py = 4, 3, 20.0, 15.0
arr = pya.DCellInstArray(unit.cell_index(), pya.DTrans(), pya.DVector(px, 0), pya.DVector(0, py), cols, rows)
cell.insert(arr)
with open(os.path.join(workdir, "placements.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["column", "row", "x_um", "y_um"])
    for j in range(rows):
        for i in range(cols):
            w.writerow([i, j, i * px, j * py])
