# ---
# title = "Place a cell rotated, mirrored or at an arbitrary angle"
# summary = "Places instances of a cell in the active cell with DTrans (rotations R0/R90/R180/R270, mirror M0 etc. plus a displacement in um) and with DCplxTrans for any angle or a magnification. Prints each placement's bounding box. Use it to orient devices, pads or couplers."
# kind = "edit"
# tags = ["rotate instance", "mirror instance", "flip cell", "orientation", "R90", "angle", "placement"]
# apis = ["pya.DTrans.new", "pya.DTrans.R90", "pya.DTrans.M0", "pya.DCplxTrans.new", "pya.DCellInstArray.new", "pya.Cell.insert"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["PAD"]
# stdout = ["r90 at (80,0)", "m0 at (100,0)", "45 deg at (120,0)"]
# ---
# Parameters
CHILD = "PAD"

ci = layout.cell(CHILD).cell_index()
placements = {
    "r90 at (80,0)": pya.DTrans(pya.DTrans.R90, pya.DVector(80, 0)),          # rotate 90 deg, then move
    "m0 at (100,0)": pya.DTrans(pya.DTrans.M0, pya.DVector(100, 0)),          # mirror about the x axis
    "45 deg at (120,0)": pya.DCplxTrans(1.0, 45.0, False, pya.DVector(120, 0)),  # any angle: DCplxTrans
}
for label, t in placements.items():
    inst = cell.insert(pya.DCellInstArray(ci, t))
    print(f"{CHILD} {label}: bbox {inst.dbbox()}")
