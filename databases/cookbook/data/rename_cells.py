# ---
# title = "Rename cells in a layout file"
# summary = "Reads a layout, renames the cells given in RENAMES {old: new} (missing names are reported, an already used new name is refused) and writes renamed.gds. Instances keep pointing at the renamed cells. Use prefix_cell_names to rename every cell at once."
# kind = "sandbox"
# tags = ["rename cell", "cell name", "change name", "top cell name", "gds"]
# apis = ["pya.Layout.cell", "pya.Layout.rename_cell", "pya.Cell.cell_index", "pya.Layout.write"]
# fixture = "data_chip"
# [expect]
# bbox = {"CHIP_A" = [-100.0, -300.0, 1300.0, 700.0]}
# files = ["renamed.gds"]
# cells = ["CHIP_A", "MMI_1x2", "GRATING_TE"]
# stdout = ["renamed 3 cells"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "renamed.gds"
RENAMES = {"TOP": "CHIP_A", "MMI1X2": "MMI_1x2", "GC": "GRATING_TE"}

layout = db.Layout()
layout.read(INPUT)

done = 0
for old, new in RENAMES.items():
    cell = layout.cell(old)               # None if there is no such cell
    if cell is None:
        print(f"no cell {old!r}, skipped")
    elif layout.cell(new) is not None:
        print(f"cell {new!r} already exists, {old!r} not renamed")
    else:
        layout.rename_cell(cell.cell_index(), new)
        done += 1

layout.write(OUTPUT)
print(f"renamed {done} cells; top cell is now {layout.top_cell().name}; wrote {OUTPUT}")
