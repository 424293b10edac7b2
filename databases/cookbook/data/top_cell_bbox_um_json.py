# ---
# title = "Bounding box of the top cell, and of one layer, in micrometres"
# summary = "Reads a layout and writes bbox.json with the top cell's bounding box (xmin, ymin, xmax, ymax, width, height in um, all layers and sub-cells included) and the bounding box of the shapes of one chosen layer only. Use it to get the chip size or the extent of the waveguide layer."
# kind = "sandbox"
# tags = ["bbox", "bounding box", "extent", "chip size", "die size", "width", "height", "um", "json"]
# apis = ["pya.Cell.dbbox", "pya.Layout.find_layer", "pya.Layout.top_cell", "pya.Layout.read"]
# fixture = "data_chip"
# [expect]
# files = ["bbox.json"]
# json_values = {"bbox.json" = {"xmin" = -100.0, "ymin" = -300.0, "width" = 1400.0, "height" = 1000.0, "layer_xmin" = -15.0, "layer_xmax" = 400.25, "layer_height" = 391.0}}
# stdout = ["1400.000 x 1000.000 um"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "bbox.json"
LAYER = (1, 0)          # layer/datatype whose extent is also reported

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

box = top.dbbox()                               # whole cell, in um
li = layout.find_layer(LAYER[0], LAYER[1])      # None if the layer does not exist
lbox = top.dbbox(li) if li is not None else db.DBox()   # one layer only, sub-cells included

data = {"cell": top.name,
        "xmin": box.left, "ymin": box.bottom, "xmax": box.right, "ymax": box.top,
        "width": box.width(), "height": box.height(),
        "layer": f"{LAYER[0]}/{LAYER[1]}",
        "layer_xmin": lbox.left, "layer_ymin": lbox.bottom, "layer_xmax": lbox.right, "layer_ymax": lbox.top,
        "layer_width": lbox.width(), "layer_height": lbox.height()}
with open(OUTPUT, "w") as f:
    json.dump(data, f, indent=2)
print(f"{top.name}: {box.width():.3f} x {box.height():.3f} um at ({box.left}, {box.bottom}); "
      f"layer {data['layer']}: {lbox.width():.3f} x {lbox.height():.3f} um")
