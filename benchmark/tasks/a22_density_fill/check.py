import json

import klayout.db as kdb

ly = kdb.Layout()
ly.read("filled.gds")
top = ly.top_cell()
fc = ly.cell("FILL")
assert fc is not None, "no cell FILL"
insts = [i for i in top.each_inst() if i.cell_index == fc.cell_index()]
assert len(insts) == 1 and insts[0].dcplx_trans.disp == kdb.DVector(0, 0), "FILL must be placed once at the origin"
wg = kdb.Region(top.begin_shapes_rec(ly.layer(1, 0))).merged()
li = ly.find_layer(1, 2)
assert li is not None, "no fill on 1/2"
fill = kdb.Region(top.begin_shapes_rec(li))
assert fill.count() > 0
for p in fill.each():
    b = p.bbox().to_dtype(ly.dbu)
    assert abs(b.width() - 2) < 1e-6 and abs(b.height() - 2) < 1e-6, f"fill square {b}"
    assert abs((b.left - 1) / 4 - round((b.left - 1) / 4)) < 1e-6 and abs((b.bottom - 1) / 4 - round((b.bottom - 1) / 4)) < 1e-6, f"off grid {b}"
assert wg.separation_check(fill, 1500).is_empty() and (wg & fill).is_empty(), "fill closer than 1.5 µm to 1/0"
total = wg + fill.merged()
low_after = 0
tiles_low_before = 0
for j in range(3):
    for i in range(5):
        t = kdb.DBox(20 * i, 20 * j, 20 * i + 20, 20 * j + 20).to_itype(ly.dbu)
        before = (wg & kdb.Region(t)).area() / t.area()
        after = (total & kdb.Region(t)).area() / t.area()
        tiles_low_before += before < 0.2
        low_after += after < 0.2
        if before >= 0.2:
            assert (fill & kdb.Region(t)).is_empty(), f"tile {i},{j} was already dense enough and must not be filled"
assert low_after == 0, f"{low_after} tiles still below 20 %"
d = json.load(open("fill.json"))
assert int(d["tiles_below_before"]) == tiles_low_before and int(d["tiles_below_after"]) == 0 and int(d["fill_squares"]) == fill.count(), d
