"""Deterministic tests of the agent pipeline against the scripted OpenAI-compatible server (real HTTP, streaming)."""
from __future__ import annotations

import json
import re
import threading

import pytest

from pic_copilot.agents import pipeline, run_request
from pic_copilot.config import Settings
from pic_copilot.llm import LLMCancelled, LLMClient, LLMError, LLMStructuredOutputError
from pic_copilot.contracts import Outcome, Request, SessionStore
from pic_copilot.testing.scripted_llm import ScriptedLLM

SECRET = "sk-test-secret-0123456789"


def fence(code: str) -> str:
    return f"Here is the script.\n```python\n{code.strip()}\n```\n"


def plan(*subtasks) -> dict:
    return {"content": json.dumps({"thoughts": "t", "subtasks": [
        {"domain": d, "task": t, "outputs": []} for d, t in subtasks]}), "match": "Plan this request"}


QUERIES = {"match": "Write search queries",
           "content": json.dumps({"queries": [{"db": "pya", "query": "Layout write"}]})}
ACCEPT = {"match": "Evaluate this result", "content": json.dumps({"thoughts": "fine", "decision": "accept",
                                                                  "target": "programmer", "instructions": ""})}


class RecIO:
    """A PipelineIO that records everything."""

    def __init__(self, bridge=None):
        self.bridge = bridge
        self.cancel = threading.Event()
        self.events: list[tuple] = []
        self.tokens: list[tuple] = []
        self.scripts: list[tuple] = []

    def progress(self, stage, message, data=None):
        self.events.append((stage, message, data))

    def token(self, agent, text):
        self.tokens.append((agent, text))

    def script(self, code, round_):
        self.scripts.append((code, round_))

    def stages(self):
        return [e[0] for e in self.events]


@pytest.fixture(autouse=True)
def history(tmp_path, monkeypatch):
    monkeypatch.setenv("PIC_COPILOT_HISTORY", str(tmp_path / "history"))
    return tmp_path / "history"


@pytest.fixture
def executed(monkeypatch):
    """Record every script the pipeline executes (the real runner still runs)."""
    seen: list[str] = []
    real = pipeline.execute

    def spy(code, mode, bridge, **kw):
        seen.append(code)
        return real(code, mode, bridge, **kw)

    monkeypatch.setattr(pipeline, "execute", spy)
    return seen


def run(steps, prompt="do it", **req):
    srv = ScriptedLLM(steps).start()
    try:
        settings = Settings(provider="openai", base_url=srv.base_url, api_key=SECRET, model="scripted",
                            max_retries=0, timeout_s=30, generator_databases=req.pop("databases", {}))
        client = LLMClient(settings)
        io = RecIO(req.pop("bridge", None))
        req.setdefault("mode", "sandbox")
        req.setdefault("config", "agentic")   # the multi-agent flow these tests script; `full` has its own tests
        out = run_request(Request(id=req.pop("id", "r1"), prompt=prompt, **req), io, settings, client)
        return out, io, srv.requests
    finally:
        srv.stop()


def user_text(body) -> str:
    return body["messages"][-1]["content"]


def bodies(requests, marker):
    return [b for b in requests if marker in user_text(b)]


def test_runtime_error_traceback_reaches_programmer_then_accepted(executed):
    steps = [plan(("data", "print a value")), QUERIES,
             {"match": "Write the script", "content": fence("table = {'a': 1}\nprint(table['missing_key'])")},
             {"match": "Revise the script", "content": fence("table = {'a': 1}\nprint('value', table['a'])")},
             ACCEPT]
    out, io, reqs = run(steps)
    assert out.ok, out.message
    assert out.rounds == 2
    assert "table['a']" in out.script
    revise = bodies(reqs, "Revise the script")
    assert len(revise) == 1
    text = user_text(revise[0])
    assert "KeyError" in text and "Traceback" in text and "missing_key" in text
    # the programmer streams; its memory holds the first script
    assert revise[0]["stream"] is True
    assert any("missing_key" in m["content"] for m in revise[0]["messages"] if m["role"] == "assistant")
    assert any(a == "programmer" and t for a, t in io.tokens)
    assert len(executed) == 2
    for stage in ("plan", "query", "retrieve", "generate", "check", "execute", "evaluate"):
        assert stage in io.stages(), stage
    assert out.execution.ok and "value 1" in out.execution.stdout


