# ---
# title = "Subtract one layer from another (NOT) into a new layer"
# summary = "Computes layer A minus layer B (Region - Region, i.e. A NOT B) under the active cell and inserts the remainder on a result layer, e.g. the waveguide parts outside the slab or a trench minus an opening. Prints polygon count and area."
# kind = "edit"
# tags = ["boolean", "not", "subtract", "difference", "minus", "cut out", "A not B"]
# apis = ["pya.Region.new", "pya.Cell.begin_shapes_rec", "pya.Region.__sub__", "pya.Shapes.insert", "pya.Region.area"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"41/0" = 4}
# stdout = ["4 polygons, 70 um2"]
# ---
# Parameters
A, B = (1, 0), (2, 0)         # result = A NOT B
OUT = (41, 0)


def region(ld):
    return pya.Region(cell.begin_shapes_rec(layout.layer(*ld)))


rest = region(A) - region(B)
cell.shapes(layout.layer(*OUT)).insert(rest)
print(f"{A} NOT {B} -> {OUT}: {rest.count()} polygons, {rest.area() * dbu ** 2:g} um2")
