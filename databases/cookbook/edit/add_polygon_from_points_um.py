# ---
# title = "Draw a polygon from a list of micrometre points"
# summary = "Builds a DPolygon from (x, y) vertices in um and inserts it in the active cell on a chosen layer, then prints its area. Use it for L-shapes, trapezoids or any outline given as corner points; the points may run either way round."
# kind = "edit"
# tags = ["polygon", "outline", "vertices", "points", "L-shape", "draw", "add shape"]
# apis = ["pya.DPolygon.new", "pya.DPoint.new", "pya.Shapes.insert", "pya.Shape.darea"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"21/0" = 1}
# stdout = ["area 64 um2"]
# ---
# Parameters (um)
LAYER, DATATYPE = 21, 0
POINTS = [(60, 0), (70, 0), (70, 4), (64, 4), (64, 10), (60, 10)]   # an L: 10x4 + 4x6 = 64 um2

poly = pya.DPolygon([pya.DPoint(x, y) for x, y in POINTS])
shape = cell.shapes(layout.layer(LAYER, DATATYPE)).insert(poly)
print(f"added a {len(POINTS)}-point polygon on {LAYER}/{DATATYPE}, area {shape.darea():g} um2, bbox {shape.dbbox()}")
