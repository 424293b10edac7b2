# ---
# title = "Write the selected shapes (kind, layer, size, position) to a JSON file"
# summary = "Saves the GUI selection (the selection list of dicts: kind, layer, datatype, cell, bbox in um) with each item's width, height and centre to selection.json in the work folder; with nothing selected it records the active cell's shapes on a fallback layer. Use it to document or hand over what you picked."
# kind = "edit"
# tags = ["selection", "export selection", "selected shapes", "json", "report", "coordinates", "size of selection"]
# apis = ["pya.Shapes.each", "pya.Shape.dbbox", "pya.DBox.width", "pya.DBox.height", "pya.DBox.center"]
# fixture = "mixed_shapes"
# [expect]
# files = ["selection.json"]
# json_keys = {"selection.json" = ["count", "source", "items", "bbox_um"]}
# json_values = {"selection.json" = {"count" = 4, "source" = "layer 1/0", "bbox_um" = [0.0, 0.0, 30.0, 20.25]}}
# ---
import json

# Parameters
OUT = "selection.json"
FALLBACK = (1, 0)             # used when nothing is selected


def layer_as_selection(ld):
    li = layout.layer(*ld)
    return [{"kind": "shape", "layer": ld[0], "datatype": ld[1], "cell": cell.name,
             "bbox": [s.dbbox().left, s.dbbox().bottom, s.dbbox().right, s.dbbox().top]}
            for s in cell.shapes(li).each()]


items = selection or layer_as_selection(FALLBACK)
records, total = [], pya.DBox()
for item in items:
    box = pya.DBox(*item["bbox"]) if item.get("bbox") else pya.DBox()
    total += box                                   # DBox + DBox = the box around both
    records.append({"kind": item["kind"], "cell": item.get("cell"),
                    "layer": f"{item['layer']}/{item['datatype']}" if "layer" in item else None,
                    "width_um": box.width(), "height_um": box.height(),
                    "center_um": [box.center().x, box.center().y]})
report = {"count": len(records), "source": "selection" if selection else f"layer {FALLBACK[0]}/{FALLBACK[1]}",
          "items": records, "bbox_um": [total.left, total.bottom, total.right, total.top] if records else []}
with open(OUT, "w") as f:
    json.dump(report, f, indent=2)
print(f"wrote {len(records)} items ({report['source']}) to {OUT}")
