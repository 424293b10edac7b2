import csv
import json

import gdsfactory as gf
import klayout.db as kdb

gf.gpdk.PDK.activate()
ly = kdb.Layout()
ly.read("devices.gds")
assert [c.name for c in ly.top_cells()] == ["DEVICES"], f"top cells {[c.name for c in ly.top_cells()]}"
top = ly.top_cell()

# labels at the device origins
labels = {}
li = ly.find_layer(10, 0)
assert li is not None, "no labels on 10/0"
it = top.begin_shapes_rec(li)
while not it.at_end():
    if it.shape().is_text():
        t = it.shape().text.transformed(it.trans())
        labels[t.string] = (round(t.x * ly.dbu, 3), round(t.y * ly.dbu, 3))
    it.next()
assert labels == {"MMI": (0, 0), "RING": (100, 0), "RIB": (0, 100)}, f"labels {labels}"

# device boxes against the PDK components moved as asked
ref = {"MMI": (gf.components.mmi1x2(), (0, 0)), "RING": (gf.components.ring_single(radius=10), (100, 0)),
       "RIB": (gf.components.straight(length=50, cross_section="rib"), (0, 100))}
rows = {r["name"]: r for r in csv.DictReader(open("devices.csv"))}
assert set(rows) == set(ref), f"devices.csv names {sorted(rows)}"
for name, (comp, (x, y)) in ref.items():
    b = comp.dbbox()
    exp = (b.left + x, b.bottom + y, b.right + x, b.top + y)
    got = tuple(float(rows[name][k]) for k in ("xmin", "ymin", "xmax", "ymax"))
    assert all(abs(a - e) < 0.01 for a, e in zip(got, exp)), f"{name}: box {got}, expected {exp}"
    region = kdb.Region(top.begin_shapes_rec(ly.layer(1, 0))) & kdb.Region(kdb.DBox(*exp).to_itype(ly.dbu))
    assert not region.is_empty(), f"nothing on 1/0 inside the {name} box"

# layer areas: match the file, and the rib slab must be there
areas = json.load(open("layer_areas.json"))
expected = {}
for li in ly.layer_indexes():
    info = ly.get_info(li)
    r = kdb.Region(top.begin_shapes_rec(li))
    if not r.is_empty():
        expected[f"{info.layer}/{info.datatype}"] = r.merged().area() * ly.dbu ** 2
assert set(areas) == set(expected), f"layers {sorted(areas)}, expected {sorted(expected)}"
for k, v in expected.items():
    assert abs(float(areas[k]) - v) <= max(1e-6, 1e-4 * v), f"{k}: area {areas[k]}, expected {v}"
assert len([k for k in expected if k not in ("1/0", "10/0")]) >= 1, "the rib waveguide's slab layer is missing"
