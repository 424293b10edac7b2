# ---
# title = "List all text labels with their positions (through the whole hierarchy) in CSV"
# summary = "Walks every text on a label layer below the active cell with a RecursiveShapeIterator, transforms each to top-level coordinates (it.trans()), and writes text, x_um, y_um and the cell it lives in to labels.csv in the work folder. Use it to export pin/port labels or to check label placement."
# kind = "edit"
# tags = ["labels", "texts", "pin names", "positions", "export labels", "csv", "hierarchy", "global coordinates"]
# apis = ["pya.Cell.begin_shapes_rec", "pya.RecursiveShapeIterator.shape", "pya.RecursiveShapeIterator.trans", "pya.RecursiveShapeIterator.cell", "pya.Shape.text", "pya.Text.transformed"]
# fixture = "hier_array"
# [expect]
# files = ["labels.csv"]
# csv_columns = {"labels.csv" = ["text", "x_um", "y_um", "cell"]}
# stdout = ["7 labels", "U (29.5,0.5) in UNIT"]
# ---
import csv

# Parameters
LAYER = (10, 0)
OUT = "labels.csv"

rows = []
it = cell.begin_shapes_rec(layout.layer(*LAYER))
while not it.at_end():
    shape = it.shape()
    if shape.is_text():
        t = shape.text.transformed(it.trans())          # to the active cell's coordinates (dbu)
        rows.append([t.string, round(t.x * dbu, 6), round(t.y * dbu, 6), it.cell().name])
    it.next()
with open(OUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["text", "x_um", "y_um", "cell"])
    w.writerows(rows)
print(f"{len(rows)} labels -> {OUT}")
for text, x, y, owner in rows:
    print(f"{text} ({x:g},{y:g}) in {owner}")
