pad = layout.create_cell("PAD")
pad.shapes(layout.layer(10, 0)).insert(pya.DBox(-50, -50, 50, 50))
