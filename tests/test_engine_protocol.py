"""The engine process over its JSON-lines protocol: explain, run (sandbox + thumbnails), cancel, fix requests."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pic_copilot.testing.scripted_llm import ScriptedLLM

ROOT = Path(__file__).resolve().parents[1]

GDS_SCRIPT = """import klayout.db as db
import klayout.rdb as krdb
ly = db.Layout()
top = ly.create_cell("RING_TOP")
l1 = ly.layer(1, 0)
top.shapes(l1).insert(db.DBox(0, 0, 20, 0.5))
top.shapes(l1).insert(db.DPolygon(db.DBox(5, 2, 15, 8)))
ly.write("ring.gds")
rdb = krdb.ReportDatabase("checks")
cat = rdb.create_category("width")
c = rdb.create_cell("RING_TOP")
it = rdb.create_item(c.rdb_id(), cat.rdb_id())
it.add_value(db.DBox(0, 0, 1, 0.5))
rdb.save("checks.lyrdb")
print("wrote ring.gds")
"""


class Engine:
    def __init__(self, tmp: Path, env: dict):
        full = dict(os.environ, PIC_COPILOT_HOME=str(tmp / "home"), PIC_COPILOT_CONFIG=str(tmp / "cfg" / "config.toml"),
                    PYTHONUNBUFFERED="1", **env)
        self.stderr_path = tmp / "engine-stderr.log"
        self.stderr = open(self.stderr_path, "w")
        self.p = subprocess.Popen([sys.executable, "-m", "pic_copilot.frontends.engine"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.stderr, text=True, env=full)
        self.lines: list[str] = []
        ready = self.read()
        assert ready["type"] == "ready", ready

    def send(self, msg: dict) -> None:
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def read(self) -> dict:
        line = self.p.stdout.readline()
        assert line, "engine closed stdout"
        self.lines.append(line)
        return json.loads(line)

    def until(self, pred, timeout: float = 60) -> tuple[dict, list[dict]]:
        seen = []
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            m = self.read()
            seen.append(m)
            if pred(m):
                return m, seen
        raise AssertionError(f"no matching message in {timeout} s: {seen[-5:]}")

    def close(self) -> None:
        try:
            self.send({"type": "shutdown"})
            self.p.stdin.close()
            self.p.wait(10)
        except Exception:
            self.p.kill()
        self.stderr.close()


@pytest.fixture
def engine_factory(tmp_path):
    made = []

    def make(env):
        e = Engine(tmp_path, env)
        made.append(e)
        return e
    yield make
    for e in made:
        e.close()


def test_explain_streams_and_answers(engine_factory):
    with ScriptedLLM([{"content": "This macro draws three boxes on layer 1/0.", "chunk_chars": 8}]) as llm:
        eng = engine_factory({"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": "k"})
        eng.send({"type": "explain", "id": "e1", "code": "cell.shapes(1).insert(pya.Box(0,0,1,1))\n", "name": "boxes.py"})
        msg, seen = eng.until(lambda m: m["type"] in ("explanation", "error"))
        assert msg["type"] == "explanation", msg
        assert "three boxes" in msg["text"]
        tokens = "".join(m["text"] or "" for m in seen if m["type"] == "token" and m["agent"] == "explainer")
        assert "three boxes" in tokens
        sent = llm.requests[0]["messages"]
        assert "cell.shapes(1)" in sent[-1]["content"] and "boxes.py" in sent[-1]["content"]


def test_cancel_answers_within_a_second_while_llm_is_slow(engine_factory):
    with ScriptedLLM([{"delay": 6, "content": "```python\nprint(1)\n```"}]) as llm:
        eng = engine_factory({"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": "k",
                              "PIC_COPILOT_PIPELINE": "zero-shot"})
        eng.send({"type": "request", "id": "r1", "prompt": "print one", "mode": "sandbox"})
        eng.until(lambda m: m["type"] == "progress" and m.get("stage") == "generate")
        time.sleep(0.5)
        t0 = time.monotonic()
        eng.send({"type": "cancel", "id": "r1"})
        msg, _ = eng.until(lambda m: m.get("id") == "r1" and m["type"] in ("error", "result"), timeout=5)
        assert msg["type"] == "error" and msg["kind"] == "cancelled", msg
        assert time.monotonic() - t0 < 1.0
        # the engine takes a new request at once although the old call still waits on the server
        eng.send({"type": "ping"})
        eng.until(lambda m: m["type"] == "pong", timeout=2)


def test_run_in_sandbox_sends_thumbnail_and_report(engine_factory):
    eng = engine_factory({"PIC_COPILOT_BASE_URL": "http://127.0.0.1:9/v1", "PIC_COPILOT_API_KEY": "k"})
    eng.send({"type": "run", "id": "s1", "code": GDS_SCRIPT})
    msg, _ = eng.until(lambda m: m.get("id") == "s1" and m["type"] in ("run_result", "error"), timeout=180)
    assert msg["type"] == "run_result" and msg["ok"], json.dumps(msg)[:3000]
    prev = msg["execution"]["previews"]
    assert len(prev) == 1 and prev[0]["path"] == "ring.gds" and prev[0]["error"] is None, prev
    png = Path(prev[0]["png"])
    assert png.exists() and png.read_bytes()[:4] == b"\x89PNG"
    assert Path(prev[0]["compat"]).exists()
    assert any(r.endswith("checks.lyrdb") for r in msg["execution"]["reports"])


def test_fix_request_carries_previous_script_and_complaint(engine_factory):
    fixed = "```python\nprint('fixed')\n```"
    with ScriptedLLM([{"content": fixed}]) as llm:
        eng = engine_factory({"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": "k",
                              "PIC_COPILOT_PIPELINE": "single-candidate"})
        eng.send({"type": "request", "id": "f1", "mode": "sandbox", "prompt": "Fix this macro",
                  "previous_script": "print(undefined_name)\n",
                  "feedback": ["NameError: name 'undefined_name' is not defined"]})
        msg, _ = eng.until(lambda m: m.get("id") == "f1" and m["type"] in ("result", "error"), timeout=120)
        assert msg["type"] == "result", msg
        assert "fixed" in msg["script"]
        asked = json.dumps(llm.requests)
        assert "undefined_name" in asked and "NameError" in asked


def test_selection_reaches_the_request_text(engine_factory):
    with ScriptedLLM([{"content": "```python\nprint(selection)\n```"}]) as llm:
        eng = engine_factory({"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": "k",
                              "PIC_COPILOT_PIPELINE": "zero-shot"})
        ctx = {"file": "unsaved", "dbu": 0.001, "selection": [
            {"kind": "path", "layer": 1, "datatype": 0, "cell": "TOP", "bbox": [0, -0.25, 10, 0.25],
             "width_um": 0.5, "points_um": [[0, 0], [10, 0]]}]}
        eng.send({"type": "request", "id": "q1", "mode": "interactive",
                  "prompt": "make the selected waveguide 2 um wider", "context": ctx})
        # the script is ready once the engine asks KLayout to run it: the prompt has been sent by then
        eng.until(lambda m: m["type"] == "exec" or (m.get("id") == "q1" and m["type"] == "error"), timeout=120)
        eng.send({"type": "cancel", "id": "q1"})
        asked = json.dumps(llm.requests)
        assert "points_um" in asked and "width_um" in asked and "selection" in asked


def test_feedback_continues_the_request_with_its_agents(engine_factory):
    """``feedback`` on a finished request revises its script with the same agents: the engine's
    SessionStore kept the plan and the programmer's conversation (no second plan)."""
    plan = json.dumps({"thoughts": "t", "subtasks": [{"domain": "data", "task": "print the box", "outputs": []}]})
    accept = json.dumps({"thoughts": "fine", "decision": "accept", "target": "programmer", "instructions": ""})
    steps = [{"match": "Plan this request", "content": plan},
             {"match": "Write search queries", "content": json.dumps({"queries": [{"db": "pya", "query": "box"}]})},
             {"match": "Revise the script", "content": "```python\nprint('box 10 x 5')\nprint('area', 50)\n```"},
             {"match": "Write the script", "content": "```python\nprint('box 10 x 5')\n```"},
             {"match": "Evaluate this result", "content": accept}]
    with ScriptedLLM(steps) as llm:
        eng = engine_factory({"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": "k",
                              "PIC_COPILOT_PIPELINE": "agentic"})
        eng.send({"type": "feedback", "id": "r7", "text": "too early"})
        msg, _ = eng.until(lambda m: m.get("id") == "r7")
        assert msg["type"] == "error" and msg["kind"] == "bad-request", msg
        eng.send({"type": "request", "id": "r7", "prompt": "print a box", "mode": "sandbox"})
        first, _ = eng.until(lambda m: m.get("id") == "r7" and m["type"] in ("result", "error"), timeout=120)
        assert first["type"] == "result" and first["ok"], first
        n = len(llm.requests)
        eng.send({"type": "feedback", "id": "r7", "text": "also print the area"})
        second, _ = eng.until(lambda m: m.get("id") == "r7" and m["type"] in ("result", "error"), timeout=120)
        later = llm.requests[n:]
    assert second["type"] == "result" and "area" in second["script"], second
    asked = [r["messages"][-1]["content"] for r in later]
    assert not any("Plan this request" in a for a in asked), "the plan is the request's, kept"
    revise = next(r for r in later if "Revise the script" in r["messages"][-1]["content"])
    assert "also print the area" in revise["messages"][-1]["content"]
    assert any(m["role"] == "assistant" and "box 10 x 5" in m["content"] for m in revise["messages"][:-1])
