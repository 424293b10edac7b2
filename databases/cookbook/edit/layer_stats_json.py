# ---
# title = "Per-layer area, perimeter, bounding box and shape count of the current cell as JSON"
# summary = "Measures each layer under the active cell (flat, sub-cells included): shape count, merged area (um2), perimeter (um) and bounding box (um), plus the cell's own bbox, and writes them to layer_stats.json in the work folder. Use it to report a design's footprint and per-layer geometry."
# kind = "edit"
# tags = ["measure", "area", "perimeter", "bounding box", "extent", "statistics", "json", "footprint", "size of design"]
# apis = ["pya.Cell.begin_shapes_rec", "pya.Region.area", "pya.Region.perimeter", "pya.Region.bbox", "pya.Cell.dbbox", "pya.Box.to_dtype"]
# fixture = "mixed_shapes"
# [expect]
# files = ["layer_stats.json"]
# json_keys = {"layer_stats.json" = ["cell", "bbox_um", "shape_count", "layers"]}
# json_values = {"layer_stats.json" = {"cell" = "TOP", "bbox_um" = [0.0, -5.0, 55.0, 30.0], "shape_count" = 18, "width_um" = 55.0, "height_um" = 35.0}}
# ---
import json

# Parameters
OUT = "layer_stats.json"


def box_list(b):
    return [b.left, b.bottom, b.right, b.top] if not b.empty() else []


layers, total = {}, 0
for li in layout.layer_indexes():
    info = layout.get_info(li)
    n = sum(1 for _ in cell.begin_shapes_rec(li).each())
    if n == 0:
        continue
    region = pya.Region(cell.begin_shapes_rec(li))         # texts are not polygons: area 0
    layers[f"{info.layer}/{info.datatype}"] = {
        "shapes": n,
        "area_um2": region.area() * dbu ** 2,
        "perimeter_um": region.perimeter() * dbu,
        "bbox_um": box_list(region.bbox().to_dtype(dbu)),
    }
    total += n
bbox = cell.dbbox()
stats = {"cell": cell.name, "bbox_um": box_list(bbox), "width_um": bbox.width(), "height_um": bbox.height(),
         "shape_count": total, "layers": layers}
with open(OUT, "w") as f:
    json.dump(stats, f, indent=2)
print(f"{cell.name}: {len(layers)} layers, {total} shapes, bbox {bbox} -> {OUT}")
