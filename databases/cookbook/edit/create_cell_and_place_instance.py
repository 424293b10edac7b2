# ---
# title = "Create a new cell with shapes and place it in the current cell"
# summary = "Makes a new cell (here an alignment cross of two boxes on a layer, sizes in um), then places one instance of it in the active cell at x, y in um with a DCellInstArray. Use it for marks, logos or any block you want as a cell rather than loose shapes."
# kind = "edit"
# tags = ["new cell", "create cell", "instance", "place cell", "alignment mark", "cross", "reference"]
# apis = ["pya.Layout.create_cell", "pya.DCellInstArray.new", "pya.DTrans.new", "pya.Cell.insert", "pya.Instance.dbbox"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["MARK"]
# layers = ["5/0"]
# shapes = {"5/0" = 0}
# stdout = ["MARK at (70,25): bbox (65,20;75,30)"]
# ---
# Parameters (um)
NAME = "MARK"
LAYER = (5, 0)
ARM, WIDTH = 10.0, 1.0        # cross arm length and width
X, Y = 70.0, 25.0             # where to place it

mark = layout.create_cell(NAME)
li = layout.layer(*LAYER)
mark.shapes(li).insert(pya.DBox(-ARM / 2, -WIDTH / 2, ARM / 2, WIDTH / 2))   # horizontal bar, centred at 0,0
mark.shapes(li).insert(pya.DBox(-WIDTH / 2, -ARM / 2, WIDTH / 2, ARM / 2))   # vertical bar
inst = cell.insert(pya.DCellInstArray(mark.cell_index(), pya.DTrans(pya.DVector(X, Y))))
print(f"{NAME} at ({X:g},{Y:g}): bbox {inst.dbbox()}")
