li = layout.find_layer(2, 0)
assert li is not None, "no layer 2/0"
shapes = list(cell.shapes(li).each())
assert len(shapes) == 1, f"{len(shapes)} shapes on 2/0, expected 1"
box = pya.Region(cell.shapes(li)).bbox().to_dtype(layout.dbu)
assert box == pya.DBox(0, 0, 10, 5), f"rectangle {box}, expected (0,0;10,5)"
assert pya.Region(cell.shapes(li)).area() * dbu ** 2 == 50
assert cell.shapes(layout.find_layer(1, 0)).size() == 1, "the existing shape on 1/0 was changed"
