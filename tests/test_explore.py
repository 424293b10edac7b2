"""Offline API self-exploration (pic_copilot.explore): real probes in the sandbox, timeouts, resumability,
use of the observations (get_api_details, API check, pipeline ablation) and the LLM-guided loop against
the scripted OpenAI-compatible server."""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from pic_copilot.explore import engine
from pic_copilot.retrieval import observations as store
from pic_copilot.explore.gf_probes import SandboxBackend

ROOT = Path(__file__).resolve().parents[1]
GF_DB = ROOT / "databases" / "gdsfactory"
FACTORIES = ["gdsfactory.components.mmi1x2", "gdsfactory.components.straight"]

pytestmark = pytest.mark.skipif(not (GF_DB / "manifest.json").exists(), reason="the gdsfactory database is not built")


def _db_copy(dst: Path) -> Path:
    """A databases folder whose gdsfactory database links to the real files (observations are written beside them)."""
    d = dst / "gdsfactory"
    d.mkdir(parents=True)
    for f in GF_DB.iterdir():
        if f.is_file() and f.name != store.FILE:
            (d / f.name).symlink_to(f)
    return dst


@pytest.fixture(scope="module")
def explored(tmp_path_factory):
    """mmi1x2 and straight probed for real (defaults + 5 variants each) into a private databases folder."""
    root = _db_copy(tmp_path_factory.mktemp("dbs"))
    state = tmp_path_factory.mktemp("state")
    t0 = time.monotonic()
    rep = engine.explore_database("gdsfactory", root=root, state=state, only=FACTORIES, max_variants=5, quiet=True)
    rep["seconds"] = time.monotonic() - t0
    return root, rep


@pytest.fixture
def use_root(monkeypatch):
    """Point retrieval at a databases folder for one test (caches reset before and after)."""
    from pic_copilot.agents import retrieve as agents_retrieve
    from pic_copilot.retrieval import reset_cache

    def use(root: Path):
        monkeypatch.setenv("PIC_COPILOT_DATABASES", str(root))
        reset_cache()
        agents_retrieve.available_databases.cache_clear()

    yield use
    monkeypatch.delenv("PIC_COPILOT_DATABASES", raising=False)
    reset_cache()
    agents_retrieve.available_databases.cache_clear()


def test_real_factories_record_ports_bbox_layers_and_rejections(explored):
    root, rep = explored
    assert not rep["skipped"] and rep["stats"]["targets_probed"] == 2
    data = json.loads((root / "gdsfactory" / store.FILE).read_text())
    assert data["tool"] == "gdsfactory" and data["tool_version"] == rep["tool_version"] and data["explored_at"]
    assert data["environment"].get("kfactory") and data["complete"] is False  # only 2 of ~390 APIs
    mmi = data["entries"]["gdsfactory.components.mmi1x2"]
    ret = mmi["default"]["returns"]
    assert mmi["default"]["ok"] and ret["type"] == "Component" and ret["cell"].startswith("mmi1x2")
    ports = {p["name"]: p for p in ret["ports"]}
    assert list(ports) == ["o1", "o2", "o3"] and mmi["port_names"] == ["o1", "o2", "o3"]
    assert ports["o1"]["orientation"] == 180 and ports["o2"]["orientation"] == 0
    assert ports["o1"]["width"] == 0.5 and ports["o1"]["layer"] == "WG" and ports["o1"]["ld"] == [1, 0]
    (x0, y0), (x1, y1) = ret["bbox"]
    assert x0 < 0 < x1 and y0 < 0 < y1
    assert ["WG", [1, 0]] in ret["layers"]
    # counterfactuals: an unknown cross-section name is rejected with the message
    rej = {r["args"]: r["error"] for r in mmi["rejected"]}
    assert any("not_a_cross_section" in a and "ValueError" in e for a, e in rej.items())
    st = data["entries"]["gdsfactory.components.straight"]
    rej = {r["args"]: r["error"] for r in st["rejected"]}
    assert "length=-10" in rej and "needs to be > 0" in rej["length=-10"]
    assert any(a["args"] == "length=0" and a.get("empty") for a in st["accepted"])
    text = store.render(st, data)
    assert "o1 (180 deg, width 0.5, WG 1/0, optical)" in text and "length=-10" in text


