# ---
# title = "Copy a layer from all sub-cells, flattened, into the current cell on another layer"
# summary = "Walks the hierarchy below the active cell with a RecursiveShapeIterator and inserts every shape of a layer, transformed to the cell's coordinates, as flat shapes on a target layer of the active cell. Use it to make a flat working copy of a layer that is spread over sub-cells (vias, pads) without flattening the cells."
# kind = "edit"
# tags = ["flatten layer", "copy from sub-cells", "hierarchy", "flat copy", "recursive", "RecursiveShapeIterator"]
# apis = ["pya.Cell.begin_shapes_rec", "pya.RecursiveShapeIterator", "pya.Shapes.insert", "pya.Shapes.size"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"44/0" = 8, "4/0" = 0}
# stdout = ["8 shapes"]
# ---
# Parameters
SRC = (4, 0)                  # vias live two levels down (TOP > PAD > VIA)
DST = (44, 0)

it = cell.begin_shapes_rec(layout.layer(*SRC))   # every shape below this cell, with its transformation
target = cell.shapes(layout.layer(*DST))
target.insert(it)                                 # inserted flat, in this cell's coordinates
print(f"copied {target.size()} shapes of {SRC[0]}/{SRC[1]} from the hierarchy flat into {cell.name} {DST[0]}/{DST[1]}")
