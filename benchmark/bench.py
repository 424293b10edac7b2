"""pic-copilot benchmark driver. Runs INSIDE KLayout (stdlib + pya only):

    klayout -b -r benchmark/bench.py -rd config=oracle
    klayout -b -r benchmark/bench.py -rd tasks=benchmark/tasks -rd config=zero-shot,icl-rag,full -rd n=5
    klayout -b -r benchmark/bench.py -rd selftest=1

Interactive tasks (setup, candidate, check) run in this process on a headless layout through the
plugin's bridge; everything that needs the engine's Python (the agent pipeline, sandbox runs,
the plot) runs in a child process ``<python> -m pic_copilot.bench.worker`` speaking JSON lines
(see lib/pic_copilot/bench/worker.py). Options are ``-rd name=value``; see benchmark/README.md.
Exit code: 0 ok; 1 oracle below 100 % or self-test mismatch; 2 bad options/tasks or not inside the
KLayout application (the pip ``klayout`` package's ``pya`` is refused); 3 harness failure.
"""
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

_G = dict(globals())  # the -rd definitions, before anything below shadows a name


def _opt(name, default=None):
    v = _G.get(name)
    return default if v is None or v == "" else v


ROOT = Path(_opt("root") or Path(__file__).resolve().parents[1]).resolve()
for p in (ROOT / "lib", ROOT / "klayout_plugin"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


def _klayout_app_problem():
    """None inside the KLayout application, else why not (a plain Python, or the pip ``klayout`` package).

    The pip ``klayout`` package also ships a ``pya`` module (a different KLayout version, without
    ``pya.Application``); only the application's own interpreter has a live ``Application.instance()``.
    """
    try:
        import pya
    except ImportError:
        return f"there is no pya module in this Python ({sys.executable})"
    app_class = getattr(pya, "Application", None)
    try:
        app = app_class.instance() if app_class is not None else None
    except Exception:  # noqa: BLE001
        app = None
    if app is None:
        where = getattr(pya, "__file__", None) or "pya"
        return (f"the pya module of this Python ({sys.executable}) is not the KLayout application's "
                f"({where}: probably the pip klayout package, which has no pya.Application)")
    return None


_NOT_IN_APP = _klayout_app_problem()
if _NOT_IN_APP:
    print(f"error: benchmark/bench.py runs only inside the KLayout application: {_NOT_IN_APP}.\n"
          "Run: klayout -b -r benchmark/bench.py -rd config=oracle   (or: pic-copilot bench)", file=sys.stderr)
    sys.exit(2)

import pya  # noqa: E402,F401  (KLayout's own, checked above)

from pic_copilot.bench import metrics, report  # noqa: E402  (stdlib-only modules)
from pic_copilot.bench.tasks import TaskError, load_tasks  # noqa: E402
from pic_copilot.contracts import BENCH_CONFIGS  # noqa: E402
from pic_copilot_plugin import bridge  # noqa: E402

ALL_CONFIGS = BENCH_CONFIGS


def log(msg, always=False):
    if always or _opt("quiet") not in ("1", "true", "yes"):
        print(msg, flush=True)


class HarnessError(RuntimeError):
    """The harness itself failed (worker died, setup.py failed): the run stops with exit code 3."""


class WorkerHang(HarnessError):
    """The worker sent nothing for longer than the op's deadline; it was killed (the run goes on)."""


class TrialTimeout(BaseException):
    """Raised by SIGALRM inside an in-process (interactive) script that ran past its limit."""


def _on_alarm(signum, frame):
    raise TrialTimeout("the script ran past its time limit")


class _alarm:
    def __init__(self, seconds):
        self.seconds = float(seconds)

    def __enter__(self):
        self.old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.old if self.old is not None else signal.SIG_DFL)
        return False


