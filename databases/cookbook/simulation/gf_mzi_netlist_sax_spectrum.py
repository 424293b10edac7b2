# ---
# title = "Simulate a gdsfactory MZI layout with SAX from its extracted netlist"
# summary = "Builds the generic-PDK Mach-Zehnder (gf.components.mzi) with a chosen arm length difference, extracts its netlist with get_netlist() and simulates it with sax.circuit using one model per component type (mmi1x2, straight, bend_euler; bend lengths from the netlist's info). Uses SAX's 'optical' port names (o1, o2, ...) to match gdsfactory. Checks the FSR against lambda^2 / (ng dL) and writes gf_mzi.csv and gf_mzi.json."
# kind = "sandbox"
# tags = ["gdsfactory", "netlist", "layout to simulation", "mzi", "circuit simulation", "get_netlist", "fsr", "sax", "schematic driven"]
# apis = ["gdsfactory.components.mzi", "gdsfactory.Component.get_netlist", "sax.circuit", "sax.set_port_naming_strategy", "sax.models.mmi1x2_ideal", "sax.models.straight"]
# fixture = ""
# [expect]
# csv_rows = {"gf_mzi.csv" = 20001}
# files = ["gf_mzi.csv", "gf_mzi.json"]
# csv_columns = {"gf_mzi.csv" = ["wavelength_nm", "transmission", "transmission_dB"]}
# json_values = {"gf_mzi.json" = {"delta_length_um" = 40.0, "num_instances" = 16, "fsr_matches_theory" = true, "ports" = "o1,o2"}}
# stdout = ["16 instances", "FSR 14.2"]
# ---
import csv
import json

import gdsfactory as gf
import numpy as np
import sax
from scipy.signal import find_peaks

sax.set_port_naming_strategy("optical")      # o1, o2, ... like gdsfactory (set before any model is used)
gf.gpdk.PDK.activate()

DELTA_L = 40.0          # um
NEFF, NG = 2.4, 4.2

c = gf.components.mzi(delta_length=DELTA_L)
netlist = c.get_netlist()
for inst in netlist["instances"].values():
    if inst["component"] == "bend_euler":          # a bend's path length is stored in its info
        inst["settings"] = {"length": inst["info"]["length"]}


def waveguide(wl=1.55, length=10.0):
    return sax.models.straight(wl=wl, length=length, neff=NEFF, ng=NG)


models = {"mmi1x2": sax.models.mmi1x2_ideal, "straight": waveguide, "bend_euler": waveguide}
circuit, _ = sax.circuit(netlist, models=models)

wl = np.linspace(1.50, 1.60, 20001)
T = np.abs(np.asarray(circuit(wl=wl)["o1", "o2"])) ** 2
dips, _ = find_peaks(-T, prominence=0.5)
fsr_nm = float(np.mean(np.diff(wl[dips]))) * 1e3
theory_nm = float(np.mean(wl[dips])) ** 2 / (NG * DELTA_L) * 1e3

with open("gf_mzi.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_nm", "transmission", "transmission_dB"])
    w.writerows(zip(np.round(wl * 1e3, 3), np.round(T, 6), np.round(10 * np.log10(np.maximum(T, 1e-12)), 3)))
with open("gf_mzi.json", "w") as f:
    json.dump({"delta_length_um": DELTA_L, "num_instances": len(netlist["instances"]), "ports": ",".join(netlist["ports"]),
               "fsr_nm": round(fsr_nm, 3), "fsr_theory_nm": round(theory_nm, 3),
               "fsr_matches_theory": bool(abs(fsr_nm / theory_nm - 1) < 2e-3)}, f, indent=2)
print(f"{c.name}: {len(netlist['instances'])} instances; FSR {fsr_nm:.3f} nm (theory {theory_nm:.3f} nm), "
      f"max transmission {T.max():.4f}")
