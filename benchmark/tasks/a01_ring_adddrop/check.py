import csv
import json
import math

import klayout.db as kdb

# layout: a circular ring of radius 20 µm between two buses, 0.2 µm gaps
ly = kdb.Layout()
ly.read("ring_ad.gds")
reg = kdb.Region(ly.top_cell().begin_shapes_rec(ly.layer(1, 0))).merged()
rings = [p.bbox().to_dtype(ly.dbu) for p in reg.each() if p.holes() > 0]
buses = [p.bbox().to_dtype(ly.dbu) for p in reg.each() if p.holes() == 0]
assert len(rings) == 1 and len(buses) == 2, f"{len(rings)} rings and {len(buses)} buses, expected 1 and 2"
r = rings[0]
assert abs(r.width() - 40.5) < 0.05 and abs(r.height() - 40.5) < 0.05, f"ring bbox {r}: not a circular 20 µm ring"
gaps = sorted([r.bottom - max(b.top for b in buses if b.top <= r.bottom + 1e-6),
               min(b.bottom for b in buses if b.bottom >= r.top - 1e-6) - r.top])
assert all(abs(g - 0.2) < 0.01 for g in gaps), f"gaps {gaps}"

# spectrum
rows = list(csv.DictReader(open("spectrum.csv")))
assert len(rows) == 4001, f"{len(rows)} spectrum rows"
wl = [float(x["wavelength_um"]) for x in rows]
t = [float(x["through"]) for x in rows]
d = [float(x["drop"]) for x in rows]
assert all(abs(a + b - 1) < 1e-3 for a, b in zip(t, d)), "through + drop must be 1 (lossless)"
assert max(d) > 0.99 and min(t) < 0.01, "a lossless symmetric add-drop ring drops fully at resonance"
# off resonance the drop port sees k1²k2²/(1+t1t2)² = 0.0028 for 10 % power coupling (0.035 for 31.6 %)
assert min(d) < 0.005, f"minimum drop {min(d):.4f}: the coupling is not 10 % in power"
fsr_theory = 1.55 ** 2 / (3.4 * 2 * math.pi * 20) * 1000
res = json.load(open("resonances.json"))
peaks = res["peaks_um"]
assert 3 <= len(peaks) <= 4, f"{len(peaks)} drop peaks in 20 nm, expected 3-4 (FSR {fsr_theory:.2f} nm)"
assert abs(float(res["fsr_nm"]) - fsr_theory) / fsr_theory < 0.03, f"FSR {res['fsr_nm']} nm, expected ~{fsr_theory:.2f}"
for p in peaks:
    i = min(range(len(wl)), key=lambda k: abs(wl[k] - p))
    assert d[i] > 0.9, f"no drop peak at {p} µm"
