import csv
import os

rows = []
for li in layout.layer_indexes():
    it = cell.begin_shapes_rec(li)
    while not it.at_end():
        if it.shape().is_text():
            t = it.shape().text.transformed(it.trans())
            rows.append([t.string, t.x * dbu, t.y * dbu])
        it.next()
rows.sort()
with open(os.path.join(workdir, "labels.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["text", "x_um", "y_um"])
    w.writerows(rows)
