# ---
# title = "Find empty cells in a layout (no shapes anywhere below them)"
# summary = "Reads a layout and lists the cells that draw nothing: cells whose whole subtree holds no shapes (Cell.bbox is empty), and separately cells that hold neither shapes nor instances (Cell.is_empty). Writes empty_cells.json with both lists and how often each empty cell is placed. Use it to clean placeholders before tape-out."
# kind = "sandbox"
# tags = ["empty cells", "check", "placeholder", "cleanup", "unused", "lint", "layout check", "json"]
# apis = ["pya.Cell.is_empty", "pya.Cell.bbox", "pya.Layout.each_cell", "pya.Cell.parent_cells", "pya.Cell.each_parent_inst"]
# fixture = "data_chip"
# [expect]
# files = ["empty_cells.json"]
# json_keys = {"empty_cells.json" = ["empty_cells", "cells_without_shapes"]}
# json_values = {"empty_cells.json" = {"num_empty" = 1, "num_without_shapes" = 1, "num_cells" = 8}}
# stdout = ["PLACEHOLDER"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "empty_cells.json"

layout = db.Layout()
layout.read(INPUT)

empty = []        # no shapes and no instances at all
no_shapes = []    # nothing drawn in the whole subtree (may still place other empty cells)
for cell in layout.each_cell():
    if cell.is_empty():
        empty.append(cell.name)
    if cell.bbox().empty():
        placed = sum(inst.inst().size() for inst in cell.each_parent_inst())   # placements in parents
        no_shapes.append({"cell": cell.name, "parents": cell.parent_cells(), "placements": placed})

report = {"num_cells": len(list(layout.each_cell())),
          "empty_cells": sorted(empty), "num_empty": len(empty),
          "cells_without_shapes": no_shapes, "num_without_shapes": len(no_shapes)}
with open(OUTPUT, "w") as f:
    json.dump(report, f, indent=2)
print(f"{len(empty)} empty cells: {', '.join(sorted(empty)) or '-'}; "
      f"{len(no_shapes)} cells without shapes; wrote {OUTPUT}")