def test_cell_name_the_designer_gave_is_enforced_before_the_llm_judge(executed):
    """The script ran, but its cell is not the PAD the designer named: back to the programmer with
    the name and how to make it, without asking the evaluator LLM first."""
    code = ("import klayout.db as kdb\nly = kdb.Layout()\ntop = ly.create_cell({name!r})\n"
            "top.shapes(ly.layer(1, 0)).insert(kdb.Box(0, 0, 1000, 1000))\nly.write('pad.gds')\n")
    steps = [plan(("layout", "a 1 um square in a cell named PAD written to pad.gds")), QUERIES,
             {"match": "Write the script", "content": fence(code.format(name="TOP"))},
             {"match": "Revise the script", "content": fence(code.format(name="PAD"))},
             ACCEPT]
    out, io, reqs = run(steps, prompt="Make a 1 um square on layer 1/0 in a cell named PAD and save it as pad.gds")
    assert out.ok, out.message
    assert out.rounds == 2 and "create_cell('PAD')" in out.script and len(executed) == 2
    revise = user_text(bodies(reqs, "Revise the script")[0])
    assert "cell named PAD" in revise and 'layout.create_cell("PAD")' in revise
    assert len(bodies(reqs, "Evaluate this result")) == 1   # only the second, right-named script was judged


def test_unknown_gdsfactory_function_caught_before_running(executed):
    bad = "import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.components.mmi1x2()\ngf.write_gds(c, 'mmi.gds')\n"
    good = "print('fixed')\n"
    steps = [plan(("layout", "make an mmi and write mmi.gds")), QUERIES,
             {"match": "Write the script", "content": fence(bad)},
             {"match": "Revise the script", "content": fence(good)}, ACCEPT]
    out, io, reqs = run(steps, max_rounds=3)
    assert not any("write_gds" in code for code in executed), "the bad script must never run"
    assert executed == [good]
    check = next(e for e in io.events if e[0] == "check")
    msgs = " ".join(f["message"] for f in check[2]["findings"])
    assert "gdsfactory.write_gds" in msgs and "Component.write_gds" in msgs
    revise = user_text(bodies(reqs, "Revise the script")[0])
    assert "not run" in revise and "write_gds" in revise
    # an API finding sends the revision through the query generator first
    assert len(bodies(reqs, "Write search queries")) == 2
    assert out.rounds == 2 and out.ok


def test_composite_request_goes_through_synthesizer():
    merged = "a = 2\nb = a * 3\nprint('area', b)\n"
    steps = [plan(("layout", "make geometry, write shape.txt"), ("data", "read shape.txt and print its area")),
             QUERIES,
             {"match": "Write the script", "content": fence("print('part')")},
             {"match": "Merge these scripts", "content": fence(merged)}, ACCEPT]
    out, io, reqs = run(steps)
    p = next(e for e in io.events if e[0] == "plan")[2]
    assert p["composite"] and len(p["subtasks"]) == 2
    assert [s["domain"] for s in p["subtasks"]] == ["layout", "data"]
    assert len(bodies(reqs, "Write the script")) == 2
    syn = bodies(reqs, "Merge these scripts")
    assert len(syn) == 1 and "Script for step 2" in user_text(syn[0])
    assert "synthesize" in io.stages()
    assert out.ok and out.script == merged


def test_single_domain_skips_synthesizer():
    steps = [plan(("data", "print 1")), QUERIES, {"match": "Write the script", "content": fence("print(1)")}, ACCEPT]
    out, io, reqs = run(steps)
    assert out.ok and not bodies(reqs, "Merge these scripts") and "synthesize" not in io.stages()


