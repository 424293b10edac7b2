# ---
# title = "Label every shape of a layer with its area at its centre"
# summary = "Puts a text (e.g. 'A=50um2') at the bounding-box centre of each shape on a layer of the active cell, on a label layer, with a chosen text height. Use it for review printouts or to annotate test structures with their size."
# kind = "edit"
# tags = ["annotate", "label shapes", "area label", "text at centre", "dimension text", "review", "tag shapes"]
# apis = ["pya.Shapes.each", "pya.Shape.darea", "pya.DBox.center", "pya.DText.new", "pya.DTrans.new"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"11/0" = 4}
# stdout = ["A=50um2 at (5,2.5)", "4 labels"]
# ---
# Parameters
LAYER = (1, 0)
LABELS = (11, 0)
HEIGHT = 1.0                  # um

out = cell.shapes(layout.layer(*LABELS))
n = 0
for s in cell.shapes(layout.layer(*LAYER)).each():
    if s.is_text():
        continue
    c = s.dbbox().center()
    text = pya.DText(f"A={s.darea():g}um2", pya.DTrans(pya.DVector(c.x, c.y)))
    text.size = HEIGHT
    out.insert(text)
    n += 1
    print(f"{text.string} at ({c.x:g},{c.y:g})")
print(f"{n} labels on {LABELS[0]}/{LABELS[1]}")
