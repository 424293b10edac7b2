pads = [(0, 0, 10, 10), (20, 0, 25.4, 3), (40, 0, 41.2, 1.2), (60, 0, 62.0, 20)]
for x0, y0, x1, y1 in pads:
    cell.shapes(layout.layer(2, 0)).insert(pya.DBox(x0, y0, x1, y1))
