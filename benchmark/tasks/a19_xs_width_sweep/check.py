import json
import math

import klayout.db as kdb

ly = kdb.Layout()
ly.read("xs_sweep.gds")
assert [c.name for c in ly.top_cells()] == ["XS_SWEEP"]
top = ly.top_cell()
core = kdb.Region(top.begin_shapes_rec(ly.layer(1, 0))).merged()
clad = kdb.Region(top.begin_shapes_rec(ly.layer(111, 0))).merged()
labels = {}
it = top.begin_shapes_rec(ly.layer(10, 0))
while not it.at_end():
    if it.shape().is_text():
        t = it.shape().text.transformed(it.trans())
        labels[t.string] = (round(t.x * ly.dbu, 3), round(t.y * ly.dbu, 3))
    it.next()
rep = json.load(open("xs_sweep.json"))
path_len = 100 + math.pi * 15
for i, w in enumerate([0.4, 0.5, 0.6, 0.8, 1.0]):
    name = f"W{int(round(w * 1000))}"
    assert labels.get(name) == (0.0, 50.0 * i), f"label {name}: {labels.get(name)}"
    win = kdb.Region(kdb.DBox(-50, 50 * i - 10, 200, 50 * i + 40).to_itype(ly.dbu))
    a_core = (core & win).area() * ly.dbu ** 2
    a_clad = (clad & win).area() * ly.dbu ** 2
    assert abs(a_core - w * path_len) / (w * path_len) < 0.01, f"{name}: core area {a_core:.2f}, expected {w * path_len:.2f}"
    assert abs(a_clad - (w + 2) * path_len) / ((w + 2) * path_len) < 0.01, f"{name}: cladding area {a_clad:.2f}"
    piece = (core & win).bbox().to_dtype(ly.dbu)
    assert abs(piece.height() - (30 + w)) < 0.05, f"{name}: the 180° bend of radius 15 is missing ({piece})"
    assert abs(float(rep[name]["core_area_um2"]) - a_core) < 0.01 * a_core and abs(float(rep[name]["clad_area_um2"]) - a_clad) < 0.01 * a_clad, f"xs_sweep.json {name}"
