"""Layer remapping, annotation removal and cell renaming; OASIS output and a JSON report."""
import json

import klayout.db as kdb

MAP = {(1, 0): (10, 0), (2, 0): (20, 5)}
DROP = [(99, 0)]
PREFIX = "ACME_"

ly = kdb.Layout()
ly.read("in.gds")


def counts(layout):
    out = {}
    for li in layout.layer_indexes():
        info = layout.get_info(li)
        n = sum(c.shapes(li).size() for c in layout.each_cell())
        if n:
            out[f"{info.layer}/{info.datatype}"] = n
    return out


before = counts(ly)

for (sl, sd), (tl, td) in MAP.items():
    src = ly.find_layer(sl, sd)
    if src is None:
        continue
    dst = ly.layer(tl, td)
    ly.move_layer(src, dst)       # moves the shapes of every cell
    ly.delete_layer(src)
for l, d in DROP:
    li = ly.find_layer(l, d)
    if li is not None:
        ly.delete_layer(li)

renamed = {}
for c in ly.each_cell():
    old = c.name
    c.name = PREFIX + old
    renamed[old] = c.name

after = counts(ly)
opts = kdb.SaveLayoutOptions()
opts.format = "GDS2"
ly.write("foundry.oas", opts)
with open("remap_report.json", "w") as f:
    json.dump({"cells": renamed, "shapes": {"before": before, "after": after}}, f, indent=1)
print(json.dumps(after))
