import csv

import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()
rows = {round(float(r["length_um"]), 2): r for r in csv.DictReader(open("mmi_sweep.csv"))}
assert sorted(rows) == [4.0, 5.5, 7.0, 8.5], f"lengths {sorted(rows)}"
ly = kdb.Layout()
ly.read("mmi_sweep.gds")
assert [c.name for c in ly.top_cells()] == ["MMI_SWEEP"]
top = ly.top_cell()
labels = {}
it = top.begin_shapes_rec(ly.layer(10, 0))
while not it.at_end():
    if it.shape().is_text():
        t = it.shape().text.transformed(it.trans())
        labels[t.string] = (round(t.x * ly.dbu, 3), round(t.y * ly.dbu, 3))
    it.next()
wg = kdb.Region(top.begin_shapes_rec(ly.layer(1, 0))).merged()
for i, L in enumerate([4.0, 5.5, 7.0, 8.5]):
    c = gf.components.mmi1x2(length_mmi=L)
    p = {q.name: q.center for q in c.ports}
    dy = 30.0 * i
    exp = [p["o1"][0], p["o1"][1] + dy, p["o2"][0], p["o2"][1] + dy, p["o3"][0], p["o3"][1] + dy, c.dbbox().width()]
    r = rows[L]
    got = [float(r[k]) for k in ("input_x", "input_y", "out_upper_x", "out_upper_y", "out_lower_x", "out_lower_y", "total_width_um")]
    assert all(abs(a - b) < 1e-3 for a, b in zip(got, exp)), f"L={L}: {got} != {exp}"
    assert labels.get(f"L{L:.1f}") == (round(p["o1"][0], 3), round(p["o1"][1] + dy, 3)), f"label L{L:.1f}: {labels.get(f'L{L:.1f}')}"
    # the MMI body of this variant is in the layout at its row
    piece = (wg & kdb.Region(kdb.DBox(-50, dy - 10, 50, dy + 10).to_itype(ly.dbu))).bbox().to_dtype(ly.dbu)
    assert abs(piece.width() - c.dbbox().width()) < 1e-3, f"row {i}: width {piece.width()} != {c.dbbox().width()}"
