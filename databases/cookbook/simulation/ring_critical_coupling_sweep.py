# ---
# title = "Sweep the ring coupling to find critical coupling (deepest notch) for a given loss"
# summary = "Parameter sweep in SAX: for an all-pass ring with fixed radius and propagation loss, evaluates the through-port transmission at resonance for a range of power couplings k and finds the k with the deepest notch. Compares it with critical coupling k_c = 1 - a^2 (a = round-trip amplitude). Writes coupling_sweep.csv (coupling, min_transmission_dB) and critical_coupling.json."
# kind = "sandbox"
# tags = ["critical coupling", "parameter sweep", "ring", "coupling gap", "under-coupled", "over-coupled", "extinction", "optimisation", "sax"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# csv_rows = {"coupling_sweep.csv" = 81}
# files = ["coupling_sweep.csv", "critical_coupling.json"]
# csv_columns = {"coupling_sweep.csv" = ["coupling", "min_transmission_dB"]}
# json_values = {"critical_coupling.json" = {"best_coupling" = 0.056, "critical_coupling_theory" = 0.056, "matches_theory" = true}}
# stdout = ["best coupling 0.056"]
# ---
import csv
import json

import numpy as np
import sax

RADIUS = 20.0          # um
LOSS_DB_CM = 20.0      # ring propagation loss
NEFF, NG = 2.4, 4.2
L = 2 * np.pi * RADIUS
couplings = np.round(np.arange(0.02, 0.1001, 0.001), 3)

netlist = {
    "instances": {"dc": "coupler", "ring": "straight"},
    "connections": {"dc,out1": "ring,in0", "ring,out0": "dc,in1"},
    "ports": {"in": "dc,in0", "through": "dc,out0"},
}
ring, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight})

wg = {"length": L, "neff": NEFF, "ng": NG, "loss_dB_cm": LOSS_DB_CM}


def notch_min(k):
    """Minimum through power of the resonance near 1.55 um: coarse scan over one FSR, then zoom in."""
    wl = np.linspace(1.548, 1.553, 5001)                       # 1 pm steps, > 1 FSR (~4.5 nm)
    T = np.abs(np.asarray(ring(wl=wl, dc={"coupling": k}, ring=wg)["in", "through"])) ** 2
    fine = np.linspace(wl[np.argmin(T)] - 2e-6, wl[np.argmin(T)] + 2e-6, 401)    # +-2 pm, 10 fm steps
    T = np.abs(np.asarray(ring(wl=fine, dc={"coupling": k}, ring=wg)["in", "through"])) ** 2
    return float(T.min())


rows = [(float(k), 10 * np.log10(notch_min(float(k)))) for k in couplings]

best_k = min(rows, key=lambda r: r[1])[0]
a2 = 10 ** (-LOSS_DB_CM * L * 1e-4 / 10)           # round-trip power transmission
k_c = 1 - a2
with open("coupling_sweep.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["coupling", "min_transmission_dB"])
    w.writerows((k, round(d, 4)) for k, d in rows)
with open("critical_coupling.json", "w") as f:
    json.dump({"best_coupling": best_k, "critical_coupling_theory": round(k_c, 3),
               "matches_theory": bool(abs(best_k - k_c) <= 0.001)}, f, indent=2)
print(f"best coupling {best_k:.3f} (notch {min(r[1] for r in rows):.1f} dB), critical coupling 1 - a^2 = {k_c:.4f}")
