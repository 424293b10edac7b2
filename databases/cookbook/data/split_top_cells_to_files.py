# ---
# title = "Split a layout into one file per top cell (e.g. unpack a device library)"
# summary = "Reads a GDS/OASIS file with several top cells and writes each top cell with everything it places into its own file named <cell>.gds (SaveLayoutOptions.select_cell), so every output has a single top cell. Reports the files and their cell counts. Use extract_cell_to_file for one chosen (sub-)cell."
# kind = "sandbox"
# tags = ["split", "library", "one file per cell", "top cells", "export cells", "unpack", "gds", "select_cell"]
# apis = ["pya.Layout.top_cells", "pya.SaveLayoutOptions", "pya.SaveLayoutOptions.select_cell", "pya.Layout.write"]
# fixture = "data_library"
# [expect]
# files = ["TOP.gds", "ALIGN_MARKS.gds", "OLD_TEST.gds"]
# cells = ["TOP", "DEVICE_A", "VIA", "ALIGN_MARKS", "OLD_TEST"]
# layers = ["10/0", "40/0"]
# stdout = ["TOP.gds: 3 cells", "ALIGN_MARKS.gds: 1 cells", "wrote 3 files"]
# ---
import klayout.db as db

INPUT = "in.gds"

layout = db.Layout()
layout.read(INPUT)

written = []
for top in layout.top_cells():
    opts = db.SaveLayoutOptions()
    opts.select_cell(top.cell_index())            # this top cell and its sub-cells only
    name = f"{top.name}.gds"
    layout.write(name, opts)
    check = db.Layout()
    check.read(name)
    print(f"{name}: {len(list(check.each_cell()))} cells, top {check.top_cell().name}")
    written.append(name)
print(f"wrote {len(written)} files from {INPUT}")
