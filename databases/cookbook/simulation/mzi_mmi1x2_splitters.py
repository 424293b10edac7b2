# ---
# title = "MZI built from two 1x2 MMIs (splitter and combiner used backwards): insertion loss and FSR"
# summary = "Builds a Mach-Zehnder in SAX from a 1x2 MMI splitter, two straight arms and a second 1x2 MMI used in reverse as the combiner (its two outputs receive the arms, its input is the circuit output). Sweeps the wavelength and reports the peak insertion loss (twice the MMI loss), the extinction and the FSR against lambda^2 / (ng dL). Writes mzi_mmi.json and the spectrum to mzi_mmi.csv."
# kind = "sandbox"
# tags = ["mzi", "mmi", "1x2", "splitter", "combiner", "insertion loss", "fsr", "extinction", "sax.circuit", "netlist"]
# apis = ["sax.circuit", "sax.models.mmi1x2", "sax.models.straight"]
# fixture = ""
# [expect]
# files = ["mzi_mmi.json", "mzi_mmi.csv"]
# csv_rows = {"mzi_mmi.csv" = 10001}
# csv_columns = {"mzi_mmi.csv" = ["wavelength_nm", "transmission_dB"]}
# json_values = {"mzi_mmi.json" = {"insertion_loss_dB" = 0.6, "fsr_matches_theory" = true, "extinction_above_40dB" = true}}
# stdout = ["insertion loss 0.60 dB"]
# ---
import csv
import json

import numpy as np
import sax
from scipy.signal import find_peaks

MMI_LOSS_DB = 0.3
DELTA_L = 80.0
NEFF, NG = 2.4, 4.2

netlist = {
    "instances": {"splitter": "mmi1x2", "top": "straight", "bot": "straight", "combiner": "mmi1x2"},
    "connections": {"splitter,out0": "bot,in0", "splitter,out1": "top,in0",
                    "bot,out0": "combiner,out0", "top,out0": "combiner,out1"},    # combiner used backwards
    "ports": {"in": "splitter,in0", "out": "combiner,in0"},
}
mzi, _ = sax.circuit(netlist, models={"mmi1x2": sax.models.mmi1x2, "straight": sax.models.straight})

wl = np.linspace(1.5, 1.6, 10001)          # the MMI model normalises over this sweep: include its 1.55 um centre
mmi = {"loss_dB": MMI_LOSS_DB, "wl0": 1.55}
s = mzi(wl=wl, splitter=mmi, combiner=mmi, top={"length": 100.0 + DELTA_L, "neff": NEFF, "ng": NG},
        bot={"length": 100.0, "neff": NEFF, "ng": NG})
T = np.abs(np.asarray(s["in", "out"])) ** 2
T_db = 10 * np.log10(np.maximum(T, 1e-30))

dips, _ = find_peaks(-T, prominence=0.5)
fsr_nm = float(np.mean(np.diff(wl[dips]))) * 1e3
theory_nm = float(np.mean(wl[dips])) ** 2 / (NG * DELTA_L) * 1e3
with open("mzi_mmi.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_nm", "transmission_dB"])
    w.writerows(zip(np.round(wl * 1e3, 3), np.round(T_db, 4)))
result = {"insertion_loss_dB": round(float(-T_db.max()), 2), "fsr_nm": round(fsr_nm, 3),
          "fsr_matches_theory": bool(abs(fsr_nm / theory_nm - 1) < 2e-3),
          "extinction_above_40dB": bool(T_db.max() - T_db.min() > 40)}
with open("mzi_mmi.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"MZI with 1x2 MMIs: insertion loss {-T_db.max():.2f} dB, FSR {fsr_nm:.3f} nm (theory {theory_nm:.3f}), "
      f"extinction {T_db.max() - T_db.min():.0f} dB")
