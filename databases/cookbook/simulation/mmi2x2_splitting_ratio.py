# ---
# title = "2x2 MMI coupler with an unequal splitting ratio: bar/cross power and phase"
# summary = "Evaluates SAX's 2x2 MMI model (sax.models.mmi2x2) with a chosen cross/bar splitting ratio and insertion loss, and reports the power to the bar and cross ports, their ratio, the total transmitted power (= 10^(-loss/10)) and the relative phase. Writes mmi2x2.json. Mind the model's port convention (thru = in0->out1 with default port names). Use mmi2x2_ideal for a lossless 50:50 MMI."
# kind = "sandbox"
# tags = ["mmi", "2x2", "splitting ratio", "coupler", "bar", "cross", "power split", "3 dB coupler", "sax"]
# apis = ["sax.models.mmi2x2"]
# fixture = ""
# [expect]
# files = ["mmi2x2.json"]
# json_values = {"mmi2x2.json" = {"cross_fraction" = 0.3, "total_power" = 0.954993, "loss_dB" = 0.2}}
# stdout = ["cross fraction 0.300"]
# ---
import json

import numpy as np
import sax

WL0 = 1.55
LOSS_DB = 0.2           # insertion loss, dB
RATIO_CROSS = 0.3       # power fraction to the cross port
RATIO_THRU = 0.7        # power fraction to the bar (through) port

wl = np.linspace(1.5, 1.6, 101)
s = sax.models.mmi2x2(wl=wl, wl0=WL0, loss_dB=LOSS_DB,
                      splitting_ratio_cross=RATIO_CROSS, splitting_ratio_thru=RATIO_THRU)
i0 = int(np.argmin(np.abs(wl - WL0)))
ports = sorted({p for pair in s for p in pair})
# mmi2x2's own convention: thru = o1->o3 and cross = o1->o4, which with SAX's default port
# names is thru = in0->out1 and cross = in0->out0 (coupler_ideal's through is in0->out0!)
bar = float(np.abs(s[("in0", "out1")][i0]) ** 2)
cross = float(np.abs(s[("in0", "out0")][i0]) ** 2)
dphi = float(np.degrees(np.angle(s[("in0", "out0")][i0]) - np.angle(s[("in0", "out1")][i0])))

result = {"ports": ports, "bar_power": round(bar, 6), "cross_power": round(cross, 6),
          "cross_fraction": round(cross / (bar + cross), 6), "total_power": round(bar + cross, 6),
          "loss_dB": round(-10 * np.log10(bar + cross), 6), "phase_cross_minus_bar_deg": round(dphi, 3)}
with open("mmi2x2.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"bar {bar:.4f}, cross {cross:.4f}: cross fraction {cross / (bar + cross):.3f}, "
      f"total {bar + cross:.4f} ({result['loss_dB']} dB), phase {dphi:.1f} deg")
