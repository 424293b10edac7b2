# ---
# title = "Save one cell (with its sub-cells) of a layout to its own GDS file"
# summary = "Reads a layout and writes the chosen cell together with every cell it places into a separate file, which then has that cell as its top cell. Uses SaveLayoutOptions.select_cell, so the rest of the layout is left out and nothing is flattened."
# kind = "sandbox"
# tags = ["extract cell", "export cell", "save cell", "sub-cell", "split layout", "cell to gds", "hierarchy"]
# apis = ["pya.SaveLayoutOptions", "pya.SaveLayoutOptions.select_cell", "pya.Layout.write", "pya.Layout.cell"]
# fixture = "data_chip"
# [expect]
# bbox = {"HEATER" = [0.0, -2.0, 200.0, 2.0]}
# files = ["HEATER.gds"]
# cells = ["HEATER", "STRAIGHT"]
# layers = ["47/0", "1/0"]
# stdout = ["top cell HEATER, 2 cells", "200.000 x 4.000 um"]
# ---
import klayout.db as db

INPUT = "in.gds"
CELL = "HEATER"
OUTPUT = f"{CELL}.gds"

layout = db.Layout()
layout.read(INPUT)
cell = layout.cell(CELL)
if cell is None:
    raise SystemExit(f"no cell named {CELL!r} in {INPUT}")

opts = db.SaveLayoutOptions()
opts.select_cell(cell.cell_index())     # this cell and all cells below it
layout.write(OUTPUT, opts)

# read back: the extracted cell is the new file's top cell
out = db.Layout()
out.read(OUTPUT)
t = out.top_cell()
b = t.dbbox()
print(f"wrote {OUTPUT}: top cell {t.name}, {len(list(out.each_cell()))} cells, {b.width():.3f} x {b.height():.3f} um")
