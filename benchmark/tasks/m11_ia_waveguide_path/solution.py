pts = [pya.DPoint(0, 0), pya.DPoint(50, 0), pya.DPoint(50, 30), pya.DPoint(100, 30)]
core = pya.DPath(pts, 0.5)
clad = pya.DPath(pts, 3.0)
cell.shapes(layout.layer(1, 0)).insert(core)
cell.shapes(layout.layer(111, 0)).insert(clad)
print(f"waveguide length: {core.length():.3f} um")