def test_configured_generator_databases_are_the_ones_searched():
    """`[generators.layout] databases = ["pya"]` replaces the layout generator's built-in manuals."""
    pya_q = dict(QUERIES, content=json.dumps({"queries": [{"db": "pya", "query": "Region sized"}]}))
    steps = [plan(("layout", "print 1")), pya_q, {"match": "Write the script", "content": fence("print(1)")}, ACCEPT]
    out, io, reqs = run(steps, databases={"layout": ("pya",)})
    assert out.ok, out.message
    q = bodies(reqs, "Write search queries")[0]
    assert "- pya" in q["messages"][0]["content"] and "- gdsfactory" not in q["messages"][0]["content"]
    assert json.dumps(q["response_format"]).count('"enum": ["pya"]') == 1
    steps[1] = QUERIES
    _, _, reqs = run(steps)   # the built-in choice for layout searches gdsfactory too
    assert "- gdsfactory" in bodies(reqs, "Write search queries")[0]["messages"][0]["content"]


def test_unbuilt_configured_database_is_a_clear_error():
    with pytest.raises(ValueError, match=r"\[generators.layout\] names database\(s\) lumerical .*build-db"):
        run([plan(("layout", "print 1"))], databases={"layout": ("pya", "lumerical")})
    with pytest.raises(ValueError, match=r"\[generators.layuot\]: no such domain"):
        run([plan(("layout", "print 1"))], databases={"layuot": ("pya",)})


def test_invalid_planner_json_is_repaired():
    steps = [{"match": "Plan this request", "once": True, "content": "Sure! The plan is: layout, then done."},
             {**plan(("data", "print 1")), "match": "not valid JSON"}, QUERIES,
             {"match": "Write the script", "content": fence("print(1)")}, ACCEPT]
    out, io, reqs = run(steps)
    assert out.ok
    repair = bodies(reqs, "not valid JSON")
    assert len(repair) == 1 and repair[0]["messages"][-2]["role"] == "assistant"


def test_invalid_planner_json_twice_is_reported_clearly(history):
    steps = [{"match": "Plan this request", "content": "no json here"},
             {"match": "not valid JSON", "content": "{still not json"}]
    with pytest.raises(LLMStructuredOutputError) as ei:
        run(steps)
    msg = str(ei.value)
    assert "planner" in msg and "invalid JSON" in msg and "repair" in msg
    rec = json.loads(next(history.glob("*.json")).read_text())
    assert rec["status"] == "error" and rec["error"]["kind"] == "structured-output"


def test_run_record_written_without_api_key(history):
    steps = [plan(("data", "print 1")), QUERIES, {"match": "Write the script", "content": fence("print('done')")},
             ACCEPT]
    out, io, reqs = run(steps)
    path = out.record_path
    text = open(path).read()
    assert SECRET not in text
    rec = json.loads(text)
    assert rec["status"] == "accepted" and rec["final_script"] == out.script
    assert rec["plan"]["subtasks"][0]["domain"] == "data"
    assert rec["queries"] and rec["rounds"][0]["decision"]["decision"] == "accept"
    assert "execution" in rec["rounds"][0] and "findings" in rec["rounds"][0]
    assert rec["usage"]["calls"] == 4 and set(rec["usage"]["per_agent"]) == {"planner", "query_generator", "programmer", "evaluator"}
    assert rec["settings"]["api_key_set"] is True
    assert "execute" in rec["stage_time_s"]


