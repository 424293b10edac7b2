"""KLayout DRC decks: recognised as decks (not Python), run with KLayout's own DRC engine in the
sandbox and on an open layout (klayout -b through the batch bridge), reports summarised, errors
given back with KLayout's text and the deck line."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

from pic_copilot.execution import drc_deck
from pic_copilot.execution.routing import execute

ROOT = Path(__file__).resolve().parents[1]
needs_klayout = pytest.mark.skipif(shutil.which("klayout") is None, reason="the KLayout application is not installed")

DECK = """# waveguide rules
source($input)
report("waveguide rules", $report)
wg = input(1, 0)
wg.width(0.5.um).output("WG.W.1", "waveguide width < 0.5 um")
wg.space(0.3.um).output("WG.S.1", "waveguide space < 0.3 um")
wg.with_area(nil, 1.0).output("WG.A.1", "waveguide area < 1 um2")
"""
PY_DRC = """import pya
ly = pya.Layout()
ly.read("in.gds")
r = pya.Region(ly.top_cell().begin_shapes_rec(ly.layer(1, 0)))
print(r.width_check(500).count())
"""


def _layout(path: Path) -> Path:
    """1/0: a 0.4 um wide box (a width error), a 0.6 um box 0.6 um away, a 0.6 um box 0.2 um away
    from it (a space error) and a 0.5 x 0.5 um square (an area error)."""
    import klayout.db as kdb

    ly = kdb.Layout()
    ly.dbu = 0.001
    top = ly.create_cell("TOP")
    li = ly.layer(1, 0)
    for b in ((0, 0, 10000, 400), (0, 1000, 10000, 1600), (0, 1800, 10000, 2400), (20000, 0, 20500, 500)):
        top.shapes(li).insert(kdb.Box(*b))
    ly.write(str(path))
    return path


def test_decks_are_recognised_and_python_is_not():
    assert drc_deck.is_deck(DECK)
    assert drc_deck.is_deck(drc_deck.to_lydrc(DECK))
    assert drc_deck.is_deck("l = input(2)\nl.space(0.2.um).output(\"s\")\n")
    for py in (PY_DRC, "print('report(x)')\n", "x = input(1, 0)\n", "", "import klayout.db as kdb\nsource = 1\n",
               "def report(a):\n    return a\nreport(1)\n$input\n"):
        assert not drc_deck.is_deck(py), py


def test_the_plugin_recognises_decks_the_same_way():
    spec = importlib.util.spec_from_file_location("plugin_drc", ROOT / "klayout_plugin" / "pic_copilot_plugin" / "drc.py",
                                                  submodule_search_locations=None)
    src = (ROOT / "klayout_plugin" / "pic_copilot_plugin" / "drc.py").read_text()
    # the plugin module imports pya (KLayout's); the recognition is plain regular expressions: compare them
    ns: dict = {}
    head = src.split("def deck_text", 1)[0].replace("import pya\n", "")
    exec(compile(head, str(spec.origin), "exec"), ns)
    samples = [DECK, drc_deck.to_lydrc(DECK), PY_DRC, "", "x = input(1, 0)\n", "a.output('x')\nb = 1.um\n",
               "<?xml version='1.0'?>\n<klayout-macro><category>pymacros</category></klayout-macro>"]
    assert [ns["is_deck"](s) for s in samples] == [drc_deck.is_deck(s) for s in samples]


def test_lydrc_wrapping_keeps_the_text_and_escapes_xml():
    deck = DECK + 'both = wg & input(2, 0)\nboth.output("X", "a < b")\n'
    xml = drc_deck.to_lydrc(deck, "rules & more")
    assert "<dsl-interpreter-name>drc-dsl-xml</dsl-interpreter-name>" in xml and "&amp;" in xml
    assert drc_deck.deck_text(xml) == deck
    assert drc_deck.to_lydrc(xml) == xml
    assert drc_deck.file_text(deck, "a.lydrc") == drc_deck.to_lydrc(deck)
    assert drc_deck.file_text(xml, "a.drc") == deck
    assert drc_deck.file_text(PY_DRC, "a.lydrc") == PY_DRC
    with pytest.raises(drc_deck.DeckError):
        drc_deck.deck_text("<klayout-macro><text>unclosed")


def test_static_findings_catch_integers_python_and_a_missing_report():
    bad = "source($input)\nwg = input(1, 0)\nwg.width(1).output('w')\nwg.enclosing(input(2), 2).output('e')\nok = True\n"
    msgs = [f["message"] for f in drc_deck.static_findings(bad)]
    assert any("integer 1 in .width(...) means 1 database unit" in m and "1.0.um" in m for m in msgs), msgs
    assert any("integer 2 in .enclosing(...) means 2 database unit" in m for m in msgs), msgs
    assert any("is Python" in m and "true, false, nil" in m for m in msgs), msgs
    assert any("no report(...)" in m for m in msgs), msgs
    assert drc_deck.static_findings(DECK) == []


def test_klayout_error_names_the_line_and_keeps_klayouts_words():
    stderr = ("ERROR: In deck.lydrc: undefined method `widht' for #<DRC::DRCLayer:0x00007f3b5e1c5548 "
              "@engine=DRCEngine(...), @data=#<RBA::Region:0x00007f3b5e1c5638>>\nDid you mean?  width\n"
              "ERROR: undefined method ...\n  deck.lydrc:4:in `execute'\n  :/built-in-macros/drc_interpreters.lym:27")
    deck = "source($input)\nreport('r', $report)\nwg = input(1, 0)\nwg.widht(0.5.um).output('w')\n"
    err = drc_deck.klayout_error(stderr, deck)
    assert err["line"] == 4 and err["source"] == "wg.widht(0.5.um).output('w')"
    assert "undefined method `widht' for a layer" in err["message"] and "Did you mean? width" in err["message"]
    assert drc_deck.error_message(err).startswith("line 4 `wg.widht(0.5.um).output('w')`: undefined method")


@needs_klayout
def test_a_deck_runs_in_the_sandbox_and_its_report_is_summarised(tmp_path):
    gds = _layout(tmp_path / "in.gds")
    rep = execute(DECK, "sandbox", None, inputs={"in.gds": str(gds)}, expected_files=["wg_rules.lydrc", "wg.lyrdb"])
    assert rep.ok, rep.exception
    assert rep.where == "sandbox" and rep.isolation == "full", rep.isolation_detail
    assert rep.deck["categories"] == {"WG.W.1": 1, "WG.S.1": 1, "WG.A.1": 1} and rep.deck["items"] == 3
    assert rep.deck["file"] == "wg_rules.lydrc" and rep.deck["input"] == "in.gds"
    by_path = {f["path"]: f for f in rep.files}
    assert by_path["wg.lyrdb"]["summary"]["items_per_category"] == {"WG.W.1": 1, "WG.S.1": 1, "WG.A.1": 1}
    assert "wg_rules.lydrc" in by_path   # the deck file is one of the run's outputs
    assert "wg.lyrdb: 3 marker(s): WG.W.1 = 1, WG.S.1 = 1, WG.A.1 = 1" in rep.stdout
    # the saved .lydrc runs as it is with the KLayout binary (the way the designer will run it)
    deck_file = Path(rep.workdir) / "wg_rules.lydrc"
    assert deck_file.read_text().startswith("<?xml") and drc_deck.deck_text(deck_file.read_text()) == DECK
    shutil.copy(deck_file, tmp_path / "saved.lydrc")
    p = subprocess.run(["klayout", "-b", "-r", str(tmp_path / "saved.lydrc"), "-rd", f"input={gds}",
                        "-rd", f"report={tmp_path / 'again.lyrdb'}"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert drc_deck.summarize_report(tmp_path / "again.lyrdb")["items"] == 3


@needs_klayout
def test_a_wrong_deck_gives_klayouts_error_with_the_line(tmp_path):
    gds = _layout(tmp_path / "in.gds")
    wrong = DECK.replace("wg.space(0.3.um)", "wg.spacing(0.3.um)")
    rep = execute(wrong, "sandbox", None, inputs={"in.gds": str(gds)})
    assert not rep.ok
    exc = rep.exception
    assert exc["type"] == "DRCError" and exc["line"] == 6
    assert exc["message"].startswith('line 6 `wg.spacing(0.3.um).output("WG.S.1", "waveguide space < 0.3 um")`: '
                                     "undefined method `spacing' for a layer"), exc["message"]
    assert "deck.lydrc:6" in exc["traceback"]   # KLayout's own trace
    syntax = execute(DECK.replace("wg.width(0.5.um)", "wg.width(0.5.um))"), "sandbox", None, inputs={"in.gds": str(gds)})
    assert not syntax.ok and syntax.exception["message"].startswith("line 5 ") and "syntax error" in syntax.exception["message"]


@needs_klayout
def test_a_deck_without_report_or_input_is_told_what_is_missing(tmp_path):
    rep = execute("source($input)\nwg = input(1, 0)\nwg.width(0.5.um).output(100, 0)\n", "sandbox", None)
    assert not rep.ok and "wrote no report database" in rep.exception["message"]
    assert "report(\"<description>\", $report)" in rep.exception["message"]
    assert "ran on an empty layout" in rep.stdout
    rep = execute("wg = input(1, 0)\nwg.width(0.5.um).output(\"w\")\n", "sandbox", None)
    assert not rep.ok and rep.exception["message"].startswith("line 1 `wg = input(1, 0)`: 'input': No layout loaded")


@needs_klayout
def test_a_deck_runs_on_the_open_layout_through_the_batch_bridge(tmp_path):
    from pic_copilot.bridges.klayout_batch import KlayoutBatchBridge

    layout = _layout(tmp_path / "open.gds")
    before = layout.read_bytes()
    bridge = KlayoutBatchBridge(layout_file=layout, workdir=tmp_path / "work")
    try:
        rep = execute(DECK, "interactive", bridge, expected_files=["wg.lyrdb"])
        assert rep.ok, rep.exception
        assert rep.where == "klayout-drc" and not rep.changes["changed"]
        assert rep.deck["categories"] == {"WG.W.1": 1, "WG.S.1": 1, "WG.A.1": 1}
        assert (tmp_path / "work" / "wg.lyrdb").exists() and (tmp_path / "work" / "deck.lydrc").exists()
        bad = execute(DECK.replace("wg.width(0.5.um)", "wg.width(0.5.um))"), "interactive", bridge)
        assert not bad.ok and bad.exception["type"] == "DRCError" and "syntax error" in bad.exception["message"]
        assert bad.exception["line"] == 5
    finally:
        bridge.close()
    from pic_copilot.sandbox.summary import summarize_layout
    assert summarize_layout(str(layout))["layers"] == [{"layer": 1, "datatype": 0, "shapes": 4}]
    assert len(before) > 0


def test_deck_tasks_load_their_deck_as_the_solution(tmp_path):
    from pic_copilot.bench.metrics import classify_failure
    from pic_copilot.bench.tasks import TaskError, load_task, load_tasks

    tasks = {t.id: t for t in load_tasks(ROOT / "benchmark" / "tasks")}
    decks = [t for t in tasks.values() if t.deck]
    assert len(decks) >= 4 and {t.mode for t in decks} == {"sandbox", "interactive"}
    for t in decks:
        assert drc_deck.is_deck(t.solution), t.id
        assert drc_deck.wants_deck(t.prompt), t.id            # the request routes to the deck generator
        assert len(t.wrong) >= 4 and all(drc_deck.is_deck(v) for v in t.wrong.values()), t.id
        assert {"wrong_value", "wrong_layer", "wrong_missing_rule", "wrong_metric"} <= set(t.wrong), t.id
    assert not any(drc_deck.wants_deck(t.prompt) for t in tasks.values() if not t.deck)
    folder = tmp_path / "x_deck"
    folder.mkdir()
    (folder / "task.toml").write_text('id = "x_deck"\ntier = "basic"\ndomains = ["drc_deck"]\nmode = "sandbox"\nprompt = "p"\n')
    (folder / "check.py").write_text("pass\n")
    (folder / "solution.py").write_text("print(1)\n")
    with pytest.raises(TaskError, match="missing file solution.drc"):
        load_task(folder)
    fail = lambda msg: classify_failure({"ok": False, "exception": {"type": "DRCError", "message": msg}}, None)
    assert fail("line 3 `x`: syntax error, unexpected ')'") == "syntax"
    assert fail("line 4 `wg.widht(1.um)`: undefined method `widht' for a layer") == "api-misuse"
    assert fail("the deck ran but wrote no report database: ...") == "wrong-result"
    assert fail("line 1: 'source': Unable to open file") == "runtime-error"


def test_deck_check_helpers_compare_markers_not_just_counts(tmp_path):
    from pic_copilot.bench.deck_check import compare

    got = {"A": [(0, 0, 1, 1), (2, 2, 3, 3)], "B": []}
    compare(got, {"A": [(2, 2, 3, 3), (0, 0, 1, 1)], "B": []}, "x")
    with pytest.raises(AssertionError, match="unexpected markers at \\[\\(2, 2, 3, 3\\)\\]; missed violations"):
        compare(got, {"A": [(0, 0, 1, 1), (5, 5, 6, 6)]}, "x")
    with pytest.raises(AssertionError, match="no categor\\(ies\\) C"):
        compare(got, {"C": []}, "x")


@needs_klayout
def test_the_cli_runs_a_deck_file_on_an_input_layout(tmp_path, capsys):
    from pic_copilot.frontends import cli as main_cli

    gds = _layout(tmp_path / "chip.gds")
    good = tmp_path / "rules.lydrc"
    good.write_text(drc_deck.to_lydrc(DECK))
    assert main_cli.main(["run", str(good), "--input", str(gds), "--json"]) == 0
    out = capsys.readouterr().out
    assert "3 marker(s): WG.W.1 = 1, WG.S.1 = 1, WG.A.1 = 1" in out
    bad = tmp_path / "bad.drc"
    bad.write_text(DECK.replace("wg.space(", "wg.spase("))
    assert main_cli.main(["run", str(bad), "--input", str(gds)]) == 1
    assert "line 6 `wg.spase(0.3.um)" in capsys.readouterr().out
    assert main_cli.main(["run", str(good), "--input", str(tmp_path / "missing.gds")]) == 2


def test_the_designers_rule_names_must_be_the_decks_categories():
    from pic_copilot.agents.evaluator import missing_names, missing_values

    prompt = "Write a DRC deck: WG.W.1 core width at least 0.5 um, WG.S.1 spacing at least 0.3 um on 1/0"
    assert drc_deck.requested_rule_names(prompt) == ["WG.W.1", "WG.S.1"]
    assert missing_names(prompt, DECK) is None and missing_values(prompt, DECK) is None
    dec = missing_names(prompt, DECK.replace('"WG.S.1"', '"space"'))
    assert dec["decision"] == "revise" and "WG.S.1" in dec["instructions"] and 'output("WG.S.1"' in dec["instructions"]
    dec = missing_values(prompt, DECK.replace("0.3.um", "0.2.um"))
    assert dec is not None and "0.3 um" in dec["instructions"]
    assert drc_deck.literals('a.width(200.nm).output("R.1", "x # y") # 7 um\n') == [200, "R.1", "x # y"]


@needs_klayout
def test_certain_deck_fixes_make_a_literal_source_and_a_two_layer_space_run(tmp_path):
    """Real embedded-model decks for "run as klayout -b -r <deck> -rd input=... -rd report=...":
    `source("input.gds")` (no such file) and `heater.space(core, 1.5.um)` (space takes a distance
    only). After the certain fixes the deck runs on the given layout with KLayout's DRC engine."""
    import klayout.db as kdb

    ly = kdb.Layout()
    top = ly.create_cell("TOP")
    top.shapes(ly.layer(1, 0)).insert(kdb.Box(0, 0, 10000, 500))
    top.shapes(ly.layer(11, 0)).insert(kdb.Box(0, 1000, 10000, 3000))     # 0.5 um from the core
    gds = tmp_path / "in.gds"
    ly.write(str(gds))
    request = "Write a rule deck we run as klayout -b -r <deck> -rd input=<layout.gds> -rd report=<report.lyrdb>."
    bad = ('source("input.gds")\nreport("heater rules", "heater_report.lyrdb")\ncore = input(1, 0)\nheater = input(11, 0)\n'
           'heater.space(core, 1.5.um).output("HTR.WG", "heater to core < 1.5 um")\n'
           'heater.space(2.0.um, projection).output("HTR.S", "heater space < 2 um")\n')
    assert not execute(bad, "sandbox", None, inputs={"in.gds": str(gds)}).ok
    fixed, done = drc_deck.certain_fixes(bad, request)
    assert len(done) == 3, done
    assert fixed.startswith("source($input)\nreport(\"heater rules\", $report)\n")
    assert "heater.separation(core, 1.5.um)" in fixed and "heater.space(2.0.um, projection)" in fixed
    rep = execute(fixed, "sandbox", None, inputs={"in.gds": str(gds)}, expected_files=["r.lyrdb"])
    assert rep.ok, rep.exception
    assert rep.deck["categories"] == {"HTR.WG": 1, "HTR.S": 0}, rep.deck
    # without the -rd convention in the request the literal names are the designer's
    assert drc_deck.certain_fixes(bad, "write a deck that checks input.gds")[0].startswith('source("input.gds")')


