# ---
# title = "Density per tile on the open layout, marking tiles outside the allowed range"
# summary = "In KLayout, tiles the active cell's bounding box (or an outline layer) into squares of a size in um, computes the density of a layer in each, draws a box on a marker layer for every tile below the minimum or above the maximum density, and writes all tile densities to density_tiles.json in the work folder."
# kind = "edit"
# tags = ["drc", "density", "tiles", "fill", "cmp", "markers", "open layout", "coverage"]
# apis = ["pya.Region.new", "pya.Region.__and__", "pya.Region.area", "pya.Box.new", "pya.Shapes.insert"]
# fixture = "fill_density"
# [expect]
# files = ["density_tiles.json"]
# shapes = {"103/0" = 3}
# json_values = {"density_tiles.json" = {"tiles" = 4, "failing" = 3, "densities" = [0.5, 0.04, 0.0, 1.0]}}
# stdout = ["3 of 4 tiles outside 0.2..0.8"]
# ---
import json

# Parameters
LAYER = (1, 0)
OUTLINE = (99, 0)             # die outline layer; None = the active cell's bbox
TILE = 50.0                   # um
MIN_D, MAX_D = 0.2, 0.8
MARKER = (103, 0)

shapes = pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER)))
area = pya.Region(cell.begin_shapes_rec(layout.layer(*OUTLINE))).bbox() if OUTLINE else cell.bbox()
step = int(round(TILE / dbu))
densities, failing = [], 0
for x in range(area.left, area.right, step):
    for y in range(area.bottom, area.top, step):
        tile = pya.Box(x, y, min(x + step, area.right), min(y + step, area.top))
        d = (shapes & pya.Region(tile)).area() / tile.area()
        densities.append(round(d, 6))
        if not MIN_D <= d <= MAX_D:
            cell.shapes(layout.layer(*MARKER)).insert(tile)
            failing += 1
with open("density_tiles.json", "w") as f:
    json.dump({"tile_um": TILE, "tiles": len(densities), "failing": failing, "densities": densities}, f, indent=2)
print(f"{failing} of {len(densities)} tiles outside {MIN_D}..{MAX_D}, marked on {MARKER[0]}/{MARKER[1]}")
