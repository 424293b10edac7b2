"""DRC decks in the real KLayout GUI under Xvfb (tests/klayout/gui_deck.py): the panel runs a deck
on the open layout with KLayout's DRC engine and its report opens in the marker browser; a request
through the engine reaches the controller as run_deck; a broken deck shows KLayout's error; a deck
is saved as .lydrc in the DRC macro folder. The screenshot goes to test-output/ (and, copied by
hand, to docs/screenshots/)."""
import shutil
import sys

import pytest

from kl import KLAYOUT, ROOT, run_gui
from pic_copilot.testing.scripted_llm import ScriptedLLM

pytestmark = [pytest.mark.gui, pytest.mark.skipif(KLAYOUT is None or shutil.which("import") is None,
                                                  reason="KLayout or imagemagick is not installed")]
DECK = (ROOT / "tests" / "data" / "demo_deck.drc").read_text()
WANT = {"WG.W.1": 1, "WG.S.1": 1, "HT.WG.1": 1}


@pytest.fixture(scope="module")
def gui_run(tmp_path_factory, xdisplay, test_output):
    tmp = tmp_path_factory.mktemp("gui-deck")
    shot = test_output / "gui_drc_deck_marker_browser.png"
    shot.unlink(missing_ok=True)
    deck = tmp / "deck.drc"
    deck.write_text(DECK)
    (tmp / "work").mkdir()
    answer = f"Here is the deck:\n```ruby\n{DECK}```\n"
    # the panel starts <grain>/.venv/bin/python -m pic_copilot.frontends.engine without PYTHONPATH, which imports
    # the pic_copilot the venv has installed (/work/main's in a worktree): run this checkout's engine
    engine = tmp / "engine-python"
    engine.write_text(f"#!/bin/sh\nPYTHONPATH={ROOT / 'lib'} exec {sys.executable} \"$@\"\n")
    engine.chmod(0o755)
    with ScriptedLLM([{"content": answer}] * 3) as llm:
        res, _ = run_gui(ROOT / "tests/klayout/gui_deck.py", tmp, xdisplay, timeout=300,
                         env={"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": "sk-gui-test",
                              "PIC_COPILOT_PIPELINE": "zero-shot", "PIC_COPILOT_PYTHON": str(engine)},
                         shot=shot, deck=deck, work=tmp / "work")
    assert "harness_error" not in res, res["harness_error"]
    return res, shot


def test_the_panel_runs_a_deck_on_the_open_layout_and_shows_the_report(gui_run):
    res, shot = gui_run
    r = res["panel_run"]
    assert "harness_error" not in r, r["harness_error"]
    assert r["rdb_categories"] == WANT and r["rdb_items"] == 3, r
    assert r["marker_browser"], "the marker browser did not open"
    assert r["layout_unchanged"]
    assert "Ran the DRC deck" in r["status"] and "WG.W.1 = 1" in r["status"], r["status"]
    assert "[drc]" in r["transcript_tail"] and "(in the marker browser)" in r["transcript_tail"]
    assert r["shot_rc"] == 0 and shot.exists() and shot.stat().st_size > 30_000, r


def test_a_request_for_a_deck_runs_it_through_the_controller(gui_run):
    r = gui_run[0]["request"]
    assert "harness_error" not in r, r["harness_error"]
    assert r["ok"], r
    assert r["where"] == "klayout-drc" and r["deck"]["categories"] == WANT, r
    assert r["exec_result_deck"]["categories"] == WANT
    assert "source($input)" in r["script_shown"]


def test_a_broken_deck_shows_klayouts_error_with_the_line(gui_run):
    r = gui_run[0]["broken"]
    assert "harness_error" not in r, r["harness_error"]
    assert "The DRC deck failed: line 8" in r["status"] and "undefined method `spase'" in r["status"], r["status"]
    assert r["layout_unchanged"]


def test_a_deck_is_saved_as_lydrc_in_the_drc_macro_folder(gui_run):
    r = gui_run[0]["save"]
    assert "harness_error" not in r, r["harness_error"]
    assert r["in_drc_folder"] and r["starts_xml"] and r["text_kept"], r
    assert r["path"].endswith(".lydrc") and r["save_as_xml"]
