# ---
# title = "Draw a frame: a polygon with a rectangular hole"
# summary = "Makes a DPolygon from an outer outline and cuts a hole into it with insert_hole (points in um), e.g. a guard ring, frame or window opening, and prints the remaining area. Use a polygon with a hole when the ring must stay one shape; for a boolean of two layers use Region."
# kind = "edit"
# tags = ["hole", "frame", "window", "guard ring", "polygon with hole", "cutout", "opening"]
# apis = ["pya.DPolygon.new", "pya.DPolygon.insert_hole", "pya.DPolygon.holes", "pya.Shapes.insert", "pya.Shape.darea"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"22/0" = 1}
# stdout = ["1 hole", "area 64 um2"]
# ---
# Parameters (um)
LAYER, DATATYPE = 22, 0
OUTER = (-10, -10, 0, 0)       # left, bottom, right, top of the frame
HOLE = (-8, -8, -2, -2)        # the opening


def corners(l, b, r, t):
    return [pya.DPoint(l, b), pya.DPoint(r, b), pya.DPoint(r, t), pya.DPoint(l, t)]


frame = pya.DPolygon(corners(*OUTER))
frame.insert_hole(corners(*HOLE))
shape = cell.shapes(layout.layer(LAYER, DATATYPE)).insert(frame)
print(f"frame with {frame.holes()} hole on {LAYER}/{DATATYPE}: area {shape.darea():g} um2")
