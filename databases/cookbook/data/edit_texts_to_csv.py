# ---
# title = "Export the labels (texts) of the open layout with their top-level positions to CSV"
# summary = "Runs in KLayout on the open layout: collects every text below the active cell on all layers, transformed into the active cell's coordinates (um), and writes labels.csv (text, layer, datatype, x_um, y_um). Nothing in the layout is changed."
# kind = "edit"
# tags = ["labels", "texts", "pins", "open layout", "export", "csv", "positions", "opt_in"]
# apis = ["pya.Cell.begin_shapes_rec", "pya.RecursiveShapeIterator.shape", "pya.RecursiveShapeIterator.dtrans", "pya.Shape.is_text", "pya.Shape.dtext"]
# fixture = "data_chip"
# [expect]
# files = ["labels.csv"]
# csv_columns = {"labels.csv" = ["text", "layer", "datatype", "x_um", "y_um"]}
# stdout = ["12 labels", "elec_HEATER_G at (700.000, 100.000)"]
# ---
import csv

OUTPUT = "labels.csv"

rows = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    it = cell.begin_shapes_rec(li)
    while not it.at_end():
        s = it.shape()
        if s.is_text():
            t = s.dtext.transformed(it.dtrans())     # into the active cell's frame, um
            rows.append([t.string, info.layer, info.datatype, round(t.x, 6), round(t.y, 6)])
        it.next()

with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["text", "layer", "datatype", "x_um", "y_um"])
    w.writerows(rows)
for r in rows:
    print(f"{r[0]} at ({r[3]:.3f}, {r[4]:.3f})")
print(f"wrote {OUTPUT}: {len(rows)} labels")
