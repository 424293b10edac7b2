import klayout.db as kdb

from pic_copilot.bench.deck_check import compare, region, run_deck, truth_boxes, um


def truth(path):
    ly = kdb.Layout()
    ly.read(path)
    etch = region(ly, 6).merged()
    a2 = lambda v: int(round(v / ly.dbu ** 2))   # um2 -> dbu2
    return {"SE.A": truth_boxes(etch.with_area(0, a2(0.12), False), ly.dbu),
            "SE.H": truth_boxes(etch.holes().with_area(0, a2(0.5), False), ly.dbu),
            "SE.N": truth_boxes(etch.notch_check(um(0.15, ly)), ly.dbu)}


def extra_layout(path):
    """Teeth just below and above 0.12 um2 (one in a placed cell), a hole of 0.49 um2, a slot of 0.14 um."""
    ly = kdb.Layout()
    ly.dbu = 0.001
    top = ly.create_cell("GRATING")
    etch = ly.layer(6, 0)
    tooth = ly.create_cell("TOOTH")
    tooth.shapes(etch).insert(kdb.DBox(0, 0, 0.2, 0.59))       # 0.118 um2
    for x in (0, 1, 2):
        top.insert(kdb.DCellInstArray(tooth.cell_index(), kdb.DTrans(kdb.DVector(x, 0))))
    top.shapes(etch).insert(kdb.DBox(4, 0, 4.2, 0.61))          # 0.122 um2
    frame = kdb.DPolygon(kdb.DBox(6, 0, 9, 3))
    frame.insert_hole(kdb.DBox(7, 1, 7.7, 1.7))                   # 0.49 um2
    top.shapes(etch).insert(frame)
    fork = [(12, 0), (13.14, 0), (13.14, 2), (12.64, 2), (12.64, 0.5), (12.5, 0.5), (12.5, 2), (12, 2)]
    top.shapes(etch).insert(kdb.DPolygon([kdb.DPoint(x, y) for x, y in fork]))   # a 0.14 um slot
    ly.write(path)


want = truth("in.gds")
counts = {c: len(b) for c, b in want.items()}
assert counts == {"SE.A": 1, "SE.H": 1, "SE.N": 1}, f"the test layout lost its violations: {counts}"
compare(run_deck("in.gds"), want, "in.gds")
extra_layout("check_extra.gds")
want = truth("check_extra.gds")
counts = {c: len(b) for c, b in want.items()}
assert counts == {"SE.A": 3, "SE.H": 1, "SE.N": 1}, counts
compare(run_deck("check_extra.gds"), want, "a second layout")
print("deck markers match on both layouts")
