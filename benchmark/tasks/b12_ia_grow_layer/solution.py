src = pya.Region(cell.begin_shapes_rec(layout.layer(1, 0)))
grown = src.sized(1.0 / dbu).merged()
cell.shapes(layout.layer(2, 0)).insert(grown)
