import csv
import os

li = layout.layer(10, 0)
rows = []
it = cell.begin_shapes_rec(li)
while not it.at_end():
    shape = it.shape()
    if shape.is_text():
        t = shape.text.transformed(it.trans())
        rows.append([t.string, t.x * dbu, t.y * dbu])
    it.next()
rows.sort(key=lambda r: r[0])
with open(os.path.join(workdir, "labels.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["text", "x_um", "y_um"])
    w.writerows(rows)
