# ---
# title = "Rotate the shapes of a layer by an angle about a centre point"
# summary = "Builds a DCplxTrans that moves the pivot to the origin, rotates by an angle in degrees and moves back, and applies it to every shape on one layer of the active cell. Use it to turn a feature in place; 90-degree multiples keep boxes as boxes, other angles turn them into polygons."
# kind = "edit"
# tags = ["rotate", "rotation", "turn", "angle", "pivot", "about centre", "DCplxTrans"]
# apis = ["pya.DCplxTrans.new", "pya.DVector.new", "pya.Shapes.transform", "pya.Cell.dbbox_per_layer", "pya.DBox.center"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"2/0" = 1}
# stdout = ["(12.5,-8.5;17.5,11.5)"]
# ---
# Parameters
LAYER, DATATYPE = 2, 0
ANGLE = 90.0                  # degrees, counter-clockwise
PIVOT = None                  # (x, y) in um; None = centre of the layer's bounding box

li = layout.layer(LAYER, DATATYPE)
c = cell.dbbox_per_layer(li).center() if PIVOT is None else pya.DPoint(*PIVOT)
to_origin = pya.DCplxTrans(pya.DVector(-c.x, -c.y))
rotate = pya.DCplxTrans(1.0, ANGLE, False, 0.0, 0.0)      # (mag, angle deg, mirror, dx, dy)
back = pya.DCplxTrans(pya.DVector(c.x, c.y))
cell.shapes(li).transform(back * rotate * to_origin)     # rightmost is applied first
print(f"rotated {LAYER}/{DATATYPE} by {ANGLE} deg about ({c.x:g},{c.y:g}): bbox {cell.dbbox_per_layer(li)}")
