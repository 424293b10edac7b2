"""Width test series with labels, width DRC markers and a pass/fail table."""
import json
import os

MIN_WIDTH = 0.4
LENGTH = 20.0
wg_layer = layout.layer(1, 0)
label_layer = layout.layer(10, 0)
marker_layer = layout.layer(99, 0)

widths = [round(0.30 + 0.05 * i, 2) for i in range(7)]
structures = []
for i, w in enumerate(widths):
    y = 5.0 * i
    box = pya.DBox(0, y - w / 2, LENGTH, y + w / 2)
    cell.shapes(wg_layer).insert(box)
    name = f"W{int(round(w * 1000))}"
    cell.shapes(label_layer).insert(pya.DText(name, pya.DTrans(pya.DVector(0, y))))
    structures.append((name, box))

errors = pya.Region(cell.begin_shapes_rec(wg_layer)).width_check(int(round(MIN_WIDTH / dbu)))
cell.shapes(marker_layer).insert(errors.polygons())

failing, passing = [], []
for name, box in structures:
    probe = pya.Region(box.to_itype(dbu))
    hit = errors.polygons().interacting(probe)
    (failing if not hit.is_empty() else passing).append(name)

with open(os.path.join(workdir, "width_test.json"), "w") as f:
    json.dump({"failing": sorted(failing), "passing": sorted(passing)}, f)
print("failing:", failing)
