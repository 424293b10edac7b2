# ---
# title = "Mark the shapes smaller than an area with marker boxes"
# summary = "Finds the polygons of a layer below the active cell (flat, merged) whose area is under a threshold in um2 (Region.with_area) and draws each one's bounding box, enlarged by a margin, on a marker layer so they are easy to find. Use it to flag slivers or undersized features before fixing them."
# kind = "edit"
# tags = ["mark", "marker boxes", "highlight", "small shapes", "min area", "flag", "find small features"]
# apis = ["pya.Region.new", "pya.Region.with_area", "pya.Region.each", "pya.Polygon.bbox", "pya.Box.enlarged", "pya.Shapes.insert"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"91/0" = 8}
# stdout = ["8 shapes under 2 um2"]
# ---
# Parameters
LAYER = (4, 0)
MARKER = (91, 0)
MAX_AREA = 2.0                # um2
MARGIN = 0.2                  # um

region = pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER)))
small = region.with_area(0, int(MAX_AREA / dbu ** 2), False)   # area range in dbu^2, upper bound excluded
m = int(round(MARGIN / dbu))
out = cell.shapes(layout.layer(*MARKER))
for poly in small.each():
    out.insert(poly.bbox().enlarged(m, m))
print(f"{small.count()} shapes under {MAX_AREA:g} um2 on {LAYER[0]}/{LAYER[1]} marked on {MARKER[0]}/{MARKER[1]}")
