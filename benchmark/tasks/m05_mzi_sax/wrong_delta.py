import csv

import jax.numpy as jnp
import sax

netlist = {
    "instances": {"cp1": "coupler", "cp2": "coupler", "top": "waveguide", "bot": "waveguide"},
    "connections": {"cp1,out0": "bot,in0", "bot,out0": "cp2,in0", "cp1,out1": "top,in0", "top,out0": "cp2,in1"},
    "ports": {"in0": "cp1,in0", "in1": "cp1,in1", "out0": "cp2,out0", "out1": "cp2,out1"},
}
mzi, _ = sax.circuit(netlist=netlist, models={"coupler": sax.models.coupler_ideal, "waveguide": sax.models.straight})
wl = jnp.linspace(1.50, 1.60, 501)
common = dict(wl=wl, wl0=1.55, neff=2.34, ng=3.4)
s = mzi(bot={**common, "length": 10.0}, top={**common, "length": 40.0})
with open("mzi.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_um", "T_bar", "T_cross"])
    for row in zip(wl.tolist(), (abs(s["in0", "out0"]) ** 2).tolist(), (abs(s["in0", "out1"]) ** 2).tolist()):
        w.writerow(row)
