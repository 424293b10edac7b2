"""End-to-end with the real embedded LLM (slow; run with -m llm)."""
from __future__ import annotations

import os
import threading

import pytest

pytestmark = [pytest.mark.llm, pytest.mark.slow]


def _llm_available() -> bool:
    if os.environ.get("PIC_COPILOT_TEST_LLM"):
        return True
    try:
        from pic_copilot.llm import local_server
        return local_server.status() is not None
    except Exception:  # noqa: BLE001
        return False


@pytest.mark.skipif(not _llm_available(), reason="no local LLM running (set PIC_COPILOT_TEST_LLM=1 to start it)")
def test_mmi_request_is_accepted(tmp_path, monkeypatch):
    from pic_copilot.agents import run_request
    from pic_copilot.pipeline_io import NullIO, Request

    monkeypatch.setenv("PIC_COPILOT_HISTORY", str(tmp_path / "history"))
    io = NullIO(cancel=threading.Event())
    out = run_request(Request(id="llm-mmi", prompt="create a 1x2 MMI splitter with gdsfactory and write it to mmi.gds",
                              mode="sandbox"), io)
    assert out.ok, f"{out.message}\n{out.script}"
    files = [f["path"] for f in out.execution.get("files", [])]
    assert "mmi.gds" in files
