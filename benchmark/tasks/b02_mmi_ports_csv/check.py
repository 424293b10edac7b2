import csv

import gdsfactory as gf

gf.gpdk.PDK.activate()
ref = {p.name: (p.center[0], p.center[1], p.orientation % 360, p.width) for p in gf.components.mmi2x2().ports}
with open("ports.csv", newline="") as f:
    rows = list(csv.DictReader(f))
assert rows, "ports.csv has no rows"
for col in ("name", "x", "y", "orientation", "width"):
    assert col in rows[0], f"missing column {col}: {list(rows[0])}"
got = {r["name"].strip(): (float(r["x"]), float(r["y"]), float(r["orientation"]) % 360, float(r["width"])) for r in rows}
assert set(got) == set(ref), f"ports {sorted(got)}, expected {sorted(ref)}"
for name, exp in ref.items():
    assert all(abs(a - b) < 1e-3 for a, b in zip(got[name], exp)), f"port {name}: {got[name]} != {exp}"
