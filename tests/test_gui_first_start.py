"""KLayout started as a new designer would (viewer mode, no layout, KLayout's own first-start window on
a screen without a window manager), under Xvfb with a scripted LLM: the panel leaves room for the
layout, the transcript is readable, a request with no layout opens one, Stop answers within a second."""
import json

import pytest

from kl import KLAYOUT, ROOT, run_gui
from pic_copilot.testing.scripted_llm import ScriptedLLM

pytestmark = [pytest.mark.gui, pytest.mark.skipif(KLAYOUT is None, reason="KLayout is not installed")]

RECT = ("I will draw the **rectangle** with `pya.DBox` (micrometres) in the current cell.\n\n"
        "```python\nli = layout.layer(1, 0)\ncell.shapes(li).insert(pya.DBox(0, 0, 10, 5))\n"
        "print('rectangle', cell.name)\n```\n\nThe lower-left corner is at the origin.\n")


@pytest.fixture(scope="module")
def first_start(tmp_path_factory, xdisplay, test_output):
    tmp = tmp_path_factory.mktemp("first-start")
    for name in ("first_start.png", "first_start_request.png"):
        (test_output / name).unlink(missing_ok=True)
    steps = [{"match": "slow request", "delay": 6, "content": "```python\nprint(1)\n```"},
             {"content": RECT, "chunk_chars": 5, "chunk_delay": 0.01}]
    with ScriptedLLM(steps) as llm:
        res, _ = run_gui(ROOT / "tests/klayout/gui_first_start.py", tmp, xdisplay, editing=False,
                         env={"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": "sk-first-start",
                              "PIC_COPILOT_PIPELINE": "zero-shot",
                              "PIC_COPILOT_CONFIG": str(tmp / "cfg" / "config.toml")},
                         timeout=300, shots=test_output)
    (test_output / "gui_first_start.json").write_text(json.dumps(res, indent=1, default=str))
    assert "harness_error" not in res, res["harness_error"]
    return res


def test_panel_leaves_room_for_the_layout(first_start, test_output):
    lay = first_start["layout"]
    print(f"first-start window {lay['window']}, dock {lay['dock']} = {lay['dock_share']:.0%} of the width; "
          f"transcript {lay['transcript_lines']} lines ({lay['transcript_height']} px)")
    assert not lay["editable_app"] and lay["views"] == 0      # as a new designer starts it: viewer, nothing open
    assert lay["dock_visible"]
    assert lay["dock_share"] <= 0.35, lay
    assert lay["transcript_lines"] >= 10, lay
    shot = test_output / "first_start.png"
    assert shot.exists() and shot.stat().st_size > 10_000


def test_request_without_a_layout_opens_an_editable_one(first_start):
    r = first_start["no_layout"]
    print(f"no layout open -> rectangle placed in {r['seconds']} s")
    assert r["session_right_after_send"] and r["finished"], r
    assert r["result"]["ok"], r["result"]
    assert r["editable"] and r["undoable"] and r["cell"] == "TOP" and r["top_cells"] == ["TOP"]
    assert r["boxes"] == ["(0,0;10,5)"], r["boxes"]
    assert "[layout] no layout was open: opened a new editable layout" in r["transcript"]
    assert r["boxes_after_undo"] == []


def test_streamed_markdown_reads_as_text_and_the_script_goes_to_its_tab(first_start):
    r = first_start["no_layout"]
    t = r["transcript"]
    assert "```" not in t and "**" not in t, t
    assert "I will draw the rectangle with pya.DBox (micrometres)" in t
    assert "(the script is in the Script tab)" in t and "The lower-left corner is at the origin." in t
    assert "cell.shapes(li).insert(pya.DBox(0, 0, 10, 5))" in r["script_tab"]


def test_stop_answers_within_a_second(first_start):
    s = first_start["stop"]
    print(f"Stop -> cancelled in {s['cancel_s']} s; status while busy: {s['status_while_busy']!r}")
    assert s["stop_enabled"]
    assert s["status_while_busy"].startswith("Working…") and " s; Stop cancels)" in s["status_while_busy"]
    assert s["last"]["kind"] == "cancelled" and s["cancel_s"] < 1.0, s
    assert s["status"].startswith("Stopped") and s["send_enabled"]
