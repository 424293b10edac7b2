# ---
# title = "Move all shapes of a layer by an x/y offset"
# summary = "Shifts every shape on one layer of the active cell by dx, dy in um with Shapes.transform(DTrans) and prints the layer's bounding box before and after. Use it to nudge a layer into place; to move everything in the cell (all layers and instances) use cell.transform."
# kind = "edit"
# tags = ["move", "shift", "translate", "offset", "displace", "nudge", "layer"]
# apis = ["pya.DTrans.new", "pya.DVector.new", "pya.Shapes.transform", "pya.Cell.dbbox_per_layer"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 4}
# stdout = ["-> (100,10;130,30.25)"]
# ---
# Parameters (um)
LAYER, DATATYPE = 1, 0
DX, DY = 100.0, 10.0

li = layout.layer(LAYER, DATATYPE)
before = cell.dbbox_per_layer(li)
cell.shapes(li).transform(pya.DTrans(pya.DVector(DX, DY)))   # displacement in um
print(f"moved {cell.shapes(li).size()} shapes on {LAYER}/{DATATYPE}: {before} -> {cell.dbbox_per_layer(li)}")
