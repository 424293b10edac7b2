# ---
# title = "Move every shape from one layer to another in the open layout"
# summary = "Runs in KLayout on the open layout: moves the shapes of a source layer to a target layer (created if needed) in every cell, leaving the source empty. Use it to fix shapes drawn on the wrong layer or to adapt to another layer table; copy_layer keeps the originals instead."
# kind = "edit"
# tags = ["move layer", "change layer", "wrong layer", "remap", "open layout", "all cells", "layer number"]
# apis = ["pya.Layout.find_layer", "pya.Layout.layer", "pya.Layout.move_layer", "pya.Shapes.size"]
# fixture = "data_chip"
# [expect]
# layers = ["101/0"]
# shapes = {"1/0" = 0, "101/0" = 3}
# stdout = ["moved 25 shapes from 1/0 to 101/0"]
# ---
SRC = (1, 0)
DST = (101, 0)

src = layout.find_layer(*SRC)
if src is None:
    print(f"no layer {SRC[0]}/{SRC[1]}")
else:
    dst = layout.layer(*DST)                  # finds or creates the target layer
    n = sum(c.shapes(src).size() for c in layout.each_cell())
    layout.move_layer(src, dst)               # in every cell
    print(f"moved {n} shapes from {SRC[0]}/{SRC[1]} to {DST[0]}/{DST[1]}")
