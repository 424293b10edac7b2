# ---
# title = "Export all text labels of a layout with their positions in um to CSV"
# summary = "Reads a layout and lists every text (label) on every layer as placed in the top cell: texts inside sub-cells and arrays are transformed to top-cell coordinates. Writes texts.csv with columns text, layer, datatype, x_um, y_um, cell (the cell that holds the text)."
# kind = "sandbox"
# tags = ["texts", "labels", "pins", "port labels", "export", "csv", "coordinates", "opt_in"]
# apis = ["pya.RecursiveShapeIterator", "pya.RecursiveShapeIterator.shape", "pya.RecursiveShapeIterator.dtrans", "pya.Shape.is_text", "pya.Shape.dtext", "pya.DText"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"texts.csv" = 12}
# files = ["texts.csv"]
# csv_columns = {"texts.csv" = ["text", "layer", "datatype", "x_um", "y_um", "cell"]}
# stdout = ["12 texts", "opt_in_TE_1550_MMI2 at (0.000, 254.000)", "PAD at (1150.000, 250.000)"]
# ---
import csv

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "texts.csv"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

rows = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    it = top.begin_shapes_rec(li)        # walks sub-cells and array members
    while not it.at_end():
        shape = it.shape()
        if shape.is_text():
            t = shape.dtext.transformed(it.dtrans())     # to top-cell coordinates, um
            rows.append([t.string, info.layer, info.datatype, round(t.x, 6), round(t.y, 6), it.cell().name])
        it.next()

with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["text", "layer", "datatype", "x_um", "y_um", "cell"])
    w.writerows(rows)
for r in rows:
    print(f"{r[0]} at ({r[3]:.3f}, {r[4]:.3f}) on {r[1]}/{r[2]}")
print(f"wrote {OUTPUT}: {len(rows)} texts")
