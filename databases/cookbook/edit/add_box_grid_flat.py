# ---
# title = "Draw a grid of rectangles with a pitch (flat shapes, no cells)"
# summary = "Loops over columns and rows and inserts one DBox per grid position on a layer: box size and x/y pitch in um. Use it for fill patterns, test structures or pad rows when you want plain shapes; for a cell placed many times use an instance array instead."
# kind = "edit"
# tags = ["grid", "array of boxes", "matrix", "pitch", "rows", "columns", "repeat", "fill pattern"]
# apis = ["pya.DBox.new", "pya.Shapes.insert", "pya.Shapes.size"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"25/0" = 12}
# stdout = ["12 boxes"]
# ---
# Parameters (um)
LAYER, DATATYPE = 25, 0
NX, NY = 4, 3                 # columns, rows
PITCH_X, PITCH_Y = 5.0, 5.0
SIZE_X, SIZE_Y = 2.0, 2.0
X0, Y0 = 60.0, 40.0           # lower-left corner of the first box

shapes = cell.shapes(layout.layer(LAYER, DATATYPE))
for i in range(NX):
    for j in range(NY):
        x, y = X0 + i * PITCH_X, Y0 + j * PITCH_Y
        shapes.insert(pya.DBox(x, y, x + SIZE_X, y + SIZE_Y))
print(f"{shapes.size()} boxes of {SIZE_X}x{SIZE_Y} um on {LAYER}/{DATATYPE}, pitch {PITCH_X}x{PITCH_Y} um")
