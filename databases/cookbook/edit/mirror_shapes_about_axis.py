# ---
# title = "Mirror the shapes of a layer about a vertical or horizontal line"
# summary = "Flips every shape of one layer in the active cell about the vertical line x = X (DTrans.M90 then a shift of 2X) or the horizontal line y = Y (DTrans.M0 then a shift of 2Y). Use it to make the mirrored half of a symmetric device; coordinates in um."
# kind = "edit"
# tags = ["mirror", "flip", "reflect", "symmetric", "mirror axis", "M90", "M0"]
# apis = ["pya.DTrans.new", "pya.DTrans.M90", "pya.DTrans.M0", "pya.Shapes.transform", "pya.Cell.dbbox_per_layer"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 4}
# stdout = ["(50,0;80,20.25)"]
# ---
# Parameters (um)
LAYER, DATATYPE = 1, 0
AXIS = "vertical"              # "vertical": mirror about x = POSITION; "horizontal": about y = POSITION
POSITION = 40.0

li = layout.layer(LAYER, DATATYPE)
if AXIS == "vertical":
    flip = pya.DTrans(pya.DTrans.M90, pya.DVector(2 * POSITION, 0))   # x -> 2X - x
else:
    flip = pya.DTrans(pya.DTrans.M0, pya.DVector(0, 2 * POSITION))    # y -> 2Y - y
cell.shapes(li).transform(flip)
print(f"mirrored {LAYER}/{DATATYPE} about the {AXIS} line at {POSITION} um: bbox {cell.dbbox_per_layer(li)}")
