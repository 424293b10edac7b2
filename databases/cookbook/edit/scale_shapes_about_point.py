# ---
# title = "Scale (magnify) the shapes of a layer about a reference point"
# summary = "Applies a magnification factor with DCplxTrans(mag) about a chosen point (um) to every shape of one layer in the active cell and prints the new bounding box. Use it to resize a drawn feature proportionally; for growing outlines by a fixed distance use Region.sized."
# kind = "edit"
# tags = ["scale", "magnify", "magnification", "resize", "zoom", "enlarge", "shrink proportionally"]
# apis = ["pya.DCplxTrans.new", "pya.DVector.new", "pya.Shapes.transform", "pya.Cell.dbbox_per_layer"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"2/0" = 1}
# stdout = ["(5,-1;45,9)"]
# ---
# Parameters
LAYER, DATATYPE = 2, 0
MAG = 2.0                     # 2.0 doubles every dimension
ORIGIN = (5.0, -1.0)          # the point that stays fixed, um

ox, oy = ORIGIN
t = pya.DCplxTrans(pya.DVector(ox, oy)) * pya.DCplxTrans(MAG) * pya.DCplxTrans(pya.DVector(-ox, -oy))
li = layout.layer(LAYER, DATATYPE)
cell.shapes(li).transform(t)
print(f"scaled {LAYER}/{DATATYPE} by {MAG} about {ORIGIN}: bbox {cell.dbbox_per_layer(li)}")
