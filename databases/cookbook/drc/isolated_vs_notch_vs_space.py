# ---
# title = "Space between different shapes only (isolated), inside one shape (notch), or both"
# summary = "Runs the three spacing flavours on one layer of in.gds: space_check (any two edges), isolated_check (edges of different polygons only) and notch_check (edges of the same polygon only), and writes the three counts to space_kinds.json. Use it when a rule distinguishes external spacing from slots."
# kind = "sandbox"
# tags = ["drc", "isolated", "notch", "space", "external spacing", "intra polygon", "inter polygon", "compare checks"]
# apis = ["pya.Region.space_check", "pya.Region.isolated_check", "pya.Region.notch_check", "pya.EdgePairs.count"]
# fixture = "drc_rules"
# [expect]
# files = ["space_kinds.json"]
# json_values = {"space_kinds.json" = {"space" = 1, "isolated" = 0, "notch" = 1}}
# stdout = ["space 1 = isolated 0 + notch 1"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (2, 0)
MIN_SPACE = 0.5               # um

layout = pya.Layout()
layout.read(GDS)
region = pya.Region(layout.top_cell().begin_shapes_rec(layout.layer(*LAYER)))
d = int(round(MIN_SPACE / layout.dbu))
counts = {"space": region.space_check(d).count(),       # everything
          "isolated": region.isolated_check(d).count(),  # between different polygons
          "notch": region.notch_check(d).count()}        # within one polygon
with open("space_kinds.json", "w") as f:
    json.dump(counts, f, indent=2)
print(f"{LAYER[0]}/{LAYER[1]} < {MIN_SPACE} um: space {counts['space']} = isolated {counts['isolated']} + notch {counts['notch']}")
