# ---
# title = "Width check on the open layout with error markers drawn on a marker layer"
# summary = "In KLayout, checks a minimum width (um) on one layer of the active cell and everything below it, and draws each violation as the polygon between its two edges (EdgePairs.polygons, exactly the violation) on a marker layer of the active cell, so the errors show up in the layout view. One Undo removes the markers again."
# kind = "edit"
# tags = ["drc", "width check", "markers", "marker layer", "highlight errors", "open layout", "min width", "interactive drc"]
# apis = ["pya.Region.new", "pya.Cell.begin_shapes_rec", "pya.Region.width_check", "pya.EdgePairs.polygons", "pya.Shapes.insert"]
# fixture = "drc_rules"
# [expect]
# shapes = {"100/0" = 1, "1/0" = 8}
# stdout = ["1 width errors (< 0.5 um) on 1/0"]
# ---
# Parameters
LAYER = (1, 0)
MIN_WIDTH = 0.5               # um
MARKER = (100, 0)

region = pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER)))    # this cell and its sub-cells, flat
errors = region.width_check(int(round(MIN_WIDTH / dbu)))
cell.shapes(layout.layer(*MARKER)).insert(errors.polygons())
print(f"{errors.count()} width errors (< {MIN_WIDTH} um) on {LAYER[0]}/{LAYER[1]}, marked on {MARKER[0]}/{MARKER[1]}")
