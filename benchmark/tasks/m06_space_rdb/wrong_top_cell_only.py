import json

import klayout.db as kdb
import klayout.rdb as rdb

ly = kdb.Layout()
ly.read("in.gds")
top = ly.top_cell()
v = kdb.Region(top.shapes(ly.layer(1, 0))).space_check(300)
db = rdb.ReportDatabase("s")
c = db.create_cell(top.name)
cat = db.create_category("space_0.3")
for ep in v.each():
    db.create_item(c.rdb_id(), cat.rdb_id()).add_value(ep.to_dtype(ly.dbu))
db.save("space.lyrdb")
json.dump({"violations": v.count()}, open("space.json", "w"))
