# ---
# title = "Find the resonances of a ring spectrum: wavelength, depth, FWHM and Q to CSV"
# summary = "Simulates an all-pass ring in SAX, finds every resonance dip with scipy.signal.find_peaks, measures its depth in dB and its full width at half depth with peak_widths, and computes the loaded Q = lambda / FWHM. Writes one row per resonance to resonances.csv and a summary to resonances.json. Works on any simulated or measured spectrum array."
# kind = "sandbox"
# tags = ["resonance", "find peaks", "dips", "q factor", "fwhm", "linewidth", "ring", "spectrum analysis", "scipy", "csv"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# csv_rows = {"resonances.csv" = 9}
# files = ["resonances.csv", "resonances.json"]
# csv_columns = {"resonances.csv" = ["wavelength_nm", "depth_dB", "fwhm_pm", "q_loaded"]}
# json_values = {"resonances.json" = {"num_resonances" = 9, "q_matches_theory" = true}}
# stdout = ["9 resonances"]
# ---
import csv
import json

import numpy as np
import sax
from scipy.signal import find_peaks, peak_widths

RADIUS = 15.0
COUPLING = 0.05
NEFF, NG = 2.4, 4.2
LOSS_DB_CM = 2.0
L = 2 * np.pi * RADIUS

netlist = {
    "instances": {"dc": "coupler", "ring": "straight"},
    "connections": {"dc,out1": "ring,in0", "ring,out0": "dc,in1"},
    "ports": {"in": "dc,in0", "through": "dc,out0"},
}
ring, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight})
wl = np.linspace(1.52, 1.58, 60001)         # um, 1 pm steps
s = ring(wl=wl, dc={"coupling": COUPLING}, ring={"length": L, "neff": NEFF, "ng": NG, "loss_dB_cm": LOSS_DB_CM})
T = np.abs(np.asarray(s["in", "through"])) ** 2

dips, props = find_peaks(-T, prominence=0.1)
widths = peak_widths(-T, dips, rel_height=0.5)[0]       # in samples, at half of each dip's depth
step_pm = (wl[1] - wl[0]) * 1e6
rows = []
for i, wsamp in zip(dips, widths):
    fwhm_pm = wsamp * step_pm
    rows.append([round(wl[i] * 1e3, 3), round(10 * np.log10(T[i]), 3), round(fwhm_pm, 2), round(wl[i] * 1e6 / fwhm_pm)])

# theory for an all-pass ring: FWHM = lambda^2 (1 - a t) / (pi ng L sqrt(a t))
a, t = 10 ** (-LOSS_DB_CM * L * 1e-4 / 20), np.sqrt(1 - COUPLING)
q_theory = np.pi * NG * L * np.sqrt(a * t) / (1.55 * (1 - a * t))
q_mid = rows[len(rows) // 2][3]
with open("resonances.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_nm", "depth_dB", "fwhm_pm", "q_loaded"])
    w.writerows(rows)
with open("resonances.json", "w") as f:
    json.dump({"num_resonances": len(rows), "q_loaded_mid": q_mid, "q_theory": round(float(q_theory)),
               "q_matches_theory": bool(abs(q_mid / q_theory - 1) < 0.03)}, f, indent=2)
print(f"{len(rows)} resonances; middle one at {rows[len(rows) // 2][0]} nm: FWHM {rows[len(rows) // 2][2]} pm, "
      f"Q {q_mid} (theory {q_theory:.0f})")
