# ---
# title = "Clean up the open layout: delete cells that draw nothing (and their instances)"
# summary = "Runs in KLayout on the open layout: finds every cell whose whole subtree holds no shapes (empty bounding box), except the active cell, deletes it together with all its instances, and repeats until none is left (a cell holding only empty cells becomes empty too). Prints the names removed. One undo step restores them."
# kind = "edit"
# tags = ["empty cells", "delete empty cells", "cleanup", "purge", "placeholder", "open layout", "prune", "tidy"]
# apis = ["pya.Cell.bbox", "pya.Layout.delete_cell", "pya.Layout.each_cell", "pya.Cell.cell_index"]
# fixture = "data_chip"
# [expect]
# cells = ["TOP", "PAD", "HEATER"]
# shapes = {"1/0" = 3}
# stdout = ["deleted 1 empty cells: PLACEHOLDER", "7 cells left"]
# ---
deleted = []
while True:
    empty = [c for c in layout.each_cell() if c.cell_index() != cell.cell_index() and c.bbox().empty()]
    if not empty:
        break
    for c in empty:
        deleted.append(c.name)
        layout.delete_cell(c.cell_index())      # also removes every instance of it

print(f"deleted {len(deleted)} empty cells: {', '.join(deleted) or '-'}; "
      f"{sum(1 for _ in layout.each_cell())} cells left")