def test_a_deck_written_as_one_block_per_rule_keeps_one_source_and_one_report():
    """A real m13 deck: each rule block repeated source($input) and report("<rule>", $report), so the
    report held the last block's category only."""
    deck = ('source($input)\nreport("HTR.W", $report)\ncore = input(1, 0)\nheater = input(11, 0)\n'
            'heater.width(2.0.um).output("HTR.W", "HTR.W: width >= 2 um")\n\n'
            '# pad rule\nsource($input)\n  report("PAD.OV", $report)\npad = input(12, 0)\n'
            'pad.overlap(heater, 1.0.um).output("PAD.OV", "PAD.OV: overlap >= 1 um")\n')
    fixed, done = drc_deck.certain_fixes(deck, "a deck for our heater rules")
    assert fixed.count("source(") == 1 and fixed.count("report(") == 1 and fixed.startswith('source($input)\nreport("HTR.W"')
    assert ".output(\"PAD.OV\"" in fixed and len(done) == 2
    assert drc_deck.certain_fixes(fixed, "a deck for our heater rules") == (fixed, [])


def test_a_check_option_written_as_a_string_becomes_the_languages_function():
    """`heater.separation(core, 1.5.um, "projection")` fails in KLayout ("Parameter #3 does not have an
    expected type", a real m13 candidate, three times); the DSL's option is the function `projection`."""
    deck = 'x = heater.separation(core, 1.5.um, "projection")\ny = wg.width(0.5.um, \'euclidean\')\nputs "projection"\n'
    fixed, done = drc_deck.certain_fixes(deck, "")
    assert fixed == 'x = heater.separation(core, 1.5.um, projection)\ny = wg.width(0.5.um, euclidian)\nputs "projection"\n'
    assert done and "not strings" in done[0]
