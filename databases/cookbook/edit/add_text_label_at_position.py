# ---
# title = "Put a text label at a position on a layer"
# summary = "Adds a DText (a label string at x, y in um, with an optional text height) to the active cell on a label layer, e.g. a port name, a device name or a pin label. Labels are single points: they have no area and do not show in booleans."
# kind = "edit"
# tags = ["text", "label", "annotation", "pin name", "port label", "write text", "tag"]
# apis = ["pya.DText.new", "pya.DTrans.new", "pya.DVector.new", "pya.DText.size", "pya.Shapes.insert"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"10/0" = 4}
# stdout = ["'PORT1' at (55,2.5)"]
# ---
# Parameters (um)
LAYER, DATATYPE = 10, 0
LABEL = "PORT1"
X, Y = 55.0, 2.5
HEIGHT = 2.0          # text height in um (display only)

text = pya.DText(LABEL, pya.DTrans(pya.DVector(X, Y)))
text.size = HEIGHT
cell.shapes(layout.layer(LAYER, DATATYPE)).insert(text)
print(f"label '{text.string}' at ({text.x:g},{text.y:g}) on {LAYER}/{DATATYPE}")
