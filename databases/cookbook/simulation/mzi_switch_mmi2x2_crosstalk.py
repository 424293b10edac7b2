# ---
# title = "2x2 MZI switch from MMIs and a phase shifter: bar/cross states, switching voltage and crosstalk"
# summary = "Builds a 2x2 Mach-Zehnder switch in SAX from two ideal 2x2 MMIs (sax.models.mmi2x2_ideal) and phase shifters in both arms, sweeps the drive voltage and finds the cross state (0 V), the bar state voltage and the crosstalk in dB in each state (power leaking to the unwanted port), with and without a small MMI imbalance. Writes switch.json."
# kind = "sandbox"
# tags = ["optical switch", "2x2 switch", "mzi switch", "crosstalk", "bar state", "cross state", "mmi2x2", "phase shifter", "sax"]
# apis = ["sax.circuit", "sax.models.mmi2x2_ideal", "sax.models.mmi2x2", "sax.models.phase_shifter"]
# fixture = ""
# [expect]
# files = ["switch.json"]
# json_values = {"switch.json" = {"bar_voltage_V" = 1.0, "cross_state_port" = "out1", "ideal_crosstalk_below_minus_60dB" = true, "imbalanced_crosstalk_dB" = -20.0}}
# stdout = ["in0 -> out1 at 0 V; bar state at 1.000 V", "-20.0 dB with 45:55 MMIs"]
# ---
import json

import numpy as np
import sax

LENGTH = 200.0                          # um, phase shifter length
voltages = np.linspace(0, 1.5, 1501)    # V

netlist = {
    "instances": {"mmi_a": "mmi", "ps1": "phase_shifter", "ps2": "phase_shifter", "mmi_b": "mmi"},
    "connections": {"mmi_a,out0": "ps1,in0", "mmi_a,out1": "ps2,in0", "ps1,out0": "mmi_b,in0", "ps2,out0": "mmi_b,in1"},
    "ports": {"in0": "mmi_a,in0", "in1": "mmi_a,in1", "out0": "mmi_b,out0", "out1": "mmi_b,out1"},
}


def powers(mmi_model, **mmi_settings):
    sw, _ = sax.circuit(netlist, models={"mmi": mmi_model, "phase_shifter": sax.models.phase_shifter})
    s = sw(wl=1.55, mmi_a=mmi_settings, mmi_b=mmi_settings,
           ps1={"voltage": voltages, "length": LENGTH}, ps2={"voltage": 0.0, "length": LENGTH})
    return np.abs(np.asarray(s["in0", "out0"])) ** 2, np.abs(np.asarray(s["in0", "out1"])) ** 2


p0, p1 = powers(sax.models.mmi2x2_ideal)
cross_port = "out0" if p0[0] > p1[0] else "out1"          # where in0 goes at 0 V
want = p0 if cross_port == "out0" else p1
other = p1 if cross_port == "out0" else p0
v_bar = float(voltages[np.argmin(want)])                  # all light switched to the other port
xt_cross = 10 * np.log10(max(other[0], 1e-30) / want[0])  # leak in the 0 V state, dB

# a 45:55 MMI (splitting error) limits the crosstalk
q0, q1 = powers(sax.models.mmi2x2, loss_dB=0.0, splitting_ratio_cross=0.45, splitting_ratio_thru=0.55)
xt_imb = 10 * np.log10(min(q0[0], q1[0]) / max(q0[0], q1[0]))

result = {"cross_state_port": cross_port, "bar_voltage_V": round(v_bar, 3),
          "crosstalk_cross_state_dB": round(float(xt_cross), 1),
          "ideal_crosstalk_below_minus_60dB": bool(xt_cross < -60),
          "imbalanced_crosstalk_dB": round(float(xt_imb), 1)}
with open("switch.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"in0 -> {cross_port} at 0 V; bar state at {v_bar:.3f} V; crosstalk {xt_cross:.1f} dB (ideal MMIs), "
      f"{xt_imb:.1f} dB with 45:55 MMIs")
