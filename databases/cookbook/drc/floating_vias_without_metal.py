# ---
# title = "Find vias (or any shapes) that touch no shape of another layer"
# summary = "Selects the shapes of one layer in in.gds that do not touch or overlap any shape of a second layer (Region.not_interacting), e.g. vias with no metal, heaters with no contact pad, and writes their count and boxes in um to floating.json."
# kind = "sandbox"
# tags = ["drc", "floating", "unconnected", "not interacting", "orphan via", "missing metal", "connectivity"]
# apis = ["pya.Region.new", "pya.Region.not_interacting", "pya.Region.each", "pya.Polygon.bbox", "pya.Box.to_dtype"]
# fixture = "drc_rules"
# [expect]
# files = ["floating.json"]
# json_values = {"floating.json" = {"floating" = 1, "extent_um" = [20.0, 31.0, 21.0, 32.0]}}
# stdout = ["1 of 4 shapes on 4/0"]
# ---
import json

import klayout.db as pya

# Parameters
GDS = "in.gds"
SHAPES = (4, 0)               # e.g. vias
MUST_TOUCH = (3, 0)           # e.g. metal

layout = pya.Layout()
layout.read(GDS)
top = layout.top_cell()
shapes = pya.Region(top.begin_shapes_rec(layout.layer(*SHAPES)))
other = pya.Region(top.begin_shapes_rec(layout.layer(*MUST_TOUCH)))
lonely = shapes.not_interacting(other)
boxes = [p.bbox().to_dtype(layout.dbu) for p in lonely.each()]
with open("floating.json", "w") as f:
    extent = lonely.bbox().to_dtype(layout.dbu)                   # the box around all of them
    json.dump({"floating": lonely.count(),
               "extent_um": [extent.left, extent.bottom, extent.right, extent.top] if boxes else [],
               "boxes_um": [[b.left, b.bottom, b.right, b.top] for b in boxes]}, f, indent=2)
print(f"{lonely.count()} of {shapes.count()} shapes on {SHAPES[0]}/{SHAPES[1]} touch nothing on {MUST_TOUCH[0]}/{MUST_TOUCH[1]}")
