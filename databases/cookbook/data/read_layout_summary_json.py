# ---
# title = "Read a GDS or OASIS file and summarise it: top cell, cells, layers, dbu and size"
# summary = "Opens an existing layout file with klayout.db (format detected from the content), and writes summary.json with the top cell name, database unit in um, number of cells, the list of layers as 'L/D' and the top cell's bounding box in um. Use it as the first look at a layout someone sent you."
# kind = "sandbox"
# tags = ["read gds", "read oasis", "open layout", "summary", "top cell", "layers", "dbu", "json", "inspect"]
# apis = ["pya.Layout.read", "pya.Layout.top_cell", "pya.Layout.layer_indexes", "pya.Layout.get_info", "pya.Cell.dbbox", "pya.Layout.each_cell"]
# fixture = "data_chip"
# [expect]
# files = ["summary.json"]
# json_keys = {"summary.json" = ["top_cell", "dbu_um", "num_cells", "layers", "bbox_um"]}
# json_values = {"summary.json" = {"top_cell" = "TOP", "num_cells" = 8, "num_layers" = 6, "dbu_um" = 0.001, "width_um" = 1400.0}}
# stdout = ["TOP", "8 cells"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"        # .gds or .oas: the reader detects the format
OUTPUT = "summary.json"

# 1) read the file
layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()          # the one cell that no other cell places

# 2) collect the layers as "layer/datatype"
layers = []
for li in layout.layer_indexes():
    info = layout.get_info(li)
    layers.append(f"{info.layer}/{info.datatype}")

# 3) bounding box of the top cell in um (dbbox = box in micrometres)
box = top.dbbox()
num_cells = len(list(layout.each_cell()))
summary = {
    "top_cell": top.name,
    "dbu_um": layout.dbu,
    "num_cells": num_cells,
    "num_layers": len(layers),
    "layers": sorted(layers),
    "bbox_um": [box.left, box.bottom, box.right, box.top],
    "width_um": box.width(),
    "height_um": box.height(),
}
with open(OUTPUT, "w") as f:
    json.dump(summary, f, indent=2)
print(f"{INPUT}: top cell {top.name}, {num_cells} cells, {len(layers)} layers, "
      f"{box.width():.3f} x {box.height():.3f} um, dbu {layout.dbu} um")
