# ---
# title = "Remove every shape on a layer from the whole layout, in all cells"
# summary = "Empties a layer in every cell of the layout with layout.clear_layer (the layer itself stays in the layer list; layout.delete_layer would drop it too) and reports how many placed shapes were removed under the active cell. Use it to strip a layer such as vias, labels or a temporary marker from the whole hierarchy."
# kind = "edit"
# tags = ["delete layer", "remove layer", "strip layer", "all cells", "whole hierarchy", "recursive delete", "clear layer"]
# apis = ["pya.Layout.find_layer", "pya.Layout.clear_layer", "pya.Cell.begin_shapes_rec", "pya.Region.new", "pya.Region.count"]
# fixture = "mixed_shapes"
# [expect]
# layers = ["1/0", "3/0"]
# stdout = ["removed 8 placed shapes", "4/0 now holds 0"]
# ---
# Parameters
LAYER, DATATYPE = 4, 0

li = layout.find_layer(LAYER, DATATYPE)
if li is None:
    print(f"no layer {LAYER}/{DATATYPE}")
else:
    placed = pya.Region(cell.begin_shapes_rec(li)).count()   # flat count under this cell
    layout.clear_layer(li)                                   # every cell, whole hierarchy
    left = pya.Region(cell.begin_shapes_rec(li)).count()
    print(f"removed {placed} placed shapes on {LAYER}/{DATATYPE}; {LAYER}/{DATATYPE} now holds {left}")
