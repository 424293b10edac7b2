import csv
import os

l1, l199 = layout.find_layer(1, 0), layout.find_layer(1, 99)
assert l199 is not None, "no layer 1/99"
stay = sorted(round(p.area() * dbu * dbu, 4) for p in pya.Region(cell.shapes(l1)).merged().each())
moved = sorted(round(p.area() * dbu * dbu, 4) for p in pya.Region(cell.shapes(l199)).merged().each())
assert stay == [1.0, 1.2, 100.0], f"pieces left on 1/0: {stay}"
assert moved == [0.25, 0.5, 0.72], f"pieces on 1/99: {moved}"
assert layout.cell("SUB").shapes(l1).size() == 1, "the sub-cell must not be touched"
rows = [(round(float(r["x_um"]), 3), round(float(r["y_um"]), 3), round(float(r["area_um2"]), 4))
        for r in csv.DictReader(open(os.path.join(workdir, "small_shapes.csv")))]
assert rows == [(20.25, 0.25, 0.25), (30.6, 0.3, 0.72), (50.5, 0.5, 0.5)], f"small_shapes.csv {rows}"
import re

nums = re.findall(r"\d+", outcome.get("stdout") or "")
assert nums.count("3") >= 2, f"print how many pieces moved (3) and stayed (3): {outcome.get('stdout')!r}"
