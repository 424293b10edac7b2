"""A DRC deck's named rules are tested on a layout built from the request's words: each rule must
flag a structure that breaks it and must not flag one that keeps it (checks/deck_rules.py)."""
from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from pic_copilot.checks import deck_rules
from pic_copilot.sandbox.summary import summarize_rdb

ROOT = Path(__file__).resolve().parents[1]
needs_klayout = pytest.mark.skipif(shutil.which("klayout") is None, reason="the KLayout application is not installed")

REQUEST = """Please write a KLayout DRC runset for our modulator; run as klayout -b -r <deck> -rd input=<gds> -rd report=<lyrdb>.
Silicon ridges are on 3/0, doped contacts on 7/0, heater metal on 20/0, metal pads on 30/0. Categories:
- RDG_WIDTH: a ridge must be at least 0.6 µm wide
- RDG_GAP: ridges are no closer than 400 nm to each other
- HTR.RDG: heater metal is kept at least 2 µm away from the silicon ridges
- CNT_IN_RDG: every doped contact is enclosed by a ridge by at least 0.25 µm
- PAD_ON_HTR: pads overlap heater metal by at least 1.5 µm where they meet
- HTR_AREA: each heater metal island has an area of at least 4 µm² (touching pieces count as one)
- HTR_HOLE: a hole in heater metal covers at least 2 µm²
- RDG_SLOT: a slot cut into a ridge is at least 0.5 µm wide
- PAD_OVER_RDG: no pad lies on top of a ridge
- CNT_OUT: any part of a doped contact not covered by a ridge
- HTR_MAX: heater metal is at most 30 µm wide
"""

RIGHT = """source($input)
report("modulator rules", $report)
ridge = input(3, 0)
contact = input(7, 0)
heater = input(20, 0)
pad = input(30, 0)
ridge.width(0.6.um).output("RDG_WIDTH", "ridge width")
ridge.space(0.4.um).output("RDG_GAP", "ridge space")
heater.separation(ridge, 2.um).output("HTR.RDG", "heater to ridge")
ridge.enclosing(contact, 0.25.um).output("CNT_IN_RDG", "contact enclosure")
pad.overlap(heater, 1.5.um).output("PAD_ON_HTR", "pad overlap")
heater.merged.with_area(nil, 4.0).output("HTR_AREA", "heater area")
heater.merged.holes.with_area(nil, 2.0).output("HTR_HOLE", "heater holes")
ridge.notch(0.5.um).output("RDG_SLOT", "ridge slot")
(pad & ridge).output("PAD_OVER_RDG", "pad on ridge")
(contact - ridge).output("CNT_OUT", "contact outside ridge")
"""


def test_rules_are_read_with_their_kind_layers_and_values():
    rules = {r.name: r for r in deck_rules.rules_of(REQUEST)}
    got = {n: (r.kind, r.layers, r.value) for n, r in rules.items()}
    assert got == {
        "RDG_WIDTH": ("width", ((3, 0),), 0.6),
        "RDG_GAP": ("space", ((3, 0),), 0.4),
        "HTR.RDG": ("separation", ((20, 0), (3, 0)), 2.0),
        "CNT_IN_RDG": ("enclosure", ((3, 0), (7, 0)), 0.25),
        "PAD_ON_HTR": ("overlap", ((30, 0), (20, 0)), 1.5),
        "HTR_AREA": ("area", ((20, 0),), 4.0),
        "HTR_HOLE": ("hole", ((20, 0),), 2.0),
        "RDG_SLOT": ("notch", ((3, 0),), 0.5),
        "PAD_OVER_RDG": ("and", ((30, 0), (3, 0)), None),
        "CNT_OUT": ("not", ((7, 0), (3, 0)), None),
    }   # HTR_MAX is an upper bound: no test is made for it
    assert rules["HTR_AREA"].merged and not rules["RDG_WIDTH"].merged
    assert rules["RDG_GAP"].euclidean   # "no closer than" is the geometric distance


def test_passive_enclosure_names_the_inner_layer_first_and_one_layer_serves_every_rule():
    text = ("A deck for layer 5/0: rule A.W says a line is at least 2 um wide, and rule A.S says lines are at "
            "least 1 um apart measured with projection.")
    rules = {r.name: r for r in deck_rules.rules_of(text)}
    assert (rules["A.W"].kind, rules["A.W"].layers) == ("width", ((5, 0),))
    assert rules["A.S"].kind == "space" and not rules["A.S"].euclidean
    two = "Vias are on 9/0 and metal on 8/0.\n- V.E: every via is enclosed by metal by at least 0.1 µm"
    assert deck_rules.rules_of(two)[0].layers == ((8, 0), (9, 0))


def test_layers_named_after_their_numbers_and_enclosure_said_as_overlap_on_all_sides():
    text = ("Layers: 1/0 (waveguide core), 2/0 (slab).\n- C.W: a core is at least 0.4 um wide\n"
            "- S.E: the slab extends past the core by at least 2 um on all sides")
    got = [(r.name, r.kind, r.layers, r.value) for r in deck_rules.rules_of(text)]
    assert got == [("C.W", "width", ((1, 0),), 0.4), ("S.E", "enclosure", ((2, 0), (1, 0)), 2.0)]
    said = "Metal on 2/0, vias on 3/0.\n- M.V: metal must overlap every via by at least 0.1 µm on all sides"
    assert deck_rules.rules_of(said)[0].kind == "enclosure" and deck_rules.rules_of(said)[0].layers == ((2, 0), (3, 0))


