import json

import klayout.db as kdb
import klayout.rdb as rdb

ly = kdb.Layout()
ly.read("in.gds")
top = ly.top_cell()
region = kdb.Region(top.begin_shapes_rec(ly.layer(1, 0)))
violations = region.space_check(int(round(0.3 / ly.dbu)))

db = rdb.ReportDatabase("space check")
db.top_cell_name = top.name
rcell = db.create_cell(top.name)
cat = db.create_category("space_0.3")
cat.description = "space < 0.3 um on 1/0"
for ep in violations.each():
    item = db.create_item(rcell.rdb_id(), cat.rdb_id())
    item.add_value(ep.to_dtype(ly.dbu))
db.save("space.lyrdb")
json.dump({"violations": violations.count()}, open("space.json", "w"))
