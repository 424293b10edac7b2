li = layout.layer(2, 0)
cell.shapes(li).insert(pya.DBox(0, 0, 10, 5))
