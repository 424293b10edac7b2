src = pya.Region(cell.begin_shapes_rec(layout.layer(1, 0)))
cell.shapes(layout.layer(3, 0)).insert(src.sized(1000))
