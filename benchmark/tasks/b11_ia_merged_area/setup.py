l1 = layout.layer(1, 0)
cell.shapes(l1).insert(pya.DBox(0, 0, 10, 10))
cell.shapes(l1).insert(pya.DBox(5, 5, 15, 15))      # overlaps by 25
cell.shapes(l1).insert(pya.DBox(30, 0, 32, 50))
sub = layout.create_cell("SUB")
sub.shapes(l1).insert(pya.DBox(0, 0, 4, 4))
cell.insert(pya.DCellInstArray(sub.cell_index(), pya.DTrans(pya.DVector(100, 0)), pya.DVector(10, 0), pya.DVector(0, 10), 3, 1))
cell.shapes(layout.layer(2, 0)).insert(pya.DBox(0, 0, 100, 100))
