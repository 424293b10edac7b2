# ---
# title = "Flatten the current cell by one hierarchy level (or completely)"
# summary = "Pulls the shapes of the active cell's child cells up into it with cell.flatten(levels, prune): levels = 1 dissolves only the direct children (their own sub-cells become direct instances), -1 flattens everything; prune removes child cells that are no longer used. Prints what is left."
# kind = "edit"
# tags = ["flatten", "explode", "dissolve hierarchy", "one level", "remove hierarchy", "prune"]
# apis = ["pya.Cell.flatten", "pya.Cell.each_inst", "pya.Layout.each_cell", "pya.Shapes.size"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"3/0" = 2, "4/0" = 0, "1/0" = 4}
# stdout = ["2 instances of VIA", "cells: TOP, VIA"]
# ---
# Parameters
LEVELS = 1                    # 1 = direct children only, -1 = everything
PRUNE = True                  # delete child cells that are no longer used

cell.flatten(LEVELS, PRUNE)
children = [inst.cell.name for inst in cell.each_inst()]
for name in sorted(set(children)):
    print(f"{cell.name} now holds {children.count(name)} instances of {name}")
print("cells: " + ", ".join(sorted(c.name for c in layout.each_cell())))
