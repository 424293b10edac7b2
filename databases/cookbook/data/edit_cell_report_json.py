# ---
# title = "Report every cell of the open layout (size, shapes, placements, empty or not) as JSON"
# summary = "Runs in KLayout on the open layout: for each cell writes its bbox size in um, own shape count, number of instance records, number of parent cells and whether it is empty, plus the top cells, to cells_report.json. Nothing in the layout is changed. Use it before a clean-up or hand-over."
# kind = "edit"
# tags = ["cell report", "open layout", "cells", "json", "empty cells", "bbox", "top cells", "inventory"]
# apis = ["pya.Layout.each_cell", "pya.Cell.dbbox", "pya.Cell.is_empty", "pya.Cell.parent_cells", "pya.Layout.top_cells"]
# fixture = "data_chip"
# [expect]
# files = ["cells_report.json"]
# json_keys = {"cells_report.json" = ["cells", "top_cells"]}
# json_values = {"cells_report.json" = {"num_cells" = 8, "num_empty" = 1, "num_top_cells" = 1}}
# stdout = ["8 cells, 1 empty"]
# ---
import json

OUTPUT = "cells_report.json"

cells = []
for c in layout.each_cell():
    b = c.dbbox()
    cells.append({"name": c.name,
                  "width_um": b.width() if not c.is_empty() else 0.0,
                  "height_um": b.height() if not c.is_empty() else 0.0,
                  "shapes": sum(c.shapes(li).size() for li in layout.layer_indexes()),
                  "instances": sum(1 for _ in c.each_inst()),
                  "parents": c.parent_cells(),
                  "empty": c.is_empty()})

report = {"top_cells": [c.name for c in layout.top_cells()],
          "num_top_cells": len(layout.top_cells()),
          "num_cells": len(cells),
          "num_empty": sum(1 for c in cells if c["empty"]),
          "cells": cells}
with open(OUTPUT, "w") as f:
    json.dump(report, f, indent=2)
print(f"{report['num_cells']} cells, {report['num_empty']} empty, top: {report['top_cells']}; wrote {OUTPUT}")
