import klayout.db as kdb

from pic_copilot.bench.deck_check import compare, region, run_deck, truth_boxes, um


def truth(path):
    ly = kdb.Layout()
    ly.read(path)
    m1, via, m2 = region(ly, 41), region(ly, 43), region(ly, 45)
    return {"V.M1.ENC": truth_boxes(m1.enclosing_check(via, um(0.2, ly)), ly.dbu),
            "V.M2.ENC": truth_boxes(m2.enclosing_check(via, um(0.3, ly)), ly.dbu),
            "V.OFF": truth_boxes((via - m1) | (via - m2), ly.dbu)}


def extra_layout(path):
    """A via array in a placed cell, margins just below and above the rules, a via outside M1."""
    ly = kdb.Layout()
    ly.dbu = 0.001
    top = ly.create_cell("STACK")
    m1, via, m2 = ly.layer(41, 0), ly.layer(43, 0), ly.layer(45, 0)
    cell = ly.create_cell("VIA2X1")
    for x in (0, 1.0):
        cell.shapes(via).insert(kdb.DBox(x, 0, x + 0.4, 0.4))
    top.insert(kdb.DCellInstArray(cell.cell_index(), kdb.DTrans(kdb.DVector(0, 0))))
    top.shapes(m1).insert(kdb.DBox(-0.19, -0.21, 1.6, 0.61))   # 0.19 um on the left: too small for M1
    top.shapes(m2).insert(kdb.DBox(-0.31, -0.29, 1.71, 0.7))   # 0.29 um at the bottom: too small for M2
    top.shapes(via).insert(kdb.DBox(5, 0, 5.4, 0.4))           # only M2 below it
    top.shapes(m2).insert(kdb.DBox(4.5, -0.5, 6, 1))
    ly.write(path)


want = truth("in.gds")
counts = {c: len(b) for c, b in want.items()}
assert counts == {"V.M1.ENC": 3, "V.M2.ENC": 1, "V.OFF": 1}, f"the test layout lost its violations: {counts}"
compare(run_deck("in.gds"), want, "in.gds")
extra_layout("check_extra.gds")
want = truth("check_extra.gds")
assert all(want.values()), {c: len(b) for c, b in want.items()}
compare(run_deck("check_extra.gds"), want, "a second layout")
print("deck markers match on both layouts")
