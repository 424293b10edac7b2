pts = [pya.DPoint(0, 0), pya.DPoint(50, 0), pya.DPoint(50, 30), pya.DPoint(100, 30)]
cell.shapes(layout.layer(1, 0)).insert(pya.DPath(pts, 0.5))
cell.shapes(layout.layer(11, 0)).insert(pya.DPath(pts, 3.0))
print("waveguide length: 130 um")
