# ---
# title = "Move everything in the current cell (all layers and instances) by an offset"
# summary = "Shifts all shapes on all layers and all child instances of the active cell by dx, dy in um with cell.transform(DTrans), e.g. to put the design's origin somewhere else. Use move_shapes_on_layer_by_offset to move one layer only."
# kind = "edit"
# tags = ["move all", "shift cell", "origin", "recentre", "translate everything", "offset design"]
# apis = ["pya.Cell.transform", "pya.DTrans.new", "pya.DVector.new", "pya.Cell.dbbox"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 4, "2/0" = 1, "10/0" = 3}
# stdout = ["(0,-5;55,30) -> (10,5;65,40)"]
# ---
# Parameters (um)
DX, DY = 10.0, 10.0

before = cell.dbbox()
cell.transform(pya.DTrans(pya.DVector(DX, DY)))     # shapes and instances of this cell
print(f"moved cell {cell.name} by ({DX},{DY}) um: bbox {before} -> {cell.dbbox()}")
