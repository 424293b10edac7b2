# ---
# title = "Cell hierarchy as nested JSON (children, placement counts, depth)"
# summary = "Reads a layout and writes hierarchy.json: a nested tree {name, placements, children} starting at the top cell, plus the number of cells, the hierarchy depth and the leaf cells (cells that place nothing). Use it when a tool or report needs the structure in machine-readable form."
# kind = "sandbox"
# tags = ["hierarchy", "cell tree", "nested", "json", "depth", "leaf cells", "children", "structure"]
# apis = ["pya.Cell.each_inst", "pya.Instance.cell", "pya.Instance.size", "pya.Cell.hierarchy_levels", "pya.Cell.child_cells"]
# fixture = "data_chip"
# [expect]
# files = ["hierarchy.json"]
# json_keys = {"hierarchy.json" = ["tree", "leaf_cells"]}
# json_values = {"hierarchy.json" = {"top_cell" = "TOP", "num_cells" = 8, "depth" = 2, "num_leaf_cells" = 6}}
# stdout = ["depth 2"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "hierarchy.json"

layout = db.Layout()
layout.read(INPUT)


def node(cell, placements=1):
    """{name, placements, children} for a cell; children summed over instances and arrays."""
    counts = {}
    for inst in cell.each_inst():
        counts[inst.cell_index] = counts.get(inst.cell_index, 0) + inst.size()
    children = [node(layout.cell(ci), n) for ci, n in sorted(counts.items())]
    return {"name": cell.name, "placements": placements, "children": children}


top = layout.top_cell()
leaves = sorted(c.name for c in layout.each_cell() if c.child_cells() == 0)
data = {"top_cell": top.name, "num_cells": len(list(layout.each_cell())),
        "depth": top.hierarchy_levels(),          # 0 = no sub-cells
        "leaf_cells": leaves, "num_leaf_cells": len(leaves),
        "tree": node(top)}
with open(OUTPUT, "w") as f:
    json.dump(data, f, indent=2)
print(f"wrote {OUTPUT}: {data['num_cells']} cells, depth {data['depth']}, leaves {', '.join(leaves)}")
