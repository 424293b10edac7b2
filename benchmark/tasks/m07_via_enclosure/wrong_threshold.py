import json

import klayout.db as kdb

ly = kdb.Layout()
ly.read("in.gds")
top = ly.top_cell()
metal = kdb.Region(top.begin_shapes_rec(ly.layer(2, 0))).merged()
vias = kdb.Region(top.begin_shapes_rec(ly.layer(3, 0))).merged()
bad = []
for poly in vias.each():
    if not (kdb.Region(poly).sized(100, 100, 2) - metal).is_empty():
        c = poly.bbox().center()
        bad.append([c.x * ly.dbu, c.y * ly.dbu])
json.dump({"count": len(bad), "centers": bad}, open("enclosure.json", "w"))
