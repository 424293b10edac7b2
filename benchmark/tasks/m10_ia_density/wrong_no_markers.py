import csv
import os

region = pya.Region(cell.begin_shapes_rec(layout.layer(1, 0))).merged()
rows = []
for j in range(4):
    for i in range(4):
        box = pya.DBox(i * 25, j * 25, (i + 1) * 25, (j + 1) * 25).to_itype(dbu)
        rows.append([i * 25, j * 25, (region & pya.Region(box)).area() / box.area()])
with open(os.path.join(workdir, "density.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["x0", "y0", "density"])
    w.writerows(rows)
