# ---
# title = "Unbalanced Mach-Zehnder interferometer: spectrum and free spectral range vs lambda^2/(ng dL)"
# summary = "Builds an MZI netlist in SAX from two ideal 50:50 couplers and two straight arms differing by dL um, sweeps the wavelength, finds the transmission dips of the bar output and measures the free spectral range. Compares it with FSR = lambda^2 / (ng dL) at the centre of the measured dips (the FSR grows with lambda^2). Writes mzi_spectrum.csv and mzi_fsr.json."
# kind = "sandbox"
# tags = ["mzi", "mach-zehnder", "interferometer", "simulate mzi", "fsr", "free spectral range", "delta length", "spectrum", "netlist", "sax.circuit"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# csv_rows = {"mzi_spectrum.csv" = 40001}
# files = ["mzi_spectrum.csv", "mzi_fsr.json"]
# csv_columns = {"mzi_spectrum.csv" = ["wavelength_nm", "bar", "cross"]}
# json_values = {"mzi_fsr.json" = {"delta_length_um" = 100.0, "fsr_nm" = 5.714, "fsr_theory_nm" = 5.714, "num_dips" = 7, "fsr_matches_theory" = true}}
# stdout = ["7 dips, FSR 5.714 nm"]
# ---
import csv
import json

import numpy as np
import sax
from scipy.signal import find_peaks

DELTA_L = 100.0        # um, arm length difference
L_SHORT = 100.0        # um
NEFF, NG = 2.4, 4.2
WL0 = 1.55             # um, reference wavelength of the waveguide model

netlist = {
    "instances": {"split": "coupler", "arm_top": "straight", "arm_bot": "straight", "combine": "coupler"},
    "connections": {"split,out0": "arm_bot,in0", "split,out1": "arm_top,in0",
                    "arm_bot,out0": "combine,in0", "arm_top,out0": "combine,in1"},
    "ports": {"in0": "split,in0", "in1": "split,in1", "out0": "combine,out0", "out1": "combine,out1"},
}
mzi, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight})

wl = np.linspace(1.53, 1.57, 40001)      # um, 1 pm steps
wg = {"neff": NEFF, "ng": NG, "wl0": WL0}
s = mzi(wl=wl, split={"coupling": 0.5}, combine={"coupling": 0.5},
        arm_bot={**wg, "length": L_SHORT}, arm_top={**wg, "length": L_SHORT + DELTA_L})
bar = np.abs(np.asarray(s["in0", "out0"])) ** 2
cross = np.abs(np.asarray(s["in0", "out1"])) ** 2

dips, _ = find_peaks(-bar, prominence=0.5)          # transmission minima
fsr_nm = float(np.mean(np.diff(wl[dips]))) * 1e3
wl_c = float(np.mean(wl[dips]))                   # um, centre of the measured dips
theory_nm = wl_c ** 2 / (NG * DELTA_L) * 1e3

with open("mzi_spectrum.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_nm", "bar", "cross"])
    w.writerows(zip(np.round(wl * 1e3, 4), np.round(bar, 6), np.round(cross, 6)))
with open("mzi_fsr.json", "w") as f:
    json.dump({"delta_length_um": DELTA_L, "num_dips": len(dips), "fsr_nm": round(fsr_nm, 3),
               "fsr_theory_nm": round(theory_nm, 3), "fsr_matches_theory": bool(abs(fsr_nm / theory_nm - 1) < 1e-3),
               "dips_nm": [round(float(x) * 1e3, 3) for x in wl[dips]]}, f, indent=2)
print(f"MZI dL = {DELTA_L} um: {len(dips)} dips, FSR {fsr_nm:.3f} nm (lambda^2/(ng dL) = {theory_nm:.3f} nm)")
