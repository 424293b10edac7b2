# ---
# title = "Cascade of waveguide sections in a SAX netlist: total loss and phase equal one long waveguide"
# summary = "Chains several straight waveguide instances (each with its own length and loss in dB/cm) in a SAX netlist, evaluates the circuit and checks that losses in dB add up and that the transmission equals a single waveguide of the total length. Shows how to pass per-instance settings in the netlist and override them when calling the circuit."
# kind = "sandbox"
# tags = ["cascade", "netlist", "instances", "connections", "chain", "waveguide sections", "loss budget", "sax.circuit", "settings"]
# apis = ["sax.circuit", "sax.models.straight"]
# fixture = ""
# [expect]
# files = ["cascade.json"]
# json_values = {"cascade.json" = {"num_sections" = 3, "total_length_um" = 3500.0, "total_loss_dB" = 0.75, "loss_sum_dB" = 0.75, "matches_single_waveguide" = true}}
# stdout = ["3 sections", "0.750 dB"]
# ---
import json

import numpy as np
import sax

# (length um, loss dB/cm) of each section
SECTIONS = [(1000.0, 2.0), (2000.0, 2.0), (500.0, 3.0)]

names = [f"wg{i}" for i in range(len(SECTIONS))]
netlist = {
    "instances": {n: {"component": "straight", "settings": {"length": L, "loss_dB_cm": a}}
                  for n, (L, a) in zip(names, SECTIONS)},
    "connections": {f"{a},out0": f"{b},in0" for a, b in zip(names, names[1:])},   # wg0 -> wg1 -> wg2
    "ports": {"in": f"{names[0]},in0", "out": f"{names[-1]},out0"},
}
chain, _ = sax.circuit(netlist, models={"straight": sax.models.straight})

wl = np.linspace(1.5, 1.6, 201)
t = np.asarray(chain(wl=wl)["in", "out"])              # settings come from the netlist
total_len = sum(L for L, _ in SECTIONS)
loss_db = float(-10 * np.log10(np.abs(t[100]) ** 2))
loss_sum = sum(L * 1e-4 * a for L, a in SECTIONS)       # dB = length(cm) x dB/cm

# a single waveguide with the total length and the length-weighted mean loss
single = np.asarray(sax.models.straight(wl=wl, length=total_len, loss_dB_cm=loss_sum / (total_len * 1e-4))[("in0", "out0")])
same = bool(np.max(np.abs(t - single)) < 1e-9)
with open("cascade.json", "w") as f:
    json.dump({"num_sections": len(SECTIONS), "total_length_um": total_len, "total_loss_dB": round(loss_db, 6),
               "loss_sum_dB": round(loss_sum, 6), "matches_single_waveguide": same}, f, indent=2)
print(f"{len(SECTIONS)} sections, {total_len:.0f} um: loss {loss_db:.3f} dB (sum {loss_sum:.3f} dB), "
      f"same as one waveguide: {same}")
