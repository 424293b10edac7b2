# ---
# title = "Hierarchical (deep-mode) width check on the open layout, counts per cell and per placement"
# summary = "In KLayout, builds a deep Region of a layer of the active cell with a DeepShapeStore so each cell is checked once, runs a width check, and writes the flat count (every placement), the count stored in the cells (hier_count) and the flat-mode count for comparison to deep_width.json in the work folder."
# kind = "edit"
# tags = ["drc", "deep mode", "hierarchical", "DeepShapeStore", "width", "hier_count", "open layout", "per cell"]
# apis = ["pya.DeepShapeStore.new", "pya.Region.new", "pya.Region.is_deep", "pya.Region.width_check", "pya.EdgePairs.hier_count"]
# fixture = "hier_array"
# [expect]
# files = ["deep_width.json"]
# json_values = {"deep_width.json" = {"flat_mode" = 7, "deep_mode" = 7, "in_cells" = 1, "deep" = true}}
# stdout = ["7 placements, 1 in the cells"]
# ---
import json

# Parameters
LAYER = (1, 0)
MIN_WIDTH = 1.2               # um

li = layout.layer(*LAYER)
d = int(round(MIN_WIDTH / dbu))
dss = pya.DeepShapeStore()                                 # must stay alive while deep regions are used
deep = pya.Region(cell.begin_shapes_rec(li), dss)
errors = deep.width_check(d)
flat = pya.Region(cell.begin_shapes_rec(li)).width_check(d)
report = {"deep": deep.is_deep(), "deep_mode": errors.count(), "in_cells": errors.hier_count(), "flat_mode": flat.count()}
with open("deep_width.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"width < {MIN_WIDTH} um: {errors.count()} placements, {errors.hier_count()} in the cells (flat mode {flat.count()})")
