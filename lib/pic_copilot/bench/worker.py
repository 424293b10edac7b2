"""Engine-side benchmark worker: ``python -m pic_copilot.bench.worker`` speaking JSON lines.

benchmark/bench.py runs inside KLayout, where gdsfactory must never be imported. Everything that
needs the engine's Python runs here, in a child process of the KLayout driver:

- ``sandbox_trial``: setup.py, the candidate, check.py in one work directory, all in the sandbox (a
  DRC-deck task's candidate is a deck: written as deck.lydrc and run by KLayout's DRC engine on in.gds);
- ``execute``: an interactive candidate through :func:`pic_copilot.execution.routing.execute`, exactly as
  the GUI does it (pya-only scripts come back to KLayout, gdsfactory scripts run in the sandbox and
  their GDS files are inserted by KLayout);
- ``generate``: the agent pipeline (:func:`pic_copilot.agents.run_request`) for one trial;
- ``plot``: the pass-rate PNG (matplotlib).

Protocol (one JSON object per line). Driver → worker: ``{"op", "id", ...}``. Worker → driver:
``{"type": "reply", "id", "result"}``, ``{"type": "error", "id", "message", "traceback"}``, and while
an op runs, zero or more ``exec`` messages that the driver answers with ``exec_result`` (the bridge
result of running it on its open layout): the engine's message shape, sent by the same
:class:`pic_copilot.bridges.jsonlines.JsonLinesBridge` (``id`` is the op's). The worker writes
nothing else to stdout (library output is redirected to stderr).
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import time
import traceback
from dataclasses import replace
from pathlib import Path

from pic_copilot.bridges.jsonlines import JsonLinesBridge
from pic_copilot.execution.report import ExecutionReport, clip, trial_record

_proto_out = None


def _send(msg: dict) -> None:
    _proto_out.write(json.dumps(msg) + "\n")
    _proto_out.flush()


def _driver_bridge(op_id, stdin):
    """The Bridge of an interactive op: exec messages answered by the KLayout driver on its open layout.

    The op runs on the main thread, which is also the pipe's reader, so each call reads stdin itself
    until its exec_result; the driver bounds the time (it kills a worker that stays silent too long).
    """
    def receive():
        line = stdin.readline()
        return json.loads(line) if line else None

    return JsonLinesBridge(_send, op_id, receive=receive)


# ---------------------------------------------------------------------------------------- ops
def op_hello(msg, stdin):
    import pic_copilot
    return {"pid": os.getpid(), "python": sys.version.split()[0], "pic_copilot": pic_copilot.__version__}


def _sandbox():
    from pic_copilot.sandbox import default_sandbox
    return default_sandbox()


def _write_host_file(path: Path, text: str) -> None:
    """Write a file into a folder a sandboxed script also wrote: whatever the script left under
    that name (a directory, a link) is replaced, never followed."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def op_sandbox_trial(msg, stdin):
    """setup.py (optional), candidate, check.py in one work directory (sandbox mode tasks)."""
    task_dir = Path(msg["task_path"])
    work = Path(msg["workdir"])
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    sb = _sandbox()
    out: dict = {"setup": None, "candidate": None, "check": None, "passed": False, "harness_error": None}
    setup = task_dir / "setup.py"
    if setup.is_file():
        r = sb.run(setup.read_text(), workdir=str(work), timeout_s=float(msg.get("setup_timeout_s", 120)))
        out["setup"] = trial_record(ExecutionReport.from_dict(r.to_dict()))
        if not r.ok:
            out["harness_error"] = "setup.py failed: " + ((r.exception or {}).get("message") or r.stderr[-500:])
            return out
        (work / "script.py").unlink(missing_ok=True)
    inputs = [str(f.relative_to(work)) for f in work.rglob("*") if f.is_file()]
    t0 = time.monotonic()
    deck = bool(msg.get("deck"))
    if deck:   # a DRC-deck task: the candidate is a deck, written as deck.lydrc and run by KLayout's DRC engine
        from pic_copilot.execution.drc_deck import run_deck_in_sandbox

        layouts = sorted(p.name for p in work.iterdir() if p.suffix.lower() in (".gds", ".oas"))
        rep = run_deck_in_sandbox(msg["script"], workdir=str(work), timeout_s=float(msg["timeout_s"]),
                                  input_file="in.gds" if "in.gds" in layouts else (layouts[0] if layouts else None),
                                  sandbox=sb)
    else:
        rep = ExecutionReport.from_dict(sb.run(msg["script"], workdir=str(work), timeout_s=float(msg["timeout_s"])).to_dict())
    cand = trial_record(rep)
    cand["wall_s"] = round(time.monotonic() - t0, 3)
    # the candidate's own run (a deck task's contract was read from setup.py's run before)
    cand["contract_problems"] = _contract_problems(msg.get("prompt"), msg["script"], rep, inputs)
    out["candidate"] = cand
    (work / "script.py").unlink(missing_ok=True)
    _write_host_file(work / "_outcome.json", json.dumps({k: cand.get(k) for k in ("ok", "stdout", "stderr", "exception")}))
    # a deck task's check runs the deck with the KLayout binary: KLayout needs the worker's pid namespace
    chk = sb.run((task_dir / "check.py").read_text(), workdir=str(work), timeout_s=float(msg.get("check_timeout_s", 120)),
                 pid_namespace=not deck)
    out["check"] = {"passed": bool(chk.ok), "exception": chk.exception, "stdout": clip(chk.stdout, 1500),
                    "stderr": clip(chk.stderr, 1500), "timed_out": chk.timed_out}
    (work / "script.py").unlink(missing_ok=True)
    out["passed"] = bool(cand.get("ok")) and bool(chk.ok)
    return out


