cell.shapes(layout.layer(99, 0)).insert(pya.DBox(-500, -300, 500, 300))
cell.shapes(layout.layer(1, 0)).insert(pya.DBox(-400, -0.25, 400, 0.25))
