l2 = layout.find_layer(2, 0)
assert l2 is not None, "no layer 2/0"
src = pya.Region(cell.begin_shapes_rec(layout.find_layer(1, 0)))
expected = src.sized(int(round(1.0 / dbu)))
got = pya.Region(cell.begin_shapes_rec(l2))
diff = got ^ expected
# corner style (square / octagonal) may differ: allow ~0.3 µm² per corner
assert diff.area() * dbu * dbu < 4.0, f"layer 2/0 differs from 1/0 grown by 1 µm by {diff.area() * dbu * dbu:.3f} µm²"
