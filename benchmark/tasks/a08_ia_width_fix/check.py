import json
import os

li = layout.find_layer(1, 0)
boxes = sorted(tuple(round(v * dbu, 4) for v in (b.left, b.bottom, b.right, b.top))
               for b in (s.bbox() for s in cell.shapes(li).each()))
expected = sorted([(0, -0.1, 20, 0.4), (0, 5, 20, 5.5), (0, 9.975, 20, 10.475), (29.95, 0, 30.45, 15),
                   (40, 0, 41, 15), (49.85, 0, 50.35, 8), (60, 0, 70, 6)])
assert boxes == expected, f"1/0 shapes {boxes}, expected {expected}"
assert pya.Region(cell.shapes(li)).width_check(500).count() == 0, "width violations remain"
assert cell.shapes(layout.find_layer(2, 0)).size() == 1 and cell.shapes(layout.find_layer(2, 0)).each().__next__().bbox().width() == 100, "2/0 was changed"
d = json.load(open(os.path.join(workdir, "fix.json")))
assert int(d["fixed"]) == 4 and int(d["violations_after"]) == 0 and int(d["violations_before"]) == 4, f"fix.json {d}"
