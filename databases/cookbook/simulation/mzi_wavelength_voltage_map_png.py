# ---
# title = "2D sweep: MZI modulator transmission versus wavelength and voltage as a heat map PNG and CSV"
# summary = "Evaluates an unbalanced MZI with a phase shifter in SAX on a grid of wavelengths and drive voltages in one call (numpy broadcasting: wavelengths as a row, voltages as a column), saves the transmission in dB as a heat map with matplotlib (Agg) and the grid as a long-format CSV. Reports how far a transmission minimum moves per volt (FSR/2 for pi per volt). Template for any two-parameter sweep."
# kind = "sandbox"
# tags = ["2d sweep", "heat map", "map", "broadcasting", "voltage", "wavelength", "modulator", "tuning", "png", "csv", "sax"]
# apis = ["sax.circuit", "sax.models.phase_shifter", "sax.models.straight", "sax.models.coupler_ideal"]
# fixture = ""
# [expect]
# files = ["mzi_map.png", "mzi_map.csv"]
# csv_columns = {"mzi_map.csv" = ["voltage_V", "wavelength_nm", "transmission_dB"]}
# csv_rows = {"mzi_map.csv" = 25221}
# stdout = ["21 voltages x 1201 wavelengths", "matches FSR/2 per volt: True"]
# ---
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import sax

DELTA_L = 100.0                                   # um
wl = np.linspace(1.544, 1.556, 1201)              # um, 10 pm steps (about one FSR)
volts = np.linspace(0, 2, 21)                     # V

netlist = {
    "instances": {"dc1": "coupler", "ps": "phase_shifter", "ref": "straight", "dc2": "coupler"},
    "connections": {"dc1,out1": "ps,in0", "dc1,out0": "ref,in0", "ps,out0": "dc2,in1", "ref,out0": "dc2,in0"},
    "ports": {"in0": "dc1,in0", "in1": "dc1,in1", "out0": "dc2,out0", "out1": "dc2,out1"},
}
mzm, _ = sax.circuit(netlist, models={"coupler": sax.models.coupler_ideal, "phase_shifter": sax.models.phase_shifter,
                                      "straight": sax.models.straight})

WL, V = np.meshgrid(wl, volts)                     # shape (len(volts), len(wl))
s = mzm(wl=WL, ps={"voltage": V, "length": 100.0 + DELTA_L, "neff": 2.4},
        ref={"length": 100.0, "neff": 2.4, "ng": 2.4})   # ng = neff: no dispersion, like the phase shifter
T_db = 10 * np.log10(np.maximum(np.abs(np.asarray(s["in0", "out0"])) ** 2, 1e-12))

fig, ax = plt.subplots(figsize=(7, 4))
im = ax.pcolormesh(wl * 1e3, volts, T_db, shading="auto", cmap="viridis")
fig.colorbar(im, ax=ax, label="bar transmission (dB)")
ax.set_xlabel("wavelength (nm)")
ax.set_ylabel("voltage (V)")
fig.tight_layout()
fig.savefig("mzi_map.png", dpi=150)

with open("mzi_map.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["voltage_V", "wavelength_nm", "transmission_dB"])
    for i, v in enumerate(volts):
        w.writerows((round(float(v), 3), round(float(x) * 1e3, 3), round(float(t), 3)) for x, t in zip(wl, T_db[i]))

lam_min = wl[np.argmin(T_db, axis=1)] * 1e3       # wavelength of the minimum at each voltage
shift = np.polyfit(volts[:6], lam_min[:6], 1)[0]  # nm per volt over the first 0.5 V
half_fsr = 1.55 ** 2 / (2 * 2.4 * DELTA_L) * 1e3   # the model adds pi per volt: a shift of FSR/2 per volt
ok = abs(abs(shift) / half_fsr - 1) < 0.03
print(f"map of {len(volts)} voltages x {len(wl)} wavelengths; the minimum moves {shift:.3f} nm/V "
      f"(FSR/2 = {half_fsr:.3f} nm); matches FSR/2 per volt: {ok}; wrote mzi_map.png")
