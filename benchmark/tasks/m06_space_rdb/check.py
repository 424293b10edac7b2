import json

import klayout.db as kdb
import klayout.rdb as rdb

EXPECTED = 4  # gaps 0.1, 0.2, 0.25 in TOP and 0.15 in PAIR; 0.3 is legal; layer 2/0 is not checked
assert int(json.load(open("space.json"))["violations"]) == EXPECTED, "space.json count is wrong"
db = rdb.ReportDatabase("")
db.load("space.lyrdb")
cats = {c.name(): c for c in db.each_category()}
assert "space_0.3" in cats, f"categories {sorted(cats)}, expected space_0.3"
items = list(db.each_item_per_category(cats["space_0.3"].rdb_id()))
assert len(items) == EXPECTED, f"{len(items)} items in space_0.3, expected {EXPECTED}"
gaps = []
for it in items:
    values = list(it.each_value())
    assert values, "an item carries no geometry"
    v = values[0]
    assert v.is_edge_pair(), f"item value is not an edge pair: {v}"
    ep = v.edge_pair()
    b = ep.bbox()
    gaps.append(round(min(b.width(), b.height()), 3))
assert sorted(gaps) == [0.1, 0.15, 0.2, 0.25], f"violation gaps {sorted(gaps)}"
