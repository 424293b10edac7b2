import csv
import math

rows = {round(float(r["coupling"]), 3): r for r in csv.DictReader(open("linewidth.csv"))}
assert sorted(rows) == [0.02, 0.05, 0.1, 0.2], f"couplings {sorted(rows)}"
L = 2 * math.pi * 10
fsr_um = 1.55 ** 2 / (3.4 * L)
prev = 0
for k in (0.02, 0.05, 0.1, 0.2):
    r = rows[k]
    res, fwhm_pm, q = float(r["resonance_um"]), float(r["fwhm_pm"]), float(r["q_loaded"])
    assert abs(res - 1.55) < fsr_um / 2 + 1e-4, f"κ²={k}: resonance {res} is not the one closest to 1.55"
    t2 = 1 - k  # round-trip field factor t1*t2 = 1 - κ² for two equal lossless couplers
    expected_pm = fsr_um / math.pi * 2 * math.asin((1 - t2) / (2 * math.sqrt(t2))) * 1e6
    assert abs(fwhm_pm - expected_pm) / expected_pm < 0.05, f"κ²={k}: FWHM {fwhm_pm:.2f} pm, expected ~{expected_pm:.2f}"
    assert abs(q - res / (fwhm_pm * 1e-6)) / q < 0.01, f"κ²={k}: q_loaded {q} is not resonance / FWHM"
    assert fwhm_pm > prev, "the linewidth must grow with the coupling"
    prev = fwhm_pm
with open("drop_spectra.png", "rb") as f:
    assert f.read(8) == b"\x89PNG\r\n\x1a\n", "drop_spectra.png is not a PNG"
