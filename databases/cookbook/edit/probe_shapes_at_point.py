# ---
# title = "Find which shapes, layers and cells cover a given point"
# summary = "For every layer, asks for the shapes below the active cell that touch a tiny box around a point in um (begin_shapes_rec_touching) and reports layer, owning cell, the shape's top-level bounding box and the instance path depth. Use it to answer 'what is at x, y?' in a dense hierarchical layout."
# kind = "edit"
# tags = ["probe", "what is here", "point query", "hit test", "find shapes at point", "touching", "which cell"]
# apis = ["pya.Cell.begin_shapes_rec_touching", "pya.RecursiveShapeIterator.shape", "pya.RecursiveShapeIterator.dtrans", "pya.Shape.dpolygon", "pya.DPolygon.inside"]
# fixture = "mixed_shapes"
# [expect]
# stdout = ["3/0 in PAD", "4/0 in VIA", "2 shapes at (51.5,21.5)"]
# ---
# Parameters (um)
X, Y = 51.5, 21.5

probe = pya.DBox(X - 0.001, Y - 0.001, X + 0.001, Y + 0.001)
point = pya.DPoint(X, Y)
hits = 0
for li in layout.layer_indexes():
    info = layout.get_info(li)
    it = cell.begin_shapes_rec_touching(li, probe)
    while not it.at_end():
        shape = it.shape()
        poly = shape.dpolygon                        # None for texts
        if poly is not None and poly.transformed(it.dtrans()).inside(point):
            hits += 1
            box = shape.dbbox().transformed(it.dtrans())   # in the active cell's coordinates
            print(f"{info.layer}/{info.datatype} in {it.cell().name} at depth {len(it.path())}: {box}")
        it.next()
print(f"{hits} shapes at ({X:g},{Y:g})")
