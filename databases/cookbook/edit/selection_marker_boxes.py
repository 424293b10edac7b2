# ---
# title = "Draw a marker box around each selected shape (or every shape of a layer if nothing is selected)"
# summary = "Reads the GUI selection (the selection list: dicts with kind, layer, datatype, cell and bbox in um) and draws each item's bounding box, enlarged by a margin, on a marker layer of the active cell; with nothing selected it uses all shapes of a fallback layer. Use it to highlight what you picked for a review."
# kind = "edit"
# tags = ["selection", "selected shapes", "highlight", "marker", "bounding box", "mark selected", "review"]
# apis = ["pya.DBox.new", "pya.DBox.enlarged", "pya.Shapes.insert", "pya.Shape.dbbox", "pya.Layout.get_info"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"90/0" = 4, "1/0" = 4}
# stdout = ["4 markers"]
# ---
# Parameters
MARKER = (90, 0)
MARGIN = 0.5                  # um around each selected item
FALLBACK = (1, 0)             # used when nothing is selected


def layer_as_selection(ld):
    """The shapes of one layer of the active cell in the same form as `selection` entries."""
    li = layout.layer(*ld)
    return [{"kind": "shape", "layer": ld[0], "datatype": ld[1], "cell": cell.name,
             "bbox": [s.dbbox().left, s.dbbox().bottom, s.dbbox().right, s.dbbox().top]}
            for s in cell.shapes(li).each()]


items = selection or layer_as_selection(FALLBACK)
out = cell.shapes(layout.layer(*MARKER))
for item in items:
    if item.get("bbox"):                           # [left, bottom, right, top] in um
        # bbox is in the coordinates of the cell that holds the item (item["cell"])
        out.insert(pya.DBox(*item["bbox"]).enlarged(MARGIN, MARGIN))
source = "selected items" if selection else f"shapes of {FALLBACK[0]}/{FALLBACK[1]} (nothing selected)"
print(f"{len(items)} markers on {MARKER[0]}/{MARKER[1]} around {source}")
