# ---
# title = "Export the merged polygons of one layer as coordinate lists in um (JSON)"
# summary = "Reads a layout, flattens one layer under the top cell, merges touching/overlapping shapes and writes polygons.json: for each resulting polygon its hull points in um, its area in um2 and its bbox, plus the polygon count and total area. Use it to feed geometry to another tool (mesher, simulator, script)."
# kind = "sandbox"
# tags = ["polygons", "coordinates", "vertices", "export geometry", "json", "merged", "points", "outline"]
# apis = ["pya.Region", "pya.Region.merged", "pya.Region.each", "pya.Polygon.to_dtype", "pya.DPolygon.each_point_hull", "pya.DPolygon.area"]
# fixture = "data_chip"
# [expect]
# files = ["polygons.json"]
# json_keys = {"polygons.json" = ["layer", "polygons"]}
# json_values = {"polygons.json" = {"layer" = "3/0", "num_polygons" = 7, "total_area_um2" = 1476.0, "num_points" = 28}}
# stdout = ["7 polygons on 3/0"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "polygons.json"
LAYER = (3, 0)

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()
li = layout.find_layer(*LAYER)

region = db.Region(top.begin_shapes_rec(li)).merged()     # flattened, overlaps joined
polys = []
for p in region.each():
    dp = p.to_dtype(layout.dbu)                               # dbu -> um
    b = dp.bbox()
    polys.append({"points": [[pt.x, pt.y] for pt in dp.each_point_hull()],
                  "area_um2": round(dp.area(), 6),
                  "bbox": [b.left, b.bottom, b.right, b.top]})

data = {"layer": f"{LAYER[0]}/{LAYER[1]}", "num_polygons": len(polys),
        "num_points": sum(len(p["points"]) for p in polys),
        "total_area_um2": round(sum(p["area_um2"] for p in polys), 6), "polygons": polys}
with open(OUTPUT, "w") as f:
    json.dump(data, f, indent=1)
print(f"{len(polys)} polygons on {data['layer']}, {data['total_area_um2']} um2; wrote {OUTPUT}")
