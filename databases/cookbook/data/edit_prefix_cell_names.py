# ---
# title = "Rename every cell of the open layout with a prefix (keep the active cell's name)"
# summary = "Runs in KLayout on the open layout: renames all cells except the active one to PREFIX + name (cells already carrying the prefix are left alone), e.g. before copying the design into another layout where names could clash. Instances follow automatically. One undo step reverts it."
# kind = "edit"
# tags = ["rename cells", "prefix", "cell names", "name clash", "open layout", "unique names", "namespace"]
# apis = ["pya.Layout.each_cell", "pya.Layout.rename_cell", "pya.Cell.cell_index", "pya.Cell.name"]
# fixture = "data_chip"
# [expect]
# cells = ["TOP", "LIB_A_MMI1X2", "LIB_A_GC", "LIB_A_STRAIGHT"]
# stdout = ["renamed 7 cells"]
# ---
PREFIX = "LIB_A_"

renamed = 0
for c in list(layout.each_cell()):               # list first: do not rename while iterating
    if c.cell_index() == cell.cell_index() or c.name.startswith(PREFIX):
        continue
    layout.rename_cell(c.cell_index(), PREFIX + c.name)
    renamed += 1
print(f"renamed {renamed} cells with prefix {PREFIX!r}; active cell {cell.name} unchanged")
