import csv
import os

unit = layout.cell("UNIT")
assert unit is not None, "cell UNIT is gone"
placed = []
for inst in cell.each_inst():
    if inst.cell_index != unit.cell_index():
        continue
    for t in inst.cell_inst.each_cplx_trans():
        d = t.disp
        placed.append((round(d.x * dbu, 4), round(d.y * dbu, 4)))
expected = sorted((i * 20.0, j * 15.0) for i in range(4) for j in range(3))
assert sorted(placed) == expected, f"UNIT placed at {sorted(placed)}"
rows = list(csv.DictReader(open(os.path.join(workdir, "placements.csv"))))
table = sorted((int(r["column"]), int(r["row"]), float(r["x_um"]), float(r["y_um"])) for r in rows)
assert table == sorted((i, j, i * 20.0, j * 15.0) for i in range(4) for j in range(3)), f"placements.csv {table}"
