l1 = layout.layer(1, 0)
widths = [0.3, 0.5, 0.35, 0.6]
x = 0.0
for w in widths:
    cell.shapes(l1).insert(pya.DBox(x, 0, x + w, 20))
    x += w + 2.0
cell.shapes(l1).insert(pya.DBox(20, 0, 25, 5))
cell.shapes(l1).insert(pya.DBox(25.2, 0, 30, 5))          # space 0.2
cell.shapes(l1).insert(pya.DBox(20, 5.25, 30, 8))         # space 0.25 to both boxes below
sub = layout.create_cell("WG")
sub.shapes(l1).insert(pya.DBox(0, 0, 10, 0.38))             # width 0.38
cell.insert(pya.DCellInstArray(sub.cell_index(), pya.DTrans(pya.DVector(0, 30)), pya.DVector(0, 5), pya.DVector(0, 0), 3, 1))
