# ---
# title = "How many shapes of a layer each cell contributes, walking the hierarchy"
# summary = "Iterates one layer below the active cell with a RecursiveShapeIterator and sums, per source cell, the placed shape count and area (um2, each placement counted), then writes cell, shapes, area_um2 to cell_contributions.csv in the work folder. Use it to see where the geometry of a layer comes from."
# kind = "edit"
# tags = ["hierarchy walk", "recursive", "per cell", "contribution", "RecursiveShapeIterator", "where is the layer", "csv"]
# apis = ["pya.Cell.begin_shapes_rec", "pya.RecursiveShapeIterator.at_end", "pya.RecursiveShapeIterator.next", "pya.RecursiveShapeIterator.cell", "pya.Shape.darea"]
# fixture = "hier_array"
# [expect]
# files = ["cell_contributions.csv"]
# csv_columns = {"cell_contributions.csv" = ["cell", "shapes", "area_um2"]}
# stdout = ["UNIT: 14 shapes, 24.5 um2", "TOP: 1 shapes, 25 um2"]
# ---
import csv

# Parameters
LAYER = (1, 0)
OUT = "cell_contributions.csv"

per_cell = {}
it = cell.begin_shapes_rec(layout.layer(*LAYER))
while not it.at_end():
    name = it.cell().name                        # the cell that holds this shape
    n, a = per_cell.get(name, (0, 0.0))
    per_cell[name] = (n + 1, a + it.shape().darea())   # unmerged: overlaps count twice
    it.next()
with open(OUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["cell", "shapes", "area_um2"])
    for name, (n, a) in sorted(per_cell.items()):
        w.writerow([name, n, round(a, 6)])
        print(f"{name}: {n} shapes, {a:g} um2")
