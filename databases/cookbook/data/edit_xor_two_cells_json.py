# ---
# title = "Compare two cells of the open layout (e.g. two revisions of a device) with a per-layer XOR"
# summary = "Runs in KLayout on the open layout: flattens CELL_A and CELL_B, XORs their shapes on every layer either uses and writes xor_cells.json with the difference polygon count and area in um2 per layer and an identical flag. Optionally draws the differences on a marker layer in the active cell. Use it to see what changed between two versions of a cell."
# kind = "edit"
# tags = ["xor", "compare cells", "diff", "revision", "difference", "open layout", "changes", "json", "markers"]
# apis = ["pya.Region", "pya.Region.__xor__", "pya.Region.count", "pya.Region.area", "pya.Layout.cell", "pya.Cell.begin_shapes_rec"]
# fixture = "data_chip"
# [expect]
# files = ["xor_cells.json"]
# json_values = {"xor_cells.json" = {"identical" = false, "layers_compared" = 2, "xor_polygons" = 2, "xor_area_um2" = 18.0554}}
# shapes = {"999/0" = 2}
# stdout = ["1/0: 1 polygons, 6.055 um2", "3/0: 1 polygons, 12.000 um2"]
# ---
import json

CELL_A, CELL_B = "MMI1X2", "MMI1X2_V2"
MARKER_LAYER = (999, 0)      # None: do not draw the differences
OUTPUT = "xor_cells.json"

ca, cb = layout.cell(CELL_A), layout.cell(CELL_B)
marker = layout.layer(*MARKER_LAYER) if MARKER_LAYER else None
per_layer = {}
for li in layout.layer_indexes():
    if marker is not None and li == marker:
        continue
    info = layout.get_info(li)
    ra, rb = pya.Region(ca.begin_shapes_rec(li)), pya.Region(cb.begin_shapes_rec(li))
    if ra.is_empty() and rb.is_empty():
        continue
    x = ra ^ rb                                        # both cells in their own (0, 0) frame
    per_layer[f"{info.layer}/{info.datatype}"] = {"polygons": x.count(), "area_um2": round(x.area() * dbu ** 2, 6)}
    if marker is not None:
        cell.shapes(marker).insert(x)
    print(f"{info.layer}/{info.datatype}: {x.count()} polygons, {x.area() * dbu ** 2:.3f} um2 differ")

total = sum(v["polygons"] for v in per_layer.values())
report = {"a": CELL_A, "b": CELL_B, "layers_compared": len(per_layer), "per_layer": per_layer,
          "xor_polygons": total, "xor_area_um2": round(sum(v["area_um2"] for v in per_layer.values()), 6),
          "identical": total == 0}
with open(OUTPUT, "w") as f:
    json.dump(report, f, indent=2)
print(f"{CELL_A} vs {CELL_B}: {total} difference polygons; wrote {OUTPUT}")
