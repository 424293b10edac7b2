# ---
# title = "All-pass ring resonator: through-port spectrum, FSR and notch depth versus theory"
# summary = "Builds an all-pass (notch) ring in SAX from an ideal coupler (power coupling k) and a straight of length 2 pi R closing the loop, sweeps the wavelength and reports the resonances, FSR (vs lambda^2 / (ng L)), minimum transmission (vs ((a - t) / (1 - a t))^2 with round-trip amplitude a) and extinction in dB. Writes ring_spectrum.csv and ring.json."
# kind = "sandbox"
# tags = ["ring resonator", "all-pass", "notch filter", "microring", "fsr", "extinction", "resonance", "coupling", "sax.circuit"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# csv_rows = {"ring_spectrum.csv" = 40001}
# files = ["ring_spectrum.csv", "ring.json"]
# csv_columns = {"ring_spectrum.csv" = ["wavelength_nm", "through", "through_dB"]}
# json_values = {"ring.json" = {"radius_um" = 10.0, "num_resonances" = 4, "fsr_matches_theory" = true, "min_transmission" = 0.848, "min_transmission_theory" = 0.848, "extinction_dB" = 0.72}}
# stdout = ["4 resonances", "FSR 9.0"]
# ---
import csv
import json

import numpy as np
import sax
from scipy.signal import find_peaks

RADIUS = 10.0          # um
COUPLING = 0.1         # power coupling bus <-> ring
NEFF, NG = 2.4, 4.2
LOSS_DB_CM = 3.0       # ring propagation loss
L = 2 * np.pi * RADIUS

netlist = {
    "instances": {"dc": "coupler", "ring": "straight"},
    "connections": {"dc,out1": "ring,in0", "ring,out0": "dc,in1"},      # close the loop
    "ports": {"in": "dc,in0", "through": "dc,out0"},
}
ring, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight})

wl = np.linspace(1.53, 1.57, 40001)      # um
s = ring(wl=wl, dc={"coupling": COUPLING}, ring={"length": L, "neff": NEFF, "ng": NG, "loss_dB_cm": LOSS_DB_CM})
T = np.abs(np.asarray(s["in", "through"])) ** 2

dips, _ = find_peaks(-T, prominence=0.05)
fsr_nm = float(np.mean(np.diff(wl[dips]))) * 1e3
theory_nm = float(np.mean(wl[dips])) ** 2 / (NG * L) * 1e3
a = 10 ** (-LOSS_DB_CM * L * 1e-4 / 20)         # round-trip amplitude
t = np.sqrt(1 - COUPLING)                          # self-coupling amplitude
tmin_theory = ((a - t) / (1 - a * t)) ** 2

with open("ring_spectrum.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_nm", "through", "through_dB"])
    w.writerows(zip(np.round(wl * 1e3, 4), np.round(T, 6), np.round(10 * np.log10(T), 4)))
result = {"radius_um": RADIUS, "num_resonances": len(dips),
          "resonances_nm": [round(float(x) * 1e3, 3) for x in wl[dips]],
          "fsr_nm": round(fsr_nm, 3), "fsr_theory_nm": round(theory_nm, 3),
          "fsr_matches_theory": bool(abs(fsr_nm / theory_nm - 1) < 2e-3),
          "min_transmission": round(float(T[dips].min()), 3), "min_transmission_theory": round(float(tmin_theory), 3),
          "extinction_dB": round(float(10 * np.log10(T.max() / T[dips].min())), 2)}
with open("ring.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"ring R = {RADIUS} um: {len(dips)} resonances, FSR {fsr_nm:.3f} nm (theory {theory_nm:.3f}), "
      f"Tmin {result['min_transmission']} (theory {result['min_transmission_theory']}), ER {result['extinction_dB']} dB")
