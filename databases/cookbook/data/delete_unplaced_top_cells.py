# ---
# title = "Keep one top cell and delete the other, unplaced top cells (with cells only they use)"
# summary = "Reads a layout with leftover top cells (test structures, old versions), keeps the top cell named KEEP and deletes every other top cell with Layout.prune_cell, which also removes sub-cells that nothing else uses; cells shared with the kept top survive. Writes pruned.gds with a single top cell."
# kind = "sandbox"
# tags = ["delete top cells", "prune", "orphan cells", "leftover cells", "cleanup", "single top", "unused cells", "gds"]
# apis = ["pya.Layout.top_cells", "pya.Layout.prune_cell", "pya.Layout.cell", "pya.Layout.write"]
# fixture = "data_library"
# [expect]
# files = ["pruned.gds"]
# cells = ["TOP", "DEVICE_A", "VIA"]
# bbox = {"TOP" = [-1.0, -2.0, 64.25, 30.0]}
# stdout = ["deleted 2 top cells: ALIGN_MARKS, OLD_TEST", "3 cells left"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "pruned.gds"
KEEP = "TOP"

layout = db.Layout()
layout.read(INPUT)
if layout.cell(KEEP) is None:
    raise SystemExit(f"no cell {KEEP!r} in {INPUT}")

removed = []
for top in list(layout.top_cells()):
    if top.name != KEEP:
        removed.append(top.name)
        layout.prune_cell(top.cell_index(), -1)     # the cell and the sub-cells only it uses

layout.write(OUTPUT)
print(f"deleted {len(removed)} top cells: {', '.join(sorted(removed))}; {len(list(layout.each_cell()))} cells left; wrote {OUTPUT}")
