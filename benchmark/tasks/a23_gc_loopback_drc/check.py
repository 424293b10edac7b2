import json

import klayout.db as kdb

ly = kdb.Layout()
ly.read("loopback.gds")
assert [c.name for c in ly.top_cells()] == ["LOOPBACK"]
top = ly.top_cell()
wg = kdb.Region(top.begin_shapes_rec(ly.layer(1, 0))).merged()


def covered(x, y):
    return not (wg & kdb.Region(kdb.DBox(x - 0.02, y - 0.02, x + 0.02, y + 0.02).to_itype(ly.dbu))).is_empty()


for x in (0.0, 150.0, 300.0):
    assert covered(x, 0.0), f"no waveguide at ({x}, 0)"
assert not covered(150.0, 0.4), "the connecting waveguide is wider than expected"
bb = wg.bbox().to_dtype(ly.dbu)
assert bb.left < -30 and bb.right > 330, f"the couplers must face each other, gratings outside: {bb}"
piece = [p for p in wg.each() if p.bbox().to_dtype(ly.dbu).contains(kdb.DPoint(150, 0))]
assert piece and piece[0].bbox().to_dtype(ly.dbu).left <= 0.5 and piece[0].bbox().to_dtype(ly.dbu).right >= 299.5, "the route must join both ports"
rep = json.load(open("loopback_drc.json"))
assert abs(float(rep["route_length_um"]) - 300.942) < 0.05, f"route length {rep['route_length_um']}, expected 300.942"
for li in ly.layer_indexes():
    r = kdb.Region(top.begin_shapes_rec(li))
    if r.is_empty():
        continue
    info = ly.get_info(li)
    k = f"{info.layer}/{info.datatype}"
    assert k in rep, f"layer {k} missing in loopback_drc.json"
    exp = {"width": r.width_check(400).count(), "space": r.space_check(200).count()}
    assert {a: int(b) for a, b in rep[k].items()} == exp, f"{k}: {rep[k]}, expected {exp}"
