# ---
# title = "Add a prefix to every cell name (avoid name clashes before merging layouts)"
# summary = "Reads a layout and renames every cell to PREFIX + old name (optionally leaving the top cell as it is), then writes prefixed.gds. Use it before combining layouts from different sources so their cell names cannot collide."
# kind = "sandbox"
# tags = ["prefix", "rename all cells", "cell names", "name clash", "unique names", "merge preparation", "gds"]
# apis = ["pya.Layout.each_cell", "pya.Layout.rename_cell", "pya.Cell.cell_index", "pya.Layout.top_cell"]
# fixture = "data_chip"
# [expect]
# files = ["prefixed.gds"]
# cells = ["TOP", "TEAM_A_MMI1X2", "TEAM_A_PLACEHOLDER", "TEAM_A_STRAIGHT"]
# stdout = ["renamed 7 cells"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "prefixed.gds"
PREFIX = "TEAM_A_"
KEEP_TOP_NAME = True

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

n = 0
for cell in list(layout.each_cell()):            # list first: renaming while iterating is unsafe
    if KEEP_TOP_NAME and cell.cell_index() == top.cell_index():
        continue
    if not cell.name.startswith(PREFIX):
        layout.rename_cell(cell.cell_index(), PREFIX + cell.name)
        n += 1

layout.write(OUTPUT)
print(f"renamed {n} cells with prefix {PREFIX!r}; wrote {OUTPUT}")
