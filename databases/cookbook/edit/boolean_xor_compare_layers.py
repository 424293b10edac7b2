# ---
# title = "Compare two layers with XOR and mark where they differ"
# summary = "Computes A XOR B (the area covered by exactly one of the two layers) under the active cell, puts the difference on a marker layer and prints its area; 0 um2 means the layers are identical. Pieces that touch only at a corner come out as one polygon. Use it to diff a revised layer against the original or a layer against a reference."
# kind = "edit"
# tags = ["xor", "compare", "difference", "diff layers", "layout compare", "changed area", "boolean"]
# apis = ["pya.Region.new", "pya.Cell.begin_shapes_rec", "pya.Region.__xor__", "pya.Shapes.insert", "pya.Region.is_empty"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"43/0" = 3}
# stdout = ["differ by 140 um2"]
# ---
# Parameters
A, B = (1, 0), (2, 0)
OUT = (43, 0)


def region(ld):
    return pya.Region(cell.begin_shapes_rec(layout.layer(*ld)))


diff = region(A) ^ region(B)
cell.shapes(layout.layer(*OUT)).insert(diff)
if diff.is_empty():
    print(f"{A} and {B} are identical")
else:
    print(f"{A} and {B} differ by {diff.area() * dbu ** 2:g} um2 ({diff.count()} polygons on {OUT})")
