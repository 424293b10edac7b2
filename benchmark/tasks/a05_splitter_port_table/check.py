import csv
import json

import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()
mmi = {p.name: p for p in gf.components.mmi1x2().ports}
x_out = mmi["o2"].center[0] + 20
expected = {
    "in1": (mmi["o1"].center[0], mmi["o1"].center[1], 180.0, 0.5),
    "out1": (x_out, mmi["o2"].center[1], 0.0, 0.5),
    "out2": (x_out, mmi["o3"].center[1], 0.0, 0.5),
}
rows = {r["name"]: r for r in csv.DictReader(open("split_ports.csv"))}
assert set(rows) == set(expected), f"ports {sorted(rows)}"
for n, e in expected.items():
    g = (float(rows[n]["x"]), float(rows[n]["y"]), float(rows[n]["orientation"]) % 360, float(rows[n]["width"]))
    assert all(abs(a - b) < 1e-3 for a, b in zip(g, e)), f"{n}: {g}, expected {e}"
lengths = json.load(open("split_ports.json"))
assert {k: round(float(v), 3) for k, v in lengths.items()} == {"in1": 0.0, "out1": 20.0, "out2": 20.0}, lengths
ly = kdb.Layout()
ly.read("split.gds")
assert [c.name for c in ly.top_cells()] == ["SPLIT"]
wg = kdb.Region(ly.top_cell().begin_shapes_rec(ly.layer(1, 0))).merged()
assert wg.count() == 1, "the arms must touch the MMI outputs"
b = wg.bbox().to_dtype(ly.dbu)
assert abs(b.right - x_out) < 1e-3 and abs(b.left - mmi["o1"].center[0]) < 1e-3, f"circuit extent {b}"
