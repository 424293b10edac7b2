"""Pad frame: a PAD cell, 2 x 8 instances relative to the die outline, labels and a pad table."""
import csv
import os

N, PITCH, INSET = 8, 100.0, 40.0

die_layer = layout.layer(99, 0)
die = pya.Region(cell.shapes(die_layer)).bbox().to_dtype(dbu)

pad = layout.create_cell("PAD")
pad.shapes(layout.layer(41, 0)).insert(pya.DBox(-40, -40, 40, 40))
pad.shapes(layout.layer(46, 0)).insert(pya.DBox(-35, -35, 35, 35))

cx = die.center().x
xs = [cx + (i - (N - 1) / 2) * PITCH for i in range(N)]
y_bottom = die.bottom + INSET
y_top = die.top - INSET

positions = [(x, y_bottom) for x in xs] + [(x, y_top) for x in reversed(xs)]
label_layer = layout.layer(41, 1)
rows = []
for k, (x, y) in enumerate(positions, start=1):
    cell.insert(pya.DCellInstArray(pad.cell_index(), pya.DTrans(pya.DVector(x, y))))
    name = f"P{k}"
    cell.shapes(label_layer).insert(pya.DText(name, pya.DTrans(pya.DVector(x, y))))
    rows.append([name, x, y])

with open(os.path.join(workdir, "pads.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["name", "x_um", "y_um"])
    w.writerows(rows)
print(f"placed {len(rows)} pads")
