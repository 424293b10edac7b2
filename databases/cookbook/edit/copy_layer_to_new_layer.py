# ---
# title = "Copy a layer onto another layer in every cell of the layout"
# summary = "Duplicates all shapes of a source layer onto a target layer in every cell (layout.copy_layer), so the hierarchy stays as it is; the target keeps what it already had. Use it to start a derived layer (e.g. a cladding drawn from the core) or to keep a backup before editing."
# kind = "edit"
# tags = ["copy layer", "duplicate layer", "clone layer", "backup layer", "all cells", "derived layer"]
# apis = ["pya.Layout.layer", "pya.Layout.find_layer", "pya.Layout.copy_layer", "pya.Shapes.size"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"50/0" = 4, "1/0" = 4}
# stdout = ["copied 1/0 -> 50/0"]
# ---
# Parameters
SRC = (1, 0)
DST = (50, 0)

src = layout.find_layer(*SRC)
if src is None:
    raise ValueError(f"layer {SRC[0]}/{SRC[1]} does not exist")
dst = layout.layer(*DST)              # created if new
layout.copy_layer(src, dst)           # every cell; shapes are added to what DST already holds
print(f"copied {SRC[0]}/{SRC[1]} -> {DST[0]}/{DST[1]}: {cell.shapes(dst).size()} shapes in {cell.name}")
