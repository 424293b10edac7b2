# ---
# title = "S-parameter amplitude, power |S|^2 and dB: convert correctly (10 log10 vs 20 log10)"
# summary = "Uses SAX's attenuator model (loss in dB) and a lossy straight to show the conversions a designer needs: power = |S|^2, loss_dB = -10 log10(power) = -20 log10(|S|), amplitude = 10^(-dB/20), power = 10^(-dB/10), phase = angle(S). Checks that both dB formulas agree and that the attenuator returns exactly its loss. Writes conversions.json."
# kind = "sandbox"
# tags = ["dB", "decibel", "power", "amplitude", "|S|^2", "conversion", "insertion loss", "attenuator", "s-parameters", "sax"]
# apis = ["sax.models.attenuator", "sax.models.straight"]
# fixture = ""
# [expect]
# files = ["conversions.json"]
# json_values = {"conversions.json" = {"loss_dB" = 3.0, "amplitude" = 0.707946, "power" = 0.501187, "dB_from_power" = 3.0, "dB_from_amplitude" = 3.0, "formulas_agree" = true}}
# stdout = ["3.000 dB", "power 0.501187"]
# ---
import json

import numpy as np
import sax

LOSS_DB = 3.0            # attenuation, dB

s = sax.models.attenuator(wl=1.55, loss=LOSS_DB)
S21 = complex(np.asarray(s[("in0", "out0")]))        # complex amplitude
amplitude = abs(S21)
power = amplitude ** 2                                 # |S|^2
db_p = -10 * np.log10(power)                           # from power: 10 log10
db_a = -20 * np.log10(amplitude)                       # from amplitude: 20 log10

# the same numbers for a waveguide: 1.5 dB/cm over 2 cm = 3 dB
wg = sax.models.straight(wl=1.55, length=20000.0, loss_dB_cm=1.5)
wg_db = float(-10 * np.log10(abs(complex(np.asarray(wg[("in0", "out0")]))) ** 2))

result = {"loss_dB": LOSS_DB, "amplitude": round(amplitude, 6), "power": round(power, 6),
          "amplitude_from_dB": round(10 ** (-LOSS_DB / 20), 6), "power_from_dB": round(10 ** (-LOSS_DB / 10), 6),
          "dB_from_power": round(float(db_p), 9), "dB_from_amplitude": round(float(db_a), 9),
          "waveguide_loss_dB": round(wg_db, 9), "phase_rad": float(np.angle(S21)),
          "formulas_agree": bool(abs(db_p - db_a) < 1e-12 and abs(db_p - LOSS_DB) < 1e-9)}
with open("conversions.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"{LOSS_DB:.3f} dB: amplitude {amplitude:.6f}, power {power:.6f}; 10log10 -> {db_p:.3f} dB, "
      f"20log10 -> {db_a:.3f} dB; waveguide {wg_db:.3f} dB")
