"""Mirrored variant of DEVICE (x -> -x), placed next to it, verified by XOR per layer."""
import json
import os

dev = layout.cell("DEVICE")
mirror = pya.Trans(pya.Trans.M0)

dev_m = layout.create_cell("DEVICE_M")
layers = []
for li in layout.layer_indexes():
    src = pya.Region(dev.begin_shapes_rec(li))
    if src.is_empty():
        continue
    layers.append(li)
    dev_m.shapes(li).insert(src.transformed(mirror))

cell.insert(pya.DCellInstArray(dev.cell_index(), pya.DTrans()))
cell.insert(pya.DCellInstArray(dev_m.cell_index(), pya.DTrans(pya.DVector(100, 0))))

report = {}
for li in layers:
    a = pya.Region(dev.begin_shapes_rec(li)).transformed(mirror)
    b = pya.Region(dev_m.begin_shapes_rec(li))
    info = layout.get_info(li)
    report[f"{info.layer}/{info.datatype}"] = (a ^ b).area() * dbu * dbu
with open(os.path.join(workdir, "xor.json"), "w") as f:
    json.dump(report, f)
if any(v > 0 for v in report.values()):
    raise RuntimeError(f"XOR not empty: {report}")
print(report)
