"""MZI FSR versus arm length difference: SAX sweep, minima detection, CSV and plot."""
import csv

import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import sax

NEFF, NG, WL0 = 2.34, 3.4, 1.55
SHORT = 10.0
DELTAS = [20.0, 40.0, 80.0, 160.0]

netlist = {
    "instances": {"cp1": "coupler", "cp2": "coupler", "short": "waveguide", "long": "waveguide"},
    "connections": {
        "cp1,out0": "short,in0", "short,out0": "cp2,in0",
        "cp1,out1": "long,in0", "long,out0": "cp2,in1",
    },
    "ports": {"in0": "cp1,in0", "in1": "cp1,in1", "out0": "cp2,out0", "out1": "cp2,out1"},
}
mzi, _ = sax.circuit(netlist=netlist, models={"coupler": sax.models.coupler_ideal, "waveguide": sax.models.straight})
wl = jnp.linspace(1.50, 1.60, 2001)
wl_np = np.asarray(wl)


def bar_spectrum(delta):
    common = dict(wl=wl, wl0=WL0, neff=NEFF, ng=NG, loss_dB_cm=0.0)
    s = mzi(cp1={"coupling": 0.5}, cp2={"coupling": 0.5},
            short={**common, "length": SHORT}, long={**common, "length": SHORT + delta})
    return np.abs(np.asarray(s["in0", "out0"])) ** 2


def minima(y):
    return [i for i in range(1, len(y) - 1) if y[i] <= y[i - 1] and y[i] < y[i + 1]]


rows = []
for delta in DELTAS:
    t = bar_spectrum(delta)
    mins = sorted(wl_np[minima(t)], key=lambda x: abs(x - WL0))[:2]
    fsr = abs(mins[1] - mins[0]) * 1000
    theory = WL0 ** 2 / (NG * delta) * 1000
    rows.append((delta, fsr, theory))
    print(f"dL={delta:6.1f} um  FSR={fsr:.3f} nm  theory={theory:.3f} nm")

with open("fsr.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["delta_length_um", "fsr_nm", "fsr_theory_nm"])
    w.writerows(rows)

fig, ax = plt.subplots()
ax.loglog([r[0] for r in rows], [r[1] for r in rows], "o", label="simulated")
ax.loglog([r[0] for r in rows], [r[2] for r in rows], "-", label="λ²/(ng ΔL)")
ax.set_xlabel("ΔL (µm)")
ax.set_ylabel("FSR (nm)")
ax.legend()
fig.savefig("fsr.png", dpi=100)
