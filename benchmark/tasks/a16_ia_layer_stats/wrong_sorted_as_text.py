"""Per-layer statistics of the current cell (flat view): counts, merged areas, densities, boxes."""
import csv
import os

cell_box = cell.bbox()
cell_area = cell_box.area()
rows = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    n = 0
    it = cell.begin_shapes_rec(li)
    while not it.at_end():
        n += 1
        it.next()
    if n == 0:
        continue
    region = pya.Region(cell.begin_shapes_rec(li)).merged()
    area = region.area()
    b = cell.dbbox_per_layer(li)
    rows.append({
        "key": (info.layer, info.datatype),
        "layer": f"{info.layer}/{info.datatype}",
        "shapes": n,
        "area_um2": area * dbu * dbu,
        "density": area / cell_area if cell_area else 0.0,
        "xmin": b.left, "ymin": b.bottom, "xmax": b.right, "ymax": b.top,
    })
rows.sort(key=lambda r: r["layer"])
cols = ["layer", "shapes", "area_um2", "density", "xmin", "ymin", "xmax", "ymax"]
with open(os.path.join(workdir, "layer_stats.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
best = max(rows, key=lambda r: r["density"])
print(f"highest density: {best['layer']} ({best['density']:.3f})")
