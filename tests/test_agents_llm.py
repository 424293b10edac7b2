"""The agent pipeline end to end with the real embedded LLM (started on demand; slow)."""
from __future__ import annotations

import threading

import pytest

from pic_copilot.llm import local_server

pytestmark = [pytest.mark.llm, pytest.mark.slow,
              pytest.mark.skipif(not local_server.runtime_available(),
                                 reason="the embedded LLM is not installed (scripts/setup.sh installs it)")]


@pytest.fixture
def local_llm(tmp_path, monkeypatch):
    """The embedded model as the endpoint, a private history folder, a fixed seed."""
    for var in ("PIC_COPILOT_BASE_URL", "OPENAI_BASE_URL", "PIC_COPILOT_PROVIDER", "PIC_COPILOT_PIPELINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PIC_COPILOT_HISTORY", str(tmp_path / "history"))
    monkeypatch.setenv("PIC_COPILOT_SEED", "7")


def _run(prompt: str):
    from pic_copilot.agents import run_request
    from pic_copilot.contracts import NullIO, Request

    return run_request(Request(id="llm-test", prompt=prompt, mode="sandbox"), NullIO(cancel=threading.Event()))


def test_mmi_request_is_accepted(local_llm):
    out = _run("create a 1x2 MMI splitter with gdsfactory and write it to mmi.gds")
    assert out.ok, f"{out.message}\n{out.script}"
    files = {f["path"]: f for f in out.execution.files or []}
    assert "mmi.gds" in files
    print(f"\nrounds {out.rounds}, usage {out.usage}")


def test_composite_layout_and_drc_request_runs_end_to_end(local_llm):
    """A request that names two domains is planned from its words, with no LLM call (one step in the
    designer's words that keeps both domains, layout first, so the programmer gets the documentation
    of each) -> one script -> candidates checked, run and decided by evidence -> record.

    The 1.5B model does not always get the merged script accepted within 3 rounds (see the issue
    notes for the measured rate), so this asserts the whole path ran, and the files when accepted.
    """
    import json

    out = _run("create a 1x2 MMI splitter with gdsfactory and write it to mmi.gds, then check with KLayout that "
               "no shape on layer 1/0 of mmi.gds is narrower than 0.4 um and write the number of violations "
               "to drc.json")
    rec = json.loads(open(out.record_path).read())
    assert rec["plan"].get("domains") == ["layout", "drc"], rec["plan"]
    assert [s["domain"] for s in rec["plan"]["subtasks"]] == ["layout"], rec["plan"]
    assert rec["usage"]["per_agent"].get("planner", {}).get("calls", 0) == 0, rec["usage"]["per_agent"]
    # every round ends in a decision from evidence (static checks or a run), never in a crash
    assert rec["rounds"] and all(r["decision"]["decision"] in ("accept", "revise") for r in rec["rounds"])
    assert rec["status"] in ("accepted", "rejected")
    assert "drc.json" in [o for s in rec["plan"]["subtasks"] for o in s["outputs"]]
    if out.ok:
        files = {f["path"] for f in out.execution.files or []}
        assert {"mmi.gds", "drc.json"} <= files, files
    print(f"\naccepted={out.ok} rounds {out.rounds}, usage {out.usage}")
