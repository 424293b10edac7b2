# ---
# title = "Count the shapes on every layer of a layout and write a CSV table"
# summary = "Reads a GDS/OASIS file and, for each layer, counts the shapes stored in the cells and the shapes as placed in the top cell (every instance and array member counted, i.e. as after flattening). Writes layer_counts.csv with columns layer, datatype, shapes_in_cells, shapes_placed."
# kind = "sandbox"
# tags = ["shape count", "per layer", "statistics", "polygons per layer", "csv", "hierarchy", "flat count"]
# apis = ["pya.Layout.read", "pya.Layout.layer_indexes", "pya.Layout.get_info", "pya.Shapes.size", "pya.Cell.begin_shapes_rec", "pya.RecursiveShapeIterator.at_end", "pya.RecursiveShapeIterator.next"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"layer_counts.csv" = 6}
# files = ["layer_counts.csv"]
# csv_columns = {"layer_counts.csv" = ["layer", "datatype", "shapes_in_cells", "shapes_placed"]}
# stdout = ["6 layers", "108 placed shapes", "1/0: 79 placed"]
# ---
import csv

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "layer_counts.csv"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

rows = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    # shapes stored in the cell definitions (each cell counted once)
    stored = sum(c.shapes(li).size() for c in layout.each_cell())
    # shapes as placed under the top cell (walks the hierarchy, counts every array member)
    placed = 0
    it = top.begin_shapes_rec(li)
    while not it.at_end():
        placed += 1
        it.next()
    rows.append([info.layer, info.datatype, stored, placed])

rows.sort()
with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["layer", "datatype", "shapes_in_cells", "shapes_placed"])
    w.writerows(rows)
for layer, datatype, stored, placed in rows:
    print(f"{layer}/{datatype}: {placed} placed, {stored} in cells")
print(f"wrote {OUTPUT}: {len(rows)} layers, {sum(r[3] for r in rows)} placed shapes")
