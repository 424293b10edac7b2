pad = layout.create_cell("PAD")
pad.shapes(layout.layer(10, 0)).insert(pya.DBox(0, 0, 100, 100))
cell.insert(pya.DCellInstArray(pad.cell_index(), pya.DTrans(pya.DVector(200, 0))))
