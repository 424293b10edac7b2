src = pya.Region(cell.shapes(layout.layer(1, 0)))
cell.shapes(layout.layer(2, 0)).insert(src.sized(1000))
