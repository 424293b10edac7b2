import json

import klayout.db as kdb

with open("foundry.oas", "rb") as f:
    assert f.read(11) == b"%SEMI-OASIS", "foundry.oas is not OASIS"
ly = kdb.Layout()
ly.read("foundry.oas")
names = sorted(c.name for c in ly.each_cell())
assert names == ["ACME_MMI", "ACME_PADS", "ACME_TOP"], f"cells {names}"
assert [c.name for c in ly.top_cells()] == ["ACME_TOP"]
top = ly.cell("ACME_TOP")
kids = sorted((ly.cell(i.cell_index).name, i.size()) for i in top.each_inst())
assert kids == [("ACME_MMI", 1), ("ACME_PADS", 3)], f"instances {kids}"


def n(cell, l, d):
    li = ly.find_layer(l, d)
    return 0 if li is None else ly.cell(cell).shapes(li).size()


for l, d in ((1, 0), (2, 0), (99, 0)):
    assert all(n(c, l, d) == 0 for c in names), f"layer {l}/{d} must be gone"
assert (n("ACME_TOP", 10, 0), n("ACME_MMI", 10, 0), n("ACME_PADS", 10, 0)) == (2, 3, 2), "1/0 -> 10/0 per cell"
assert n("ACME_MMI", 20, 5) == 1 and n("ACME_PADS", 41, 0) == 1, "20/5 or 41/0 wrong"
rep = json.load(open("remap_report.json"))
assert rep["cells"] == {"TOP": "ACME_TOP", "MMI": "ACME_MMI", "PADS": "ACME_PADS"}, rep["cells"]
assert rep["shapes"]["before"] == {"1/0": 6, "2/0": 1, "10/0": 1, "41/0": 1, "99/0": 6}, rep["shapes"]["before"]
assert rep["shapes"]["after"] == {"10/0": 7, "20/5": 1, "41/0": 1}, rep["shapes"]["after"]
