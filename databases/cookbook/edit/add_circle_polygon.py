# ---
# title = "Draw a circle (or ellipse) of a given radius at a centre point"
# summary = "Approximates a circle by a polygon with DPolygon.ellipse from its bounding box (centre and radius in um, number of points) and inserts it on a layer. Use it for round pads, holes or disks; more points give a smoother outline."
# kind = "edit"
# tags = ["circle", "disk", "round", "ellipse", "radius", "round pad", "dot"]
# apis = ["pya.DPolygon.ellipse", "pya.DBox.new", "pya.Shapes.insert", "pya.Shape.darea"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"23/0" = 1}
# stdout = ["128 points", "area 78.5"]
# ---
# Parameters (um)
LAYER, DATATYPE = 23, 0
CX, CY = 80.0, 10.0
RADIUS = 5.0
NPOINTS = 128

circle = pya.DPolygon.ellipse(pya.DBox(CX - RADIUS, CY - RADIUS, CX + RADIUS, CY + RADIUS), NPOINTS)
shape = cell.shapes(layout.layer(LAYER, DATATYPE)).insert(circle)
print(f"circle r={RADIUS} um at ({CX},{CY}) with {circle.num_points()} points, area {shape.darea():.1f} um2")
