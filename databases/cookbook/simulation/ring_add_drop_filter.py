# ---
# title = "Add-drop ring filter: through and drop spectra, drop peak, bandwidth and power conservation"
# summary = "Builds an add-drop ring in SAX from two ideal couplers (input and drop bus, power couplings k1 and k2) joined by two half-ring straights, sweeps the wavelength and reports the drop-port peak (1 for a lossless symmetric ring), the through-port minimum, FSR, 3 dB bandwidth (vs lambda^2 (1 - r) / (pi ng L sqrt(r)), r = t1 t2) and loaded Q of the drop peak, and checks through + drop = 1 when lossless. Writes add_drop.csv and add_drop.json."
# kind = "sandbox"
# tags = ["add-drop", "ring filter", "drop port", "through port", "double bus ring", "wdm filter", "q factor", "bandwidth", "sax.circuit"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# csv_rows = {"add_drop.csv" = 40001}
# files = ["add_drop.csv", "add_drop.json"]
# csv_columns = {"add_drop.csv" = ["wavelength_nm", "through", "drop"]}
# json_values = {"add_drop.json" = {"drop_peak" = 1.0, "through_min" = 0.0, "power_conserved" = true, "num_drop_peaks" = 4, "fsr_matches_theory" = true, "fwhm_matches_theory" = true}}
# stdout = ["drop peak 1.0000", "through + drop = 1: True"]
# ---
import csv
import json

import numpy as np
import sax
from scipy.signal import find_peaks

RADIUS = 10.0
K1, K2 = 0.1, 0.1          # power coupling of the input and drop couplers
NEFF, NG = 2.4, 4.2
L_HALF = np.pi * RADIUS    # um, each half of the ring

netlist = {
    "instances": {"dc_in": "coupler", "half_a": "straight", "dc_drop": "coupler", "half_b": "straight"},
    "connections": {"dc_in,out1": "half_a,in0", "half_a,out0": "dc_drop,in1",
                    "dc_drop,out1": "half_b,in0", "half_b,out0": "dc_in,in1"},
    "ports": {"in": "dc_in,in0", "through": "dc_in,out0", "add": "dc_drop,in0", "drop": "dc_drop,out0"},
}
ring, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight})

wl = np.linspace(1.53, 1.57, 40001)
half = {"length": L_HALF, "neff": NEFF, "ng": NG}
s = ring(wl=wl, dc_in={"coupling": K1}, dc_drop={"coupling": K2}, half_a=half, half_b=half)
thru = np.abs(np.asarray(s["in", "through"])) ** 2
drop = np.abs(np.asarray(s["in", "drop"])) ** 2

peaks, _ = find_peaks(drop, prominence=0.5)
fsr_nm = float(np.mean(np.diff(wl[peaks]))) * 1e3
theory_nm = float(np.mean(wl[peaks])) ** 2 / (NG * 2 * L_HALF) * 1e3
p = peaks[len(peaks) // 2]
band = np.flatnonzero(drop >= 0.5 * drop[p])
band = band[(band > p - 2000) & (band < p + 2000)]          # the middle peak only
fwhm_nm = (wl[band.max()] - wl[band.min()]) * 1e3
q_loaded = wl[p] * 1e3 / fwhm_nm
r = np.sqrt((1 - K1) * (1 - K2))                           # round-trip self-coupling (lossless)
fwhm_theory_nm = wl[p] ** 2 * (1 - r) / (np.pi * NG * 2 * L_HALF * np.sqrt(r)) * 1e3

with open("add_drop.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_nm", "through", "drop"])
    w.writerows(zip(np.round(wl * 1e3, 4), np.round(thru, 6), np.round(drop, 6)))
result = {"drop_peak": round(float(drop.max()), 4), "through_min": round(float(thru.min()), 4),
          "power_conserved": bool(np.max(np.abs(thru + drop - 1)) < 1e-9),
          "num_drop_peaks": len(peaks), "fsr_nm": round(fsr_nm, 3),
          "fsr_matches_theory": bool(abs(fsr_nm / theory_nm - 1) < 2e-3),
          "fwhm_nm": round(float(fwhm_nm), 3), "fwhm_theory_nm": round(float(fwhm_theory_nm), 3),
          "fwhm_matches_theory": bool(abs(fwhm_nm / fwhm_theory_nm - 1) < 0.02), "q_loaded": round(float(q_loaded))}
with open("add_drop.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"drop peak {drop.max():.4f}, through min {thru.min():.4f}, FSR {fsr_nm:.3f} nm, FWHM {fwhm_nm:.3f} nm, "
      f"Q {q_loaded:.0f}, through + drop = 1: {result['power_conserved']}")
