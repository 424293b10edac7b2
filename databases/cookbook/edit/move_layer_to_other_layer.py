# ---
# title = "Move (renumber) a layer to another layer/datatype in all cells"
# summary = "Moves every shape from a source layer to a target layer in all cells (layout.move_layer), leaving the source empty, e.g. to renumber labels from 10/0 to 11/0 for a foundry layer map. To rename the layer entry itself instead, use layout.set_info."
# kind = "edit"
# tags = ["move layer", "renumber layer", "remap layer", "change layer number", "datatype", "layer map"]
# apis = ["pya.Layout.find_layer", "pya.Layout.layer", "pya.Layout.move_layer", "pya.Shapes.size"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"10/0" = 0, "11/0" = 3}
# stdout = ["moved 10/0 -> 11/0"]
# ---
# Parameters
SRC = (10, 0)
DST = (11, 0)

src = layout.find_layer(*SRC)
if src is None:
    raise ValueError(f"layer {SRC[0]}/{SRC[1]} does not exist")
dst = layout.layer(*DST)
layout.move_layer(src, dst)           # all cells; src is left empty
print(f"moved {SRC[0]}/{SRC[1]} -> {DST[0]}/{DST[1]}: {cell.shapes(dst).size()} shapes in {cell.name}")
