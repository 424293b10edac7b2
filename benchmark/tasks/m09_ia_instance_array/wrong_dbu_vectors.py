import csv
import os

unit = layout.cell("UNIT")
cell.insert(pya.CellInstArray(unit.cell_index(), pya.Trans(), pya.Vector(20, 0), pya.Vector(0, 15), 4, 3))
with open(os.path.join(workdir, "placements.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["column", "row", "x_um", "y_um"])
    for j in range(3):
        for i in range(4):
            w.writerow([i, j, i * 20, j * 15])
