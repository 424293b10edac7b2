# ---
# title = "Combine two layers (OR) into one merged layer"
# summary = "Merges layer A and layer B under the active cell into one Region with | (touching and overlapping shapes fuse into single polygons) and inserts it on a result layer. Use it to make a union outline, e.g. core plus slab for a cladding or exclusion layer."
# kind = "edit"
# tags = ["boolean", "or", "union", "combine layers", "merge", "add layers", "A or B"]
# apis = ["pya.Region.new", "pya.Cell.begin_shapes_rec", "pya.Region.__or__", "pya.Shapes.insert", "pya.Region.area"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"42/0" = 3}
# stdout = ["3 polygons, 170 um2"]
# ---
# Parameters
A, B = (1, 0), (2, 0)
OUT = (42, 0)


def region(ld):
    return pya.Region(cell.begin_shapes_rec(layout.layer(*ld)))


union = region(A) | region(B)
cell.shapes(layout.layer(*OUT)).insert(union)
print(f"{A} OR {B} -> {OUT}: {union.count()} polygons, {union.area() * dbu ** 2:g} um2")
