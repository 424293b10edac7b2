li = layout.layer(25, 0)
other = layout.layer(26, 0)
for y, w in ((0, 1.5), (4, 0.8), (8, 1.0)):          # the 0.8 um line is too narrow
    cell.shapes(li).insert(pya.DBox(0, y, 40, y + w))
cell.shapes(li).insert(pya.DBox(0, 12, 40, 13.2))
cell.shapes(li).insert(pya.DBox(0, 13.8, 40, 15))     # 0.6 um from the line below: too close
pad = layout.create_cell("PAD")
pad.shapes(li).insert(pya.DBox(0, 0, 10, 10))
cell.insert(pya.DCellInstArray(pad.cell_index(), pya.DTrans(pya.DVector(40.5, 0))))   # 0.5 um from the lines
cell.shapes(li).insert(pya.DBox(60, 0, 65, 2))
cell.shapes(li).insert(pya.DBox(65.4, 2.5, 70, 4.5))   # corner to corner 0.64 um from the shape below
cell.shapes(other).insert(pya.DBox(0, 20, 40, 20.3))  # 26/0 is not checked
