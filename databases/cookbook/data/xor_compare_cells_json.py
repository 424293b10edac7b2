# ---
# title = "Compare two cells (or two versions of a layout) layer by layer with XOR"
# summary = "Reads cell CELL_A from FILE_A and cell CELL_B from FILE_B (the same file works, e.g. two revisions of a device in one library), flattens both and XORs their shapes on every layer either one uses. Writes xor_report.json with the number of difference polygons and their area in um2 per layer, and an identical flag. Use it to check what changed between revisions."
# kind = "sandbox"
# tags = ["xor", "compare", "diff", "layout comparison", "revision", "changes", "difference", "regression", "json"]
# apis = ["pya.Region", "pya.Region.__xor__", "pya.Region.count", "pya.Region.area", "pya.Layout.cell", "pya.Layout.find_layer"]
# fixture = "data_chip"
# [expect]
# files = ["xor_report.json"]
# json_values = {"xor_report.json" = {"identical" = false, "layers_compared" = 2, "xor_polygons" = 2, "xor_area_um2" = 18.0554, "layers_with_differences" = 2}}
# stdout = ["1/0: 1 polygons, 6.055 um2 differ", "3/0: 1 polygons, 12.000 um2 differ"]
# ---
import json

import klayout.db as db

FILE_A, CELL_A = "in.gds", "MMI1X2"
FILE_B, CELL_B = "in.gds", "MMI1X2_V2"
OUTPUT = "xor_report.json"

a, b = db.Layout(), db.Layout()
a.read(FILE_A)
b.read(FILE_B)
ca, cb = a.cell(CELL_A), b.cell(CELL_B)
dbu = a.dbu

# all layers used in either file
layers = sorted({(a.get_info(li).layer, a.get_info(li).datatype) for li in a.layer_indexes()} |
                {(b.get_info(li).layer, b.get_info(li).datatype) for li in b.layer_indexes()})
per_layer = {}
for l, d in layers:
    la, lb = a.find_layer(l, d), b.find_layer(l, d)
    ra = db.Region(ca.begin_shapes_rec(la)) if la is not None else db.Region()
    rb = db.Region(cb.begin_shapes_rec(lb)) if lb is not None else db.Region()
    if ra.is_empty() and rb.is_empty():
        continue                                   # layer not used by either cell
    x = ra ^ rb                                    # geometric difference (both files in the same dbu)
    per_layer[f"{l}/{d}"] = {"polygons": x.count(), "area_um2": round(x.area() * dbu ** 2, 6)}
    print(f"{l}/{d}: {x.count()} polygons, {x.area() * dbu ** 2:.3f} um2 differ")

report = {"a": f"{FILE_A}:{CELL_A}", "b": f"{FILE_B}:{CELL_B}",
          "layers_compared": len(per_layer), "per_layer": per_layer,
          "xor_polygons": sum(v["polygons"] for v in per_layer.values()),
          "xor_area_um2": round(sum(v["area_um2"] for v in per_layer.values()), 6),
          "layers_with_differences": sum(1 for v in per_layer.values() if v["polygons"])}
report["identical"] = report["xor_polygons"] == 0
with open(OUTPUT, "w") as f:
    json.dump(report, f, indent=2)
print(f"{CELL_A} vs {CELL_B}: identical {report['identical']}; wrote {OUTPUT}")
