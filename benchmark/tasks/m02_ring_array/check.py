import klayout.db as kdb

ly = kdb.Layout()
ly.read("ring_array.gds")
assert [c.name for c in ly.top_cells()] == ["RING_ARRAY"], f"top cells {[c.name for c in ly.top_cells()]}"
reg = kdb.Region(ly.top_cell().begin_shapes_rec(ly.layer(1, 0))).merged()
rings = [p.bbox().to_dtype(ly.dbu) for p in reg.each() if p.holes() > 0]
assert len(rings) == 12, f"{len(rings)} rings, expected 12"
for r in rings:
    assert 10.4 < r.height() < 11.6, f"ring height {r.height():.2f} µm, expected ~10.5 (5 µm radius)"
xs = sorted({round(r.center().x, 2) for r in rings})
ys = sorted({round(r.center().y, 2) for r in rings})
assert len(xs) == 4 and len(ys) == 3, f"{len(xs)} columns x {len(ys)} rows, expected 4 x 3"
dx = {round(b - a, 2) for a, b in zip(xs, xs[1:])}
dy = {round(b - a, 2) for a, b in zip(ys, ys[1:])}
assert dx == {60.0} and dy == {40.0}, f"pitch x {dx}, y {dy}, expected 60 and 40"
