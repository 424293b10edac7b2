# ---
# title = "Delete empty cells (and their instances) and save the cleaned layout"
# summary = "Reads a layout, deletes every cell whose subtree draws nothing (empty bbox) except the top cell; deleting a cell also removes all its instances. Repeats until no such cell is left, then writes no_empty_cells.gds and reports what was removed."
# kind = "sandbox"
# tags = ["delete empty cells", "remove empty cells", "cleanup", "prune", "placeholder", "purge", "gds"]
# apis = ["pya.Layout.delete_cell", "pya.Cell.bbox", "pya.Layout.each_cell", "pya.Layout.top_cell", "pya.Layout.write"]
# fixture = "data_chip"
# [expect]
# files = ["no_empty_cells.gds"]
# cells = ["TOP", "PAD", "GC"]
# stdout = ["deleted 1 cells: PLACEHOLDER", "7 cells left", "8 instance records in TOP"]
# ---
import klayout.db as db

INPUT = "in.gds"
OUTPUT = "no_empty_cells.gds"

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()

deleted = []
while True:
    victims = [c for c in layout.each_cell() if c.cell_index() != top.cell_index() and c.bbox().empty()]
    if not victims:
        break
    for c in victims:
        deleted.append(c.name)
        layout.delete_cell(c.cell_index())    # removes the cell and every instance of it

layout.write(OUTPUT)
print(f"deleted {len(deleted)} cells: {', '.join(deleted) or '-'}; {len(list(layout.each_cell()))} cells left, "
      f"{len(list(top.each_inst()))} instance records in {top.name}; wrote {OUTPUT}")
