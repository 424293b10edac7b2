import csv
import os

rows = list(csv.DictReader(open(os.path.join(workdir, "labels.csv"))))
got = [(r["text"], round(float(r["x_um"]), 4), round(float(r["y_um"]), 4)) for r in rows]
# DEV_A at (1.5, 2) in DEVICE, rotated 90° and moved by (100, 0) in BLOCK -> (98, 1.5); BLOCK at (200, 50)
expected = [("BLK", 205.0, 55.0), ("DEV_A", 298.0, 51.5), ("TOP_IN", 0.0, 0.0), ("TOP_OUT", 500.0, 12.5)]
assert got == expected, f"labels.csv {got}, expected {expected}"
