# ---
# title = "Convert to OASIS and prove nothing changed: XOR every layer against the original"
# summary = "Writes the layout as OASIS, reads it back and compares it with the original layer by layer (flattened XOR of the top cells, in dbu) and by cell names and text count. Writes roundtrip.json with the number of XOR differences per layer and an overall identical flag. Use it to validate a format conversion or a layout tool's output."
# kind = "sandbox"
# tags = ["oasis", "round trip", "verify conversion", "xor", "compare", "identical", "regression", "json"]
# apis = ["pya.Region", "pya.Region.__xor__", "pya.Region.count", "pya.Layout.write", "pya.Layout.find_layer", "pya.Texts"]
# fixture = "data_chip"
# [expect]
# files = ["roundtrip.oas", "roundtrip.json"]
# json_values = {"roundtrip.json" = {"identical" = true, "layers_compared" = 6, "xor_polygons" = 0, "same_cells" = true, "texts" = 12}}
# stdout = ["identical: True"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
CONVERTED = "roundtrip.oas"
REPORT = "roundtrip.json"

a = db.Layout()
a.read(INPUT)
a.write(CONVERTED)
b = db.Layout()
b.read(CONVERTED)
top_a, top_b = a.top_cell(), b.top_cell()

per_layer, texts_a, texts_b = {}, 0, 0
for li in a.layer_indexes():
    info = a.get_info(li)
    lb = b.find_layer(info.layer, info.datatype)
    ra = db.Region(top_a.begin_shapes_rec(li))
    rb = db.Region(top_b.begin_shapes_rec(lb)) if lb is not None else db.Region()
    per_layer[f"{info.layer}/{info.datatype}"] = (ra ^ rb).count()    # XOR polygons, 0 = same geometry
    texts_a += db.Texts(top_a.begin_shapes_rec(li)).count()            # texts are not in a Region
    texts_b += db.Texts(top_b.begin_shapes_rec(lb)).count() if lb is not None else 0

same_cells = sorted(c.name for c in a.each_cell()) == sorted(c.name for c in b.each_cell())
total = sum(per_layer.values())
report = {"layers_compared": len(per_layer), "xor_per_layer": per_layer, "xor_polygons": total,
          "same_cells": same_cells, "texts": texts_a, "same_texts": texts_a == texts_b,
          "identical": total == 0 and same_cells and texts_a == texts_b}
with open(REPORT, "w") as f:
    json.dump(report, f, indent=2)
print(f"{INPUT} vs {CONVERTED}: {len(per_layer)} layers, {total} XOR polygons, {texts_a} texts, identical: {report['identical']}")
