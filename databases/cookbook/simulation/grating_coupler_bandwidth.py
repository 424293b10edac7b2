# ---
# title = "Grating coupler spectrum: peak insertion loss, centre wavelength, 1 dB and 3 dB bandwidth"
# summary = "Evaluates SAX's grating coupler model (sax.models.grating_coupler: centre wavelength, peak loss in dB, bandwidth = full width at half maximum of the power in um) over a wavelength sweep and measures the peak coupling efficiency, the peak wavelength and the 1 dB / 3 dB bandwidths in nm. Also the loss of a fibre-to-fibre link through two couplers. Writes grating_coupler.json and the spectrum CSV."
# kind = "sandbox"
# tags = ["grating coupler", "fiber coupling", "coupling efficiency", "bandwidth", "1 dB bandwidth", "3 dB bandwidth", "insertion loss", "loopback", "sax"]
# apis = ["sax.models.grating_coupler"]
# fixture = ""
# [expect]
# csv_rows = {"grating_coupler.csv" = 10001}
# files = ["grating_coupler.json", "grating_coupler.csv"]
# csv_columns = {"grating_coupler.csv" = ["wavelength_nm", "transmission_dB"]}
# json_values = {"grating_coupler.json" = {"peak_loss_dB" = 3.5, "peak_wavelength_nm" = 1550.0, "bandwidth_3dB_nm" = 40.0, "bandwidth_1dB_nm" = 23.0, "loopback_loss_dB" = 7.0}}
# stdout = ["peak -3.50 dB at 1550.0 nm"]
# ---
import csv
import json

import numpy as np
import sax

WL0 = 1.55            # um, centre wavelength
LOSS_DB = 3.5         # peak insertion loss per coupler
BANDWIDTH = 0.040     # um, FWHM of the power response

wl = np.linspace(1.50, 1.60, 10001)                  # 0.01 nm steps
s = sax.models.grating_coupler(wl=wl, wl0=WL0, loss=LOSS_DB, bandwidth=BANDWIDTH)
T = np.abs(np.asarray(s[("in0", "out0")])) ** 2
T_db = 10 * np.log10(T)

ipk = int(np.argmax(T))


def bandwidth_nm(drop_db):
    band = wl[T_db >= T_db[ipk] - drop_db]
    return round(float(band.max() - band.min()) * 1e3, 1)


with open("grating_coupler.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_nm", "transmission_dB"])
    w.writerows(zip(np.round(wl * 1e3, 2), np.round(T_db, 4)))
result = {"peak_loss_dB": round(float(-T_db[ipk]), 6), "peak_wavelength_nm": round(float(wl[ipk]) * 1e3, 2),
          "bandwidth_1dB_nm": bandwidth_nm(1.0), "bandwidth_3dB_nm": bandwidth_nm(10 * np.log10(2)),
          "loopback_loss_dB": round(float(-2 * T_db[ipk]), 6)}    # in and out coupler in series
with open("grating_coupler.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"peak {T_db[ipk]:.2f} dB at {wl[ipk] * 1e3:.1f} nm; 1 dB bandwidth {result['bandwidth_1dB_nm']} nm, "
      f"3 dB bandwidth {result['bandwidth_3dB_nm']} nm")
