import random

rnd = random.Random(7)
counts = {(1, 0): 7, (2, 0): 3, (41, 2): 5}
for (l, d), n in counts.items():
    li = layout.layer(l, d)
    for _ in range(n):
        x, y = rnd.uniform(0, 100), rnd.uniform(0, 100)
        cell.shapes(li).insert(pya.DBox(x, y, x + 2, y + 1))
layout.layer(3, 0)  # an empty layer
sub = layout.create_cell("CHILD")
for _ in range(4):
    sub.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 1, 1))
sub.shapes(layout.layer(7, 0)).insert(pya.DBox(0, 0, 1, 1))
cell.insert(pya.DCellInstArray(sub.cell_index(), pya.DTrans(pya.DVector(0, 200))))
