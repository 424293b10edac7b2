# ---
# title = "Draw a keep-out ring (halo) of fixed width around the shapes of a layer"
# summary = "Grows a layer (sub-cells included) by a margin and subtracts the original, leaving a ring of that width around every shape, and puts it on a marker layer in the active cell. Use it for exclusion zones around pads, trenches or heaters; margin in um."
# kind = "edit"
# tags = ["keep-out", "halo", "exclusion zone", "ring around", "margin", "guard band", "outline ring"]
# apis = ["pya.Region.new", "pya.Cell.begin_shapes_rec", "pya.Region.sized", "pya.Region.__sub__", "pya.Shapes.insert"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"31/0" = 2}
# stdout = ["2 rings", "192 um2"]
# ---
# Parameters
SRC = (3, 0)                  # e.g. metal pads (they sit in the PAD sub-cell)
DST = (31, 0)
MARGIN = 2.0                  # um

src = pya.Region(cell.begin_shapes_rec(layout.layer(*SRC)))
ring = src.sized(int(round(MARGIN / dbu))) - src
cell.shapes(layout.layer(*DST)).insert(ring)
print(f"{ring.count()} rings of {MARGIN} um around {SRC[0]}/{SRC[1]} on {DST[0]}/{DST[1]}, {ring.area() * dbu ** 2:g} um2")
