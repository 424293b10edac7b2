import csv
import os

rows = list(csv.DictReader(open(os.path.join(workdir, "layer_stats.csv"))))
assert [r["layer"] for r in rows] == ["1/0", "2/0", "2/10", "10/0"], f"layers {[r['layer'] for r in rows]}"
cell_area = 100 * 50
exp = {
    "1/0": (12, 200 + 80 + 10, 0, 0, 100, 31),
    "2/0": (10, 160, 10, 20, 54, 34),
    "2/10": (1, 0, 5, 5, 5, 5),
    "10/0": (1, 5000, 0, 0, 100, 50),
}
for r in rows:
    n, area, x0, y0, x1, y1 = exp[r["layer"]]
    assert int(r["shapes"]) == n, f"{r['layer']}: shapes {r['shapes']}, expected {n}"
    assert abs(float(r["area_um2"]) - area) < 1e-6, f"{r['layer']}: area {r['area_um2']}, expected {area}"
    assert abs(float(r["density"]) - area / cell_area) < 1e-6, f"{r['layer']}: density {r['density']}"
    box = [round(float(r[k]), 3) for k in ("xmin", "ymin", "xmax", "ymax")]
    assert box == [x0, y0, x1, y1], f"{r['layer']}: bbox {box}, expected {[x0, y0, x1, y1]}"
assert "10/0" in (outcome.get("stdout") or ""), "print the densest layer (10/0)"
