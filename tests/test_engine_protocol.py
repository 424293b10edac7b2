"""The engine process over its JSON-lines protocol: explain, run (sandbox + thumbnails), cancel, fix requests."""
import json
import os
import stat
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
    def __init__(self, tmp: Path, env: dict, expect: str = "ready"):
        full = dict(os.environ, PIC_COPILOT_HOME=str(tmp / "home"), PIC_COPILOT_CONFIG=str(tmp / "cfg" / "config.toml"),
                    PYTHONUNBUFFERED="1", **env)
        self.stderr_path = tmp / "engine-stderr.log"
        self.stderr = open(self.stderr_path, "a")
        self.p = subprocess.Popen([sys.executable, "-m", "pic_copilot.frontends.engine"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.stderr, text=True, env=full)
        self.lines: list[str] = []
        self.first = self.read()
        assert self.first["type"] == expect, self.first

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

    def make(env, expect="ready"):
        e = Engine(tmp_path, env, expect)
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


# ------------------------------------------------------------------ the settings dialog's messages
DIALOG_KEY = "sk-dialog-secret-5f3a9c0e1d"


def settings_call(eng, sid: str, **fields) -> dict:
    eng.send({"type": "settings", "id": sid, **fields})
    msg, _ = eng.until(lambda m: m.get("id") == sid, timeout=30)
    assert msg["type"] == "settings_result", msg
    return msg


def test_settings_get_gives_the_fields_defaults_and_domains(engine_factory, tmp_path):
    eng = engine_factory({"PIC_COPILOT_API_KEY": "", "PIC_COPILOT_BASE_URL": "http://127.0.0.1:9/v1"})
    got = settings_call(eng, "g1", action="get")
    assert got["ok"] and got["action"] == "get", got
    form = got["form"]
    assert form["config_path"] == str(tmp_path / "cfg" / "config.toml") and form["problem"] == ""
    assert form["credentials_path"] == str(tmp_path / "cfg" / "credentials") and not form["key_stored"]
    assert "PIC_COPILOT_BASE_URL" in form["env_set"] and "PIC_COPILOT_API_KEY" not in form["env_set"]
    assert "programmer" in form["agents"] and form["generators"] == ["layout", "drc", "simulation", "data"]
    assert {"gdsfactory", "pya", "sax"} <= set(form["databases"]) and "checks" not in form["databases"]
    from pic_copilot import prompts

    # the domains' defaults are the engine's own (prompts/domains.toml), not a copy in the plugin
    assert form["defaults"]["databases"]["simulation"] == prompts.domains()["simulation"]["databases"]
    v = form["values"]
    assert v["provider"] == "local" and v["mode"] == "interactive" and v["max_rounds"] == 3
    assert v["llm_port"] == 18765 and v["endpoint_port"] == 0 and v["databases"] == form["defaults"]["databases"]
    bad = settings_call(eng, "g2", action="forget")
    assert not bad["ok"] and "unknown settings action" in bad["message"]


def test_settings_save_writes_the_file_and_the_key_but_never_echoes_the_key(engine_factory, tmp_path):
    cfg = tmp_path / "cfg" / "config.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text('timeout = 99\n[agents.evaluator]\nmodel = "judge"\ntemperature = 0.1\n')
    eng = engine_factory({"PIC_COPILOT_API_KEY": ""})
    values = {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "some-model", "mode": "sandbox",
              "max_rounds": 4, "llm_port": 19123, "endpoint_port": 19124,
              "agents": {"planner": "small-planner", "evaluator": ""},
              "databases": {"layout": ["gdsfactory"], "drc": [], "simulation": ["sax"], "data": ["pya"]}}
    saved = settings_call(eng, "s1", action="save", values=values, api_key=DIALOG_KEY)
    assert saved["ok"] and saved["saved"] == str(cfg), saved
    import tomllib

    data = tomllib.loads(cfg.read_text())
    assert data["timeout"] == 99, "keys the dialog does not show are kept"
    assert data["provider"] == "openai" and data["max_rounds"] == 4 and data["mode"] == "sandbox"
    assert data["llm_port"] == 19123 and data["endpoint_port"] == 19124
    assert data["agents"] == {"planner": {"model": "small-planner"}, "evaluator": {"temperature": 0.1}}
    assert data["generators"]["layout"] == {"databases": ["gdsfactory"]} and data["generators"]["drc"] == {"databases": []}
    cred = tmp_path / "cfg" / "credentials"
    assert cred.read_text() == DIALOG_KEY and stat.S_IMODE(cred.stat().st_mode) == 0o600
    assert DIALOG_KEY not in cfg.read_text()
    form = saved["form"]
    assert form["key_stored"] and form["values"]["model"] == "some-model"
    assert form["values"]["agents"]["planner"] == "small-planner" and form["values"]["databases"]["drc"] == []
    # a save without a key keeps it; a wrong value is refused and nothing is written
    before = cfg.read_text()
    wrong = settings_call(eng, "s2", action="save", values={**values, "max_rounds": "many"})
    assert not wrong["ok"] and "max_rounds" in wrong["message"] and cfg.read_text() == before
    kept = settings_call(eng, "s3", action="save", values={**values, "model": ""})
    assert kept["ok"] and cred.read_text() == DIALOG_KEY and "model" not in tomllib.loads(cfg.read_text())
    removed = settings_call(eng, "s4", action="save", values=values, api_key="")
    assert removed["ok"] and not removed["form"]["key_stored"]
    eng.close()
    seen = "".join(eng.lines) + eng.stderr_path.read_text()
    assert DIALOG_KEY not in seen


def test_a_broken_config_refuses_jobs_but_the_settings_can_repair_it(engine_factory, tmp_path):
    cfg = tmp_path / "cfg" / "config.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("provider = \n")
    eng = engine_factory({}, expect="error")
    assert eng.first["id"] is None and eng.first["message"].startswith("configuration: "), eng.first
    got = settings_call(eng, "g1", action="get")
    assert got["ok"] and "not valid TOML" in got["form"]["problem"] and got["form"]["values"]["provider"] == "local"
    eng.send({"type": "request", "id": "r1", "prompt": "a box", "mode": "sandbox"})
    refused, _ = eng.until(lambda m: m.get("id") == "r1")
    assert refused["type"] == "error" and refused["kind"] == "bad-request" and "configuration" in refused["message"]
    values = dict(got["form"]["values"], max_rounds=2)
    assert settings_call(eng, "s1", action="save", values=values)["ok"]
    eng.close()
    assert eng.p.returncode == 2
    again = engine_factory({})   # the repaired file: the engine starts as usual
    assert again.first["type"] == "ready"
