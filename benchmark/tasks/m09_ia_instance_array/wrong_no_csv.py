unit = layout.cell("UNIT")
cell.insert(pya.DCellInstArray(unit.cell_index(), pya.DTrans(), pya.DVector(20, 0), pya.DVector(0, 15), 4, 3))
