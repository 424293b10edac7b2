# ---
# title = "1x2 MMI splitter: output powers, excess loss, imbalance and 1 dB bandwidth"
# summary = "Evaluates SAX's dispersive 1x2 MMI model (sax.models.mmi1x2: centre wavelength, FWHM bandwidth in um, insertion loss in dB) over a wavelength sweep and reports the power in each output, the excess loss (dB, relative to an ideal 3 dB split), the output imbalance and the 1 dB and 3 dB bandwidths in nm. Notes on the model: fwhm is the full width of the amplitude response (the 3 dB power bandwidth is narrower), and the spectrum is normalised over the wavelengths given, so always sweep across the centre wavelength."
# kind = "sandbox"
# tags = ["mmi", "1x2", "splitter", "y-branch", "excess loss", "imbalance", "bandwidth", "3 dB splitter", "sax"]
# apis = ["sax.models.mmi1x2"]
# fixture = ""
# [expect]
# files = ["mmi1x2.json"]
# json_values = {"mmi1x2.json" = {"excess_loss_dB" = 0.3, "imbalance_dB" = 0.0, "power_each_output" = 0.466627, "bandwidth_1dB_nm" = 81.8, "bandwidth_3dB_nm" = 141.9}}
# stdout = ["excess loss 0.300 dB"]
# ---
import json

import numpy as np
import sax

WL0 = 1.55        # um, centre wavelength
FWHM = 0.2        # um, bandwidth of the model's Gaussian response
LOSS_DB = 0.3     # insertion (excess) loss at WL0

wl = np.linspace(1.45, 1.65, 2001)      # um, includes WL0
s = sax.models.mmi1x2(wl=wl, wl0=WL0, fwhm=FWHM, loss_dB=LOSS_DB)
p1 = np.abs(np.asarray(s[("in0", "out0")])) ** 2
p2 = np.abs(np.asarray(s[("in0", "out1")])) ** 2
total = p1 + p2

i0 = int(np.argmin(np.abs(wl - WL0)))
excess_db = -10 * np.log10(total[i0])                   # loss beyond the ideal 50/50 split
imbalance_db = 10 * np.log10(p1[i0] / p2[i0])


def bandwidth_nm(drop_db):
    """Width of the band within drop_db of the peak, nm."""
    band = wl[total >= total[i0] * 10 ** (-drop_db / 10)]
    return (band.max() - band.min()) * 1e3


bw_nm, bw3_nm = bandwidth_nm(1.0), bandwidth_nm(3.0)

result = {"power_each_output": round(float(p1[i0]), 6), "excess_loss_dB": round(float(excess_db), 6),
          "imbalance_dB": round(float(imbalance_db), 6), "bandwidth_1dB_nm": round(float(bw_nm), 1),
          "bandwidth_3dB_nm": round(float(bw3_nm), 1)}
with open("mmi1x2.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"each output {p1[i0]:.4f}, excess loss {excess_db:.3f} dB, imbalance {imbalance_db:.3f} dB, "
      f"1 dB bandwidth {bw_nm:.1f} nm, 3 dB bandwidth {bw3_nm:.1f} nm")
