import re

pts = [pya.DPoint(0, 0), pya.DPoint(50, 0), pya.DPoint(50, 30), pya.DPoint(100, 30)]
for (l, d), w in (((1, 0), 0.5), ((111, 0), 3.0)):
    li = layout.find_layer(l, d)
    assert li is not None, f"no layer {l}/{d}"
    got = pya.Region(cell.begin_shapes_rec(li)).merged()
    want = pya.Region(pya.DPath(pts, w).to_itype(dbu).polygon())
    diff = (got ^ want).area() * dbu * dbu
    assert diff < 0.05 * w, f"layer {l}/{d} differs from a {w} µm path by {diff:.3f} µm²"
nums = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", outcome.get("stdout") or "")]
assert any(abs(x - 130.0) < 0.01 for x in nums), f"the printed length should be 130 µm: {outcome.get('stdout')!r}"
