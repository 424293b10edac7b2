import json
import os

clip = layout.cell("CLIP")
assert clip is not None, "no cell CLIP"
assert clip.child_cells() == 0, "CLIP must be flat"
assert clip.parent_cells() == 0, "CLIP must not be placed"
assert cell.child_cells() == 1 and cell.shapes(layout.find_layer(2, 0)).size() == 2, "the current cell changed"
win = pya.Region(pya.DBox(0, 0, 50, 40).to_itype(dbu))
exp = {}
for (l, d) in ((1, 0), (2, 0)):
    li = layout.find_layer(l, d)
    want = (pya.Region(cell.begin_shapes_rec(li)) & win).merged()
    got = pya.Region(clip.shapes(li)).merged()
    assert (got ^ want).is_empty(), f"CLIP {l}/{d} is not the clipped window"
    exp[f"{l}/{d}"] = want.area() * dbu * dbu
data = json.load(open(os.path.join(workdir, "clip.json")))
assert {k: round(float(v), 4) for k, v in data["layers"].items()} == {k: round(v, 4) for k, v in exp.items()}, data["layers"]
assert [round(v, 3) for v in data["bbox_um"]] == [0, 5, 50, 40], data["bbox_um"]
path = os.path.join(workdir, "clip.oas")
with open(path, "rb") as f:
    assert f.read(11) == b"%SEMI-OASIS", "clip.oas is not OASIS"
ly = pya.Layout()
ly.read(path)
assert sorted(c.name for c in ly.each_cell()) == ["CLIP"], f"clip.oas holds {sorted(c.name for c in ly.each_cell())}"
