import csv
import os

region = pya.Region(cell.begin_shapes_rec(layout.layer(1, 0))).merged()
marks = layout.layer(100, 0)
tile = 25.0
rows = []
for j in range(4):
    for i in range(4):
        box = pya.DBox(i * tile, j * tile, (i + 1) * tile, (j + 1) * tile)
        ibox = box.to_itype(dbu)
        covered = (region & pya.Region(ibox)).area()
        density = covered / ibox.area()
        rows.append([box.left, box.bottom, density])
        if density < 0.2:
            cell.shapes(marks).insert(box)
with open(os.path.join(workdir, "density.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["x0", "y0", "density"])
    w.writerows(rows)
