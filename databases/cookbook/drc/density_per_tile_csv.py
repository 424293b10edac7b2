# ---
# title = "Pattern density per tile over the die, with out-of-range tiles flagged, to CSV"
# summary = "Cuts the die (the bounding box of an outline layer, or of the layer itself) into square tiles of a size in um, measures the covered fraction of one layer in each tile ((layer & tile).area() / tile area) and writes x_um, y_um, density and ok (within min..max) per tile to density.csv. Use it for CMP/etch density rules."
# kind = "sandbox"
# tags = ["drc", "density", "pattern density", "fill", "tiles", "cmp", "coverage", "window", "csv"]
# apis = ["pya.Region.new", "pya.Region.__and__", "pya.Region.area", "pya.Box.new", "pya.Region.bbox"]
# fixture = "fill_density"
# [expect]
# files = ["density.csv"]
# csv_columns = {"density.csv" = ["x_um", "y_um", "density", "ok"]}
# csv_rows = {"density.csv" = 4}
# stdout = ["4 tiles, 3 outside 0.2..0.8", "min 0 max 1"]
# ---
import csv

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
OUTLINE = (99, 0)             # die boundary layer; None = use the layer's own bbox
TILE = 50.0                   # um
MIN_D, MAX_D = 0.2, 0.8       # allowed density range

layout = pya.Layout()
layout.read(GDS)
top, dbu = layout.top_cell(), layout.dbu
shapes = pya.Region(top.begin_shapes_rec(layout.layer(*LAYER)))
die = pya.Region(top.begin_shapes_rec(layout.layer(*OUTLINE))).bbox() if OUTLINE else shapes.bbox()
step = int(round(TILE / dbu))
rows = []
for x in range(die.left, die.right, step):
    for y in range(die.bottom, die.top, step):
        tile = pya.Box(x, y, min(x + step, die.right), min(y + step, die.top))
        d = (shapes & pya.Region(tile)).area() / tile.area()
        rows.append([x * dbu, y * dbu, round(d, 6), MIN_D <= d <= MAX_D])
with open("density.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["x_um", "y_um", "density", "ok"])
    w.writerows(rows)
bad = sum(1 for r in rows if not r[3])
print(f"{len(rows)} tiles, {bad} outside {MIN_D}..{MAX_D}; min {min(r[2] for r in rows):g} max {max(r[2] for r in rows):g}")
