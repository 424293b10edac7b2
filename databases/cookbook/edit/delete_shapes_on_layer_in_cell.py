# ---
# title = "Delete all shapes on one layer of the current cell only"
# summary = "Clears one layer in the active cell (cell.shapes(layer).clear()) and leaves the same layer in sub-cells and all other layers alone. Use it to wipe a layer you are redrawing in this cell; to remove a layer from every cell of the layout use layout.clear_layer."
# kind = "edit"
# tags = ["delete", "clear layer", "remove shapes", "erase", "wipe", "current cell", "this cell only"]
# apis = ["pya.Layout.find_layer", "pya.Cell.shapes", "pya.Shapes.clear", "pya.Shapes.size"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 0, "2/0" = 1, "10/0" = 3}
# layers = ["3/0", "4/0"]
# stdout = ["deleted 4 shapes"]
# ---
# Parameters
LAYER, DATATYPE = 1, 0

li = layout.find_layer(LAYER, DATATYPE)      # None if the layout has no such layer
if li is None:
    print(f"layer {LAYER}/{DATATYPE} does not exist: nothing deleted")
else:
    shapes = cell.shapes(li)
    n = shapes.size()
    shapes.clear()                           # this cell only; child cells keep their shapes
    print(f"deleted {n} shapes on {LAYER}/{DATATYPE} in cell {cell.name}")
