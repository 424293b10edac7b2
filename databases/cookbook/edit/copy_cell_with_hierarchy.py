# ---
# title = "Duplicate a cell (with its sub-cells) under a new unique name and place the copy"
# summary = "Creates a new cell with a unique name (layout.unique_cell_name), copies a source cell's shapes and its whole sub-hierarchy into it with copy_tree, and places the copy in the active cell at x, y in um. Use it to make a variant of a block you can then edit without changing the original."
# kind = "edit"
# tags = ["duplicate cell", "copy cell", "clone", "variant", "copy_tree", "unique name", "new cell"]
# apis = ["pya.Layout.unique_cell_name", "pya.Layout.create_cell", "pya.Cell.copy_tree", "pya.DCellInstArray.new", "pya.Cell.insert"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["PAD_COPY", "PAD"]
# stdout = ["PAD_COPY", "bbox (45,35;55,45)"]
# ---
# Parameters
SRC_CELL = "PAD"
X, Y = 50.0, 40.0             # placement of the copy, um

src = layout.cell(SRC_CELL)
name = layout.unique_cell_name(SRC_CELL + "_COPY")   # never clashes with an existing cell
copy = layout.create_cell(name)
copy.copy_tree(src)           # shapes + child cells (children are copied as new cells)
inst = cell.insert(pya.DCellInstArray(copy.cell_index(), pya.DTrans(pya.DVector(X, Y))))
print(f"copied {SRC_CELL} to {name} and placed it at ({X},{Y}): bbox {inst.dbbox()}")
