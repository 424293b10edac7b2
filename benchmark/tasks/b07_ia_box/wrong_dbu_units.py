cell.shapes(layout.layer(2, 0)).insert(pya.Box(0, 0, 10, 5))
