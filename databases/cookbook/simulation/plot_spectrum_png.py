# ---
# title = "Plot a simulated transmission spectrum in dB to a PNG, with the resonances marked"
# summary = "Simulates an add-drop ring with SAX, converts through and drop power to dB (10 log10 |S|^2) and plots both versus wavelength in nm with matplotlib (Agg backend, no display), marking the drop peaks found with scipy.signal.find_peaks. Saves spectrum.png at 150 dpi. Replace the circuit with any SAX model or netlist to plot its spectrum."
# kind = "sandbox"
# tags = ["plot", "spectrum", "png", "matplotlib", "figure", "transmission", "dB", "ring", "sax", "graph"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# files = ["spectrum.png"]
# stdout = ["spectrum.png", "4 peaks marked", "1552.63"]
# ---
import matplotlib

matplotlib.use("Agg")          # write files, no display needed
import matplotlib.pyplot as plt
import numpy as np
import sax
from scipy.signal import find_peaks

RADIUS = 10.0
COUPLING = 0.1
OUTPUT = "spectrum.png"

netlist = {
    "instances": {"dc1": "coupler", "half1": "straight", "dc2": "coupler", "half2": "straight"},
    "connections": {"dc1,out1": "half1,in0", "half1,out0": "dc2,in1", "dc2,out1": "half2,in0", "half2,out0": "dc1,in1"},
    "ports": {"in": "dc1,in0", "through": "dc1,out0", "add": "dc2,in0", "drop": "dc2,out0"},
}
ring, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "straight": sax.models.straight})
wl = np.linspace(1.53, 1.57, 8001)
half = {"length": np.pi * RADIUS, "neff": 2.4, "ng": 4.2, "loss_dB_cm": 3.0}
s = ring(wl=wl, dc1={"coupling": COUPLING}, dc2={"coupling": COUPLING}, half1=half, half2=half)
through_db = 10 * np.log10(np.abs(np.asarray(s["in", "through"])) ** 2)
drop_db = 10 * np.log10(np.abs(np.asarray(s["in", "drop"])) ** 2)
peaks, _ = find_peaks(drop_db, prominence=10)

fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(wl * 1e3, through_db, label="through")
ax.plot(wl * 1e3, drop_db, label="drop")
ax.plot(wl[peaks] * 1e3, drop_db[peaks], "kv", label="resonances")
ax.set_xlabel("wavelength (nm)")
ax.set_ylabel("transmission (dB)")
ax.set_title(f"add-drop ring, R = {RADIUS} um, k = {COUPLING}")
ax.grid(True, alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(OUTPUT, dpi=150)
print(f"wrote {OUTPUT}: {len(peaks)} peaks marked at " + ", ".join(f"{x * 1e3:.2f}" for x in wl[peaks]) + " nm")
