# ---
# title = "Move every placement of a sub-cell by an offset"
# summary = "Finds the instances of a named child cell in the active cell and shifts each by dx, dy in um (Instance.transform with a DTrans), then lists their new positions. Use it to reposition pads, devices or blocks without touching the cell's contents."
# kind = "edit"
# tags = ["move instance", "reposition", "placement", "shift cell reference", "instances", "sub-cell"]
# apis = ["pya.Cell.each_inst", "pya.Instance.cell", "pya.Instance.transform", "pya.Instance.dcplx_trans", "pya.DTrans.new"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["PAD"]
# stdout = ["PAD at (50,-30)", "PAD at (50,-10)"]
# ---
# Parameters (um)
CHILD = "PAD"
DX, DY = 0.0, -30.0

moved = [inst for inst in cell.each_inst() if inst.cell.name == CHILD]
for inst in moved:
    inst.transform(pya.DTrans(pya.DVector(DX, DY)))
for inst in cell.each_inst():
    if inst.cell.name == CHILD:
        d = inst.dcplx_trans.disp
        print(f"{CHILD} at ({d.x:g},{d.y:g})")
print(f"moved {len(moved)} instances of {CHILD} by ({DX},{DY}) um")
