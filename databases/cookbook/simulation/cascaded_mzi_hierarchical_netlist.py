# ---
# title = "Cascade two MZIs with a hierarchical (recursive) SAX netlist: reuse a sub-circuit"
# summary = "Defines an MZI once as a sub-netlist and places it twice in a top-level netlist ('top_level' plus named sub-circuits), so sax.circuit builds the hierarchy. Sets each stage's arm lengths separately through nested settings, and checks that the cascade of two stages with identical filters transmits the product of their responses (|S|^2 of stage 1 times stage 2, here connected bar to bar). Writes cascade_mzi.json and the spectrum to cascade_mzi.csv."
# kind = "sandbox"
# tags = ["cascade", "hierarchical netlist", "recursive netlist", "sub-circuit", "mzi", "lattice filter", "reuse", "sax.circuit"]
# apis = ["sax.circuit", "sax.models.coupler_ideal", "sax.models.straight", "sax.get_settings"]
# fixture = ""
# [expect]
# csv_rows = {"cascade_mzi.csv" = 4001}
# files = ["cascade_mzi.json", "cascade_mzi.csv"]
# csv_columns = {"cascade_mzi.csv" = ["wavelength_nm", "stage", "cascade"]}
# json_values = {"cascade_mzi.json" = {"num_stages" = 2, "product_rule_holds" = true, "sub_circuits" = 1}}
# stdout = ["2 stages", "product rule: True"]
# ---
import csv
import json

import numpy as np
import sax

DELTA_L = 60.0         # um, arm difference of each stage
WG = {"neff": 2.4, "ng": 4.2}

mzi = {   # one stage: ports in0/in1 -> out0/out1
    "instances": {"dc1": "coupler", "top": "straight", "bot": "straight", "dc2": "coupler"},
    "connections": {"dc1,out0": "bot,in0", "dc1,out1": "top,in0", "bot,out0": "dc2,in0", "top,out0": "dc2,in1"},
    "ports": {"in0": "dc1,in0", "in1": "dc1,in1", "out0": "dc2,out0", "out1": "dc2,out1"},
}
netlist = {
    "top_level": {   # two stages, bar output of stage 1 into stage 2, stage 1's cross output terminated
        "instances": {"stage1": "mzi", "stage2": "mzi"},
        "connections": {"stage1,out0": "stage2,in0"},
        "ports": {"in": "stage1,in0", "out": "stage2,out0"},
    },
    "mzi": mzi,
}
models = {"coupler": sax.models.coupler_ideal, "straight": sax.models.straight}
cascade, _ = sax.circuit(netlist, models=models)
single, _ = sax.circuit(mzi, models=models)

wl = np.linspace(1.53, 1.57, 4001)
arms = {"top": {**WG, "length": 100.0 + DELTA_L}, "bot": {**WG, "length": 100.0}}
Tc = np.abs(np.asarray(cascade(wl=wl, stage1=arms, stage2=arms)["in", "out"])) ** 2
Ts = np.abs(np.asarray(single(wl=wl, **arms)["in0", "out0"])) ** 2

holds = bool(np.allclose(Tc, Ts ** 2, atol=1e-9))       # identical stages in series: T = T1 * T2
with open("cascade_mzi.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_nm", "stage", "cascade"])
    w.writerows(zip(np.round(wl * 1e3, 3), np.round(Ts, 6), np.round(Tc, 6)))
with open("cascade_mzi.json", "w") as f:
    json.dump({"num_stages": len(netlist["top_level"]["instances"]), "sub_circuits": len(netlist) - 1,
               "product_rule_holds": holds, "settings_stage1_top_length": sax.get_settings(cascade)["stage1"]["top"]["length"]},
              f, indent=2)
print(f"2 stages of dL = {DELTA_L} um: product rule: {holds}; min cascade transmission {Tc.min():.2e}")
