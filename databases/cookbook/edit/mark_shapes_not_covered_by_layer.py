# ---
# title = "Mark the shapes of one layer that do not touch another layer"
# summary = "Selects the polygons of layer A (flat, under the active cell) that have no overlap or contact with layer B (Region.not_interacting) and puts marker boxes around them on a marker layer, e.g. waveguide pieces without slab or pads without a via. Prints how many were found."
# kind = "edit"
# tags = ["not interacting", "uncovered", "missing layer", "orphan shapes", "mark", "marker", "floating"]
# apis = ["pya.Region.new", "pya.Region.not_interacting", "pya.Region.each", "pya.Polygon.bbox", "pya.Shapes.insert"]
# fixture = "mixed_shapes"
# [expect]
# shapes = {"92/0" = 2}
# stdout = ["2 of 4 shapes on 1/0 do not touch 2/0"]
# ---
# Parameters
A = (1, 0)
B = (2, 0)
MARKER = (92, 0)
MARGIN = 0.5                  # um


def region(ld):
    return pya.Region(cell.begin_shapes_rec(layout.layer(*ld)))


a = region(A)
lonely = a.not_interacting(region(B))
m = int(round(MARGIN / dbu))
for poly in lonely.each():
    cell.shapes(layout.layer(*MARKER)).insert(poly.bbox().enlarged(m, m))
print(f"{lonely.count()} of {a.count()} shapes on {A[0]}/{A[1]} do not touch {B[0]}/{B[1]}")
