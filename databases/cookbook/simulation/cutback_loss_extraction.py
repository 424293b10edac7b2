# ---
# title = "Cut-back method: extract waveguide propagation loss (dB/cm) and coupling loss from a length series"
# summary = "Simulates test structures of grating coupler + straight waveguide of several lengths + grating coupler in SAX, takes the peak transmission in dB of each, and fits a line versus length (numpy polyfit): the slope is the propagation loss in dB/cm and the intercept the loss of the two couplers. Recovers the model's inputs. Writes cutback.csv and cutback.json; the same fit works on measured data."
# kind = "sandbox"
# tags = ["cutback", "cut-back", "propagation loss", "dB/cm", "coupling loss", "linear fit", "test structures", "loss extraction", "sax"]
# apis = ["sax.circuit", "sax.models.grating_coupler", "sax.models.straight"]
# fixture = ""
# [expect]
# csv_rows = {"cutback.csv" = 5}
# files = ["cutback.csv", "cutback.json"]
# csv_columns = {"cutback.csv" = ["length_cm", "transmission_dB"]}
# json_values = {"cutback.json" = {"propagation_loss_dB_cm" = 2.5, "coupler_loss_dB_each" = 4.0, "num_structures" = 5}}
# stdout = ["2.500 dB/cm", "4.000 dB per coupler"]
# ---
import csv
import json

import numpy as np
import sax

LENGTHS_UM = [1000.0, 2000.0, 5000.0, 10000.0, 20000.0]     # waveguide lengths of the test structures
LOSS_DB_CM = 2.5          # propagation loss used in the model
GC_LOSS_DB = 4.0          # peak loss of each grating coupler

netlist = {
    "instances": {"gc_in": "grating_coupler", "wg": "straight", "gc_out": "grating_coupler"},
    "connections": {"gc_in,out0": "wg,in0", "wg,out0": "gc_out,out0"},      # out0 = waveguide side
    "ports": {"fiber_in": "gc_in,in0", "fiber_out": "gc_out,in0"},
}
link, _ = sax.circuit(netlist, models={"grating_coupler": sax.models.grating_coupler, "straight": sax.models.straight})

wl = np.linspace(1.53, 1.57, 401)
rows = []
for L in LENGTHS_UM:
    s = link(wl=wl, gc_in={"loss": GC_LOSS_DB}, gc_out={"loss": GC_LOSS_DB}, wg={"length": L, "loss_dB_cm": LOSS_DB_CM})
    t_db = 10 * np.log10(np.max(np.abs(np.asarray(s["fiber_in", "fiber_out"])) ** 2))   # peak transmission
    rows.append((L * 1e-4, float(t_db)))

lengths_cm, t_db = np.array(rows).T
slope, intercept = np.polyfit(lengths_cm, t_db, 1)          # dB = slope * L + intercept
with open("cutback.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["length_cm", "transmission_dB"])
    w.writerows((round(a, 4), round(b, 4)) for a, b in rows)
with open("cutback.json", "w") as f:
    json.dump({"num_structures": len(rows), "propagation_loss_dB_cm": round(float(-slope), 6),
               "coupler_loss_dB_each": round(float(-intercept / 2), 6)}, f, indent=2)
print(f"fit of {len(rows)} structures: {-slope:.3f} dB/cm, {-intercept / 2:.3f} dB per coupler")
