"""A new user's first request in the real KLayout GUI with the real embedded LLM (Xvfb):
"draw a 10 um x 5 um rectangle on layer 1/0 with its lower-left corner at the origin", with no
layout open and with one open (tests/klayout/gui_rectangle_llm.py). Screenshots go to test-output/.

The rectangle must be placed where it was asked; the time is printed (the acceptance of issue 15
asks for under a minute, which this machine's load decides, so it is reported, not asserted)."""
import json
import os

import pytest

from kl import KLAYOUT, ROOT, run_gui
from pic_copilot.llm import local_server

pytestmark = [pytest.mark.llm, pytest.mark.slow,
              pytest.mark.skipif(KLAYOUT is None, reason="KLayout is not installed"),
              pytest.mark.skipif(not local_server.runtime_available(),
                                 reason="the embedded LLM is not installed (scripts/setup.sh installs it)")]


def test_rectangle_request_in_the_gui_with_and_without_a_layout(tmp_path, xdisplay, test_output):
    from pic_copilot.config import data_home

    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIC_COPILOT_BASE_URL", "PIC_COPILOT_PROVIDER", "OPENAI_", "PIC_COPILOT_PIPELINE"))}
    env["PIC_COPILOT_HOME"] = str(data_home())   # the installed embedded runtime and model
    res, _ = run_gui(ROOT / "tests/klayout/gui_rectangle_llm.py", tmp_path, xdisplay, env=env, timeout=1500,
                     shots=test_output)
    (test_output / "gui_rectangle_llm.json").write_text(json.dumps(res, indent=1, default=str))
    assert "harness_error" not in res, res["harness_error"]
    for case in ("no_layout", "with_layout"):
        r = res[case]
        print(f"{case}: {r['seconds']} s, ok={r['ok']}, boxes on 1/0: {r.get('boxes')}; {r.get('time_summary')}")
        assert r["finished"], f"{case}: no result within 600 s"
        assert r["ok"] and r.get("correct"), f"{case}: {r['message']}\n{r.get('script')}\n{r.get('boxes')}"
    assert res["no_layout"]["views_before"] == 0 and res["no_layout"]["views_after"] >= 1
