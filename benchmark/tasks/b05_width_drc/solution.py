import json

import klayout.db as kdb

ly = kdb.Layout()
ly.read("in.gds")
region = kdb.Region(ly.top_cell().begin_shapes_rec(ly.layer(1, 0)))
errors = region.width_check(int(round(0.5 / ly.dbu)))
json.dump({"violations": errors.count()}, open("width.json", "w"))
