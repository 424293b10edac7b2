# ---
# title = "Copy the selected shapes to another layer"
# summary = "For each selected shape (selection entries give layer, datatype, cell and bbox in um) finds the shape with that bounding box on that layer of that cell and inserts a copy on a target layer in the same cell; with nothing selected it copies every shape of a fallback layer of the active cell. Use it to move a picked feature to a new layer after a check."
# kind = "edit"
# tags = ["selection", "copy selected", "selected shapes", "change layer", "duplicate selection", "move to layer"]
# apis = ["pya.Layout.cell", "pya.Layout.find_layer", "pya.Shapes.each", "pya.Shape.dbbox", "pya.Shapes.insert"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"60/0" = 4, "1/0" = 4}
# stdout = ["copied 4 of 4"]
# ---
# Parameters
TARGET = (60, 0)
FALLBACK = (1, 0)             # used when nothing is selected
TOL = 1e-6                    # um, bbox match tolerance


def layer_as_selection(ld):
    li = layout.layer(*ld)
    return [{"kind": "shape", "layer": ld[0], "datatype": ld[1], "cell": cell.name,
             "bbox": [s.dbbox().left, s.dbbox().bottom, s.dbbox().right, s.dbbox().top]}
            for s in cell.shapes(li).each()]


def same_box(shape, bbox):
    b = shape.dbbox()
    return all(abs(u - v) < TOL for u, v in zip((b.left, b.bottom, b.right, b.top), bbox))


items = [i for i in (selection or layer_as_selection(FALLBACK)) if "layer" in i]   # shapes, not instances
copied = 0
for item in items:
    owner = layout.cell(item["cell"])
    li = layout.find_layer(item["layer"], item["datatype"])
    if owner is None or li is None:
        continue
    match = next((s for s in owner.shapes(li).each() if same_box(s, item["bbox"])), None)
    if match is not None:
        owner.shapes(layout.layer(*TARGET)).insert(match)     # a copy on the target layer
        copied += 1
print(f"copied {copied} of {len(items)} shapes to {TARGET[0]}/{TARGET[1]}")
