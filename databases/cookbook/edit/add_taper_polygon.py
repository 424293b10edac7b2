# ---
# title = "Draw a linear taper between two waveguide widths"
# summary = "Builds a trapezoid polygon that widens from width w1 to w2 over a length along x, centred on a y axis (all in um), and inserts it on the waveguide layer. Use it for width transitions and mode-size adapters; prints the taper's area."
# kind = "edit"
# tags = ["taper", "trapezoid", "width transition", "adapter", "waveguide", "flare", "linear taper"]
# apis = ["pya.DPolygon.new", "pya.DPoint.new", "pya.Shapes.insert", "pya.Shape.darea"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 5}
# stdout = ["area 30 um2"]
# ---
# Parameters (um)
LAYER, DATATYPE = 1, 0
X_START, Y_CENTER = 30.0, 1.0     # narrow end at the right edge of the 2 um wide strip at y 0..2
LENGTH = 10.0
W1, W2 = 2.0, 4.0                 # start and end widths

pts = [(X_START, Y_CENTER - W1 / 2), (X_START + LENGTH, Y_CENTER - W2 / 2),
       (X_START + LENGTH, Y_CENTER + W2 / 2), (X_START, Y_CENTER + W1 / 2)]
taper = pya.DPolygon([pya.DPoint(x, y) for x, y in pts])
shape = cell.shapes(layout.layer(LAYER, DATATYPE)).insert(taper)
print(f"taper {W1}->{W2} um over {LENGTH} um on {LAYER}/{DATATYPE}, area {shape.darea():g} um2")
