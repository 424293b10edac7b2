# ---
# title = "Group the shapes of some layers into a new sub-cell"
# summary = "Creates a new cell, moves the active cell's shapes on the chosen layers into it and places it at the origin, so the drawing looks the same but those layers now form a reusable block. Use it to turn loose shapes into a cell (e.g. a device) you can copy or array later."
# kind = "edit"
# tags = ["group", "make cell", "encapsulate", "move to cell", "new sub-cell", "block", "hierarchy"]
# apis = ["pya.Layout.create_cell", "pya.Shapes.insert", "pya.Shapes.clear", "pya.CellInstArray.new", "pya.Trans.new"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["CORE"]
# layers = ["1/0", "2/0"]
# shapes = {"1/0" = 0, "2/0" = 0, "10/0" = 3}
# stdout = ["moved 5 shapes into CORE"]
# ---
# Parameters
NEW_CELL = "CORE"
LAYERS = [(1, 0), (2, 0)]

group = layout.create_cell(NEW_CELL)
moved = 0
for ld in LAYERS:
    li = layout.layer(*ld)
    group.shapes(li).insert(cell.shapes(li))   # copy all shapes of this layer ...
    moved += cell.shapes(li).size()
    cell.shapes(li).clear()                    # ... then remove them here
cell.insert(pya.CellInstArray(group.cell_index(), pya.Trans()))   # placed at the origin: nothing moves
print(f"moved {moved} shapes into {NEW_CELL}, placed in {cell.name} at (0,0)")
