# ---
# title = "Notch check: too-narrow slots inside one polygon"
# summary = "Runs notch_check (spacing between edges of the same polygon) on a layer of in.gds with a minimum notch in um and writes the count and marker boxes to notch.json. Use it for slots, U-shapes and inner corners that a space check between different shapes would not single out."
# kind = "sandbox"
# tags = ["drc", "notch", "slot", "inner space", "same polygon", "u-shape", "notch check"]
# apis = ["pya.Region.new", "pya.Region.notch_check", "pya.EdgePairs.count", "pya.EdgePair.bbox", "pya.EdgePairs.bbox", "pya.Box.to_dtype"]
# fixture = "drc_rules"
# [expect]
# files = ["notch.json"]
# json_values = {"notch.json" = {"violations" = 1, "extent_um" = [2.8, 11.0, 3.2, 14.0]}}
# stdout = ["1 notches"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (2, 0)
MIN_NOTCH = 0.5               # um

layout = pya.Layout()
layout.read(GDS)
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER)))
errors = region.notch_check(int(round(MIN_NOTCH / layout.dbu)))
boxes = [ep.bbox().to_dtype(layout.dbu) for ep in errors.each()]
extent = errors.bbox().to_dtype(layout.dbu)                         # the box around all markers
with open("notch.json", "w") as f:
    json.dump({"violations": errors.count(), "min_um": MIN_NOTCH,
               "extent_um": [extent.left, extent.bottom, extent.right, extent.top] if boxes else [],
               "markers_um": [[b.left, b.bottom, b.right, b.top] for b in boxes]}, f, indent=2)
print(f"{errors.count()} notches narrower than {MIN_NOTCH} um on {LAYER[0]}/{LAYER[1]}")
