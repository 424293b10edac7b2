# ---
# title = "Delete a cell, its placements and its now-unused sub-cells"
# summary = "Removes a named cell with layout.prune_cell: its instances disappear from every parent and child cells that nothing else uses are deleted too (layout.delete_cell would keep the children as new top cells). Prints the cells that remain."
# kind = "edit"
# tags = ["delete cell", "remove cell", "prune", "unused cells", "orphan cells", "clean hierarchy"]
# apis = ["pya.Layout.cell", "pya.Layout.prune_cell", "pya.Layout.each_cell", "pya.Cell.each_inst"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 4}
# stdout = ["cells now: TOP", "0 instances"]
# ---
# Parameters
NAME = "PAD"

target = layout.cell(NAME)
if target is None:
    raise ValueError(f"no cell named {NAME}")
layout.prune_cell(target.cell_index(), -1)   # -1: also delete unused children at every level
print(f"deleted {NAME}; cells now: {', '.join(sorted(c.name for c in layout.each_cell()))}; "
      f"{cell.name} has {sum(1 for _ in cell.each_inst())} instances")
