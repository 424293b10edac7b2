l5 = layout.layer(5, 0)
l1 = layout.layer(1, 0)
sub = layout.create_cell("MARKS")
for i in range(4):
    cell.shapes(l5).insert(pya.DBox(i * 10, 0, i * 10 + 3, 3))
    cell.shapes(l1).insert(pya.DBox(i * 10, 5, i * 10 + 3, 8))
sub.shapes(l5).insert(pya.DBox(0, 0, 1, 1))
sub.shapes(l5).insert(pya.DBox(2, 0, 3, 1))
cell.insert(pya.DCellInstArray(sub.cell_index(), pya.DTrans(pya.DVector(0, 20))))
