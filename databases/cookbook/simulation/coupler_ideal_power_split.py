# ---
# title = "Ideal directional coupler: through and cross power for a chosen coupling ratio"
# summary = "Evaluates SAX's ideal 2x2 coupler (sax.models.coupler_ideal) for a power coupling ratio (e.g. 0.3 = 70:30), reports |S|^2 to the through and cross ports, the 90 degree phase of the cross port and checks that a lossless coupler conserves power (thru + cross = 1). Also writes the split for a sweep of coupling values to coupler_split.csv."
# kind = "sandbox"
# tags = ["directional coupler", "coupling ratio", "splitter", "70:30", "power split", "through", "cross", "lossless", "sax"]
# apis = ["sax.models.coupler_ideal"]
# fixture = ""
# [expect]
# csv_rows = {"coupler_split.csv" = 11}
# files = ["coupler.json", "coupler_split.csv"]
# csv_columns = {"coupler_split.csv" = ["coupling", "thru", "cross", "total"]}
# json_values = {"coupler.json" = {"coupling" = 0.3, "thru" = 0.7, "cross" = 0.3, "cross_phase_deg" = 90.0, "power_conserved" = true}}
# stdout = ["thru 0.700", "cross 0.300"]
# ---
import csv
import json

import numpy as np
import sax

COUPLING = 0.3      # power coupled to the cross port
WL = 1.55           # um

# default port names: in0, in1 (inputs), out0 (through of in0), out1 (cross of in0)
s = sax.models.coupler_ideal(wl=WL, coupling=COUPLING)
thru = float(np.abs(s[("in0", "out0")]) ** 2)
cross = float(np.abs(s[("in0", "out1")]) ** 2)
phase = float(np.degrees(np.angle(s[("in0", "out1")]) - np.angle(s[("in0", "out0")])))

with open("coupler.json", "w") as f:
    json.dump({"coupling": COUPLING, "thru": round(thru, 9), "cross": round(cross, 9),
               "cross_phase_deg": round(phase, 6), "power_conserved": bool(abs(thru + cross - 1) < 1e-9)}, f, indent=2)

with open("coupler_split.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["coupling", "thru", "cross", "total"])
    for k in np.linspace(0, 1, 11):
        sk = sax.models.coupler_ideal(wl=WL, coupling=float(k))
        t, c = float(np.abs(sk[("in0", "out0")]) ** 2), float(np.abs(sk[("in0", "out1")]) ** 2)
        w.writerow([round(float(k), 3), round(t, 6), round(c, 6), round(t + c, 6)])
print(f"coupling {COUPLING}: thru {thru:.3f}, cross {cross:.3f}, cross phase {phase:.1f} deg, total {thru + cross:.6f}")
