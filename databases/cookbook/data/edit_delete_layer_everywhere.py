# ---
# title = "Delete all shapes of a layer in every cell of the open layout"
# summary = "Runs in KLayout on the open layout: clears the given layer (layer/datatype) in every cell, so shapes in sub-cells disappear too; the layer itself stays in the layer list (use layout.delete_layer to drop it). Reports how many shapes were removed. One undo step restores them."
# kind = "edit"
# tags = ["delete layer", "clear layer", "remove shapes", "open layout", "all cells", "labels", "undo"]
# apis = ["pya.Layout.find_layer", "pya.Layout.clear_layer", "pya.Shapes.size", "pya.Layout.each_cell"]
# fixture = "data_chip"
# [expect]
# shapes = {"66/0" = 0, "1/0" = 3}
# stdout = ["removed 5 shapes on 66/0 from 2 cells"]
# ---
LAYER, DATATYPE = 66, 0

li = layout.find_layer(LAYER, DATATYPE)        # None when the layout has no such layer
if li is None:
    print(f"no layer {LAYER}/{DATATYPE} in the layout")
else:
    n = sum(c.shapes(li).size() for c in layout.each_cell())
    cells = sum(1 for c in layout.each_cell() if c.shapes(li).size())
    layout.clear_layer(li)                     # removes the shapes of this layer in every cell
    print(f"removed {n} shapes on {LAYER}/{DATATYPE} from {cells} cells")
