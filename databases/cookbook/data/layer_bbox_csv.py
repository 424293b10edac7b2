# ---
# title = "Extent (bounding box in um) of each layer of a layout, as CSV"
# summary = "Reads a layout and writes layer_bbox.csv with, for every layer, the bounding box of its shapes under the top cell (sub-cells included) in um: xmin, ymin, xmax, ymax, width, height. Layers with no geometry get empty cells in the table. Useful to see where each layer lives on the chip."
# kind = "sandbox"
# tags = ["bbox", "layer extent", "per layer", "bounding box", "csv", "um", "where is layer"]
# apis = ["pya.Cell.dbbox", "pya.Layout.layer_indexes", "pya.Layout.get_info", "pya.DBox.empty"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"layer_bbox.csv" = 6}
# files = ["layer_bbox.csv"]
# csv_columns = {"layer_bbox.csv" = ["layer", "datatype", "xmin", "ymin", "xmax", "ymax", "width", "height"]}
# stdout = ["49/0: 530.000 x 230.000 um from (660.0, 60.0)", "47/0: 4.000 x 200.000 um", "6 layers"]
# ---
import csv

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "layer_bbox.csv"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

rows = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    b = top.dbbox(li)                  # this layer only, hierarchy included, um
    if b.empty():                      # no shapes on this layer
        rows.append([info.layer, info.datatype, "", "", "", "", "", ""])
        continue
    rows.append([info.layer, info.datatype, b.left, b.bottom, b.right, b.top, round(b.width(), 6), round(b.height(), 6)])
    print(f"{info.layer}/{info.datatype}: {b.width():.3f} x {b.height():.3f} um from ({b.left}, {b.bottom})")

rows.sort(key=lambda r: (r[0], r[1]))
with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["layer", "datatype", "xmin", "ymin", "xmax", "ymax", "width", "height"])
    w.writerows(rows)
print(f"wrote {OUTPUT}: {len(rows)} layers")
