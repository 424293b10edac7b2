cell.shapes(layout.layer(1, 0)).insert(pya.DBox(-50, -5, -30, 5))   # an existing, wide feature
