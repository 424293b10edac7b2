# ---
# title = "List every shape of a layer with its kind, area, perimeter and bounding box in CSV"
# summary = "Writes one row per shape of a layer in the active cell (kind box/polygon/path/text, area um2, perimeter um, bbox left/bottom/right/top in um) to shapes.csv in the work folder. Use it to inspect or post-process individual features, e.g. find the largest pad."
# kind = "edit"
# tags = ["list shapes", "shape table", "csv", "area", "perimeter", "bbox", "inventory", "per shape"]
# apis = ["pya.Shapes.each", "pya.Shape.darea", "pya.Shape.dperimeter", "pya.Shape.dbbox", "pya.Shape.is_box", "pya.Shape.is_path"]
# fixture = "mixed_shapes"
# [expect]
# files = ["shapes.csv"]
# csv_columns = {"shapes.csv" = ["index", "kind", "area_um2", "perimeter_um", "left", "bottom", "right", "top"]}
# stdout = ["4 shapes", "largest: box 50 um2"]
# ---
import csv

# Parameters
LAYER = (1, 0)
OUT = "shapes.csv"


def kind(s):
    for k in ("box", "polygon", "path", "text"):
        if getattr(s, "is_" + k)():
            return k
    return "other"


rows = []
for i, s in enumerate(cell.shapes(layout.layer(*LAYER)).each()):
    b = s.dbbox()
    rows.append([i, kind(s), round(s.darea(), 6), round(s.dperimeter(), 6), b.left, b.bottom, b.right, b.top])
with open(OUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["index", "kind", "area_um2", "perimeter_um", "left", "bottom", "right", "top"])
    w.writerows(rows)
big = max(rows, key=lambda r: r[2])
print(f"{len(rows)} shapes on {LAYER[0]}/{LAYER[1]} -> {OUT}; largest: {big[1]} {big[2]:g} um2")
