"""DRC deck with klayout.db: width, space, enclosure, density -> report database + JSON summary."""
import json

import klayout.db as kdb
import klayout.rdb as rdb

ly = kdb.Layout()
ly.read("chip.gds")
top = ly.top_cell()
dbu = ly.dbu


def layer(l, d):
    li = ly.find_layer(l, d)
    return kdb.Region(top.begin_shapes_rec(li)) if li is not None else kdb.Region()


def um(x):
    return int(round(x / dbu))


wg, metal, via = layer(1, 0), layer(2, 0), layer(3, 0)
results = {
    "width": wg.width_check(um(0.4)),
    "space": wg.space_check(um(0.3)),
    "enclosure": metal.enclosing_check(via, um(0.2)),
}
# vias not touching metal at all have no enclosure edge pair: report them as degenerate pairs of their edges
lonely = via.not_interacting(metal)
for poly in lonely.each():
    box = poly.bbox()
    results["enclosure"].insert(kdb.EdgePair(kdb.Edge(box.p1, kdb.Point(box.left, box.top)),
                                             kdb.Edge(kdb.Point(box.right, box.top), box.p2)))

# density per 50 µm tile of the chip's bounding box
tile = um(50)
bbox = top.bbox()
low_tiles = []
wg_merged = wg.merged()
y = bbox.bottom
while y < bbox.top:
    x = bbox.left
    while x < bbox.right:
        t = kdb.Box(x, y, min(x + tile, bbox.right), min(y + tile, bbox.top))
        if (wg_merged & kdb.Region(t)).area() < 0.05 * t.area():
            low_tiles.append(t)
        x += tile
    y += tile

db = rdb.ReportDatabase("DRC")
db.top_cell_name = top.name
rcell = db.create_cell(top.name)
for name, errors in results.items():
    cat = db.create_category(name)
    for ep in errors.each():
        db.create_item(rcell.rdb_id(), cat.rdb_id()).add_value(ep.to_dtype(dbu))
cat = db.create_category("density")
for t in low_tiles:
    db.create_item(rcell.rdb_id(), cat.rdb_id()).add_value(t.to_dtype(dbu))
db.save("drc.lyrdb")

summary = {k: v.count() for k, v in results.items()}
summary["density"] = len(low_tiles)
summary["total"] = sum(summary.values())
json.dump(summary, open("drc_summary.json", "w"), indent=1)
print(summary)
