# ---
# title = "Break down each layer's shapes by type: boxes, polygons, paths, texts"
# summary = "Reads a layout and counts, for each layer, the boxes, polygons, paths and texts stored in all cells (each cell definition once). Writes shape_types.csv with columns layer, datatype, boxes, polygons, paths, texts, total. Use it to see whether a file uses paths (which some tools dislike) or where labels are."
# kind = "sandbox"
# tags = ["shape types", "boxes", "polygons", "paths", "texts", "statistics", "per layer", "csv", "inventory"]
# apis = ["pya.Shapes.each", "pya.Shape.is_box", "pya.Shape.is_polygon", "pya.Shape.is_path", "pya.Shape.is_text", "pya.Layout.each_cell"]
# fixture = "data_chip"
# [expect]
# csv_rows = {"shape_types.csv" = 6}
# files = ["shape_types.csv"]
# csv_columns = {"shape_types.csv" = ["layer", "datatype", "boxes", "polygons", "paths", "texts", "total"]}
# stdout = ["1/0: 17 boxes, 7 polygons, 1 paths, 0 texts", "66/0: 0 boxes, 0 polygons, 0 paths, 5 texts", "2 paths"]
# ---
import csv

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "shape_types.csv"

layout = db.Layout()
layout.read(INPUT)

rows = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    n = {"boxes": 0, "polygons": 0, "paths": 0, "texts": 0}
    for cell in layout.each_cell():
        for s in cell.shapes(li).each():
            if s.is_box():
                n["boxes"] += 1
            elif s.is_polygon() or s.is_simple_polygon():
                n["polygons"] += 1
            elif s.is_path():
                n["paths"] += 1
            elif s.is_text():
                n["texts"] += 1
    rows.append([info.layer, info.datatype, n["boxes"], n["polygons"], n["paths"], n["texts"], sum(n.values())])

rows.sort()
with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["layer", "datatype", "boxes", "polygons", "paths", "texts", "total"])
    w.writerows(rows)
for r in rows:
    print(f"{r[0]}/{r[1]}: {r[2]} boxes, {r[3]} polygons, {r[4]} paths, {r[5]} texts")
print(f"wrote {OUTPUT}: {len(rows)} layers, {sum(r[4] for r in rows)} paths in total")
