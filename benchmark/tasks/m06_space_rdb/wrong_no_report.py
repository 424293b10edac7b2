import json

import klayout.db as kdb

ly = kdb.Layout()
ly.read("in.gds")
v = kdb.Region(ly.top_cell().begin_shapes_rec(ly.layer(1, 0))).space_check(300)
json.dump({"violations": v.count()}, open("space.json", "w"))
