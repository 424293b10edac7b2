# ---
# title = "Draw a rectangle with rounded corners"
# summary = "Turns a DBox into a polygon and rounds its corners with round_corners(inner radius, outer radius, points per full circle), all in um, then inserts it. Use it for rounded pads, trenches or openings without sharp corners."
# kind = "edit"
# tags = ["rounded corners", "fillet", "radius", "rounded rectangle", "pad", "smooth corners"]
# apis = ["pya.DPolygon.new", "pya.DPolygon.round_corners", "pya.Shapes.insert", "pya.Shape.darea"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"3/0" = 1}
# stdout = ["area 96.6"]
# ---
# Parameters (um)
LAYER, DATATYPE = 3, 0
BOX = (60, 60, 70, 70)      # left, bottom, right, top
RADIUS = 2.0                # corner radius
NPOINTS = 64                # points per full circle

rounded = pya.DPolygon(pya.DBox(*BOX)).round_corners(0.0, RADIUS, NPOINTS)  # (inner, outer, n)
shape = cell.shapes(layout.layer(LAYER, DATATYPE)).insert(rounded)
print(f"rounded rectangle {BOX} r={RADIUS} um: {rounded.num_points()} points, area {shape.darea():.1f} um2")
