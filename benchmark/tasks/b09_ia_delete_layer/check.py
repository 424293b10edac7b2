l5 = layout.find_layer(5, 0)
l1 = layout.find_layer(1, 0)
assert l5 is not None and l1 is not None, "layers 1/0 and 5/0 must remain defined"
assert cell.shapes(l5).size() == 0, f"{cell.shapes(l5).size()} shapes left on 5/0 in {cell.name}"
assert cell.shapes(l1).size() == 4, "shapes on 1/0 were changed"
sub = layout.cell("MARKS")
assert sub is not None and sub.shapes(l5).size() == 2, "the sub-cell's 5/0 shapes must stay"
assert cell.child_cells() == 1, "the sub-cell instance must stay"
