# ---
# title = "Parameter sweep: MZI free spectral range versus arm length difference, group index recovered"
# summary = "Sweeps the arm length difference dL of a SAX MZI (ideal couplers, straight arms), measures the FSR of each spectrum from its dips and recovers the group index ng = lambda^2 / (FSR dL), which must be the same for every dL. Writes fsr_vs_delta_length.csv (delta_length_um, fsr_nm, ng_extracted) and a JSON summary. Template for any 'sweep a parameter, extract a figure of merit' job."
# kind = "sandbox"
# tags = ["parameter sweep", "mzi", "fsr", "delta length", "group index", "design curve", "extraction", "sax"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# csv_rows = {"fsr_vs_delta_length.csv" = 4}
# files = ["fsr_vs_delta_length.csv", "fsr_sweep.json"]
# csv_columns = {"fsr_vs_delta_length.csv" = ["delta_length_um", "fsr_nm", "ng_extracted"]}
# json_values = {"fsr_sweep.json" = {"num_points" = 4, "ng_mean" = 4.2, "ng_consistent" = true}}
# stdout = ["ng = 4.20"]
# ---
import csv
import json

import numpy as np
import sax
from scipy.signal import find_peaks

DELTA_LS = [50.0, 100.0, 200.0, 400.0]     # um
NEFF, NG = 2.4, 4.2

netlist = {
    "instances": {"dc1": "coupler", "top": "straight", "bot": "straight", "dc2": "coupler"},
    "connections": {"dc1,out0": "bot,in0", "dc1,out1": "top,in0", "bot,out0": "dc2,in0", "top,out0": "dc2,in1"},
    "ports": {"in0": "dc1,in0", "in1": "dc1,in1", "out0": "dc2,out0", "out1": "dc2,out1"},
}
mzi, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight})
wl = np.linspace(1.53, 1.57, 40001)

rows = []
for dL in DELTA_LS:
    s = mzi(wl=wl, top={"length": 100.0 + dL, "neff": NEFF, "ng": NG}, bot={"length": 100.0, "neff": NEFF, "ng": NG})
    T = np.abs(np.asarray(s["in0", "out0"])) ** 2
    dips, _ = find_peaks(-T, prominence=0.5)
    fsr = float(np.mean(np.diff(wl[dips])))                       # um
    ng = float(np.mean(wl[dips])) ** 2 / (fsr * dL)
    rows.append([dL, round(fsr * 1e3, 4), round(ng, 4)])

with open("fsr_vs_delta_length.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["delta_length_um", "fsr_nm", "ng_extracted"])
    w.writerows(rows)
ngs = [r[2] for r in rows]
with open("fsr_sweep.json", "w") as f:
    json.dump({"num_points": len(rows), "ng_mean": round(float(np.mean(ngs)), 2),
               "ng_consistent": bool(max(ngs) - min(ngs) < 0.01)}, f, indent=2)
for dL, fsr, ng in rows:
    print(f"dL = {dL:6.1f} um: FSR {fsr:.3f} nm, ng = {ng:.3f}")
print(f"ng = {np.mean(ngs):.2f} from {len(rows)} arm differences")