def test_feedback_continues_request_with_memory():
    first = "print('box 10 x 5')\n"
    second = "print('box 10 x 5')\nprint('area', 50)\n"
    steps = [plan(("data", "print the box")), QUERIES,
             {"match": "Write the script", "content": fence(first)},
             {"match": "Revise the script", "content": fence(second)}, ACCEPT]
    srv = ScriptedLLM(steps).start()
    try:
        settings = Settings(provider="openai", base_url=srv.base_url, api_key=SECRET, model="m", max_retries=0)
        client = LLMClient(settings)
        store = SessionStore()   # the engine's: one per process, passed to every run
        out1 = run_request(Request(id="fb1", prompt="print a box", mode="sandbox"), RecIO(), settings, client,
                           sessions=store)
        assert out1.ok and out1.script == first
        assert store.get("fb1").outcome is out1 and store.get("fb1").agents is not None
        n = len(srv.requests)
        io = RecIO()
        revision = store.revision("fb1", "also print the area")
        assert revision.feedback == ["also print the area"] and revision.previous_script == first
        out2 = run_request(revision, io, settings, client, sessions=store)
        later = srv.requests[n:]
    finally:
        srv.stop()
    assert out2.ok and out2.script == second
    assert not bodies(later, "Plan this request"), "the plan is reused"
    rev = bodies(later, "Revise the script")[0]
    assert "also print the area" in user_text(rev)
    # memory: the programmer sees its earlier exchange
    assert any(m["role"] == "assistant" and "box 10 x 5" in m["content"] for m in rev["messages"][:-1])


def test_session_store_keeps_the_most_recent_requests_and_builds_revisions():
    store = SessionStore(limit=2)
    for rid in ("a", "b", "c"):
        store.started(Request(id=rid, prompt=f"request {rid}", mode="sandbox"))
    assert "a" not in store and len(store) == 2, "the least recently used request is dropped"
    store.get("b")   # using b makes c the oldest
    store.started(Request(id="d", prompt="request d", mode="sandbox"))
    assert "b" in store and "c" not in store
    assert store.revision("a", "more") is None, "a forgotten request cannot be revised"
    # a run that failed (no outcome) is revised from the script it was revising
    store.started(Request(id="b", prompt="request b", mode="sandbox", previous_script="old()\n", feedback=["x"]))
    again = store.revision("b", "y")
    assert again.feedback == ["x", "y"] and again.previous_script == "old()\n" and not again.previous_applied
    store.finished("b", Outcome(ok=True, script="new()\n"))
    assert store.revision("b", "z").previous_script == "new()\n"
    store.forget("b")
    assert "b" not in store


def test_a_revision_without_a_store_starts_with_new_agents():
    """CLI and MCP callers pass no store: a revision request still runs, its agents made afresh."""
    first = "print('box')\n"
    second = "print('box')\nprint('area', 50)\n"
    steps = [plan(("data", "print the box")), QUERIES,
             {"match": "Revise the script", "content": fence(second)},
             {"match": "Write the script", "content": fence(first)}, ACCEPT]
    out, io, reqs = run(steps, prompt="print a box", id="nostore", feedback=["also print the area"],
                        previous_script=first)
    assert out.ok and out.script == second
    assert "also print the area" in user_text(bodies(reqs, "Revise the script")[0])
    assert bodies(reqs, "Plan this request"), "no plan was remembered, so it is made again"


def test_max_rounds_limits_the_loop(executed):
    steps = [plan(("data", "x")), QUERIES, {"match": "Write the script", "content": fence("raise RuntimeError('boom')")},
             {"match": "Revise the script", "content": fence("raise RuntimeError('boom again')")}]
    out, io, reqs = run(steps, max_rounds=2)
    assert not out.ok and out.rounds == 2 and len(executed) == 2
    assert "not accepted" in out.message


def test_an_llm_failure_after_a_script_exists_keeps_that_script(executed):
    """A revision call that fails (a 180 s timeout under load ended a01 with no script at all) ends
    the request with the best script so far and says why; a failure before any script still raises."""
    first = "raise RuntimeError('boom')"
    steps = [plan(("data", "x")), QUERIES, {"match": "Write the script", "content": fence(first)},
             {"match": "Revise the script", "status": 500}]
    out, io, reqs = run(steps, max_rounds=3)
    assert not out.ok and out.rounds == 1 and out.script.strip() == first and len(executed) == 1
    assert "stopped early" in out.message and "server" in out.message
    assert any("keeping the best script so far" in e[1] for e in io.events)
    with pytest.raises(LLMError):
        run([plan(("data", "x")), QUERIES, {"match": "Write the script", "status": 500}])


