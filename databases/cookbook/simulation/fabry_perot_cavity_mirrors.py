# ---
# title = "Fabry-Perot cavity between two partial mirrors: transmission, reflection, FSR and finesse"
# summary = "Simulates two partial reflectors around a straight waveguide cavity in SAX (bidirectional circuit) and reports peak/minimum transmission, FSR (compared with lambda^2 / (2 ng L) at the centre of the measured peaks) and finesse, and checks T + R = 1. Uses a small energy-conserving mirror model (r = sqrt(R), t = i sqrt(1 - R)): sax.models.reflector in SAX 0.18 has real r and t, which is not lossless and gives wrong reflection inside a cavity."
# kind = "sandbox"
# tags = ["fabry-perot", "cavity", "mirror", "reflector", "bragg", "etalon", "fsr", "finesse", "reflection", "sax"]
# apis = ["sax.circuit", "sax.models.straight", "sax.reciprocal"]
# fixture = ""
# [expect]
# files = ["fabry_perot.json"]
# json_values = {"fabry_perot.json" = {"peak_transmission" = 1.0, "min_transmission" = 0.111111, "fsr_nm" = 5.714, "fsr_theory_nm" = 5.714, "fsr_matches_theory" = true, "finesse_theory" = 4.35, "finesse_matches_theory" = true, "energy_conserved" = true}}
# stdout = ["FSR 5.714 nm", "T + R = 1: True"]
# ---
import json

import jax.numpy as jnp
import numpy as np
import sax
from scipy.signal import find_peaks

R = 0.5              # power reflectivity of each mirror
L = 50.0             # um, cavity length
NEFF, NG = 2.4, 4.2


def mirror(wl=1.55, reflection=0.5):
    """Lossless partial mirror: real reflection, transmission with a 90 degree phase (unitary)."""
    one = jnp.ones_like(jnp.asarray(wl))
    r = jnp.sqrt(reflection) * one
    t = 1j * jnp.sqrt(1 - reflection) * one
    return sax.reciprocal({("in0", "in0"): r, ("out0", "out0"): r, ("in0", "out0"): t})


netlist = {
    "instances": {"m1": "mirror", "cavity": "straight", "m2": "mirror"},
    "connections": {"m1,out0": "cavity,in0", "cavity,out0": "m2,in0"},
    "ports": {"in": "m1,in0", "out": "m2,out0"},
}
fp, _ = sax.circuit(netlist, models={"mirror": mirror, "straight": sax.models.straight})

wl = np.linspace(1.54, 1.56, 20001)
s = fp(wl=wl, m1={"reflection": R}, m2={"reflection": R}, cavity={"length": L, "neff": NEFF, "ng": NG})
T = np.abs(np.asarray(s["in", "out"])) ** 2
Rf = np.abs(np.asarray(s["in", "in"])) ** 2

peaks, _ = find_peaks(T, prominence=0.5)
fsr_nm = float(np.mean(np.diff(wl[peaks]))) * 1e3
wl_c = float(np.mean(wl[peaks]))                       # um, centre of the measured peaks
theory_nm = wl_c ** 2 / (2 * NG * L) * 1e3
# finesse = FSR / FWHM, FWHM measured around the middle peak at half of its height
p = peaks[len(peaks) // 2]
lo, hi = p, p
while T[lo] >= 0.5 * T[p]:
    lo -= 1
while T[hi] >= 0.5 * T[p]:
    hi += 1
finesse = fsr_nm / ((wl[hi] - wl[lo]) * 1e3)
finesse_theory = np.pi / (2 * np.arcsin((1 - R) / (2 * np.sqrt(R))))   # Airy function, equal mirrors
result = {"peak_transmission": round(float(T.max()), 6), "min_transmission": round(float(T.min()), 6),
          "fsr_nm": round(fsr_nm, 3), "fsr_theory_nm": round(theory_nm, 3),
          "fsr_matches_theory": bool(abs(fsr_nm / theory_nm - 1) < 1e-3), "finesse": round(float(finesse), 2), "finesse_theory": round(float(finesse_theory), 2),
          "finesse_matches_theory": bool(abs(finesse / finesse_theory - 1) < 0.01),
          "energy_conserved": bool(np.max(np.abs(T + Rf - 1)) < 1e-9)}
with open("fabry_perot.json", "w") as f:
    json.dump(result, f, indent=2)
print(f"FSR {fsr_nm:.3f} nm (theory {theory_nm:.3f}), T {T.min():.4f}..{T.max():.4f}, "
      f"finesse {finesse:.2f} (theory {finesse_theory:.2f}), T + R = 1: {result['energy_conserved']}")
