import math

import klayout.db as kdb

ly = kdb.Layout()
ly.read("rib.gds")
assert [c.name for c in ly.top_cells()] == ["RIB"], f"top cells {[c.name for c in ly.top_cells()]}"
top = ly.top_cell()


def region(l, d):
    li = ly.find_layer(l, d)
    assert li is not None, f"no layer {l}/{d}"
    return kdb.Region(top.begin_shapes_rec(li)).merged()


core, slab = region(1, 0), region(2, 0)
length = 30 + math.pi / 2 * 10
a_core, a_slab = core.area() * ly.dbu ** 2, slab.area() * ly.dbu ** 2
assert abs(a_core - 0.5 * length) / (0.5 * length) < 0.01, f"core area {a_core:.2f} µm², expected {0.5 * length:.2f}"
assert abs(a_slab - 4.0 * length) / (4.0 * length) < 0.01, f"slab area {a_slab:.2f} µm², expected {4 * length:.2f}"
assert (core - slab).area() == 0, "the slab must cover the core"
assert core.count() == 1, f"core is {core.count()} pieces; the bend must attach to the straight"
b = core.bbox().to_dtype(ly.dbu)
assert abs(b.width() - 40.25) < 0.05 and abs(b.height() - 10.25) < 0.05, f"core bbox {b}: 30 µm straight + 10 µm bend expected"
