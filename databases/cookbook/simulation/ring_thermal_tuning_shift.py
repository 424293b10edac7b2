# ---
# title = "Thermal tuning of a ring resonance: wavelength shift per kelvin from a temperature sweep"
# summary = "Shifts the effective index of an all-pass ring's waveguide with temperature (neff + dn/dT x dT, silicon dn/dT = 1.8e-4 /K), tracks the resonance near 1550 nm over a temperature sweep in SAX and fits the shift in pm/K. Compares with d(lambda)/dT = lambda (dn/dT) / ng. Writes thermal_shift.csv and thermal_tuning.json."
# kind = "sandbox"
# tags = ["thermal tuning", "thermo-optic", "dn/dT", "heater", "resonance shift", "temperature", "pm/K", "ring", "sax"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# csv_rows = {"thermal_shift.csv" = 6}
# files = ["thermal_shift.csv", "thermal_tuning.json"]
# csv_columns = {"thermal_shift.csv" = ["delta_T_K", "resonance_nm"]}
# json_values = {"thermal_tuning.json" = {"shift_pm_per_K_theory" = 66.5, "matches_theory" = true, "num_temperatures" = 6}}
# stdout = ["pm/K"]
# ---
import csv
import json

import numpy as np
import sax
from scipy.signal import find_peaks

RADIUS = 10.0
NEFF, NG = 2.4, 4.2
DN_DT = 1.8e-4                  # 1/K, thermo-optic coefficient of silicon
TEMPS = np.arange(0, 51, 10)    # K above the start temperature
LOSS_DB_CM = 3.0               # a lossless all-pass ring has no dips (|T| = 1), so give it loss
L = 2 * np.pi * RADIUS
WL0 = 1.55

netlist = {
    "instances": {"dc": "coupler", "ring": "straight"},
    "connections": {"dc,out1": "ring,in0", "ring,out0": "dc,in1"},
    "ports": {"in": "dc,in0", "through": "dc,out0"},
}
ring, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight})
wl = np.linspace(1.545, 1.56, 15001)         # 1 pm steps; the resonance moves ~3.3 nm over 50 K

res = []     # resonance wavelength (um) per temperature
for dT in TEMPS:
    s = ring(wl=wl, dc={"coupling": 0.1}, ring={"length": L, "neff": NEFF + DN_DT * dT, "ng": NG, "wl0": WL0,
                                                   "loss_dB_cm": LOSS_DB_CM})
    T = np.abs(np.asarray(s["in", "through"])) ** 2
    minima, _ = find_peaks(-T, prominence=0.05)                             # resonance dips
    ref = res[-1] if res else WL0                                           # follow the same resonance
    res.append(float(wl[minima[np.argmin(np.abs(wl[minima] - ref))]]))

slope_pm = np.polyfit(TEMPS, np.array(res) * 1e6, 1)[0]            # pm per K
theory_pm = res[0] * DN_DT / NG * 1e6
with open("thermal_shift.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["delta_T_K", "resonance_nm"])
    w.writerows((int(t), round(r * 1e3, 3)) for t, r in zip(TEMPS, res))
with open("thermal_tuning.json", "w") as f:
    json.dump({"num_temperatures": len(TEMPS), "shift_pm_per_K": round(float(slope_pm), 1),
               "shift_pm_per_K_theory": round(float(theory_pm), 1),
               "matches_theory": bool(abs(slope_pm / theory_pm - 1) < 0.01)}, f, indent=2)
print(f"resonance shift {slope_pm:.1f} pm/K (theory lambda dn/dT / ng = {theory_pm:.1f} pm/K)")
