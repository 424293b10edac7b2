"""The real KLayout GUI under Xvfb with the pic-copilot panel, driven through the panel's own code."""
import json

import pytest

from kl import KLAYOUT, ROOT, run_gui
from pic_copilot.testing.scripted_llm import ScriptedLLM

pytestmark = [pytest.mark.gui, pytest.mark.skipif(KLAYOUT is None, reason="KLayout is not installed")]

PYA_SCRIPT = ("Here is the script:\n```python\nl = layout.layer(1, 0)\nfor i in range(3):\n"
              "    cell.shapes(l).insert(pya.DBox(i * 3, 0, i * 3 + 2, 0.5))\nprint('placed', cell.shapes(l).size())\n```\n")


def test_request_through_panel_changes_open_layout(tmp_path, xdisplay, test_output):
    shot = test_output / "gui_panel_request.png"
    shot.unlink(missing_ok=True)
    with ScriptedLLM([{"content": PYA_SCRIPT, "chunk_delay": 0.02}]) as llm:
        res, _ = run_gui(ROOT / "tests/klayout/gui_request.py", tmp_path, xdisplay,
                         env={"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": "sk-gui-test",
                              "PIC_COPILOT_PIPELINE": "zero-shot"},
                         prompt="add three 2 um by 0.5 um boxes on layer 1/0", mode="interactive", timeout=120, wait_s=90,
                         shot=shot)
    assert "harness_error" not in res, res.get("harness_error")
    assert res["panel_installed"] and res["editable"]
    assert res["finished"], res.get("transcript")
    assert res["result"]["type"] == "result" and res["result"]["ok"], json.dumps(res["result"])[:2000]
    assert res["shapes"] == 3
    assert "cell.shapes(l).insert" in res["script_shown"]
    assert "[klayout] ran on the open layout" in res["transcript"]
    assert shot.exists() and shot.stat().st_size > 10_000
    print(f"worst 20 ms timer gap while the request ran: {res['worst_timer_gap_ms']} ms; screenshot {shot}")
