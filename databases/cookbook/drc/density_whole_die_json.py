# ---
# title = "Overall layer density inside the die outline, pass/fail against a range"
# summary = "Measures the fraction of the die area (an outline layer's shapes) covered by a layer (merged, clipped to the die) and checks it against a minimum and maximum density; writes area, density and pass to density.json. Use it for a global fill/density rule; for local windows use the per-tile recipe."
# kind = "sandbox"
# tags = ["drc", "density", "global density", "coverage", "fill ratio", "die", "chip outline", "percent"]
# apis = ["pya.Region.new", "pya.Region.__and__", "pya.Region.area", "pya.Layout.find_layer"]
# fixture = "fill_density"
# [expect]
# files = ["density.json"]
# json_values = {"density.json" = {"die_area_um2" = 10000.0, "covered_um2" = 3850.0, "density" = 0.385, "pass" = true}}
# stdout = ["density 38.5 %"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
OUTLINE = (99, 0)
MIN_D, MAX_D = 0.2, 0.8

layout = pya.Layout()
layout.read(GDS)
top, dbu = layout.top_cell(), layout.dbu
for ld in (LAYER, OUTLINE):
    if layout.find_layer(*ld) is None:
        raise SystemExit(f"layer {ld[0]}/{ld[1]} not in {GDS}")
die = pya.Region(top.begin_shapes_rec(layout.find_layer(*OUTLINE)))
covered = pya.Region(top.begin_shapes_rec(layout.find_layer(*LAYER))) & die   # clipped to the die
density = covered.area() / die.area()
report = {"die_area_um2": die.area() * dbu ** 2, "covered_um2": covered.area() * dbu ** 2,
          "density": round(density, 6), "min": MIN_D, "max": MAX_D, "pass": MIN_D <= density <= MAX_D}
with open("density.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"{LAYER[0]}/{LAYER[1]} density {density * 100:.1f} % ({'pass' if report['pass'] else 'FAIL'})")
