import csv
import json
import math

er = {round(float(k), 3): float(v) for k, v in json.load(open("extinction.json")).items()}
assert sorted(er) == [0.3, 0.4, 0.45, 0.5], f"couplings {sorted(er)}"
rows = {round(float(r["coupling"]), 3): r for r in csv.DictReader(open("extinction.csv"))}
# cross port of two identical couplers: amplitude j·sqrt(k(1-k))·(e^{iφa} + e^{iφb}) -> max 4k(1-k), min ~0
for k in (0.45, 0.4, 0.3):
    tmax, tmin = float(rows[k]["t_max"]), float(rows[k]["t_min"])
    assert abs(tmax - 4 * k * (1 - k)) < 1e-3, f"coupling {k}: cross max {tmax}, expected {4 * k * (1 - k):.4f}"
    assert abs(float(rows[k]["er_db"]) - er[k]) < 1e-6, "CSV and JSON disagree"
    assert abs(er[k] - 10 * math.log10(tmax / max(tmin, 1e-12))) < 1e-6, f"coupling {k}: er_db is not 10·log10(max/min)"
assert abs(float(rows[0.5]["t_max"]) - 1.0) < 1e-3, "balanced MZI must reach full transmission on the cross port"
assert er[0.5] > 40, f"balanced MZI extinction {er[0.5]:.1f} dB, expected very high"
