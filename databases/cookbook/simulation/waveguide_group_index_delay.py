# ---
# title = "Group index and group delay of a waveguide extracted from its simulated phase"
# summary = "Simulates a straight waveguide with SAX over a wavelength sweep, unwraps the transmission phase and computes the group index ng = -(lambda^2 / 2 pi L) dphi/dlambda and the group delay tau = ng L / c in ps. Checks the extracted ng against the model's input. Use it to get delay or dispersion from any simulated S-parameter."
# kind = "sandbox"
# tags = ["group index", "group delay", "dispersion", "phase", "unwrap", "delay line", "ps", "sax", "straight"]
# apis = ["sax.models.straight"]
# fixture = ""
# [expect]
# files = ["group_delay.json"]
# json_values = {"group_delay.json" = {"ng_extracted" = 4.2, "group_delay_ps" = 14.01, "ng_matches_model" = true}}
# stdout = ["ng = 4.200"]
# ---
import json

import numpy as np
import sax

NEFF, NG = 2.4, 4.2
LENGTH = 1000.0            # um
C_UM_PER_PS = 299.792458   # speed of light, um/ps

wl = np.linspace(1.54, 1.56, 2001)          # um
s = sax.models.straight(wl=wl, wl0=1.55, neff=NEFF, ng=NG, length=LENGTH)
phase = np.unwrap(np.angle(np.asarray(s[("in0", "out0")])))    # rad, continuous

dphi_dwl = np.gradient(phase, wl)                                # rad/um
ng = -(wl ** 2) / (2 * np.pi * LENGTH) * dphi_dwl                # group index per wavelength
ng_mid = float(ng[len(wl) // 2])
delay_ps = ng_mid * LENGTH / C_UM_PER_PS

result = {"ng_extracted": round(ng_mid, 3), "group_delay_ps": round(delay_ps, 2),
          "ng_matches_model": bool(abs(ng_mid - NG) < 1e-3)}
with open("group_delay.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"ng = {ng_mid:.3f} (model {NG}), group delay {delay_ps:.3f} ps over {LENGTH:.0f} um")
