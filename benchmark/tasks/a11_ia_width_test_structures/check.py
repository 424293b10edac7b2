import json
import os

wg = pya.Region(cell.shapes(layout.find_layer(1, 0)))
want = pya.Region()
want.insert(pya.DBox(-50, -5, -30, 5).to_itype(dbu))
for i in range(7):
    w = 0.30 + 0.05 * i
    want.insert(pya.DBox(0, 5 * i - w / 2, 20, 5 * i + w / 2).to_itype(dbu))
assert (wg ^ want).is_empty(), "the waveguides on 1/0 are not the requested series"
labels = {}
for s in cell.shapes(layout.find_layer(10, 0)).each():
    if s.is_text():
        labels[s.text.string] = (round(s.text.x * dbu, 3), round(s.text.y * dbu, 3))
assert labels == {f"W{300 + 50 * i}": (0.0, 5.0 * i) for i in range(7)}, f"labels {labels}"
mk = layout.find_layer(99, 0)
assert mk is not None, "no markers on 99/0"
assert (pya.Region(cell.shapes(mk)) ^ want.width_check(450).polygons()).is_empty(), "markers differ from the 0.45 µm width check"
d = json.load(open(os.path.join(workdir, "width_test.json")))
assert d["failing"] == ["W300", "W350", "W400"] and d["passing"] == ["W450", "W500", "W550", "W600"], d