def test_cancel_stops_the_request():
    steps = [plan(("data", "x")), QUERIES, {"match": "Write the script", "content": fence("print(1)")}, ACCEPT]
    srv = ScriptedLLM(steps).start()
    try:
        settings = Settings(provider="openai", base_url=srv.base_url, model="m", max_retries=0)
        io = RecIO()
        io.cancel.set()
        with pytest.raises(LLMCancelled):
            run_request(Request(id="c", prompt="x", mode="sandbox"), io, settings, LLMClient(settings))
    finally:
        srv.stop()


def test_zero_shot_is_one_call():
    steps = [{"content": fence("print('zero')")}]
    out, io, reqs = run(steps, config="zero-shot")
    assert out.ok and len(reqs) == 1 and "retrieve" not in io.stages()
    assert not re.search(r"\$[a-z_]+", user_text(reqs[0])), "a prompt placeholder was left unfilled"


def test_a_programmer_stuck_on_one_script_starts_over_without_it(executed):
    """The 1.5B model answered the same broken script to a revision and to the retry at a higher
    temperature (m01); the third try is a fresh conversation told only what was wrong."""
    bad = "print(undefined_layer_name)\n"
    good = "print('fixed')\n"
    steps = [plan(("data", "print it")), QUERIES,
             {"match": "An earlier script for this task failed", "content": fence(good)},
             {"match": "Write the script", "content": fence(bad)},
             {"match": "Revise the script", "content": fence(bad)}, ACCEPT]
    out, io, reqs = run(steps, prompt="print it")
    # round 2 repeats round 1's script, so round 3 starts over (a configuration with several
    # candidates per round gets its hotter retries inside the round)
    assert out.ok and out.rounds == 3 and out.script == good, out.message
    fresh = bodies(reqs, "An earlier script for this task failed")
    assert len(fresh) == 1 and "undefined_layer_name" in user_text(fresh[0])
    assert not any(bad.strip() in m["content"] for m in fresh[0]["messages"] if m["role"] == "assistant")
    assert not re.search(r"\$[a-z_]+", user_text(fresh[0]))


class RecordingBridge:
    """KLayout's side of the bridge, run by nobody: every script 'succeeds' with the given stdout and
    changes. Records "run" and "undo" in ``log`` and the scripts in ``codes``; ``insert`` / ``undo``
    set to a message make that call fail the test with it."""

    def __init__(self, stdout: str = "", changes: dict | None = None,
                 insert: str | None = "not expected", undo: str | None = None):
        self.stdout, self.insert, self.undo_refusal = stdout, insert, undo
        self.changes = changes or {"shapes_delta": {"1/0": 1}, "changed": True}
        self.log: list[str] = []
        self.codes: list[str] = []

    def run_code(self, code):
        self.log.append("run")
        self.codes.append(code)
        return {"ok": True, "stdout": self.stdout, "stderr": "", "exception": None, "changes": dict(self.changes)}

    def insert_files(self, paths):
        raise AssertionError(self.insert)

    def undo(self):
        if self.undo_refusal:
            raise AssertionError(self.undo_refusal)
        self.log.append("undo")
        return {"ok": True, "message": "undone"}


def test_interactive_pya_script_runs_through_bridge():
    bridge = RecordingBridge(stdout="added", undo="an accepted run must not be undone")
    code = "li = layout.layer(1, 0)\ncell.shapes(li).insert(pya.DBox(0, 0, 10, 5))\nprint('added')\n"
    steps = [plan(("layout", "add a box")), QUERIES, {"match": "Write the script", "content": fence(code)}, ACCEPT]
    out, io, reqs = run(steps, mode="interactive", bridge=bridge)
    assert out.ok and bridge.codes == [code]
    check = next(e for e in io.events if e[0] == "check")[2]
    assert not [f for f in check["findings"] if f["severity"] == "error"], check


REVISE = {"match": "Evaluate this result", "once": True,
          "content": json.dumps({"thoughts": "too small", "decision": "revise", "target": "programmer",
                                 "instructions": "Make the box 20 um wide instead of 10 um."})}


