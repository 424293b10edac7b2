"""Add-drop ring: layout with gdsfactory, spectrum with SAX, resonances from the drop port."""
import csv
import json
import math

import gdsfactory as gf
import jax.numpy as jnp
import numpy as np
import sax

RADIUS = 20.0
GAP = 0.2
COUPLING = 0.1
NEFF, NG, WL0 = 2.34, 3.4, 1.55

# 1. layout
gf.gpdk.PDK.activate()
ring = gf.components.ring_double(radius=RADIUS, gap=GAP, length_x=4, length_y=0)
ring.write_gds("ring_ad.gds")

# 2. circuit model: c1 couples the input bus, c2 the drop bus; two half rings close the loop
netlist = {
    "instances": {"c1": "coupler", "c2": "coupler", "arm1": "waveguide", "arm2": "waveguide"},
    "connections": {
        "c1,out1": "arm1,in0",
        "arm1,out0": "c2,out1",
        "c2,in1": "arm2,in0",
        "arm2,out0": "c1,in1",
    },
    "ports": {"input": "c1,in0", "through": "c1,out0", "add": "c2,out0", "drop": "c2,in0"},
}
models = {"coupler": sax.models.coupler_ideal, "waveguide": sax.models.straight}
circuit, _ = sax.circuit(netlist=netlist, models=models)

wl = jnp.linspace(1.54, 1.56, 4001)
half = dict(wl=wl, wl0=WL0, neff=NEFF, ng=NG, length=math.pi * RADIUS, loss_dB_cm=0.0)
s = circuit(c1={"coupling": COUPLING}, c2={"coupling": COUPLING}, arm1=half, arm2=half)
through = np.abs(np.asarray(s["input", "through"])) ** 2
drop = np.abs(np.asarray(s["input", "drop"])) ** 2
wl = np.asarray(wl)

with open("spectrum.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_um", "through", "drop"])
    for row in zip(wl.tolist(), through.tolist(), drop.tolist()):
        w.writerow(row)


# 3. resonances: local maxima of the drop power above one half
def local_maxima(y, threshold):
    idx = []
    for i in range(1, len(y) - 1):
        if y[i] > threshold and y[i] >= y[i - 1] and y[i] > y[i + 1]:
            idx.append(i)
    return idx


peaks = [float(wl[i]) for i in local_maxima(drop, 0.5)]
fsr_nm = float(np.mean(np.diff(peaks)) * 1000) if len(peaks) > 1 else None
with open("resonances.json", "w") as f:
    json.dump({"peaks_um": peaks, "fsr_nm": fsr_nm}, f, indent=1)
print(f"{len(peaks)} resonances, FSR {fsr_nm:.3f} nm")