# ------------------------------------------------------------------------------------- worker
class Worker:
    """The engine-side child process (JSON lines over its stdin/stdout)."""

    def __init__(self, python, log_path):
        self.python = python
        self.log_path = Path(log_path)
        self.proc = None
        self.n = 0

    def start(self):
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT / "lib") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.pop("PYTHONHOME", None)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "a")
        # binary, unbuffered stdout: select() on the fd then sees every byte not yet read
        self.proc = subprocess.Popen([self.python, "-m", "pic_copilot.bench.worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._log, text=False, bufsize=0, env=env,
                                     cwd=str(ROOT))
        self._buf = b""
        return self.call("hello", deadline_s=300)

    def _send(self, msg):
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()

    def _readline(self, deadline):
        """One line from the worker; b"" at EOF; WorkerHang when the monotonic ``deadline`` passes first."""
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise WorkerHang("no reply")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                line, self._buf = self._buf, b""
                return line
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line + b"\n"

    def kill(self):
        """Stop a hung worker (its sandbox children die with it; the LLM server is shared and stays)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def call(self, op, handler=None, deadline_s=None, **payload):
        """Send one op and wait for its reply; ``handler(msg)`` answers the worker's exec requests.

        ``deadline_s`` bounds the whole op (answering exec requests included): past it the worker
        is killed and WorkerHang is raised, so one blocked trial cannot stall the run.
        """
        if (self.proc is None or self.proc.poll() is not None) and op != "hello":
            self.start()  # (re)start a worker that died during an earlier trial
        self.n += 1
        mid = self.n
        deadline = None if deadline_s is None else time.monotonic() + float(deadline_s)
        self._send({"op": op, "id": mid, **payload})
        while True:
            try:
                line = self._readline(deadline)
            except WorkerHang:
                self.kill()
                raise WorkerHang(f"the engine worker gave no reply to {op!r} within {deadline_s:.0f} s; "
                                 f"it was killed (see {self.log_path})") from None
            if not line:
                code = self.proc.wait()
                self.proc = None
                raise HarnessError(f"the engine worker exited ({code}) during {op!r}; see {self.log_path}")
            msg = json.loads(line)
            t = msg.get("type")
            if t == "exec":
                if handler is None:
                    result = {"ok": False, "exception": {"type": "NoLayout", "message": "no open layout for this task",
                                                         "traceback": ""}}
                else:
                    result = handler(msg)
                self._send(bridge.exec_result(msg, _jsonable(result)))
            elif t == "reply" and msg.get("id") == mid:
                return msg["result"]
            elif t == "error" and msg.get("id") == mid:
                raise HarnessError(f"worker op {op!r} failed: {msg.get('message')}\n{msg.get('traceback', '')}")

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.call("shutdown", deadline_s=20)
                self.proc.wait(timeout=20)
            except Exception:  # noqa: BLE001
                self.kill()
        self.proc = None


def _jsonable(obj):
    return json.loads(json.dumps(obj, default=str))


# ------------------------------------------------------------------------------ interactive side
class LayoutHandler:
    """Answers the worker's exec requests on one open (headless) layout, as the GUI plugin would."""

    def __init__(self, session, workdir, timeout_s):
        self.session, self.workdir, self.timeout_s = session, str(workdir), timeout_s

    def __call__(self, msg):
        """Run an ``exec`` message's action (bridge.dispatch, in the task's work folder) within the time limit."""
        with _alarm(self.timeout_s):
            try:
                return bridge.dispatch(self.session, msg.get("action"), {**msg, "workdir": self.workdir})
            except TrialTimeout:  # fired between the action's end and the alarm's cancel
                return {"ok": False, "exception": {"type": "TrialTimeout", "message": "time limit", "traceback": ""}}


def _exec_in_context(session, code, workdir, extra=None, timeout_s=120, name="<script>"):
    """Run harness code (setup.py / check.py) with the execution-context globals; returns None or an error dict."""
    ctx = bridge.make_context(session, str(workdir))
    ctx.update(extra or {})
    cwd = os.getcwd()
    try:
        os.chdir(workdir)
        with _alarm(timeout_s):
            exec(compile(code, name, "exec"), ctx)
        return None
    except (Exception, TrialTimeout) as e:  # noqa: BLE001
        return {"type": type(e).__name__, "message": str(e), "traceback": traceback.format_exc(limit=6)}
    finally:
        os.chdir(cwd)


def fresh_session(task, workdir):
    """A new unsaved layout prepared by the task's setup.py (HarnessError if setup fails)."""
    session = bridge.Session.headless()
    if task.setup:
        err = _exec_in_context(session, task.setup, workdir, name=f"{task.id}/setup.py")
        if err:
            raise HarnessError(f"{task.id}: setup.py failed: {err['type']}: {err['message']}\n{err['traceback']}")
    return session


def score_interactive(worker, task, script, workdir, timeout_s, hang_margin_s):
    session = fresh_session(task, workdir)
    handler = LayoutHandler(session, workdir, timeout_s)
    cand = worker.call("execute", handler=handler, code=script, mode="interactive", timeout_s=timeout_s,
                       deadline_s=timeout_s + hang_margin_s, prompt=task.prompt)
    outcome = {k: cand.get(k) for k in ("ok", "stdout", "stderr", "exception")}
    err = _exec_in_context(session, task.check, workdir, extra={"outcome": outcome}, name=f"{task.id}/check.py")
    check = {"passed": err is None, "exception": err}
    return {"candidate": cand, "check": check, "passed": bool(cand.get("ok")) and err is None}


def score(worker, task, script, workdir, opts):
    """Run one candidate script against a task in a fresh state; returns candidate/check/passed.

    A worker silent for hang_margin seconds past the script's (and setup/check's) limits is killed
    (WorkerHang).
    """
    workdir = Path(workdir)
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    timeout_s = task.timeout_s * opts["timeout_scale"]
    if task.mode == "interactive":
        return score_interactive(worker, task, script, workdir, timeout_s, opts["hang_margin_s"])
    aux = opts["harness_timeout_s"]
    res = worker.call("sandbox_trial", task_path=str(task.path), workdir=str(workdir), script=script, deck=task.deck,
                      timeout_s=timeout_s, setup_timeout_s=aux, check_timeout_s=aux, prompt=task.prompt,
                      deadline_s=timeout_s + 2 * aux + opts["hang_margin_s"])
    if res.get("harness_error"):
        raise HarnessError(f"{task.id}: {res['harness_error']}")
    return res


# ------------------------------------------------------------------------------------- trials
def generate(worker, task, cfg, trial, opts, scratch):
    """Ask the pipeline for a script (config != oracle). Interactive tasks get their own open layout."""
    handler, context = None, None
    if task.mode == "interactive":
        gen_work = Path(scratch) / "gen-work"
        gen_work.mkdir(parents=True, exist_ok=True)
        session = fresh_session(task, gen_work)
        context = bridge.layout_summary(session)
        handler = LayoutHandler(session, gen_work, task.timeout_s * opts["timeout_scale"])
    # generation stops at gen_timeout only between steps: a sandbox run or LLM call in flight ends first
    return worker.call("generate", handler=handler, deadline_s=opts["gen"]["gen_timeout_s"] + opts["hang_margin_s"],
                       task=task.public(), config=cfg, trial=trial,
                       layout_context=_jsonable(context), scratch=str(scratch), settings=opts["gen"])


def run_trial(worker, task, cfg, trial, out, opts):
    t0 = time.monotonic()
    base = out / "work" / cfg / task.id / f"trial_{trial}"
    rec = {"task": task.id, "tier": task.tier, "mode": task.mode, "domains": list(task.domains), "config": cfg,
           "trial": trial, "task_digest": task.digest(), "started": time.strftime("%Y-%m-%dT%H:%M:%S")}
    gen = None
    no_script = "generation"  # the failure of a trial whose generation gave no script
    if cfg == "oracle":
        script = task.solution
        usage = {}
    else:
        if base.exists():
            shutil.rmtree(base)
        try:
            gen = generate(worker, task, cfg, trial, opts, base / "gen")
        except WorkerHang as e:
            log(f"[{cfg}] {task.id}: {e}", always=True)
            gen = {"error": f"harness: {e}", "script": ""}
            no_script = "harness"
        script = gen.get("script") or ""
        usage = gen.get("usage") or {}
    rec["script"] = script
    rec["usage"] = usage
    if gen is not None:
        rec["generation"] = {k: gen.get(k) for k in ("ok", "rounds", "message", "error", "time_s", "record", "timings")}
    if gen is not None and gen.get("error") and not script.strip():
        rec.update(passed=False, failure=no_script, execution=None, check=None)
    else:
        try:
            res = score(worker, task, script, base / "work", opts)
        except WorkerHang as e:  # the candidate blocked the worker past its time limit
            log(f"[{cfg}] {task.id}: {e}", always=True)
            exc = {"type": "WorkerHang", "message": str(e), "traceback": ""}
            res = {"candidate": {"ok": False, "timed_out": True, "exception": exc},
                   "check": {"passed": False, "exception": None}, "passed": False}
        rec["execution"] = res["candidate"]
        rec["check"] = res["check"]
        rec["passed"] = bool(res["passed"])
        rec["failure"] = None if rec["passed"] else metrics.classify_failure(res["candidate"], res["check"]["passed"])
    rec["total_time_s"] = round(time.monotonic() - t0, 3)
    return rec


def read_opts():
    cfgs = [c.strip() for c in str(_opt("config", "oracle")).split(",") if c.strip()]
    for c in cfgs:
        if c not in ALL_CONFIGS:
            raise TaskError(f"unknown config {c!r} (use {', '.join(ALL_CONFIGS)})")
    agents = {}
    for item in str(_opt("models", "")).split(","):
        if item.strip():
            if "=" not in item:
                raise TaskError(f"bad models entry {item!r} (use agent=model,agent=model)")
            k, v = item.split("=", 1)
            agents[k.strip()] = v.strip()
    n = int(_opt("n", 1 if cfgs == ["oracle"] else 5))
    tag = "-".join(cfgs)
    out = Path(_opt("out") or ROOT / "benchmark" / "results" / tag)
    if not out.is_absolute():
        out = Path.cwd() / out
    tasks_dir = Path(_opt("tasks") or ROOT / "benchmark" / "tasks")
    if not tasks_dir.is_absolute():
        tasks_dir = Path.cwd() / tasks_dir
    prices = None
    if _opt("prices"):
        pp = Path(_opt("prices"))
        prices = metrics.load_prices(pp.read_text(), "json" if pp.suffix == ".json" else "toml")
    return {
        "configs": cfgs, "n": n, "out": out, "tasks_dir": tasks_dir,
        "tiers": [t for t in str(_opt("tier", "")).split(",") if t],
        "ids": [t for t in str(_opt("ids", "")).split(",") if t],
        "resume": str(_opt("resume", "0" if cfgs == ["oracle"] else "1")) in ("1", "true", "yes"),
        "selftest": str(_opt("selftest", "0")) in ("1", "true", "yes"),
        "python": _opt("python") or str(ROOT / ".venv" / "bin" / "python"),
        "timeout_scale": float(_opt("timeout_scale", 1.0)),
        "harness_timeout_s": float(_opt("harness_timeout", 120)),  # each task's setup.py and check.py
        "hang_margin_s": float(_opt("hang_margin", 300)),  # silence past an op's limits = a hung worker
        "prices": prices,
        "gen": {"temperature": None if _opt("temperature") is None else float(_opt("temperature")),
                "seed": None if _opt("seed") is None else int(_opt("seed")),
                "model": _opt("model"), "agents": agents,
                "max_rounds": None if _opt("max_rounds") is None else int(_opt("max_rounds")),
                "gen_timeout_s": float(_opt("gen_timeout", 1200))},
    }


def run_bench(opts, tasks, worker):
    out = opts["out"]
    out.mkdir(parents=True, exist_ok=True)
    t_start = time.monotonic()
    started = time.strftime("%Y-%m-%dT%H:%M:%S")
    # task-major order: every config sees a task under the same machine load, so a
    # load change during a long run skews no config against another
    for task in tasks:
        for cfg in opts["configs"]:
            for i in range(opts["n"]):
                # the seed differs per trial so that n trials are n samples
                path = out / "trials" / cfg / task.id / f"trial_{i}.json"
                if opts["resume"] and path.exists():
                    try:
                        old = json.loads(path.read_text())
                        if old.get("task_digest") == task.digest():
                            continue
                    except ValueError:
                        pass
                topts = dict(opts)
                if opts["gen"]["seed"] is not None:
                    topts["gen"] = dict(opts["gen"], seed=opts["gen"]["seed"] + i)
                rec = run_trial(worker, task, cfg, i, out, topts)
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(json.dumps(_jsonable(rec), indent=1))
                os.replace(tmp, path)
                mark = "PASS" if rec["passed"] else f"FAIL ({rec['failure']})"
                log(f"[{cfg}] {task.id} trial {i}: {mark} in {rec['total_time_s']:.1f} s")
    meta = {"configs": opts["configs"], "n": opts["n"], "tasks_dir": str(opts["tasks_dir"]),
            "temperature": opts["gen"]["temperature"], "seed": opts["gen"]["seed"],
            "model": opts["gen"]["model"], "agents": opts["gen"]["agents"], "started": started,
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S"), "wall_time_s": round(time.monotonic() - t_start, 1)}
    task_list = [{"id": t.id, "tier": t.tier, "mode": t.mode, "domains": list(t.domains)} for t in tasks]
    summary = report.write(out, task_list, meta, opts["prices"])
    try:
        worker.call("plot", summary=summary, png=str(out / "pass_rate.png"))
    except HarnessError as e:
        log(f"plot failed: {e}")
    for cfg, s in summary["configs"].items():
        tot = s["total"]
        tiers = ", ".join(f"{k} {100 * (v['pass@1'] or 0):.1f}%" for k, v in s["tiers"].items())
        log(f"{cfg}: pass@1 {100 * (tot['pass@1'] or 0):.1f}% ({tot['passed']}/{tot['trials']} trials), "
            f"solved {tot['solved']}/{tot['tasks']} [{tiers}]", always=True)
    log(f"report: {out / 'report.md'}", always=True)
    if "oracle" in summary["configs"]:
        tot = summary["configs"]["oracle"]["total"]
        if tot["passed"] != tot["trials"] or tot["solved"] != tot["tasks"]:
            failed = [tid for tid, s in summary["configs"]["oracle"]["tasks"].items() if s["c"] != s["n"] or not s["n"]]
            log(f"ORACLE BELOW 100 %: {', '.join(failed)}", always=True)
            return 1
    return 0


def run_selftest(opts, tasks, worker):
    """Every solution passes its check, the empty script fails every check, every wrong.toml variant fails.

    wrong.toml is optional (a task folder without one gets a note, not a problem); the variants are
    solution.py with the edits of wrong.toml applied (see lib/pic_copilot/bench/tasks.py).
    """
    out = opts["out"]
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    results, problems, notes = [], [], []
    for task in tasks:
        if not task.wrong:
            notes.append(f"{task.id}: no wrong.toml: only the solution and the empty script are checked")
        if any(task.path.glob("wrong_*.py")):
            notes.append(f"{task.id}: wrong_*.py files are not read any more; describe the variants in wrong.toml")
        variants = [("solution", task.solution, True), ("empty", "", False)] + \
                   [(name, code, False) for name, code in task.wrong.items()]
        for name, code, expect in variants:
            ts = time.monotonic()
            res = score(worker, task, code, out / "work" / "selftest" / task.id / name, opts)
            ok = bool(res["passed"]) == expect
            failure = None if res["passed"] else metrics.classify_failure(res["candidate"], res["check"]["passed"])
            entry = {"task": task.id, "tier": task.tier, "mode": task.mode, "variant": name, "expected_pass": expect,
                     "passed": bool(res["passed"]), "ok": ok, "failure": failure,
                     "time_s": round(time.monotonic() - ts, 3)}
            if name in task.wrong_why:
                entry["why"] = task.wrong_why[name]
            if not ok:
                cand_exc = (res["candidate"] or {}).get("exception")
                detail = cand_exc if (expect and cand_exc) else (res["check"].get("exception") or cand_exc)
                entry["detail"] = _jsonable(detail)
                why = f" [{task.wrong_why[name]}]" if name in task.wrong_why else ""
                problems.append(f"{task.id}/{name}{why}: expected {'pass' if expect else 'fail'}, got "
                                f"{'pass' if res['passed'] else 'fail'}: {str(detail)[:1500]}")
            results.append(entry)
            log(f"selftest {task.id} {name}: {'ok' if ok else 'MISMATCH'} ({entry['time_s']:.1f} s)")
    data = {"tasks": len(tasks), "variants": len(results), "wrong_variants": sum(len(t.wrong) for t in tasks),
            "problems": problems, "notes": notes, "wall_time_s": round(time.monotonic() - t0, 1), "results": results}
    (out / "selftest.json").write_text(json.dumps(data, indent=1))
    log(f"selftest: {len(tasks)} tasks, {len(results)} variants ({data['wrong_variants']} wrong), "
        f"{len(problems)} problems, {data['wall_time_s']} s -> {out / 'selftest.json'}", always=True)
    for p in notes:
        log("  note: " + p, always=True)
    for p in problems:
        log("  " + p, always=True)
    return 1 if problems else 0


def main():
    try:
        opts = read_opts()
        if opts["selftest"] and not _opt("out"):
            opts["out"] = ROOT / "benchmark" / "results" / "selftest"
        tasks = load_tasks(opts["tasks_dir"], opts["tiers"] or None, opts["ids"] or None)
    except (TaskError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    worker = Worker(opts["python"], opts["out"] / "worker.log")
    try:
        worker.start()
        if opts["selftest"]:
            return run_selftest(opts, tasks, worker)
        return run_bench(opts, tasks, worker)
    except HarnessError as e:
        print(f"harness error: {e}", file=sys.stderr)
        return 3
    finally:
        worker.close()


sys.exit(main())
