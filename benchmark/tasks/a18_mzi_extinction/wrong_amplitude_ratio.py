"""MZI extinction ratio versus coupler splitting ratio (SAX)."""
import csv
import json
import math

import jax.numpy as jnp
import numpy as np
import sax

COUPLINGS = [0.5, 0.45, 0.4, 0.3]
ARMS = (10.0, 30.0)
FLOOR = 1e-12

netlist = {
    "instances": {"cp1": "coupler", "cp2": "coupler", "a": "waveguide", "b": "waveguide"},
    "connections": {"cp1,out0": "a,in0", "a,out0": "cp2,in0", "cp1,out1": "b,in0", "b,out0": "cp2,in1"},
    "ports": {"in0": "cp1,in0", "in1": "cp1,in1", "out0": "cp2,out0", "out1": "cp2,out1"},
}
mzi, _ = sax.circuit(netlist=netlist, models={"coupler": sax.models.coupler_ideal, "waveguide": sax.models.straight})
wl = jnp.linspace(1.53, 1.57, 4001)
wg = dict(wl=wl, wl0=1.55, neff=2.34, ng=3.4, loss_dB_cm=0.0)

results = {}
rows = []
for k in COUPLINGS:
    s = mzi(cp1={"coupling": k}, cp2={"coupling": k}, a={**wg, "length": ARMS[0]}, b={**wg, "length": ARMS[1]})
    cross = np.abs(np.asarray(s["in0", "out1"])) ** 2
    t_max = float(cross.max())
    t_min = max(float(cross.min()), FLOOR)
    er = 20 * math.log10(t_max / t_min)
    results[str(k)] = er
    rows.append([k, t_max, t_min, er])

with open("extinction.json", "w") as f:
    json.dump(results, f, indent=1)
with open("extinction.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["coupling", "t_max", "t_min", "er_db"])
    w.writerows(rows)
best = max(results, key=results.get)
print(f"best extinction at coupling {best}: {results[best]:.1f} dB")
