cell.shapes(layout.layer(1, 0)).insert(pya.DBox(-20, -1, 20, 1))
