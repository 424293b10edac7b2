import json
import os

dev, dm = layout.cell("DEVICE"), layout.cell("DEVICE_M")
assert dm is not None, "no cell DEVICE_M"
pl = {layout.cell(i.cell_index).name: (round(i.dcplx_trans.disp.x, 3), round(i.dcplx_trans.disp.y, 3), i.dcplx_trans.is_mirror())
      for i in cell.each_inst()}
assert pl == {"DEVICE": (0, 0, False), "DEVICE_M": (100, 0, False)}, f"placements {pl}"
m = pya.Trans(pya.Trans.M90)
for l, d in ((1, 0), (2, 0)):
    li = layout.find_layer(l, d)
    want = pya.Region(dev.begin_shapes_rec(li)).transformed(m)
    got = pya.Region(dm.begin_shapes_rec(li))
    assert (want ^ got).is_empty(), f"DEVICE_M {l}/{d} is not DEVICE mirrored about the y axis"
b = dm.dbbox()
assert abs(b.left + 30) < 1e-6 and abs(b.right) < 1e-6, f"DEVICE_M bbox {b}: mirror about the y axis keeps x in [-30, 0]"
rep = json.load(open(os.path.join(workdir, "xor.json")))
assert set(rep) == {"1/0", "2/0"} and all(float(v) == 0 for v in rep.values()), rep