def test_rejected_attempt_is_undone_before_the_next_one_on_the_open_layout():
    bridge = RecordingBridge()
    first = "cell.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 10, 5))\n"
    second = "cell.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 20, 5))\n"
    steps = [plan(("layout", "add a box")), QUERIES, REVISE, ACCEPT,
             {"match": "Write the script", "content": fence(first)},
             {"match": "Make the box 20 um", "content": fence(second)}]
    out, io, _ = run(steps, mode="interactive", bridge=bridge)
    assert out.ok and out.rounds == 2
    assert bridge.log == ["run", "undo", "run"]   # one box in the layout, not two


def test_request_that_is_not_accepted_leaves_the_open_layout_unchanged():
    bridge = RecordingBridge()
    code = "cell.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 10, 5))\n"
    revise_always = {"match": "Evaluate this result",
                     "content": json.dumps({"thoughts": "no", "decision": "revise", "target": "programmer",
                                            "instructions": "Make the box 20 um wide instead of 10 um."})}
    steps = [plan(("layout", "add a box")), QUERIES, revise_always, {"match": "Write the script", "content": fence(code)},
             {"match": "Make the box 20 um", "content": fence(code.replace("10", "11"))}]
    out, io, _ = run(steps, mode="interactive", bridge=bridge, max_rounds=2)
    assert not out.ok
    assert bridge.log == ["run", "undo", "run", "undo"]


def test_interactive_kind_of_every_benchmark_edit_and_of_new_components():
    import tomllib
    from pathlib import Path

    from pic_copilot.agents.generators import interactive_kind

    root = Path(__file__).resolve().parents[1] / "benchmark" / "tasks"
    edits = [tomllib.loads(p.read_text()) for p in sorted(root.glob("*/task.toml"))]
    edits = [t["prompt"] for t in edits if t["mode"] == "interactive" and "drc_deck" not in t["domains"]]
    assert len(edits) >= 12 and [p for p in edits if interactive_kind(p) != "edit"] == []
    for p in ("Make a 1x2 MMI and place it in the open layout",
              "Add a ring resonator from the generic PDK to the current cell",
              "create a directional coupler with gap 0.3 um"):
        assert interactive_kind(p) == "new", p
    assert interactive_kind("Add a 10 um x 5 um rectangle on layer 1/0") == "edit"


def test_interactive_edit_request_gets_pya_examples_and_the_kind_line():
    """A small model copies the example nearest its answer: an edit of the open layout is shown
    only pya edit examples, and told which kind to write; a copied example is sent back unrun."""
    from pic_copilot import prompts
    from pic_copilot.llm.agent import extract_code

    copied = extract_code(prompts.fewshot("programmer_interactive_new")[1]["content"])
    good = "shapes = cell.shapes(layout.layer(5, 0))\nn = shapes.size()\nshapes.clear()\nprint('deleted', n)\n"
    bridge = RecordingBridge(stdout="deleted", changes={"shapes_delta": {"5/0": -2}, "changed": True},
                             insert="a copied gdsfactory example must not reach the layout")
    steps = [plan(("layout", "Delete every shape on layer 5/0 in the current cell itself.")), QUERIES,
             {"match": "Write the script", "content": fence(copied)},
             {"match": "Revise the script", "content": fence(good)}, ACCEPT]
    out, io, reqs = run(steps, prompt="Delete every shape on layer 5/0 in the current cell itself.",
                        mode="interactive", bridge=bridge)
    assert out.ok, out.message
    assert bridge.codes == [good]
    first = bodies(reqs, "Write the script")[0]
    shown = " ".join(m["content"] for m in first["messages"][1:-1])
    assert "cell.shapes(" in shown and "gdsfactory" not in shown
    assert "write a pya-only script" in first["messages"][0]["content"]
    assert "worked example for a different task" in user_text(bodies(reqs, "Revise the script")[0])
    # a pya edit does not search the gdsfactory manual
    q = bodies(reqs, "Write search queries")[0]
    assert '"enum": ["pya", "klayout_db"]' in json.dumps(q["response_format"])


