import random

rnd = random.Random(11)
l1 = layout.layer(1, 0)
for _ in range(40):
    x, y = rnd.uniform(0, 90), rnd.uniform(0, 90)
    w, h = rnd.uniform(1, 12), rnd.uniform(1, 12)
    cell.shapes(l1).insert(pya.DBox(x, y, x + w, y + h))
cell.shapes(l1).insert(pya.DBox(0, 0, 20, 20))
cell.shapes(l1).insert(pya.DBox(10, 10, 24, 24))          # overlaps the box above
sub = layout.create_cell("FILL")
sub.shapes(l1).insert(pya.DBox(0, 0, 3, 3))
cell.insert(pya.DCellInstArray(sub.cell_index(), pya.DTrans(pya.DVector(76, 76)), pya.DVector(5, 0), pya.DVector(0, 5), 4, 4))
