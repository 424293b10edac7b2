# ---
# title = "Intersect two layers (AND) into a new layer"
# summary = "Takes two layers under the active cell as Regions, computes their overlap with & and inserts it on a result layer, printing the overlap area. Use it to find where a waveguide crosses a slab, where metal covers a via, or any overlap of two layers."
# kind = "edit"
# tags = ["boolean", "and", "intersection", "overlap", "common area", "layer operation", "Region"]
# apis = ["pya.Region.new", "pya.Cell.begin_shapes_rec", "pya.Region.__and__", "pya.Shapes.insert", "pya.Region.area"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"40/0" = 2, "1/0" = 4, "2/0" = 1}
# stdout = ["overlap 30 um2"]
# ---
# Parameters
A, B = (1, 0), (2, 0)
OUT = (40, 0)


def region(ld):
    return pya.Region(cell.begin_shapes_rec(layout.layer(*ld)))


both = region(A) & region(B)
cell.shapes(layout.layer(*OUT)).insert(both)
print(f"{A} AND {B} -> {OUT}: {both.count()} polygons, overlap {both.area() * dbu ** 2:g} um2")
