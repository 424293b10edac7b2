# ---
# title = "Place a cell as a regular array (columns x rows with a pitch)"
# summary = "Inserts one array instance of an existing cell into the active cell: origin, column and row pitch in um and the number of columns and rows (DCellInstArray with two DVectors). Use it for via fields, pad rows or repeated devices; one array instance is far lighter than many single ones."
# kind = "edit"
# tags = ["array", "instance array", "repeat cell", "pitch", "rows", "columns", "matrix", "step and repeat"]
# apis = ["pya.DCellInstArray.new", "pya.DVector.new", "pya.Cell.insert", "pya.Layout.cell", "pya.Cell.begin_shapes_rec"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["VIA"]
# stdout = ["15 placements", "23 shapes on 4/0"]
# ---
# Parameters
CHILD = "VIA"
X0, Y0 = 60.0, 40.0           # first placement, um
PITCH_X, PITCH_Y = 2.0, 2.0   # um
NX, NY = 5, 3                 # columns, rows

child = layout.cell(CHILD)
array = pya.DCellInstArray(child.cell_index(), pya.DTrans(pya.DVector(X0, Y0)),
                           pya.DVector(PITCH_X, 0), pya.DVector(0, PITCH_Y), NX, NY)
cell.insert(array)
n = sum(1 for _ in cell.begin_shapes_rec(layout.layer(4, 0)).each())
print(f"placed {CHILD} {NX}x{NY} = {NX * NY} placements at pitch {PITCH_X}x{PITCH_Y} um; "
      f"{cell.name} now sees {n} shapes on 4/0")