def test_a_forgotten_import_is_added_without_a_revision_round(executed):
    code = "data = {'ports': 3}\nwith open('n.json', 'w') as f:\n    json.dump(data, f)\nprint('wrote n.json')\n"
    steps = [plan(("data", "write n.json")), QUERIES, {"match": "Write the script", "content": fence(code)}, ACCEPT]
    out, io, reqs = run(steps, prompt="write the number 3 as ports to n.json")
    assert out.ok and out.rounds == 1, out.message
    assert out.script == "import json\n" + code and executed == ["import json\n" + code]
    assert not bodies(reqs, "Revise the script")
    assert any(e[0] == "check" and "added import json" in e[1] for e in io.events)
    assert io.scripts[-1] == ("import json\n" + code, 1)   # the panel shows the script that ran


def test_the_designers_words_reach_the_programmer_and_overrule_a_planner_that_adds_gdsfactory():
    """b08 with the 1.5B planner: "a 100 x 100 um square on 10/0 in a new cell PAD, placed in the
    current cell" became "Create a new cell named PAD with gdsfactory's generic PDK"."""
    request = ("Create a new cell named PAD holding a 100 x 100 um square on layer 10/0 centred on the cell's "
               "origin, and place one instance of PAD in the current cell at (200, 0) um.")
    rewritten = "Create a new cell named PAD with gdsfactory's generic PDK, default parameters, and write it to pad.gds."
    code = ("pad = layout.create_cell('PAD')\npad.shapes(layout.layer(10, 0)).insert(pya.DBox(-50, -50, 50, 50))\n"
            "cell.insert(pya.DCellInstArray(pad.cell_index(), pya.DTrans(pya.DVector(200, 0))))\nprint('placed PAD')\n")

    steps = [plan(("layout", rewritten)), QUERIES, {"match": "Write the script", "content": fence(code)}, ACCEPT]
    bridge = RecordingBridge(stdout="placed PAD", changes={"cells_added": ["PAD"], "changed": True})
    out, io, reqs = run(steps, prompt=request, mode="interactive", bridge=bridge)
    assert out.ok, out.message
    body = bodies(reqs, "Write the script")[0]
    assert f"The designer's words: {request}" in user_text(body)
    assert "write a pya-only script" in body["messages"][0]["content"]
    assert "gdsfactory" not in " ".join(m["content"] for m in body["messages"][1:-1])


def test_a_request_word_check_sends_a_script_back_once_then_the_judge_decides(executed):
    """"a 0.2 um gap" may be a consequence the script never writes: one revision, then the LLM judge."""
    code = "print('ring with the default gap')\n"
    steps = [plan(("data", "print the ring")), QUERIES, {"match": "Write the script", "content": fence(code)},
             {"match": "Revise the script", "content": fence(code.replace("default", "same"))}, ACCEPT]
    out, io, reqs = run(steps, prompt="print a ring whose bus leaves a 0.2 um gap")
    assert out.ok and out.rounds == 2, out.message
    assert "0.2 um" in user_text(bodies(reqs, "Revise the script")[0])
    assert len(bodies(reqs, "Evaluate this result")) == 1


def test_a_script_cut_off_at_the_length_limit_goes_back_without_running(executed):
    """A small model that repeats a line fills max_tokens; say so instead of reporting its syntax error
    (here inside one statement, so no complete part is left to run)."""
    cut = "ports = {\n" + "    'o1': 1,\n" * 20 + "    'o"
    good = "ports = {f'o{i}': i for i in range(1, 21)}\nprint(len(ports))\n"
    steps = [plan(("data", "count ports")), QUERIES,
             {"match": "Write the script", "content": fence(cut), "finish_reason": "length"},
             {"match": "Revise the script", "content": fence(good)}, ACCEPT]
    out, io, reqs = run(steps, prompt="make a table of 20 ports and print how many")
    assert out.ok and out.rounds == 2, out.message
    text = user_text(bodies(reqs, "Revise the script")[0])
    assert "cut off at the answer length limit" in text and "SyntaxError" not in text
    assert executed == [good]


