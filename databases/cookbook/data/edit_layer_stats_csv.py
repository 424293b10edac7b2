# ---
# title = "Shape count and merged area per layer of the open layout, written to a CSV"
# summary = "Runs in KLayout on the open layout: for every layer, counts the shapes under the active cell (sub-cells and arrays counted as placed) and their merged area in um2, and writes layer_stats.csv (layer, datatype, shapes, area_um2) next to the script. Nothing in the layout is changed."
# kind = "edit"
# tags = ["open layout", "current layout", "layer statistics", "shape count", "area", "csv", "report", "active cell"]
# apis = ["pya.Layout.layer_indexes", "pya.Layout.get_info", "pya.Cell.begin_shapes_rec", "pya.Region.area", "pya.RecursiveShapeIterator.at_end"]
# fixture = "data_chip"
# [expect]
# files = ["layer_stats.csv"]
# csv_columns = {"layer_stats.csv" = ["layer", "datatype", "shapes", "area_um2"]}
# stdout = ["1/0: 79 shapes, 907.350 um2", "6 layers"]
# ---
import csv

OUTPUT = "layer_stats.csv"

rows = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    n = 0
    it = cell.begin_shapes_rec(li)            # everything below the active cell
    while not it.at_end():
        n += 1
        it.next()
    area = pya.Region(cell.begin_shapes_rec(li)).area() * dbu ** 2    # merged, um2
    rows.append([info.layer, info.datatype, n, round(area, 6)])

rows.sort()
with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["layer", "datatype", "shapes", "area_um2"])
    w.writerows(rows)
for r in rows:
    print(f"{r[0]}/{r[1]}: {r[2]} shapes, {r[3]:.3f} um2")
print(f"wrote {OUTPUT}: {len(rows)} layers of cell {cell.name}")
