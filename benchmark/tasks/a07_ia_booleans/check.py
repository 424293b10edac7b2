import json
import os

si = pya.Region(cell.begin_shapes_rec(layout.find_layer(1, 0))).merged()
mask = pya.Region(cell.begin_shapes_rec(layout.find_layer(2, 0))).merged()
expected = {(3, 0): si & mask, (4, 0): si - mask, (5, 0): si ^ mask, (6, 0): mask.sized(500) - si}
areas = json.load(open(os.path.join(workdir, "areas.json")))
for (l, d), exp in expected.items():
    li = layout.find_layer(l, d)
    assert li is not None, f"no layer {l}/{d}"
    got = pya.Region(cell.begin_shapes_rec(li))
    tol = 3.0 if (l, d) == (6, 0) else 1e-6    # corner style of the 0.5 µm growth may differ
    assert (got ^ exp).area() * dbu * dbu <= tol, f"layer {l}/{d} is not the expected boolean result"
    assert abs(float(areas[f"{l}/{d}"]) - exp.area() * dbu * dbu) <= tol, f"areas.json {l}/{d}"
assert abs(float(areas["1/0"]) - si.area() * dbu * dbu) < 1e-6 and abs(float(areas["2/0"]) - mask.area() * dbu * dbu) < 1e-6
