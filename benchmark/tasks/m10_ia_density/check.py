import csv
import os

src = pya.Region(cell.begin_shapes_rec(layout.find_layer(1, 0))).merged()
expected = {}
for j in range(4):
    for i in range(4):
        b = pya.DBox(i * 25, j * 25, (i + 1) * 25, (j + 1) * 25).to_itype(dbu)
        expected[(i * 25.0, j * 25.0)] = (src & pya.Region(b)).area() / b.area()
rows = list(csv.DictReader(open(os.path.join(workdir, "density.csv"))))
got = {(float(r["x0"]), float(r["y0"])): float(r["density"]) for r in rows}
assert set(got) == set(expected), f"tiles {sorted(got)}"
for k, v in expected.items():
    assert abs(got[k] - v) < 1e-4, f"tile {k}: density {got[k]:.4f}, expected {v:.4f}"
low = [k for k, v in expected.items() if v < 0.2]
assert low and len(low) < 16, "the test layout should have some low-density tiles"
lm = layout.find_layer(100, 0)
assert lm is not None, "no markers on layer 100/0"
marked = pya.Region(cell.shapes(lm)).merged()
want = pya.Region()
for (x, y) in low:
    want.insert(pya.DBox(x, y, x + 25, y + 25).to_itype(dbu))
assert (marked ^ want.merged()).is_empty(), "the 100/0 markers do not match the tiles below 20 %"
