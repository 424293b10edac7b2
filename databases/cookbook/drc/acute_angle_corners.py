# ---
# title = "Find acute (sharp) corners below an angle"
# summary = "Reports every corner of a layer of in.gds whose inner angle lies in a range in degrees (Region.with_angle on polygons returns an edge pair per matching corner), e.g. all acute corners (< 90 deg) and very sharp tips (< 30 deg), with their locations in angles.json. Use it for min-angle rules and to find spikes that etch badly."
# kind = "sandbox"
# tags = ["drc", "acute angle", "sharp corner", "min angle", "spike", "corner check", "angle"]
# apis = ["pya.Region.new", "pya.Region.with_angle", "pya.EdgePairs.count", "pya.EdgePair.bbox"]
# fixture = "drc_rules"
# [expect]
# files = ["angles.json"]
# json_values = {"angles.json" = {"acute_corners" = 4, "sharp_corners" = 1, "sharp_below_deg" = 30.0}}
# stdout = ["4 acute corners", "1 below 30"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (5, 0)
ACUTE = 90.0                  # deg: corners with an inner angle below this are acute
SHARP = 30.0                  # deg: and below this, sharp

layout = pya.Layout()
layout.read(GDS)
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER)))
acute = region.with_angle(0.0, ACUTE, False)      # corners with angle in [0, ACUTE)
sharp = region.with_angle(0.0, SHARP, False)
centers = [[ep.bbox().center().x * layout.dbu, ep.bbox().center().y * layout.dbu] for ep in sharp.each()]
with open("angles.json", "w") as f:
    json.dump({"acute_corners": acute.count(), "sharp_corners": sharp.count(), "sharp_below_deg": SHARP,
               "sharp_at_um": centers}, f, indent=2)
print(f"{acute.count()} acute corners, {sharp.count()} below {SHARP:g} deg on {LAYER[0]}/{LAYER[1]}")