def _contract_problems(prompt: str | None, script: str, rep: ExecutionReport, inputs=(),
                       mode: str = "sandbox") -> list[str] | None:
    """What the pipeline's output-contract check (read from the request's words) says of a run, so
    an oracle run measures how often it would wrongly reject a reference solution."""
    if not prompt or not rep.ok:
        return None
    from pic_copilot.agents.contract_words import from_request, script_problems

    contract = from_request(prompt, tuple(inputs), mode)
    return contract.check(rep) + script_problems(script, prompt, contract)


def op_execute(msg, stdin):
    """Run an interactive candidate the way the GUI does (execution.routing.execute with the driver as bridge)."""
    from pic_copilot.execution.routing import execute

    bridge = _driver_bridge(msg["id"], stdin)
    try:
        rep = execute(msg["code"], msg.get("mode", "interactive"), bridge, timeout_s=float(msg.get("timeout_s", 120)))
    except Exception as e:  # noqa: BLE001 - reported as the candidate's failure
        rep = ExecutionReport(ok=False, exception={"type": type(e).__name__, "message": str(e),
                                                   "traceback": traceback.format_exc()})
    out = trial_record(rep)
    out["contract_problems"] = _contract_problems(msg.get("prompt"), msg["code"], rep, mode=msg.get("mode", "interactive"))
    return out


_patch_lock = threading.Lock()


