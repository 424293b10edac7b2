# ---
# title = "Transmission, insertion loss and phase of a straight waveguide (neff, ng, length, loss)"
# summary = "Evaluates SAX's dispersive straight-waveguide model (sax.models.straight) for a given effective index, group index, length in um and propagation loss in dB/cm over a wavelength sweep. Reports power transmission |S21|^2, insertion loss in dB (loss_dB_cm x length) and the phase at the centre wavelength to waveguide.json."
# kind = "sandbox"
# tags = ["waveguide", "straight", "propagation loss", "insertion loss", "dB/cm", "phase", "neff", "transmission", "sax"]
# apis = ["sax.models.straight"]
# fixture = ""
# [expect]
# files = ["waveguide.json"]
# json_values = {"waveguide.json" = {"length_um" = 5000.0, "insertion_loss_dB" = 1.25, "transmission" = 0.749894, "loss_matches_dB_per_cm" = true}}
# stdout = ["1.250 dB"]
# ---
import json

import numpy as np
import sax

NEFF = 2.4          # effective index at WL0
NG = 4.2            # group index
LENGTH = 5000.0     # um (0.5 cm)
LOSS_DB_CM = 2.5    # propagation loss, dB/cm
WL0 = 1.55          # um

wl = np.linspace(1.50, 1.60, 1001)                        # um
s = sax.models.straight(wl=wl, wl0=WL0, neff=NEFF, ng=NG, length=LENGTH, loss_dB_cm=LOSS_DB_CM)
t = np.asarray(s[("in0", "out0")])                        # complex amplitude S21 (ports in0 -> out0)

i0 = int(np.argmin(np.abs(wl - WL0)))
power = float(np.abs(t[i0]) ** 2)                         # |S21|^2
il_db = -10 * np.log10(power)                             # insertion loss, dB
expected_db = LOSS_DB_CM * LENGTH * 1e-4                  # dB/cm x cm
result = {"length_um": LENGTH, "transmission": round(power, 6), "insertion_loss_dB": round(il_db, 6),
          "loss_matches_dB_per_cm": bool(abs(il_db - expected_db) < 1e-9),
          "phase_rad_at_wl0": float(np.angle(t[i0]))}
with open("waveguide.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"{LENGTH:.0f} um at {LOSS_DB_CM} dB/cm: |S21|^2 = {power:.6f}, insertion loss {il_db:.3f} dB, "
      f"phase {result['phase_rad_at_wl0']:.4f} rad")
