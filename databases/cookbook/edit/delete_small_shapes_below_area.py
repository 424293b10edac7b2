# ---
# title = "Delete the shapes on a layer that are smaller than an area"
# summary = "Goes through the shapes of one layer in the active cell, collects those whose area (um2) is below a threshold and erases them (collect first, erase after: never erase while iterating). Use it to clean slivers, dust or tiny leftovers after booleans."
# kind = "edit"
# tags = ["delete small shapes", "slivers", "tiny shapes", "clean up", "area threshold", "remove dust", "filter by area"]
# apis = ["pya.Shapes.each", "pya.Shape.darea", "pya.Shapes.erase", "pya.Shape.is_text"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"1/0" = 3}
# stdout = ["deleted 1 of 4"]
# ---
# Parameters
LAYER, DATATYPE = 1, 0
MIN_AREA = 15.0               # um2: shapes below this are deleted

shapes = cell.shapes(layout.layer(LAYER, DATATYPE))
total = shapes.size()
small = [s for s in shapes.each() if not s.is_text() and s.darea() < MIN_AREA]
for s in small:
    shapes.erase(s)
print(f"deleted {len(small)} of {total} shapes under {MIN_AREA} um2 on {LAYER}/{DATATYPE}")
