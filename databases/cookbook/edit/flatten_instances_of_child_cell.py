# ---
# title = "Explode the placements of one child cell into plain shapes"
# summary = "Finds the instances of a named child cell in the active cell and flattens each completely (Instance.flatten), so that cell's content becomes shapes of the active cell while other instances stay as they are. Use it to break one block open for editing."
# kind = "edit"
# tags = ["explode instance", "flatten instance", "ungroup", "break cell", "dissolve", "make shapes"]
# apis = ["pya.Cell.each_inst", "pya.Instance.cell", "pya.Instance.flatten", "pya.Shapes.size"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["PAD"]
# shapes = {"3/0" = 2, "4/0" = 8}
# stdout = ["flattened 2 instances of PAD"]
# ---
# Parameters
CHILD = "PAD"

hits = [inst for inst in cell.each_inst() if inst.cell.name == CHILD]
for inst in hits:
    inst.flatten()                       # all levels below; inst.flatten(1) would go one level only
print(f"flattened {len(hits)} instances of {CHILD} into {cell.name}; "
      f"{sum(1 for _ in cell.each_inst())} instances left")
