import json
import os

src = pya.Region(cell.begin_shapes_rec(layout.find_layer(1, 0)))
exp_w = src.width_check(400)
exp_s = src.space_check(300)
assert exp_w.count() == 5 and exp_s.count() >= 3, "unexpected test layout"
s = json.load(open(os.path.join(workdir, "drc.json")))
assert int(s["width"]) == exp_w.count() and int(s["space"]) == exp_s.count(), f"drc.json {s}"
for (l, d), exp in (((99, 0), exp_w), ((99, 1), exp_s)):
    li = layout.find_layer(l, d)
    assert li is not None, f"no markers on {l}/{d}"
    got = pya.Region(cell.shapes(li))
    assert (got ^ exp.polygons()).is_empty(), f"markers on {l}/{d} do not match the violations"
db = pya.ReportDatabase("")
db.load(os.path.join(workdir, "drc.lyrdb"))
cats = {c.name(): c for c in db.each_category()}
for name, exp in (("width", exp_w), ("space", exp_s)):
    assert name in cats, f"category {name} missing: {sorted(cats)}"
    vals = []
    for it in db.each_item_per_category(cats[name].rdb_id()):
        v = list(it.each_value())[0]
        assert v.is_edge_pair(), f"{name}: values must be edge pairs"
        vals.append(str(v.edge_pair()))
    want = sorted(str(ep.to_dtype(dbu)) for ep in exp.each())
    assert sorted(vals) == want, f"{name}: {len(vals)} items differ from the {len(want)} expected (µm units?)"
