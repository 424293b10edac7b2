import json

import klayout.rdb as rdb

# by construction: width 0.3 and 0.35 -> 2; space 0.2 (1), 0.25 in two UNIT copies (2) -> 3;
# enclosure: the via 0.1 µm from the metal edge (1 edge pair) + the via without metal (>= 1) ;
# density: tiles below 10 %: (2,0) 8 %, (3,0) 0 %, (2,1) 0 %, (3,1) 0 % -> 4
s = json.load(open("drc_summary.json"))
assert int(s["width"]) == 2, f"width {s['width']}, expected 2"
assert int(s["space"]) == 3, f"space {s['space']}, expected 3"
assert int(s["enclosure"]) >= 2, f"enclosure {s['enclosure']}: the via off metal and the one 0.1 µm from the edge"
assert int(s["density"]) == 4, f"density {s['density']}, expected 4 tiles"
assert int(s["total"]) == sum(int(s[k]) for k in ("width", "space", "enclosure", "density")), "total is not the sum"
db = rdb.ReportDatabase("")
db.load("drc.lyrdb")
cats = {c.name(): c for c in db.each_category()}
assert {"width", "space", "enclosure", "density"} <= set(cats), f"categories {sorted(cats)}"
for name in ("width", "space", "enclosure", "density"):
    n = len(list(db.each_item_per_category(cats[name].rdb_id())))
    assert n == int(s[name]), f"{name}: {n} items in drc.lyrdb but {s[name]} in the summary"
tiles = []
for it in db.each_item_per_category(cats["density"].rdb_id()):
    v = list(it.each_value())[0]
    assert v.is_box() or v.is_polygon(), "density items must carry the tile"
    b = v.box() if v.is_box() else v.polygon().bbox()
    tiles.append((round(b.left), round(b.bottom), round(b.width()), round(b.height())))
assert sorted(tiles) == [(100, 0, 50, 50), (100, 50, 50, 50), (150, 0, 50, 50), (150, 50, 50, 50)], f"density tiles {sorted(tiles)}"
