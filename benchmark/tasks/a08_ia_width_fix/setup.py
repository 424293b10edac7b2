l1 = layout.layer(1, 0)
specs = [(0, 0, 20, 0.3), (0, 5, 20, 0.5), (0, 10, 20, 0.45), (30, 0, 0.4, 15), (40, 0, 1.0, 15), (50, 0, 0.2, 8)]
for x, y, w, h in specs:
    cell.shapes(l1).insert(pya.DBox(x, y, x + w, y + h))
cell.shapes(l1).insert(pya.DPolygon([pya.DPoint(60, 0), pya.DPoint(70, 0), pya.DPoint(70, 2), pya.DPoint(62, 2), pya.DPoint(62, 6), pya.DPoint(60, 6)]))
cell.shapes(layout.layer(2, 0)).insert(pya.DBox(0, 20, 0.1, 30))   # another layer: not touched
