# ---
# title = "Delete the shapes of a layer that lie inside a rectangular window"
# summary = "Erases every shape on one layer of the active cell whose bounding box lies completely inside a window given in um (shapes that only cross the window edge are kept). Use it to clear an area before redrawing it; for cutting shapes at the window edge use a Region boolean instead."
# kind = "edit"
# tags = ["delete in area", "window", "region", "clear area", "inside box", "remove shapes in rectangle"]
# apis = ["pya.DBox.new", "pya.DBox.inside", "pya.Shape.dbbox", "pya.Shapes.each", "pya.Shapes.erase"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 2}
# stdout = ["deleted 2 shapes"]
# ---
# Parameters (um)
LAYER, DATATYPE = 1, 0
WINDOW = pya.DBox(-1, -1, 31, 6)      # left, bottom, right, top

shapes = cell.shapes(layout.layer(LAYER, DATATYPE))
inside = [s for s in shapes.each() if s.dbbox().inside(WINDOW)]
for s in inside:
    shapes.erase(s)
print(f"deleted {len(inside)} shapes on {LAYER}/{DATATYPE} inside {WINDOW}; {shapes.size()} left")
