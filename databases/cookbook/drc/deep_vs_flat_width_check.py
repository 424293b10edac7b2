# ---
# title = "Hierarchical (deep) DRC vs flat DRC: width check counted per cell and per placement"
# summary = "Runs the same width check on a layer of in.gds twice: flat (Region from begin_shapes_rec) and hierarchical with a DeepShapeStore (checks each cell once). The flat result counts every placement; the deep one's hier_count tells how many errors sit in the cells themselves. Writes both to deep.json. Use deep mode for big, repetitive layouts."
# kind = "sandbox"
# tags = ["drc", "deep mode", "hierarchical drc", "DeepShapeStore", "flat", "hier_count", "width", "performance"]
# apis = ["pya.DeepShapeStore.new", "pya.Region.new", "pya.Region.is_deep", "pya.Region.width_check", "pya.EdgePairs.count", "pya.EdgePairs.hier_count"]
# fixture = "hier_array"
# [expect]
# files = ["deep.json"]
# json_values = {"deep.json" = {"flat_errors" = 7, "deep_errors_flat" = 7, "deep_errors_in_cells" = 1, "deep" = true}}
# stdout = ["flat 7, deep 7 (1 in the cells)"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
LAYER = (1, 0)
MIN_WIDTH = 1.2               # um

layout = pya.Layout()
layout.read(GDS)
top = layout.top_cell()
d = int(round(MIN_WIDTH / layout.dbu))
li = layout.layer(*LAYER)

flat = pya.Region(top.begin_shapes_rec(li)).width_check(d)

dss = pya.DeepShapeStore()                                  # keep it alive while the deep regions are used
deep_region = pya.Region(top.begin_shapes_rec(li), dss)     # hierarchical ("deep") region
deep = deep_region.width_check(d)

report = {"flat_errors": flat.count(), "deep": deep_region.is_deep(),
          "deep_errors_flat": deep.count(),                 # as if flattened: one per placement
          "deep_errors_in_cells": deep.hier_count()}        # stored once per cell
with open("deep.json", "w") as f:
    json.dump(report, f, indent=2)
print(f"width < {MIN_WIDTH} um: flat {flat.count()}, deep {deep.count()} ({deep.hier_count()} in the cells)")
