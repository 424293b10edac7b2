cell.shapes(layout.layer(2, 0)).insert(pya.DBox(-5, -2.5, 5, 2.5))
