# ---
# title = "Directional coupler: cross-coupled power versus coupling length, 3 dB and full-transfer lengths"
# summary = "Sweeps the coupling length of SAX's physical coupler model (sax.models.coupler, supermode index difference dn) at one wavelength and finds the length for a 50:50 split (3 dB) and for full transfer to the cross port. Compares them with coupled-mode theory L_cross = lambda / (2 dn). Writes the sweep to coupler_length_sweep.csv and the lengths to coupler_lengths.json."
# kind = "sandbox"
# tags = ["directional coupler", "coupling length", "3 dB coupler", "50:50", "cross-over length", "beat length", "supermode", "sweep", "sax"]
# apis = ["sax.models.coupler"]
# fixture = ""
# [expect]
# csv_rows = {"coupler_length_sweep.csv" = 12001}
# files = ["coupler_length_sweep.csv", "coupler_lengths.json"]
# csv_columns = {"coupler_length_sweep.csv" = ["length_um", "thru", "cross"]}
# json_values = {"coupler_lengths.json" = {"length_3dB_um" = 19.375, "length_full_transfer_um" = 38.75, "theory_full_transfer_um" = 38.75}}
# stdout = ["3 dB at 19.375 um", "full transfer at 38.750 um"]
# ---
import csv
import json

import numpy as np
import sax

WL = 1.55          # um
DN = 0.02          # effective index difference of the even and odd supermodes
lengths = np.arange(0, 60.0001, 0.005)      # um

# coupling0=0: no extra coupling from the bends, so the cross power is sin^2(pi dn L / wl)
s = sax.models.coupler(wl=WL, wl0=WL, length=lengths, coupling0=0.0, dn=DN)
thru = np.abs(np.asarray(s[("in0", "out0")])) ** 2
cross = np.abs(np.asarray(s[("in0", "out1")])) ** 2

L_3db = float(lengths[np.argmax(cross >= 0.5 - 1e-9)])      # first length with a 50:50 split
L_full = float(lengths[np.argmax(cross)])                      # maximum transfer to the cross port
with open("coupler_length_sweep.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["length_um", "thru", "cross"])
    w.writerows(zip(np.round(lengths, 4), np.round(thru, 6), np.round(cross, 6)))
with open("coupler_lengths.json", "w") as f:
    json.dump({"length_3dB_um": round(L_3db, 4), "length_full_transfer_um": round(L_full, 4),
               "theory_full_transfer_um": round(WL / (2 * DN), 4)}, f, indent=2)
print(f"3 dB at {L_3db:.3f} um, full transfer at {L_full:.3f} um (theory {WL / (2 * DN):.3f} um)")