def test_hanging_probes_are_recorded_and_the_run_continues(tmp_path):
    specs = [
        {"id": "soft|sleep", "target": "time.sleep", "args": [60], "label": "sleep"},          # SIGALRM guard
        {"id": "ok|straight", "target": "gdsfactory.components.straight", "kwargs": {"length": 3}, "label": "default"},
        {"id": "hard|sum", "target": "builtins.sum", "label": "hang in C",                     # ignores signals
         "args": [{"$call": "itertools.repeat", "args": [1, 10 ** 12]}]},
        {"id": "after|straight", "target": "gdsfactory.components.straight", "kwargs": {"length": 4}, "label": "default"},
    ]
    log = engine.ProgressLog(tmp_path / "p.jsonl")
    t0 = time.monotonic()
    st = engine.run_batches(specs, SandboxBackend(), log, batch_size=10, guard_s=1.0, batch_timeout_s=8.0)
    assert time.monotonic() - t0 < 60
    recs = log.load()
    assert set(recs) == {s["id"] for s in specs}
    assert recs["soft|sleep"]["timeout"] and not recs["soft|sleep"].get("hard")
    assert recs["hard|sum"]["timeout"] and recs["hard|sum"]["hard"] and st["hard_timeouts"] == 1
    assert recs["ok|straight"]["ok"] and recs["after|straight"]["ok"]
    assert recs["after|straight"]["returns"]["bbox"] == [[0, -0.25], [4, 0.25]]


class _Counting:
    """Wraps a backend: counts the probes it is asked to run; can raise KeyboardInterrupt on call n."""

    def __init__(self, inner, interrupt_on: int | None = None):
        self.inner, self.interrupt_on, self.calls, self.ran = inner, interrupt_on, 0, []
        self.name = inner.name

    def discover(self):
        return self.inner.discover()

    def run(self, specs, timeout_s, guard_s):
        self.calls += 1
        if self.interrupt_on == self.calls:
            raise KeyboardInterrupt
        self.ran += [s["id"] for s in specs]
        return self.inner.run(specs, timeout_s, guard_s)


def test_interrupted_exploration_resumes_without_repeating_probes(tmp_path):
    root = _db_copy(tmp_path / "dbs")
    kw = dict(root=root, state=tmp_path / "state", only=["gdsfactory.components.straight"], max_variants=4,
              batch_size=2, quiet=True)
    first = _Counting(SandboxBackend(), interrupt_on=2)
    with pytest.raises(KeyboardInterrupt):
        engine.explore_database("gdsfactory", backend=first, **kw)
    assert len(first.ran) == 2
    saved = json.loads((root / "gdsfactory" / store.FILE).read_text())  # partial results are kept
    assert saved["stats"]["probes_done"] == 2
    second = _Counting(SandboxBackend())
    rep = engine.explore_database("gdsfactory", backend=second, **kw)
    assert not set(second.ran) & set(first.ran), "done probes must not run again"
    assert len(first.ran) + len(second.ran) == 5  # default + 4 variants
    assert rep["stats"]["with_observations"] == 1
    third = _Counting(SandboxBackend())
    engine.explore_database("gdsfactory", backend=third, **kw)
    assert third.ran == []


def test_version_already_explored_is_skipped(tmp_path):
    root = _db_copy(tmp_path / "dbs")
    version = engine.installed_version("gdsfactory")
    store.save("gdsfactory", {"format": store.FORMAT, "tool": "gdsfactory", "tool_version": version, "complete": True,
                              "explored_at": "2026-11-30", "stats": {"probes_done": 1}, "entries": {}}, root)
    backend = _Counting(SandboxBackend())
    rep = engine.explore_database("gdsfactory", root=root, state=tmp_path / "s", backend=backend, quiet=True)
    assert rep["skipped"] and "already explored" in rep["message"] and backend.calls == 0


