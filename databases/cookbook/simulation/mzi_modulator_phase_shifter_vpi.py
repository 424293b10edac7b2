# ---
# title = "MZI modulator with a phase shifter: output power versus voltage and V-pi"
# summary = "Builds a balanced MZI in SAX with an MMI-like 50:50 coupler at each end and sax.models.phase_shifter in both arms (one biased), sweeps the drive voltage and records the cross-port power (cos^2 of half the phase difference). Finds V-pi, the voltage that switches the output off (the model adds pi rad per volt). Writes mzi_vs_voltage.csv and vpi.json."
# kind = "sandbox"
# tags = ["modulator", "mzm", "phase shifter", "v-pi", "vpi", "voltage sweep", "switch", "thermo-optic", "electro-optic", "sax"]
# apis = ["sax.circuit", "sax.models.phase_shifter", "sax.models.coupler_ideal"]
# fixture = ""
# [expect]
# csv_rows = {"mzi_vs_voltage.csv" = 2001}
# files = ["mzi_vs_voltage.csv", "vpi.json"]
# csv_columns = {"mzi_vs_voltage.csv" = ["voltage_V", "cross", "bar"]}
# json_values = {"vpi.json" = {"v_pi_V" = 1.0, "cross_at_0V" = 1.0, "switched_off" = true}}
# stdout = ["V-pi = 1.000 V"]
# ---
import csv
import json

import numpy as np
import sax

WL = 1.55
LENGTH = 500.0          # um, phase shifter length (both arms)
voltages = np.linspace(0, 2, 2001)      # V

netlist = {
    "instances": {"split": "coupler", "ps_top": "phase_shifter", "ps_bot": "phase_shifter", "combine": "coupler"},
    "connections": {"split,out0": "ps_bot,in0", "split,out1": "ps_top,in0",
                    "ps_bot,out0": "combine,in0", "ps_top,out0": "combine,in1"},
    "ports": {"in0": "split,in0", "in1": "split,in1", "out0": "combine,out0", "out1": "combine,out1"},
}
mzm, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "phase_shifter": sax.models.phase_shifter})

# the voltage is broadcast like the wavelength: one evaluation for the whole sweep
s = mzm(wl=WL, ps_top={"voltage": voltages, "length": LENGTH}, ps_bot={"voltage": 0.0, "length": LENGTH})
cross = np.abs(np.asarray(s["in0", "out1"])) ** 2
bar = np.abs(np.asarray(s["in0", "out0"])) ** 2

first = voltages <= 1.5                              # search the first minimum only
v_pi = float(voltages[first][np.argmin(cross[first])])
with open("mzi_vs_voltage.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["voltage_V", "cross", "bar"])
    w.writerows(zip(np.round(voltages, 4), np.round(cross, 6), np.round(bar, 6)))
with open("vpi.json", "w") as f:
    json.dump({"v_pi_V": round(v_pi, 3), "cross_at_0V": round(float(cross[0]), 6),
               "switched_off": bool(cross[first].min() < 1e-6)}, f, indent=2)
print(f"V-pi = {v_pi:.3f} V; cross port {cross[0]:.3f} at 0 V -> {cross[first].min():.2e} at V-pi")
