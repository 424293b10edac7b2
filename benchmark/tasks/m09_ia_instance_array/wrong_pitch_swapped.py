import csv
import os

unit = layout.cell("UNIT")
cell.insert(pya.DCellInstArray(unit.cell_index(), pya.DTrans(), pya.DVector(15, 0), pya.DVector(0, 20), 4, 3))
with open(os.path.join(workdir, "placements.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["column", "row", "x_um", "y_um"])
    for j in range(3):
        for i in range(4):
            w.writerow([i, j, i * 15, j * 20])
