cell.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 10, 5))
