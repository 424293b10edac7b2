import json

import klayout.db as kdb

ly = kdb.Layout()
ly.read("in.gds")
top = ly.top_cell()
metal = kdb.Region(top.begin_shapes_rec(ly.layer(2, 0)))
vias = kdb.Region(top.begin_shapes_rec(ly.layer(3, 0)))
errs = metal.enclosing_check(vias, 200)
centers = [[ep.bbox().center().x * ly.dbu, ep.bbox().center().y * ly.dbu] for ep in errs.each()]
json.dump({"count": errs.count(), "centers": centers}, open("enclosure.json", "w"))
