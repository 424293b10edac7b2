# ---
# title = "Extinction ratio of an MZI with imperfect (non 50:50) couplers, simulated and from theory"
# summary = "Simulates an unbalanced MZI in SAX whose two couplers have a power coupling k different from 0.5 and measures the extinction ratio (max/min of the bar output, dB) over a wavelength sweep. Compares with ER = 20 log10((t^2 + k) / |t^2 - k|), t^2 = 1 - k. Use it to see how coupler errors limit an interferometer's contrast."
# kind = "sandbox"
# tags = ["mzi", "extinction ratio", "contrast", "coupler imbalance", "splitting error", "dB", "interferometer", "sax"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# files = ["mzi_extinction.json"]
# json_values = {"mzi_extinction.json" = {"coupling" = 0.4, "extinction_dB" = 13.98, "theory_dB" = 13.98, "max_transmission" = 1.0, "min_transmission" = 0.04}}
# stdout = ["ER 13.98 dB"]
# ---
import json

import numpy as np
import sax

COUPLING = 0.4         # power coupling of both couplers (0.5 = ideal)
DELTA_L = 50.0         # um

netlist = {
    "instances": {"dc1": "coupler", "top": "straight", "bot": "straight", "dc2": "coupler"},
    "connections": {"dc1,out0": "bot,in0", "dc1,out1": "top,in0", "bot,out0": "dc2,in0", "top,out0": "dc2,in1"},
    "ports": {"in0": "dc1,in0", "in1": "dc1,in1", "out0": "dc2,out0", "out1": "dc2,out1"},
}
mzi, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight})

wl = np.linspace(1.53, 1.57, 20001)
s = mzi(wl=wl, dc1={"coupling": COUPLING}, dc2={"coupling": COUPLING},
        top={"length": 100.0 + DELTA_L, "neff": 2.4, "ng": 4.2}, bot={"length": 100.0, "neff": 2.4, "ng": 4.2})
bar = np.abs(np.asarray(s["in0", "out0"])) ** 2        # in0 -> out0: through-through and cross-cross paths

er_db = 10 * np.log10(bar.max() / bar.min())
t2 = 1 - COUPLING
theory_db = 20 * np.log10((t2 + COUPLING) / abs(t2 - COUPLING))
with open("mzi_extinction.json", "w") as f:
    json.dump({"coupling": COUPLING, "extinction_dB": round(float(er_db), 2), "theory_dB": round(float(theory_db), 2),
               "max_transmission": round(float(bar.max()), 4), "min_transmission": round(float(bar.min()), 4)}, f, indent=2)
print(f"coupling {COUPLING}: ER {er_db:.2f} dB (theory {theory_db:.2f} dB), Tmax {bar.max():.4f}, Tmin {bar.min():.4f}")