def test_a_long_script_cut_off_in_its_last_statement_runs_without_it(executed):
    """Advanced scripts of 50-90 lines fill the 1024-token limit in their last print: the complete
    part runs and is judged like any candidate; a closed block with prose cut after it is whole."""
    good = "ports = {f'o{i}': i for i in range(1, 21)}\nwith open('n.txt', 'w') as f:\n    f.write(str(len(ports)))\n"
    steps = [plan(("data", "count ports")), QUERIES,
             {"match": "Write the script", "content": "Here it is.\n```python\n" + good + "print(f'wrote {len(por",
              "finish_reason": "length"},
             ACCEPT]
    out, io, reqs = run(steps, prompt="make a table of 20 ports and write how many to n.txt")
    assert out.ok and out.rounds == 1, out.message
    assert executed == [good]
    assert not bodies(reqs, "Revise the script")
    # the complete part that then fails (n.txt was in the cut statement) is revised, told both
    first = "ports = {f'o{i}': i for i in range(1, 21)}\nn = len(ports)\nm = 2 * n\nk = m + 1\nprint(n, m, k)\n"
    steps = [plan(("data", "count ports")), QUERIES,
             {"match": "Write the script", "content": "```python\n" + first + "with open('n.txt', 'w') as f:\n    f.wr",
              "finish_reason": "length"},
             {"match": "Revise the script", "content": fence(good)}, ACCEPT]
    out, io, reqs = run(steps, prompt="make a table of 20 ports and write how many to n.txt")
    assert out.ok and out.rounds == 2, out.message
    text = user_text(bodies(reqs, "Revise the script")[0])
    assert "n.txt" in text and "cut off at the answer length limit" in text

    from pic_copilot.agents.evaluator import complete_part

    closed = fence(good) + "\nThis script makes twenty ports and wri"
    assert complete_part(closed) == (good, "the answer's code block was complete (the length limit cut the text after it)")
    # a cut in a loop drops the whole loop; a cut that leaves little of the script leaves nothing
    longer = good + "n = len(ports)\nm = 2 * n\n"
    kept, what = complete_part("```python\n" + longer + "for p in ports:\n    print(ports[")
    assert kept == longer and "'for p in ports:'" in what
    assert complete_part("```python\nimport json\nfor p in range(3):\n    print(p)\n    x = 1\n    y = 2\n    print(x") is None


def test_open_layout_reaches_the_prompts_in_words_that_name_the_real_objects():
    """The open layout's summary is a sentence, not an object a small model can paste into its
    script (``layout = {"file": "unsaved", ...}`` was computed from instead of the layout)."""
    from pic_copilot.agents.planner import context_text

    summary = {"file": "unsaved", "dbu": 0.001, "active_cell": "TOP", "top_cells": ["TOP", "OTHER"],
               "layers": [{"layer": 1, "datatype": 0, "name": "", "shapes": 4},
                          {"layer": 2, "datatype": 0, "name": "metal", "shapes": 1}],
               "bbox_um": [0.0, 0.0, 124.0, 100.5]}
    text = context_text(summary)
    assert "{" not in text and "[" not in text
    for fact in ("global `layout`", "database unit 0.001 um", "active cell TOP (the global `cell`)", "other top cells OTHER",
                 "1/0 (4 shapes)", '2/0 "metal" (1 shape)', "(0, 0) to (124, 100.5) um"):
        assert fact in text, fact
    many = dict(summary, layers=[{"layer": i, "datatype": 0, "name": "", "shapes": 1} for i in range(25)])
    assert "and 5 more" in context_text(many) and "24/0" not in context_text(many)
    assert "no layers yet" in context_text({"file": "unsaved", "dbu": 0.001, "layers": []})
    assert context_text(None) == ""
    sel = context_text(dict(summary, selection=[{"kind": "box", "layer": 1, "datatype": 0, "bbox": [0, 0, 1, 1]}]))
    assert "Selected (also in the script's `selection` list)" in sel
