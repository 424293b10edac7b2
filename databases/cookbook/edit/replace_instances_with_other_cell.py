# ---
# title = "Swap every placement of one cell for another cell"
# summary = "Points each instance of an old cell in the active cell to a replacement cell (Instance.cell_index), keeping the positions and orientations; the replacement here is a new larger pad drawn on the same layer. Use it to swap a device variant everywhere at once."
# kind = "edit"
# tags = ["replace cell", "swap instance", "substitute", "exchange cell", "variant", "re-reference"]
# apis = ["pya.Layout.create_cell", "pya.Cell.each_inst", "pya.Instance.cell_index", "pya.Cell.dbbox"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["PAD_BIG"]
# stdout = ["2 instances now use PAD_BIG", "(0,-10;60,30)"]
# ---
# Parameters
OLD = "PAD"
NEW = "PAD_BIG"
NEW_SIZE = 20.0               # um, square pad on 3/0

new = layout.cell(NEW) or layout.create_cell(NEW)
new.shapes(layout.layer(3, 0)).insert(pya.DBox(-NEW_SIZE / 2, -NEW_SIZE / 2, NEW_SIZE / 2, NEW_SIZE / 2))
old = [inst for inst in cell.each_inst() if inst.cell.name == OLD]
for inst in old:
    inst.cell_index = new.cell_index()     # same transformation, other cell
print(f"{len(old)} instances now use {NEW}; {cell.name} bbox {cell.dbbox()}")
