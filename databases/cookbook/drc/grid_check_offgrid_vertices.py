# ---
# title = "Off-grid check: vertices not on the manufacturing grid"
# summary = "Checks every vertex of the chosen layers of in.gds against a grid in um (Region.grid_check(gx, gy) in dbu; one marker per off-grid vertex) and writes the count per layer to grid.json. Use it before tape-out when the mask grid is coarser than the database unit (e.g. 5 nm on a 1 nm dbu)."
# kind = "sandbox"
# tags = ["drc", "grid", "off-grid", "snap", "manufacturing grid", "vertex", "mask grid", "dbu"]
# apis = ["pya.Region.grid_check", "pya.Layout.layer_indexes", "pya.Layout.get_info", "pya.EdgePairs.count"]
# fixture = "drc_rules"
# [expect]
# files = ["grid.json"]
# json_values = {"grid.json" = {"grid_um" = 0.005, "off_grid_vertices" = 2, "per_layer" = {"7/0" = 2, "1/0" = 0}}}
# stdout = ["2 off-grid vertices"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
GRID = 0.005                  # um

layout = pya.Layout()
layout.read(GDS)
top = layout.top_cell()
g = int(round(GRID / layout.dbu))
per_layer = {}
for li in layout.layer_indexes():
    info = layout.get_info(li)
    markers = pya.Region(top.begin_shapes_rec(li)).grid_check(g, g)
    per_layer[f"{info.layer}/{info.datatype}"] = markers.count()
total = sum(per_layer.values())
with open("grid.json", "w") as f:
    json.dump({"grid_um": GRID, "off_grid_vertices": total, "per_layer": per_layer}, f, indent=2)
print(f"{total} off-grid vertices on a {GRID} um grid: " + ", ".join(f"{k}: {v}" for k, v in per_layer.items() if v))
