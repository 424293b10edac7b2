# ---
# title = "List the layout's layers and add a new named layer"
# summary = "Prints every layer (number/datatype, name, shape count in the active cell) from layout.layer_indexes and get_info, then creates a layer from a LayerInfo with a number, datatype and name (layout.layer returns the existing index if it is already there) and draws a box on it. Use it before working on unfamiliar layouts or to add e.g. a HEATER layer."
# kind = "edit"
# tags = ["layers", "layer list", "layer info", "new layer", "layer name", "LayerInfo", "datatype"]
# apis = ["pya.Layout.layer_indexes", "pya.Layout.get_info", "pya.LayerInfo.new", "pya.Layout.layer", "pya.LayerInfo.to_s"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"60/0" = 1}
# stdout = ["1/0: 4 shapes", "10/0: 3 shapes", "new layer HEATER (60/0)"]
# ---
# Parameters
NEW_LAYER = pya.LayerInfo(60, 0, "HEATER")   # number, datatype, name
BOX = pya.DBox(0, 25, 30, 27)                # um

for li in layout.layer_indexes():
    info = layout.get_info(li)
    print(f"{info.layer}/{info.datatype}{' ' + info.name if info.name else ''}: {cell.shapes(li).size()} shapes")
li = layout.layer(NEW_LAYER)                  # finds or creates the layer
cell.shapes(li).insert(BOX)
print(f"new layer {NEW_LAYER.name} ({NEW_LAYER.layer}/{NEW_LAYER.datatype}) index {li} with 1 box {BOX}")
