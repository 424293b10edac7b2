"""Merge 1/0 in the current cell, move pieces below 1 µm² to 1/99, report them."""
import csv
import os

LIMIT_UM2 = 1.0
src = layout.layer(1, 0)
dst = layout.layer(1, 99)
limit = LIMIT_UM2 / dbu

merged = pya.Region(cell.shapes(src)).merged()
small, large = [], []
for poly in merged.each():
    (small if poly.area() < limit else large).append(poly)

cell.shapes(src).clear()
for poly in large:
    cell.shapes(src).insert(poly)
rows = []
for poly in small:
    cell.shapes(dst).insert(poly)
    c = poly.bbox().center()
    rows.append([c.x * dbu, c.y * dbu, poly.area() * dbu * dbu])
rows.sort(key=lambda r: (r[0], r[1]))

with open(os.path.join(workdir, "small_shapes.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["x_um", "y_um", "area_um2"])
    w.writerows(rows)
print(f"moved {len(small)} pieces, {len(large)} stayed")
