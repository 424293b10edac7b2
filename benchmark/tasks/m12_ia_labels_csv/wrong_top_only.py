import csv
import os

rows = []
for s in cell.shapes(layout.layer(10, 0)).each():
    if s.is_text():
        rows.append([s.text.string, s.text.x * dbu, s.text.y * dbu])
rows.sort()
with open(os.path.join(workdir, "labels.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["text", "x_um", "y_um"])
    w.writerows(rows)
