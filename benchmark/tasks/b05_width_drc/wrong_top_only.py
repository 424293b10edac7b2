import json

import klayout.db as kdb

ly = kdb.Layout()
ly.read("in.gds")
region = kdb.Region(ly.top_cell().shapes(ly.layer(1, 0)))
json.dump({"violations": region.width_check(500).count()}, open("width.json", "w"))
