# ---
# title = "List all top cells of a layout file (libraries and files with leftover cells)"
# summary = "Reads a GDS/OASIS file that may have several top cells (a library, or a chip with unplaced leftovers, where layout.top_cell() raises an error) and writes top_cells.json with each top cell's name, bbox in um, number of cells below it and shape count on all layers, plus which top cell is the largest. Use it before picking the cell to work on."
# kind = "sandbox"
# tags = ["top cells", "multiple top cells", "library", "orphan cells", "unplaced cells", "inspect", "json", "which cell"]
# apis = ["pya.Layout.top_cells", "pya.Cell.dbbox", "pya.Cell.called_cells", "pya.Cell.begin_shapes_rec"]
# fixture = "data_library"
# [expect]
# files = ["top_cells.json"]
# json_values = {"top_cells.json" = {"num_top_cells" = 3, "largest" = "ALIGN_MARKS", "num_cells" = 5}}
# json_keys = {"top_cells.json" = ["top_cells"]}
# stdout = ["3 top cells", "TOP: 2 cells below", "OLD_TEST: 0 cells below"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "top_cells.json"

layout = db.Layout()
layout.read(INPUT)

tops = []
for top in layout.top_cells():                # layout.top_cell() would raise with several
    b = top.dbbox()
    shapes = 0
    for li in layout.layer_indexes():
        it = top.begin_shapes_rec(li)
        while not it.at_end():
            shapes += 1
            it.next()
    tops.append({"name": top.name, "bbox_um": [b.left, b.bottom, b.right, b.top],
                 "area_bbox_um2": b.area(), "cells_below": len(top.called_cells()), "shapes": shapes})
    print(f"{top.name}: {len(top.called_cells())} cells below, {shapes} shapes, {b.width():.3f} x {b.height():.3f} um")

largest = max(tops, key=lambda t: t["area_bbox_um2"])["name"]
with open(OUTPUT, "w") as f:
    json.dump({"num_cells": len(list(layout.each_cell())), "num_top_cells": len(tops),
               "largest": largest, "top_cells": tops}, f, indent=2)
print(f"{len(tops)} top cells in {INPUT}; largest bbox: {largest}; wrote {OUTPUT}")