def op_generate(msg, stdin):
    """One trial of the agent pipeline; returns the script, usage and timings (never raises for LLM errors)."""
    from pic_copilot.agents import run_request
    from pic_copilot.config import AgentModel, load_settings
    from pic_copilot.llm import LLMError, make_client
    from pic_copilot.contracts import NullIO, Request

    task = msg["task"]
    opts = msg.get("settings") or {}
    settings = load_settings()
    if opts.get("model"):
        settings = replace(settings, model=opts["model"])
    if opts.get("temperature") is not None:
        settings = replace(settings, temperature=float(opts["temperature"]))
    if opts.get("max_rounds") is not None:
        settings = replace(settings, max_rounds=int(opts["max_rounds"]))
    if opts.get("agents"):
        agents = dict(settings.agents)
        for name, model in opts["agents"].items():
            agents[name] = replace(agents.get(name, AgentModel()), model=model)
        settings = replace(settings, agents=agents)
    t0 = time.monotonic()
    if opts.get("seed") is not None:
        settings = replace(settings, seed=int(opts["seed"]))
    client = make_client(settings)
    # sandbox tasks with a setup.py: every sandbox run of the pipeline starts from the prepared files
    inputs = None
    if task["mode"] == "sandbox" and (Path(task["path"]) / "setup.py").is_file():
        state = Path(msg["scratch"]) / "state"
        if state.exists():
            shutil.rmtree(state)
        state.mkdir(parents=True)
        r = _sandbox().run((Path(task["path"]) / "setup.py").read_text(), workdir=str(state), timeout_s=120)
        (state / "script.py").unlink(missing_ok=True)
        if not r.ok:
            raise RuntimeError(f"setup.py failed: {r.exception}")
        inputs = {str(f.relative_to(state)): str(f) for f in state.rglob("*") if f.is_file()}
    bridge = _driver_bridge(msg["id"], stdin) if task["mode"] == "interactive" else None
    io = NullIO(bridge=bridge)
    timer = threading.Timer(float(opts.get("gen_timeout_s", 1200)), io.cancel.set)
    timer.start()
    req = Request(id=f"bench-{task['id']}-{msg.get('config')}-{msg.get('trial', 0)}", prompt=task["prompt"],
                  mode=task["mode"], layout_context=msg.get("layout_context"), config=msg.get("config", "full"),
                  inputs=inputs, time_budget_s=float(opts.get("gen_timeout_s", 1200)))
    result: dict = {"script": "", "ok": False, "rounds": 0, "message": "", "error": None}
    try:
        out = run_request(req, io, settings=settings, client=client)
        result.update(script=out.script or "", ok=bool(out.ok), rounds=out.rounds, message=out.message,
                      record=out.record_path, timings=out.timings)
    except LLMError as e:
        result["error"] = f"{getattr(e, 'kind', 'llm')}: {e}"
    except Exception as e:  # noqa: BLE001 - a pipeline crash is this trial's generation failure
        result["error"] = f"internal: {type(e).__name__}: {e}"
        result["traceback"] = traceback.format_exc()
    finally:
        timer.cancel()
        usage = client.usage.totals()
        usage["models"] = {a: settings.for_agent(a).model for a in usage.get("per_agent", {})}
        usage["model"] = settings.model
        client.close()
    if io.cancel.is_set() and result["error"]:
        result["error"] = "timeout: generation exceeded gen_timeout_s"
    result["usage"] = usage
    result["time_s"] = round(time.monotonic() - t0, 3)
    return result


def op_plot(msg, stdin):
    from .report import plot
    return {"png": plot(msg["summary"], msg["png"])}


OPS = {"hello": op_hello, "sandbox_trial": op_sandbox_trial, "execute": op_execute, "generate": op_generate,
       "plot": op_plot}


def main() -> int:
    global _proto_out
    _proto_out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # anything a library prints goes to stderr, never into the protocol
    sys.stdout = sys.stderr
    stdin = sys.stdin
    while True:
        line = stdin.readline()
        if not line:
            return 0
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        if msg.get("op") == "shutdown":
            _send({"type": "reply", "id": msg.get("id"), "result": {}})
            return 0
        fn = OPS.get(msg.get("op"))
        if fn is None:
            _send({"type": "error", "id": msg.get("id"), "message": f"unknown op {msg.get('op')!r}", "traceback": ""})
            continue
        try:
            _send({"type": "reply", "id": msg.get("id"), "result": fn(msg, stdin)})
        except Exception as e:  # noqa: BLE001
            _send({"type": "error", "id": msg.get("id"), "message": f"{type(e).__name__}: {e}",
                   "traceback": traceback.format_exc()})


if __name__ == "__main__":
    sys.exit(main())
