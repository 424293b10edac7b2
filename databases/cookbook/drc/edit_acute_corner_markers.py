# ---
# title = "Mark acute corners on the open layout"
# summary = "In KLayout, finds every corner of a layer (active cell and below) whose inner angle is below a limit in degrees (Region.with_angle on polygons gives one edge pair per corner) and draws a small marker polygon at each on a marker layer. Use it to find sharp tips that violate a min-angle rule or will round off in lithography."
# kind = "edit"
# tags = ["drc", "acute angle", "sharp corner", "min angle", "markers", "corners", "open layout"]
# apis = ["pya.Region.with_angle", "pya.EdgePairs.polygons", "pya.Shapes.insert", "pya.EdgePairs.count"]
# fixture = "drc_rules"
# [expect]
# shapes = {"104/0" = 4, "5/0" = 3}
# stdout = ["4 corners below 90 deg"]
# ---
# Parameters
LAYER = (5, 0)
MAX_ANGLE = 90.0              # deg: corners with a smaller inner angle are marked
MARKER = (104, 0)

region = pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER)))
corners = region.with_angle(0.0, MAX_ANGLE, False)            # edge pairs: the two edges at each corner
cell.shapes(layout.layer(*MARKER)).insert(corners.polygons())
print(f"{corners.count()} corners below {MAX_ANGLE:g} deg on {LAYER[0]}/{LAYER[1]}, marked on {MARKER[0]}/{MARKER[1]}")
