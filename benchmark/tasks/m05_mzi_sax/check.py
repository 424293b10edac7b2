import csv
import math

rows = list(csv.DictReader(open("mzi.csv")))
assert len(rows) == 501, f"{len(rows)} rows, expected 501"
wl = [float(r["wavelength_um"]) for r in rows]
bar = [float(r["T_bar"]) for r in rows]
cross = [float(r["T_cross"]) for r in rows]
assert abs(wl[0] - 1.5) < 1e-9 and abs(wl[-1] - 1.6) < 1e-9, "sweep must span 1.50-1.60 µm"
for w, b, c in zip(wl, bar, cross):
    assert abs(b + c - 1) < 1e-3, f"not lossless at {w}: {b} + {c}"
    neff = 2.34 - (w - 1.55) * (3.4 - 2.34) / 1.55      # first-order dispersion from the group index
    expected_bar = math.sin(math.pi * neff * 40.0 / w) ** 2
    assert abs(b - expected_bar) < 0.02, f"T_bar at {w:.4f} µm is {b:.4f}, expected {expected_bar:.4f}"
