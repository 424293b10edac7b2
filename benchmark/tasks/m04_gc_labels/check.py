import klayout.db as kdb

ly = kdb.Layout()
ly.read("gc_row.gds")
assert [c.name for c in ly.top_cells()] == ["GC_ROW"], f"top cells {[c.name for c in ly.top_cells()]}"
top = ly.top_cell()
li = ly.find_layer(10, 0)
assert li is not None, "no layer 10/0"
labels = {}
it = top.begin_shapes_rec(li)
while not it.at_end():
    if it.shape().is_text():
        t = it.shape().text.transformed(it.trans())
        labels[t.string] = kdb.DPoint(t.x * ly.dbu, t.y * ly.dbu)
    it.next()
assert sorted(labels) == ["GC0", "GC1", "GC2", "GC3"], f"labels {sorted(labels)}"
wg = kdb.Region(top.begin_shapes_rec(ly.layer(1, 0))).merged()
assert not wg.is_empty(), "no grating couplers on layer 1/0"
x0 = labels["GC0"].x
for i in range(4):
    p = labels[f"GC{i}"]
    assert abs(p.x - x0 - 127 * i) < 0.01, f"GC{i} at x={p.x}, expected {x0 + 127 * i} (127 µm pitch)"
    window = kdb.Region(kdb.DBox(127 * i - 30, -60, 127 * i + 90, 60).to_itype(ly.dbu))
    piece = (wg & window).bbox().to_dtype(ly.dbu)
    assert not piece.empty(), f"no grating coupler {i} near x={127 * i}"
    # the waveguide port is the narrow tip on the left side of the default coupler, on its axis
    assert abs(p.x - piece.left) < 0.01 and abs(p.y - piece.center().y) < 0.01, f"GC{i} at {p}, port tip at {piece.left},{piece.center().y}"
    assert abs(piece.left - 127 * i) < 5, f"coupler {i} is not at x={127 * i}"
