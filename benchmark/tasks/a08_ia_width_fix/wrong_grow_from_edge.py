"""Widen narrow waveguide rectangles on 1/0 to 0.5 µm around their centre line, then re-check."""
import json
import os

MIN_W = 0.5
li = layout.layer(1, 0)
shapes = cell.shapes(li)
min_w = int(round(MIN_W / dbu))


def violations():
    return pya.Region(shapes).width_check(min_w).count()


before = violations()
fixed = 0
for shape in list(shapes.each()):
    if not shape.is_box():
        poly = shape.polygon
        if not poly.is_box():
            continue
        box = poly.bbox()
    else:
        box = shape.box
    w, h = box.width(), box.height()
    if min(w, h) >= min_w:
        continue
    c = box.center()
    if w < h:   # vertical rectangle: widen in x
        new = pya.Box(box.left, box.bottom, box.left + min_w, box.top)
    else:       # horizontal rectangle: widen in y
        new = pya.Box(box.left, box.bottom, box.right, box.bottom + min_w)
    shapes.replace(shape, new)
    fixed += 1

after = violations()
if after:
    raise RuntimeError(f"{after} width violations remain")
with open(os.path.join(workdir, "fix.json"), "w") as f:
    json.dump({"fixed": fixed, "violations_before": before, "violations_after": after}, f)
print(f"fixed {fixed} rectangles ({before} violations before)")
