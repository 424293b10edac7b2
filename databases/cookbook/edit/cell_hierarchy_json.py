# ---
# title = "Write the cell hierarchy (children, placement counts, depth) to JSON"
# summary = "Walks the cell tree from the active cell down and records, for each cell, how many times each child is placed (array elements counted) and its own shape count, plus the number of cells and the hierarchy depth, in hierarchy.json in the work folder. Use it to document a design's structure."
# kind = "edit"
# tags = ["hierarchy", "cell tree", "children", "sub-cells", "depth", "structure", "json", "instances count"]
# apis = ["pya.Cell.each_inst", "pya.Instance.cell", "pya.Instance.size", "pya.Cell.called_cells", "pya.Cell.hierarchy_levels", "pya.Cell.shapes"]
# fixture = "mixed_shapes"
# [expect]
# files = ["hierarchy.json"]
# json_values = {"hierarchy.json" = {"top" = "TOP", "cell_count" = 3, "depth" = 2}}
# stdout = ["TOP: PAD x2", "PAD: VIA x4"]
# ---
import json

# Parameters
OUT = "hierarchy.json"


def own_shapes(c):
    return sum(c.shapes(li).size() for li in layout.layer_indexes())


cells = {}
for ci in [cell.cell_index()] + list(cell.called_cells()):   # this cell and everything below it
    c = layout.cell(ci)
    children = {}
    for inst in c.each_inst():
        children[inst.cell.name] = children.get(inst.cell.name, 0) + inst.size()   # size = array elements
    cells[c.name] = {"children": children, "shapes": own_shapes(c)}
tree = {"top": cell.name, "cell_count": len(cells), "depth": cell.hierarchy_levels(), "cells": cells}
with open(OUT, "w") as f:
    json.dump(tree, f, indent=2)
for name, info in cells.items():
    kids = ", ".join(f"{k} x{n}" for k, n in info["children"].items()) or "no children"
    print(f"{name}: {kids}")
