# ---
# title = "Write each placed sub-cell's name and number as a label at its position"
# summary = "Adds a text such as 'PAD_1' at the bounding-box centre of every instance in the active cell (one per instance, arrays count once), on a label layer. Use it to number pads, devices or blocks on the layout."
# kind = "edit"
# tags = ["number instances", "label cells", "pad numbers", "instance names", "annotate placements", "texts"]
# apis = ["pya.Cell.each_inst", "pya.Instance.dbbox", "pya.Instance.cell", "pya.DText.new", "pya.Shapes.insert"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"12/0" = 2}
# stdout = ["PAD_1 at (50,0)", "PAD_2 at (50,20)"]
# ---
# Parameters
LABELS = (12, 0)

out = cell.shapes(layout.layer(*LABELS))
counters = {}
for inst in sorted(cell.each_inst(), key=lambda i: (i.cell.name, i.dbbox().center().y, i.dbbox().center().x)):
    name = inst.cell.name
    counters[name] = counters.get(name, 0) + 1
    c = inst.dbbox().center()
    label = f"{name}_{counters[name]}"
    out.insert(pya.DText(label, pya.DTrans(pya.DVector(c.x, c.y))))
    print(f"{label} at ({c.x:g},{c.y:g})")
