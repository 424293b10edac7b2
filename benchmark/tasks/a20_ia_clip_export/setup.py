l1, l2 = layout.layer(1, 0), layout.layer(2, 0)
cell.shapes(l1).insert(pya.DBox(-10, 10, 30, 12))             # crosses the left border
cell.shapes(l1).insert(pya.DBox(40, 30, 70, 60))              # crosses the top-right corner
cell.shapes(l2).insert(pya.DBox(5, 5, 15, 15))
cell.shapes(l2).insert(pya.DBox(100, 100, 110, 110))          # outside
sub = layout.create_cell("SUB")
sub.shapes(l1).insert(pya.DPolygon([pya.DPoint(0, 0), pya.DPoint(10, 0), pya.DPoint(0, 10)]))
cell.insert(pya.DCellInstArray(sub.cell_index(), pya.DTrans(pya.DVector(20, 20)), pya.DVector(25, 0), pya.DVector(0, 0), 2, 1))
