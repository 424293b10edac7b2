# ---
# title = "Wavelength sweep of a directional coupler written to CSV in linear power and dB"
# summary = "Sweeps SAX's dispersive coupler model (sax.models.coupler) over the C-band (sax.wl_c) for a chosen coupling length and writes coupler_spectrum.csv with wavelength in nm, through and cross power (|S|^2) and both in dB (10 log10 of power). Reports the wavelength of the 50:50 point and the power balance. A template for any spectrum-to-CSV export."
# kind = "sandbox"
# tags = ["spectrum", "csv", "wavelength sweep", "dB", "c-band", "directional coupler", "dispersion", "export", "sax"]
# apis = ["sax.models.coupler", "sax.wl_c"]
# fixture = ""
# [expect]
# csv_rows = {"coupler_spectrum.csv" = 351}
# files = ["coupler_spectrum.csv"]
# csv_columns = {"coupler_spectrum.csv" = ["wavelength_nm", "through", "cross", "through_dB", "cross_dB"]}
# stdout = ["351 points", "50:50 nearest 1550.4 nm", "lossless: True"]
# ---
import csv

import numpy as np
import sax

LENGTH = 14.4          # um, coupling length (about 50:50 at 1550 nm with the default dn)
OUTPUT = "coupler_spectrum.csv"

wl = sax.wl_c()                                      # 1.530 ... 1.565 um, 0.1 nm steps
s = sax.models.coupler(wl=wl, length=LENGTH)         # default coupling0, dn and dispersion terms
through = np.abs(np.asarray(s[("in0", "out0")])) ** 2     # power = |amplitude|^2
cross = np.abs(np.asarray(s[("in0", "out1")])) ** 2

with open(OUTPUT, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["wavelength_nm", "through", "cross", "through_dB", "cross_dB"])
    for x, t, c in zip(wl, through, cross):
        w.writerow([round(float(x) * 1e3, 3), round(float(t), 6), round(float(c), 6),
                    round(10 * np.log10(t), 4), round(10 * np.log10(c), 4)])   # dB = 10 log10(power)

i50 = int(np.argmin(np.abs(through - cross)))
print(f"wrote {OUTPUT}: {len(wl)} points; 50:50 nearest {wl[i50] * 1e3:.1f} nm; "
      f"lossless: {bool(np.allclose(through + cross, 1))}")
