# ---
# title = "Scale a whole layout by a factor (magnify or shrink every cell)"
# summary = "Reads a layout and scales all cells, shapes and instance positions by FACTOR about the origin (layout.transform with an ICplxTrans magnification, dbu unchanged), then writes scaled.gds. Reports the top cell size and the area ratio of one layer (FACTOR squared). Coordinates are rounded to the dbu grid."
# kind = "sandbox"
# tags = ["scale", "magnify", "shrink", "resize", "scaling factor", "optical shrink", "transform layout"]
# apis = ["pya.Layout.transform", "pya.ICplxTrans", "pya.Cell.dbbox", "pya.Region.area", "pya.Layout.write"]
# fixture = "data_chip"
# [expect]
# bbox = {"TOP" = [-200.0, -600.0, 2600.0, 1400.0]}
# files = ["scaled.gds", "scale.json"]
# json_values = {"scale.json" = {"factor" = 2.0, "width_um_before" = 1400.0, "width_um_after" = 2800.0, "area_ratio" = 4.0}}
# stdout = ["scaled by 2.0: 1400.000 -> 2800.000 um"]
# ---
import json

import klayout.db as db

INPUT = "in.gds"
OUTPUT = "scaled.gds"
FACTOR = 2.0              # > 1 magnifies, < 1 shrinks
AREA_LAYER = (1, 0)

layout = db.Layout()
layout.read(INPUT)
top = layout.top_cell()
li = layout.find_layer(*AREA_LAYER)


def area():
    region = db.Region(top.begin_shapes_rec(li))
    region.merged_semantics = False        # raw area: merging would round slanted intersections to the grid
    return region.area() * layout.dbu ** 2    # um2


w0, a0 = top.dbbox().width(), area()
layout.transform(db.ICplxTrans(FACTOR))     # scales every cell's shapes and instances
w1, a1 = top.dbbox().width(), area()
layout.write(OUTPUT)

with open("scale.json", "w") as f:
    json.dump({"factor": FACTOR, "width_um_before": w0, "width_um_after": w1,
               "area_ratio": round(a1 / a0, 6)}, f, indent=2)
print(f"scaled by {FACTOR}: {w0:.3f} -> {w1:.3f} um wide, layer {AREA_LAYER} area x{a1 / a0:.3f}; wrote {OUTPUT}")
