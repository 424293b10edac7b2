# ---
# title = "Print the cell hierarchy as an indented tree with placement counts"
# summary = "Reads a layout and prints (and saves to cell_tree.txt) the cell tree from the top cell down: each child cell is indented under its parent with the number of times it is placed there (array members counted). Use it to understand how a layout is built."
# kind = "sandbox"
# tags = ["hierarchy", "cell tree", "tree view", "children", "sub-cells", "structure", "instances", "list cells"]
# apis = ["pya.Cell.each_inst", "pya.Instance.cell", "pya.Instance.size", "pya.Layout.top_cell"]
# fixture = "data_chip"
# [expect]
# files = ["cell_tree.txt"]
# stdout = ["TOP", "  HEATER x1", "    STRAIGHT x10", "  GC x4", "  PAD x8", "  PLACEHOLDER x1"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "cell_tree.txt"

layout = db.Layout()
layout.read(INPUT)


def tree_lines(cell, depth=0):
    """One line per child cell: indent, name, how often it is placed in this parent."""
    counts = {}
    for inst in cell.each_inst():
        name = inst.cell.name
        counts[name] = counts.get(name, 0) + inst.size()   # size(): members of an array
    lines = []
    for name in sorted(counts):
        lines.append("  " * (depth + 1) + f"{name} x{counts[name]}")
        lines += tree_lines(layout.cell(name), depth + 1)
    return lines


top = layout.top_cell()
lines = [top.name] + tree_lines(top)
with open(OUTPUT, "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
print(f"wrote {OUTPUT}: {len(list(layout.each_cell()))} cells, depth {top.hierarchy_levels()}")
