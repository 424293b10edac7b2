import klayout.db as kdb

from pic_copilot.bench.deck_check import compare, region, run_deck, truth_boxes, um


def truth(path):
    ly = kdb.Layout()
    ly.read(path)
    core = region(ly, 1, 0)
    return {"SWG.W": truth_boxes(core.width_check(um(0.45, ly)), ly.dbu),
            "SWG.S": truth_boxes(core.space_check(um(0.25, ly)), ly.dbu)}


def extra_layout(path):
    """Widths just below/above the rule, a narrow line inside a placed cell, gaps around 0.25 um."""
    ly = kdb.Layout()
    ly.dbu = 0.001
    top = ly.create_cell("CHIP")
    core = ly.layer(1, 0)
    for i, w in enumerate((0.44, 0.46, 0.6)):
        top.shapes(core).insert(kdb.DBox(0, 3 * i, 20, 3 * i + w))
    sub = ly.create_cell("ARM")
    sub.shapes(core).insert(kdb.DBox(0, 0, 8, 0.35))
    for x in (30, 45):
        top.insert(kdb.DCellInstArray(sub.cell_index(), kdb.DTrans(kdb.DVector(x, 0))))
    for i, gap in enumerate((0.24, 0.26, 0.1)):
        y = 12 + 3 * i
        top.shapes(core).insert(kdb.DBox(0, y, 20, y + 0.5))
        top.shapes(core).insert(kdb.DBox(0, y + 0.5 + gap, 20, y + 1 + gap))
    ly.write(path)


want = truth("in.gds")
assert [len(want[c]) for c in ("SWG.W", "SWG.S")] == [2, 3], f"the test layout lost its violations: {want}"
compare(run_deck("in.gds"), want, "in.gds")
extra_layout("check_extra.gds")
want = truth("check_extra.gds")
assert [len(want[c]) for c in ("SWG.W", "SWG.S")] == [3, 2], want
compare(run_deck("check_extra.gds"), want, "a second layout")
print("deck markers match on both layouts")
