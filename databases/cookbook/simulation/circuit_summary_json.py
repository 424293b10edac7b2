# ---
# title = "Summarise a SAX circuit to JSON: instances, models, ports, default settings and S-parameters in dB"
# summary = "Builds a circuit (a 1x2 MMI splitting into two waveguides of different loss), then writes circuit_summary.json with the instance and model names, the external ports, the default settings of every instance (sax.get_settings) and, at the design wavelength, every in->out S-parameter as power, dB and phase. Use it to document or compare circuit results."
# kind = "sandbox"
# tags = ["summary", "json", "report", "s-parameters", "settings", "get_settings", "circuit info", "ports", "dB", "sax"]
# apis = ["sax.circuit", "sax.get_settings", "sax.models.mmi1x2", "sax.models.straight", "sax.CircuitInfo"]
# fixture = ""
# [expect]
# files = ["circuit_summary.json"]
# json_keys = {"circuit_summary.json" = ["instances", "models", "ports", "settings", "s_params"]}
# json_values = {"circuit_summary.json" = {"num_instances" = 3, "num_ports" = 3, "loss_out_a_dB" = 4.3103, "loss_out_b_dB" = 5.3103}}
# stdout = ["3 instances", "in->out_a -4.310 dB", "in->out_b -5.310 dB"]
# ---
import json

import numpy as np
import sax

WL0 = 1.55

netlist = {
    "instances": {"split": "mmi1x2", "arm_a": "straight", "arm_b": "straight"},
    "connections": {"split,out0": "arm_a,in0", "split,out1": "arm_b,in0"},
    "ports": {"in": "split,in0", "out_a": "arm_a,out0", "out_b": "arm_b,out0"},
}
circuit, info = sax.circuit(netlist, models={"mmi1x2": sax.models.mmi1x2, "straight": sax.models.straight})

wl = np.linspace(1.5, 1.6, 101)      # the mmi1x2 model needs a sweep across its centre wavelength
s = circuit(wl=wl, split={"loss_dB": 0.3}, arm_a={"length": 1000.0, "loss_dB_cm": 10.0},
            arm_b={"length": 2000.0, "loss_dB_cm": 10.0})
i0 = int(np.argmin(np.abs(wl - WL0)))

s_params = {}
for (a, b), v in s.items():
    if a == "in" and b != "in":
        p = float(np.abs(v[i0]) ** 2)
        s_params[f"{a}->{b}"] = {"power": round(p, 6), "dB": round(10 * np.log10(p), 4),
                                 "phase_rad": round(float(np.angle(v[i0])), 6)}
summary = {"instances": {k: v for k, v in netlist["instances"].items()},
           "models": sorted(info.models),                  # model names used by the circuit
           "ports": sorted({p for pair in s for p in pair}),
           "settings": sax.get_settings(circuit),          # defaults of every instance
           "s_params": s_params,
           "num_instances": len(netlist["instances"]), "num_ports": len(netlist["ports"]),
           "loss_out_a_dB": -s_params["in->out_a"]["dB"], "loss_out_b_dB": -s_params["in->out_b"]["dB"]}
with open("circuit_summary.json", "w") as f:
    json.dump(summary, f, indent=2, default=float)
print(f"{len(netlist['instances'])} instances, ports {summary['ports']}; " +
      ", ".join(f"{k} {v['dB']:.3f} dB" for k, v in s_params.items()))
