import klayout.db as kdb

from pic_copilot.bench.deck_check import compare, region, run_deck, truth_boxes, um


def truth(path):
    ly = kdb.Layout()
    ly.read(path)
    core, heater, pad = region(ly, 1), region(ly, 11), region(ly, 12)
    return {"HTR.W": truth_boxes(heater.width_check(um(2.0, ly)), ly.dbu),
            "HTR.WG": truth_boxes(heater.separation_check(core, um(1.5, ly)), ly.dbu),
            "HTR.X": truth_boxes(heater & core, ly.dbu),
            "PAD.OV": truth_boxes(pad.overlap_check(heater, um(1.0, ly)), ly.dbu)}


def extra_layout(path):
    """A bent heater next to a waveguide, a heater corner near a core corner, pads around 1 um overlap,
    a heater in a placed cell."""
    ly = kdb.Layout()
    ly.dbu = 0.001
    top = ly.create_cell("DIE")
    core, heater, pad = ly.layer(1, 0), ly.layer(11, 0), ly.layer(12, 0)
    top.shapes(core).insert(kdb.DBox(0, 0, 30, 0.45))
    top.shapes(core).insert(kdb.DBox(40, 0, 70, 0.45))
    top.shapes(heater).insert(kdb.DPath([kdb.DPoint(0, 3), kdb.DPoint(15, 3), kdb.DPoint(15, 1.7), kdb.DPoint(29, 1.7)], 2.2))
    top.shapes(heater).insert(kdb.DBox(31.0, 1.5, 38, 3.5))    # corner 1.0 / 1.05 um from the cores' corners
    top.shapes(pad).insert(kdb.DBox(36.9, 2, 45, 8))           # 1.1 um overlap: fine
    top.shapes(pad).insert(kdb.DBox(-5, 3.2, 0.95, 9))         # 0.95 um on the bent heater's end
    cell = ly.create_cell("HTR_CELL")
    cell.shapes(heater).insert(kdb.DBox(0, 0, 10, 1.8))
    top.insert(kdb.DCellInstArray(cell.cell_index(), kdb.DTrans(kdb.DVector(45, -0.5))))  # on the second core
    ly.write(path)


want = truth("in.gds")
counts = {c: len(b) for c, b in want.items()}
assert counts == {"HTR.W": 1, "HTR.WG": 1, "HTR.X": 1, "PAD.OV": 2}, f"the test layout lost its violations: {counts}"
compare(run_deck("in.gds"), want, "in.gds")
extra_layout("check_extra.gds")
want = truth("check_extra.gds")
assert all(want.values()), {c: len(b) for c, b in want.items()}
compare(run_deck("check_extra.gds"), want, "a second layout")
print("deck markers match on both layouts")
