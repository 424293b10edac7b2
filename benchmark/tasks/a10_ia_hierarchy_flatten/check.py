import json
import os
import re

d = json.load(open(os.path.join(workdir, "hierarchy.json")))
assert set(d) == {"TOP", "PAD", "WIRE", "VIA"}, f"cells {sorted(d)}"
assert d["TOP"]["children"] == {"PAD": 2, "WIRE": 1, "VIA": 1}, d["TOP"]["children"]
assert d["PAD"]["children"] == {"VIA": 6} and d["WIRE"]["children"] == {"VIA": 1} and d["VIA"]["children"] == {}
assert d["TOP"]["own_shapes"] == 1 and d["PAD"]["own_shapes"] == 1 and d["VIA"]["own_shapes"] == 2
assert [round(v, 3) for v in d["TOP"]["bbox_um"]] == [0, -30, 220, 20], d["TOP"]["bbox_um"]
assert [round(v, 3) for v in d["VIA"]["bbox_um"]] == [-0.5, -0.5, 0.5, 0.5]
assert layout.cell("VIA") is None, "cell VIA still exists"
pad, wire = layout.cell("PAD"), layout.cell("WIRE")
l3 = layout.find_layer(3, 0)
assert pad.shapes(l3).size() == 6 and wire.shapes(l3).size() == 1 and cell.shapes(l3).size() == 1, "vias not copied into parents"
vias_top = sorted((round(p.bbox().center().x * dbu, 3), round(p.bbox().center().y * dbu, 3)) for p in pya.Region(cell.begin_shapes_rec(l3)).each())
assert len(vias_top) == 14 and (150.0, -20.0) in vias_top and (21.0, 11.0) in vias_top and (215.0, 10.0) in vias_top, vias_top
assert pad.child_cells() == 0 and cell.child_cells() == 2
nums = re.findall(r"\d+", outcome.get("stdout") or "")
assert "16" in nums, f"copied shape count (16) not printed: {outcome.get('stdout')!r}"