def test_get_api_details_has_the_observed_section(explored, use_root):
    from pic_copilot.retrieval import get_api_details

    root, _ = explored
    use_root(root)
    d = get_api_details("gf.components.mmi1x2")
    obs = d["observed"]
    assert obs["tool"] == "gdsfactory" and obs["tool_version"] and obs["explored_at"]
    assert obs["port_names"] == ["o1", "o2", "o3"]
    assert "Observed behaviour (gdsfactory" in obs["text"] and "o3 (0 deg" in obs["text"]
    assert "observed" not in get_api_details("gf.components.mmi1x2", observed=False)
    from pic_copilot.retrieval.summarise import extractive_summary  # rebuilt summaries carry the observations

    assert "Observed: ports o1, o2, o3; returns Component" in extractive_summary(d)
    assert "observed" not in get_api_details("gf.components.mmi2x2")  # not probed in this folder


def test_api_check_flags_wrong_port_names_from_observations(explored, use_root):
    from pic_copilot.checks import static as checks
    from pic_copilot.retrieval import symbol_index

    root, _ = explored
    use_root(root)
    ports = store.port_table(root)
    assert ports["gdsfactory.components.mmi1x2"]["ports"] == ["o1", "o2", "o3"]
    code = ("import gdsfactory as gf\nc = gf.Component()\nmmi = gf.components.mmi1x2()\nref = c << mmi\n"
            "s = c << gf.components.straight(length=5)\ns.connect('o1', ref.ports['out1'])\n"
            "c.add_port('o1', port=ref.ports['o1'])\nq = gf.components.straight().ports['in0']\n")
    found, _ = checks.static_findings(code, "sandbox", symbol_index(), [], observations=ports)
    msgs = [f["message"] for f in found if f.get("source") == "observed"]
    assert any("`mmi1x2` has ports o1, o2, o3" in m and "'out1'" in m for m in msgs), msgs
    assert any("`straight` has ports o1, o2" in m and "'in0'" in m for m in msgs), msgs
    assert not any("'o1'" in m for m in msgs)
    assert all(f["severity"] == "error" for f in found if f.get("source") == "observed")
    found, _ = checks.static_findings(code, "sandbox", symbol_index(), [])  # no observations: no port findings
    assert not [f for f in found if f.get("source") == "observed"]


def test_pipeline_uses_observations_except_in_no_exploration(explored, use_root, monkeypatch):
    from pic_copilot.agents import pipeline, run_request
    from pic_copilot.config import Settings
    from pic_copilot.llm import LLMClient
    from pic_copilot.contracts import Request
    from pic_copilot.testing.scripted_llm import ScriptedLLM

    root, _ = explored
    use_root(root)
    monkeypatch.setenv("PIC_COPILOT_HISTORY", str(root / "history"))
    from pic_copilot.contracts import config

    assert "no-exploration" in pipeline.CONFIGS and not config("no-exploration").observations
    bad = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.Component()\nref = c << gf.components.mmi1x2()\n"
           "c.add_port('in', port=ref.ports['in1'])\nprint('ports', len(c.ports))\n")
    good = "print('fixed')\n"

    def run(config):
        steps = [{"match": "Plan this request", "content": json.dumps({"thoughts": "t", "subtasks": [
                     {"domain": "layout", "task": "place an mmi1x2 and export its input port", "outputs": []}]})},
                 {"match": "Write search queries", "content": json.dumps({"queries": [{"db": "gdsfactory", "query": "mmi1x2"}]})},
                 {"match": "Write the script", "content": f"```python\n{bad}```"},
                 {"match": "Revise the script", "content": f"```python\n{good}```"},
                 {"match": "Evaluate this result", "content": json.dumps({"thoughts": "", "decision": "accept",
                                                                          "target": "programmer", "instructions": ""})}]
        executed: list[str] = []
        real = pipeline.execute
        monkeypatch.setattr(pipeline, "execute", lambda code, *a, **k: (executed.append(code), real(code, *a, **k))[1])
        events = []

        class IO:
            cancel = threading.Event()
            bridge = None

            def progress(self, stage, message, data=None):
                events.append((stage, data))

            def token(self, *a):
                pass

            def script(self, *a):
                pass

        with ScriptedLLM(steps) as srv:
            settings = Settings(provider="openai", base_url=srv.base_url, model="m", max_retries=0, timeout_s=30)
            client = LLMClient(settings)
            run_request(Request(id=f"r-{config}", prompt="place an mmi1x2 and export its input port", mode="sandbox", config=config, max_rounds=2),
                        IO(), settings, client)
            prompts = [b["messages"][-1]["content"] for b in srv.requests]
        findings = [f for st, d in events if st == "check" for f in (d or {}).get("findings", [])]
        return executed, findings, prompts

    executed, findings, prompts = run("full")
    assert bad not in executed, "the wrong port name must be caught before running"
    assert any("'in1'" in f["message"] and "o1, o2, o3" in f["message"] for f in findings)
    assert any("Observed behaviour" in p for p in prompts if "Write the script" in p)
    executed, findings, prompts = run("no-exploration")
    assert executed and executed[0] == bad
    assert not any(f.get("source") == "observed" for f in findings)
    assert not any("Observed behaviour" in p for p in prompts)


