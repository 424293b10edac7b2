"""Add-drop ring linewidth versus coupling (SAX): resonance, FWHM and loaded Q per coupling."""
import csv
import math

import jax.numpy as jnp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import sax

RADIUS = 10.0
COUPLINGS = [0.02, 0.05, 0.1, 0.2]
netlist = {
    "instances": {"c1": "coupler", "c2": "coupler", "a1": "waveguide", "a2": "waveguide"},
    "connections": {"c1,out1": "a1,in0", "a1,out0": "c2,out1", "c2,in1": "a2,in0", "a2,out0": "c1,in1"},
    "ports": {"input": "c1,in0", "through": "c1,out0", "add": "c2,out0", "drop": "c2,in0"},
}
ring, _ = sax.circuit(netlist=netlist, models={"coupler": sax.models.coupler_ideal, "waveguide": sax.models.straight})
wl = jnp.linspace(1.545, 1.555, 20001)
wl_np = np.asarray(wl)
half = dict(wl=wl, wl0=1.55, neff=2.34, ng=3.4, length=math.pi * RADIUS, loss_dB_cm=0.0)


def fwhm(x, y, i_peak):
    half_max = y[i_peak] / 2
    lo = i_peak
    while lo > 0 and y[lo] > half_max:
        lo -= 1
    hi = i_peak
    while hi < len(y) - 1 and y[hi] > half_max:
        hi += 1
    # linear interpolation of both half-maximum crossings
    xl = x[lo] + (half_max - y[lo]) * (x[lo + 1] - x[lo]) / (y[lo + 1] - y[lo])
    xh = x[hi - 1] + (half_max - y[hi - 1]) * (x[hi] - x[hi - 1]) / (y[hi] - y[hi - 1])
    return xh - xl


rows = []
fig, ax = plt.subplots()
for k in COUPLINGS:
    s = ring(c1={"coupling": k}, c2={"coupling": k}, a1=half, a2=half)
    drop = np.abs(np.asarray(s["input", "drop"])) ** 2
    peaks = [i for i in range(1, len(drop) - 1) if drop[i] >= drop[i - 1] and drop[i] > drop[i + 1] and drop[i] > 0.5]
    i0 = min(peaks, key=lambda i: abs(wl_np[i] - 1.55))
    width = fwhm(wl_np, drop, i0)
    rows.append([k, float(wl_np[i0]), width * 1e6, float(wl_np[i0] / width)])
    ax.plot(wl_np, drop, label=f"κ² = {k}")
ax.set_xlabel("wavelength (µm)")
ax.set_ylabel("drop power")
ax.legend()
fig.savefig("drop_spectra.png", dpi=100)

with open("linewidth.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["coupling", "resonance_um", "fwhm_pm", "q_loaded"])
    w.writerows(rows)
for r in rows:
    print(r)
