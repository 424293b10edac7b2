# ---
# title = "Table of shape count and area per layer written to CSV"
# summary = "For every layer of the layout, counts the shapes under the active cell (sub-cells included, flat) and measures the merged area in um2 (overlaps counted once), and writes layer, datatype, shapes, area_um2 to layer_areas.csv in the work folder. Use it for a quick layer inventory or fill statistics."
# kind = "edit"
# tags = ["area per layer", "layer statistics", "shape count", "inventory", "csv", "table", "measure area"]
# apis = ["pya.Layout.layer_indexes", "pya.Layout.get_info", "pya.Cell.begin_shapes_rec", "pya.Region.new", "pya.Region.area"]
# fixture = "mixed_shapes"
# [expect]
# files = ["layer_areas.csv"]
# csv_columns = {"layer_areas.csv" = ["layer", "datatype", "shapes", "area_um2"]}
# stdout = ["1/0: 4 shapes, 100 um2", "4/0: 8 shapes, 8 um2", "10/0: 3 shapes, 0 um2"]
# ---
import csv

# Parameters
OUT = "layer_areas.csv"

rows = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    n = sum(1 for _ in cell.begin_shapes_rec(li).each())           # every shape, texts included
    area = pya.Region(cell.begin_shapes_rec(li)).area() * dbu ** 2  # merged area in um2
    rows.append([info.layer, info.datatype, n, round(area, 6)])
rows.sort()
with open(OUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["layer", "datatype", "shapes", "area_um2"])
    w.writerows(rows)
for l, d, n, a in rows:
    print(f"{l}/{d}: {n} shapes, {a:g} um2")
