unit = layout.create_cell("UNIT")
unit.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 5, 5))
unit.shapes(layout.layer(2, 0)).insert(pya.DBox(1, 1, 4, 4))
cell.shapes(layout.layer(10, 0)).insert(pya.DBox(-10, -10, 0, 0))
