# ---
# title = "Rename a cell"
# summary = "Renames a cell found by its current name, refusing a name that another cell already has (layout.cell(name) is None for a free name). Instances keep pointing to the renamed cell. Use it to give blocks meaningful or foundry-conform names."
# kind = "edit"
# tags = ["rename cell", "cell name", "change name", "name cell", "top cell name"]
# apis = ["pya.Layout.cell", "pya.Layout.rename_cell", "pya.Cell.cell_index", "pya.Cell.name"]
# fixture = "mixed_shapes"
# [expect]
# cells = ["BONDPAD", "VIA"]
# stdout = ["renamed PAD -> BONDPAD"]
# ---
# Parameters
OLD_NAME = "PAD"
NEW_NAME = "BONDPAD"

target = layout.cell(OLD_NAME)
if target is None:
    raise ValueError(f"no cell named {OLD_NAME}")
if layout.cell(NEW_NAME) is not None:
    raise ValueError(f"a cell named {NEW_NAME} already exists")
layout.rename_cell(target.cell_index(), NEW_NAME)
print(f"renamed {OLD_NAME} -> {target.name}")
