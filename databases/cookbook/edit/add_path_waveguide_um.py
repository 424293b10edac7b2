# ---
# title = "Draw a waveguide as a path with a width through micrometre points"
# summary = "Inserts a DPath (centre line points and width in um, optional end extensions) on a layer in the active cell and prints its length and area. Use it for straight or Manhattan waveguide/wire runs; for a smooth bend make the points along an arc."
# kind = "edit"
# tags = ["path", "waveguide", "wire", "trace", "route", "centre line", "width", "polyline"]
# apis = ["pya.DPath.new", "pya.DPath.length", "pya.DPath.area", "pya.Shapes.insert"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 5}
# stdout = ["length 50 um", "area 25 um2"]
# ---
# Parameters (um)
LAYER, DATATYPE = 1, 0
POINTS = [(0, 40), (30, 40), (30, 60)]   # centre line: 30 um east, then 20 um north
WIDTH = 0.5
END_EXT = 0.0                           # extension beyond the first/last point (0 = flat ends)

path = pya.DPath([pya.DPoint(x, y) for x, y in POINTS], WIDTH, END_EXT, END_EXT)
cell.shapes(layout.layer(LAYER, DATATYPE)).insert(path)
print(f"path on {LAYER}/{DATATYPE}: length {path.length():g} um, width {WIDTH} um, area {path.area():g} um2")
