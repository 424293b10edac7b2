# ---
# title = "List all text labels with their positions (through the whole hierarchy) in CSV"
# summary = "Visits every label on a label layer below the active cell (a RecursiveShapeIterator), maps each to top-level um coordinates with the iterator's dtrans(), and writes text, x_um, y_um, rotation_deg, height_um and the cell it lives in to labels.csv in the work folder. Use it to export pin/port labels or to check label placement."
# kind = "edit"
# tags = ["labels", "texts", "pin names", "positions", "export labels", "csv", "hierarchy", "global coordinates"]
# apis = ["pya.Cell.begin_shapes_rec", "pya.RecursiveShapeIterator.dtrans", "pya.RecursiveShapeIterator.cell", "pya.Shape.dtext", "pya.DText.transformed", "pya.DTrans.angle"]
# fixture = "hier_array"
# [expect]
# files = ["labels.csv"]
# csv_columns = {"labels.csv" = ["text", "x_um", "y_um", "rotation_deg", "height_um", "cell"]}
# csv_rows = {"labels.csv" = 7}
# stdout = ["7 labels", "U (29.5,0.5) rot 90 in UNIT"]
# ---
import csv

# Parameters
LABEL_LAYER = (10, 0)
CSV_NAME = "labels.csv"

table = []
walker = cell.begin_shapes_rec(layout.layer(*LABEL_LAYER))
while not walker.at_end():
    if walker.shape().is_text():
        label = walker.shape().dtext.transformed(walker.dtrans())    # um, in the active cell's frame
        where = label.trans.disp
        table.append((label.string, round(where.x, 6), round(where.y, 6),
                      label.trans.angle * 90, label.size, walker.cell().name))   # angle: in 90-degree steps
    walker.next()
with open(CSV_NAME, "w", newline="") as out:
    writer = csv.writer(out)
    writer.writerow(["text", "x_um", "y_um", "rotation_deg", "height_um", "cell"])
    writer.writerows(table)
print(f"{len(table)} labels -> {CSV_NAME}")
for string, x, y, rot, _, owner in table:
    print(f"{string} ({x:g},{y:g}) rot {rot:g} in {owner}")
