# ---
# title = "Draw a rectangle on a layer at micrometre coordinates in the open layout"
# summary = "Adds one box to the active cell on a chosen layer/datatype, given its lower-left corner, width and height in um (DBox takes micrometres, so no dbu conversion is needed). Use it for pads, markers or any axis-aligned rectangle; for rotated or irregular outlines use a polygon."
# kind = "edit"
# tags = ["rectangle", "box", "draw", "add shape", "pad", "layer", "micrometre", "lower-left corner"]
# apis = ["pya.DBox.new", "pya.Layout.layer", "pya.Cell.shapes", "pya.Shapes.insert", "pya.Shape.dbbox"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"20/0" = 1, "1/0" = 4}
# stdout = ["(60,-10;70,-5)"]
# ---
# Parameters (um)
LAYER, DATATYPE = 20, 0
X0, Y0 = 60.0, -10.0          # lower-left corner
WIDTH, HEIGHT = 10.0, 5.0

li = layout.layer(LAYER, DATATYPE)              # layer index (created if the layer is new)
box = pya.DBox(X0, Y0, X0 + WIDTH, Y0 + HEIGHT)  # D-types are in um
shape = cell.shapes(li).insert(box)
print(f"added box {shape.dbbox()} um on {LAYER}/{DATATYPE} in cell {cell.name}")