def test_a_rule_whose_words_are_not_understood_gets_no_test():
    text = "Layers: core 1/0.\n- C.D: core density per 50 µm tile must be between 20 % and 80 %"
    assert deck_rules.rules_of(text) == []


def test_report_markers_are_summarised_with_their_boxes(tmp_path):
    rdb = tmp_path / "r.lyrdb"
    rdb.write_text("""<?xml version="1.0" encoding="utf-8"?><report-database><categories>
<category><name>W</name></category></categories><items>
<item><category>W</category><values><value>edge-pair: (0,0;0,5)|(0.3,5;0.3,0)</value></values></item>
<item><category>'W'</category><values><value>polygon: (1,1;1,2;2,2;2,1)</value><value>text: 'x'</value></values></item>
</items></report-database>""")
    s = summarize_rdb(str(rdb))
    assert s["items_per_category"] == {"W": 2}
    assert s["boxes_per_category"] == {"W": [[0.0, 0.0, 0.3, 5.0], [1.0, 1.0, 2.0, 2.0]]}


def test_problems_name_a_missed_violation_and_a_flagged_keeper():
    rules = deck_rules.rules_of("Core on 1/0.\n- W.1: the core is at least 0.5 µm wide")
    slots = deck_rules.test_slots(rules)
    bad, good = [s for s in slots if s.violates][0], [s for s in slots if not s.violates][0]
    l, b, r, t = good.box
    found = deck_rules.problems(rules, slots, {"W.1": [[l + 1, b + 1, l + 2, b + 2]]})
    assert len(found) == 2
    assert found[0].startswith("W.1 did not flag a 0.425 µm wide shape on 1/0, which breaks it")
    assert found[1].startswith("W.1 flagged a 0.575 µm wide shape on 1/0, which keeps it")
    l, b, r, t = bad.box
    assert deck_rules.problems(rules, slots, {"W.1": [[l + 5, b + 5, l + 6, b + 6]]}) == []


@needs_klayout
def test_a_right_deck_passes_and_wrong_ones_are_told_what_they_missed():
    assert deck_rules.self_test(RIGHT, REQUEST) == []
    wrong_value = RIGHT.replace("heater.separation(ridge, 2.um)", "heater.separation(ridge, 1.5.um)")
    assert [p.split(" did not flag")[0] for p in deck_rules.self_test(wrong_value, REQUEST)] == ["HTR.RDG", "HTR.RDG"]
    projection = RIGHT.replace("ridge.space(0.4.um)", "ridge.space(0.4.um, projection)")
    found = deck_rules.self_test(projection, REQUEST)
    assert len(found) == 1 and found[0].startswith("RDG_GAP did not flag") and "corner to corner" in found[0]
    unmerged = RIGHT.replace("heater.merged.with_area", "heater.raw.with_area")   # raw: shapes taken one by one
    found = deck_rules.self_test(unmerged, REQUEST)
    assert len(found) == 1 and found[0].startswith("HTR_AREA flagged two touching")
    swapped = RIGHT.replace('(pad & ridge).output("PAD_OVER_RDG"', '(pad - ridge).output("PAD_OVER_RDG"')
    assert any(p.startswith("PAD_OVER_RDG") for p in deck_rules.self_test(swapped, REQUEST))


def _deck_tasks():
    for folder in sorted((ROOT / "benchmark" / "tasks").glob("*")):
        if (folder / "solution.drc").exists():
            yield folder


@needs_klayout
@pytest.mark.parametrize("folder", list(_deck_tasks()), ids=lambda f: f.name)
def test_reference_decks_pass_the_rule_test_and_their_wrong_variants_do_not(folder):
    """No false rejection of a right deck; the suite's wrong variants (value, layer, metric, a
    missing rule) are caught by the rule test alone, before any check.py."""
    prompt = tomllib.loads((folder / "task.toml").read_text())["prompt"]
    deck = (folder / "solution.drc").read_text()
    assert deck_rules.rules_of(prompt)
    assert deck_rules.self_test(deck, prompt) == []
    for variant in tomllib.loads((folder / "wrong.toml").read_text())["variant"]:
        text = deck
        for old, new in variant.get("replace", []):
            text = text.replace(old, new)
        text = variant.get("script", text)
        assert deck_rules.self_test(text, prompt), f"{variant['name']}: {variant['why']}"


@needs_klayout
def test_a_deck_is_written_from_the_rules_only_when_every_named_rule_is_read():
    """Every named rule read: a deck with one check per rule, which passes its own rule test; one rule
    not understood (HTR_MAX, an upper bound): None, the LLM writes the deck."""
    assert deck_rules.deck_from_rules(REQUEST) is None
    readable = REQUEST.replace("- HTR_MAX: heater metal is at most 30 µm wide\n", "")
    deck = deck_rules.deck_from_rules(readable)
    assert deck and deck.count(".output(") == 10 and "source($input)" in deck and "$report" in deck
    assert "l3_0.enclosing(l7_0, 0.25.um)" in deck and "(l7_0 - l3_0)" in deck and "l20_0.merged.with_area(nil, 4.0)" in deck
    assert deck_rules.self_test(deck, readable) == []
