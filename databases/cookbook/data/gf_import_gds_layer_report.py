# ---
# title = "Load an existing GDS with gdsfactory and report its size, layers, polygons and areas"
# summary = "Imports a GDS file as a gdsfactory Component (gf.import_gds), then reports its size in um, its layers, the number of polygons per layer (flattened, get_polygons by layer tuple) and the merged area per layer in um2 to gds_report.json. Use it when the rest of the flow is gdsfactory; klayout.db does the same without gdsfactory."
# kind = "sandbox"
# tags = ["import gds", "load gds", "gdsfactory", "polygons", "layers", "area", "size", "json", "existing layout"]
# apis = ["gdsfactory.import_gds", "gdsfactory.Component.get_polygons", "gdsfactory.Component.area", "gdsfactory.Component.layers", "gdsfactory.Component.xsize"]
# fixture = "data_chip"
# [expect]
# files = ["gds_report.json"]
# json_keys = {"gds_report.json" = ["polygons_per_layer", "area_um2_per_layer"]}
# json_values = {"gds_report.json" = {"cell" = "TOP", "xsize_um" = 1400.0, "ysize_um" = 1000.0, "num_layers" = 6, "polygons_1_0" = 79, "area_1_0" = 907.35}}
# stdout = ["TOP: 1400.0 x 1000.0 um"]
# ---
import json

import gdsfactory as gf

gf.gpdk.PDK.activate()

INPUT = "in.gds"
OUTPUT = "gds_report.json"

c = gf.import_gds(INPUT)                         # top cell as a Component
polys = c.get_polygons(by="tuple")               # {(layer, datatype): [polygons]}, hierarchy flattened
counts = {f"{l}/{d}": len(p) for (l, d), p in polys.items()}
areas = {f"{l}/{d}": round(c.area((l, d)), 6) for (l, d) in c.layers}   # merged area, um2

data = {"cell": c.name, "xsize_um": c.xsize, "ysize_um": c.ysize,
        "num_layers": len(c.layers),
        "polygons_per_layer": counts, "area_um2_per_layer": areas,
        "polygons_1_0": counts.get("1/0", 0), "area_1_0": areas.get("1/0", 0.0)}
with open(OUTPUT, "w") as f:
    json.dump(data, f, indent=2)
print(f"{c.name}: {c.xsize} x {c.ysize} um, layers {sorted(counts)}; wrote {OUTPUT}")
