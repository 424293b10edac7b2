# ---
# title = "Flatten a hierarchical layout into a single cell and save it as a new file"
# summary = "Reads a GDS/OASIS file, flattens the top cell through all hierarchy levels (every instance and array member becomes plain shapes, texts kept), deletes the cells that are no longer used and writes flat.gds. Reports the cell and shape counts before and after."
# kind = "sandbox"
# tags = ["flatten", "flat", "explode", "remove hierarchy", "single cell", "gds", "prune"]
# apis = ["pya.Cell.flatten", "pya.Layout.write", "pya.Layout.each_cell", "pya.Shapes.size"]
# fixture = "data_chip"
# [expect]
# bbox = {"TOP" = [-100.0, -300.0, 1300.0, 700.0]}
# files = ["flat.gds"]
# cells = ["TOP"]
# layers = ["1/0", "3/0", "47/0", "49/0", "66/0", "99/0"]
# stdout = ["8 cells -> 1 cell", "108 shapes in TOP"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "flat.gds"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()
cells_before = len(list(layout.each_cell()))   # count cells by iterating (Layout.cells() also counts deleted slots)

# flatten all levels (-1) and prune: sub-cells that are no longer used are deleted
top.flatten(-1, True)

shapes = sum(top.shapes(li).size() for li in layout.layer_indexes())
layout.write(OUTPUT)
print(f"flattened {INPUT}: {cells_before} cells -> {len(list(layout.each_cell()))} cell, {shapes} shapes in {top.name}; wrote {OUTPUT}")
