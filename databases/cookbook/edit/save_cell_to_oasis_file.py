# ---
# title = "Save the current cell with its sub-cells to its own OASIS file"
# summary = "Writes the active cell and every cell it places into a separate .oas file (SaveLayoutOptions with format OASIS and select_cell), so the file's top cell is this cell and the rest of the open layout is left out. The open layout is not changed. Use it to hand over a block or a clipped region; a .gds name with format GDS2 writes GDS instead."
# kind = "edit"
# tags = ["export", "save as", "oasis", "oas", "write file", "cell to file", "hand over", "gds", "SaveLayoutOptions"]
# apis = ["pya.SaveLayoutOptions.new", "pya.SaveLayoutOptions.format", "pya.SaveLayoutOptions.select_cell", "pya.Layout.write", "pya.Cell.dbbox"]
# fixture = "mixed_shapes"
# [expect]
# files = ["TOP_export.oas"]
# stdout = ["wrote TOP_export.oas (OASIS): cell TOP", "55.000 x 35.000 um"]
# ---
# Parameters
OUT = f"{cell.name}_export.oas"

opts = pya.SaveLayoutOptions()
opts.format = "OASIS"                # the file's format; the suffix alone does not choose it here
opts.select_cell(cell.cell_index())  # this cell and all cells below it, nothing else
layout.write(OUT, opts)

box = cell.dbbox()
with open(OUT, "rb") as f:
    fmt = "OASIS" if f.read(11) == b"%SEMI-OASIS" else "not OASIS"
print(f"wrote {OUT} ({fmt}): cell {cell.name} and its sub-cells, {box.width():.3f} x {box.height():.3f} um")
