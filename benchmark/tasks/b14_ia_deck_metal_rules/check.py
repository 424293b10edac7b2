import os
from collections import Counter

DECK = os.path.join(workdir, "deck.lydrc")
assert os.path.isfile(DECK), "no deck.lydrc was written for the open layout"
import xml.etree.ElementTree as ET

_raw = open(DECK).read()
DECK_TEXT = ET.fromstring(_raw).findtext("text") if _raw.lstrip().startswith("<") else _raw


def boxes(items):
    return sorted(tuple(round(v, 3) for v in (b.left, b.bottom, b.right, b.top)) for b in items)


def run(ly, name):
    """Run deck.lydrc with KLayout's DRC engine on a copy of this layout; markers per category."""
    src, rep = os.path.join(workdir, name + ".gds"), os.path.join(workdir, name + "_check.lyrdb")
    opt = pya.SaveLayoutOptions()
    opt.write_context_info = False
    ly.write(src, opt)
    ruby = pya.Interpreter.ruby_interpreter()
    ruby.define_variable("input", src)
    ruby.define_variable("report", rep)
    text = DECK_TEXT
    m = pya.Macro()
    m.interpreter = pya.Macro.DSLInterpreter
    m.dsl_interpreter = "drc-dsl"
    m.text = text
    m.run()
    assert os.path.isfile(rep), f"the deck wrote no report database on {name}"
    db = pya.ReportDatabase("")
    db.load(rep)
    out = {}
    for cat in db.each_category():
        found = []
        for item in db.each_item_per_category(cat.rdb_id()):
            for v in item.each_value():
                if v.is_edge_pair():
                    found.append(v.edge_pair().bbox())
                elif v.is_polygon():
                    found.append(v.polygon().bbox())
        out[cat.name()] = boxes(found)
    return out


def truth(ly):
    r = pya.Region(ly.top_cell().begin_shapes_rec(ly.layer(25, 0)))
    d = lambda um: int(round(um / ly.dbu))
    return {"MET.W": boxes(e.bbox().to_dtype(ly.dbu) for e in r.width_check(d(1.0)).each()),
            "MET.S": boxes(e.bbox().to_dtype(ly.dbu) for e in r.space_check(d(0.8)).each())}


def compare(got, want, where):
    for cat, b in want.items():
        assert cat in got, f"{where}: no report category {cat} (has: {', '.join(got) or 'none'})"
        assert Counter(got[cat]) == Counter(b), f"{where}: {cat}: markers {got[cat][:4]} ..., expected {b[:4]} ..."


want = truth(layout)
assert {c: len(b) for c, b in want.items()} == {"MET.W": 1, "MET.S": 6}, {c: len(b) for c, b in want.items()}
compare(run(layout, "open_cell"), want, "the open cell")
extra = pya.Layout()
extra.dbu = 0.001
top = extra.create_cell("BLOCK")
li = extra.layer(25, 0)
for i, w in enumerate((0.95, 1.05, 2.0)):
    top.shapes(li).insert(pya.DBox(0, 5 * i, 20, 5 * i + w))
top.shapes(li).insert(pya.DBox(0, 20, 20, 21))
top.shapes(li).insert(pya.DBox(0, 21.75, 20, 22.75))   # 0.75 um: too close
top.shapes(li).insert(pya.DBox(0, 30, 20, 31))
top.shapes(li).insert(pya.DBox(0, 31.85, 20, 32.85))   # 0.85 um: fine
want = truth(extra)
compare(run(extra, "extra"), want, "a second layout")
print("deck markers match on the open cell and a second layout")
