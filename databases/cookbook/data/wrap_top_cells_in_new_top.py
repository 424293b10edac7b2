# ---
# title = "Put all top cells of a layout under one new top cell (single-top file for tools and foundries)"
# summary = "Reads a layout with several top cells and creates a new top cell that places each of them once (at its original position, or side by side with a gap), so the file has exactly one top cell. Writes single_top.gds and reports the new top's bbox in um. Many tools and tape-out checks require a single top cell."
# kind = "sandbox"
# tags = ["top cell", "single top", "wrap", "new top cell", "multiple top cells", "assemble", "tape-out", "gds"]
# apis = ["pya.Layout.top_cells", "pya.Layout.create_cell", "pya.Cell.insert", "pya.DCellInstArray", "pya.Layout.write"]
# fixture = "data_library"
# [expect]
# files = ["single_top.gds"]
# cells = ["CHIP", "TOP", "ALIGN_MARKS", "OLD_TEST", "DEVICE_A"]
# bbox = {"CHIP" = [-110.0, -10.0, 520.0, 505.0]}
# stdout = ["placed 3 top cells under CHIP", "1 top cell"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "single_top.gds"
NEW_TOP = "CHIP"
SIDE_BY_SIDE = False     # False: keep positions; True: place left to right with GAP um between
GAP = 50.0

layout = db.Layout()
layout.read(INPUT)
old_tops = list(layout.top_cells())               # collect before creating the new top
chip = layout.create_cell(NEW_TOP)

x = 0.0
for t in old_tops:
    if SIDE_BY_SIDE:
        b = t.dbbox()
        disp = db.DVector(x - b.left, -b.bottom)      # lower-left corner at (x, 0)
        x += b.width() + GAP
    else:
        disp = db.DVector(0, 0)
    chip.insert(db.DCellInstArray(t.cell_index(), db.DTrans(disp)))

layout.write(OUTPUT)
b = chip.dbbox()
print(f"placed {len(old_tops)} top cells under {NEW_TOP}: now {len(list(layout.top_cells()))} top cell, "
      f"bbox ({b.left}, {b.bottom}; {b.right}, {b.top}) um; wrote {OUTPUT}")