def test_llm_guided_loop_stops_within_its_budget(explored, tmp_path):
    from pic_copilot.config import Settings
    from pic_copilot.explore.guided import explore_llm
    from pic_copilot.llm import LLMClient
    from pic_copilot.testing.scripted_llm import ScriptedLLM

    src, _ = explored
    root = _db_copy(tmp_path / "dbs")
    (root / "gdsfactory" / store.FILE).write_text((src / "gdsfactory" / store.FILE).read_text())
    never_done = {"content": json.dumps({"belief": "straight may accept length 0", "hypothesis": "does length=0 give ports?",
                                         "script": "c = gf.components.straight(length=0)\nprint('nports', len(c.ports))",
                                         "stop": False})}
    with ScriptedLLM([never_done]) as srv:
        client = LLMClient(Settings(provider="openai", base_url=srv.base_url, model="scripted", max_retries=0, timeout_s=30))
        rep = explore_llm(client, root=root, budget_calls=3, budget_s=120, max_steps=5, quiet=True)
        assert rep["calls"] == 3 and len(srv.requests) == 3 and rep["stopped"] == "call budget"
        assert rep["experiments"] == 3 and rep["entries"] == 1
        # the second call saw the first experiment's real result
        assert "nports 2" in srv.requests[1]["messages"][-1]["content"]
        system = srv.requests[0]["messages"][0]["content"]  # prompts/explorer.md with the version filled in
        assert system.startswith("You find out what an installed Python API really does") and "$" not in system
        assert f"gdsfactory {json.loads((root / 'gdsfactory' / store.FILE).read_text())['tool_version']} already" in system
    data = json.loads((root / "gdsfactory" / store.FILE).read_text())
    llm = data["entries"][rep["explored"][0]]["llm"]
    exps = [f for f in llm if not f.get("final")]
    assert exps[0]["result"]["ok"] and "nports 2" in exps[0]["result"]["stdout"]
    assert exps[0]["belief"] == "straight may accept length 0" and llm[-1]["final"]
    # a spent time budget: no calls at all; confident at once: one call for the entry not explored yet
    done = {"content": json.dumps({"belief": "documented well enough", "hypothesis": "", "script": "", "stop": True})}
    with ScriptedLLM([done]) as srv:
        client = LLMClient(Settings(provider="openai", base_url=srv.base_url, model="scripted", max_retries=0, timeout_s=30))
        rep = explore_llm(client, root=root, budget_calls=10, budget_s=0, quiet=True)
        assert rep["calls"] == 0 and rep["stopped"] == "time budget" and not srv.requests
        rep = explore_llm(client, root=root, budget_calls=10, budget_s=120, quiet=True)
        assert rep["calls"] == rep["entries"] == 1 and rep["experiments"] == 0 and len(srv.requests) == 1
    # a slow answer is cut off by the time budget (cancelled at the first streamed chunk)
    (root / "gdsfactory" / store.FILE).write_text((src / "gdsfactory" / store.FILE).read_text())
    with ScriptedLLM([{**never_done, "delay": 3}]) as srv:
        client = LLMClient(Settings(provider="openai", base_url=srv.base_url, model="scripted", max_retries=0, timeout_s=30))
        t0 = time.monotonic()
        rep = explore_llm(client, root=root, budget_calls=10, budget_s=1.0, quiet=True)
        assert rep["calls"] == 1 and rep["experiments"] == 0 and rep["stopped"] == "time budget"
        assert time.monotonic() - t0 < 10
