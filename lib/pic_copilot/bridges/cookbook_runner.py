"""Run cookbook recipes where they belong and check each against its ``[expect]`` contract.

    python -m pic_copilot.bridges.cookbook_runner                        # every recipe
    python -m pic_copilot.bridges.cookbook_runner databases/cookbook/layout/mmi_1x2.py cookbook.edit.grow_layer
    python -m pic_copilot.bridges.cookbook_runner --family layout --kind new -v

Where each kind runs (tests/test_cookbook.py runs them all the same way):
  - ``sandbox`` and ``new``: the real sandbox (warm workers, ``lanes`` of them in parallel), with the
    fixture written to ``in.gds`` in the work dir first (built with pip ``klayout.db``);
    ``new`` recipes' layout files are then read by the KLayout application (0.28.5) and inserted
    into a fresh layout by the plugin bridge, as placing a component in the open layout does;
  - ``edit``: all in one ``klayout -b`` process (restarted past a job that crashes it), each on a
    fresh editable layout built by its fixture, through the bridge's ``execute`` with the
    execution-context globals (docs/EXECUTION_CONTEXT.md); files it writes are summarised after;
  - ``deck``: ``klayout -b -r <deck> -rd input=in.gds -rd report=out.lyrdb`` in its own work dir
    (a plain-text deck is run from a ``.drc`` copy: KLayout reads ``.lydrc`` files as XML macros).

Each recipe gives a :class:`RecipeRun` whose ``violations`` are the contract's plus the kind's
rules (``lint_recipe``). Library use: ``run_recipes(load_recipes())``.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..execution.report import ExecutionReport, failed_run
from ..retrieval.cookbook import Recipe, cookbook_dir, get_recipe, load_recipes, parse_recipe, write_fixture_gds

KLAYOUT_RUNNER = Path(__file__).with_name("cookbook_runner_klayout.py")
PROJECT_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_TIMEOUT_S = 120.0
STARTUP_TIMEOUT_S = 120.0
LAYOUT_SUFFIXES = (".gds", ".oas", ".gds.gz", ".oas.gz")


@dataclass
class RecipeRun:
    """What running one recipe gave.

    Attributes:
        recipe_id: the recipe.
        kind: its kind.
        report: the execution report (ok, stdout, stderr, exception, files, and for edits the bridge's
            summary/changes; for ``new`` also ``extra["klayout_read"]``: what KLayout 0.28.5 made of
            the written layouts).
        violations: contract violations and broken kind rules; empty means the recipe passed.
        duration_s: wall time of the run (for batched edits: the recipe's own execution time).
    """

    recipe_id: str
    kind: str
    report: ExecutionReport
    violations: list[str] = field(default_factory=list)
    duration_s: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.violations

    def explain(self) -> str:
        """A few lines for a failing test: the violations, the exception, the printout's tail."""
        lines = [f"{self.recipe_id} ({self.kind}): " + ("ok" if self.ok else f"{len(self.violations)} problem(s)")]
        lines += [f"  - {v}" for v in self.violations]
        exc = self.report.exception or {}
        if exc.get("traceback"):
            lines.append("  traceback:\n" + "\n".join("    " + l for l in str(exc["traceback"]).strip().splitlines()[-12:]))
        out = (self.report.stdout or "").strip()
        if out:
            lines.append("  stdout: " + " | ".join(out.splitlines()[-5:])[:600])
        err = (self.report.stderr or "").strip()
        if err and not self.ok:
            lines.append("  stderr: " + " | ".join(err.splitlines()[-8:])[:1200])
        return "\n".join(lines)


# -- static rules per kind ----------------------------------------------------------------------
_IMPORT_RE = re.compile(r"^\s*(?:import|from)\s+(pya|klayout|gdsfactory|kfactory)\b", re.MULTILINE)


def lint_recipe(recipe: Recipe) -> list[str]:
    """The kind's rules that running alone would not catch (COOKBOOK_SPEC, docs/EXECUTION_CONTEXT.md)."""
    code, problems = recipe.code, []
    if recipe.kind == "edit":
        m = _IMPORT_RE.search(code)
        if m:
            problems.append(f"an edit recipe uses the globals KLayout provides and imports nothing of {m.group(1)}")
        if re.search(r"\bpya\.Layout\s*\(", code):
            problems.append("an edit recipe works on the open `layout`; it never creates a pya.Layout()")
        if re.search(r"\blayout\.(write\s*\([^,()]*\)|save\s*\()", code):
            # exporting cells to a file of the work folder takes options (SaveLayoutOptions.select_cell)
            problems.append("an edit recipe never saves the open layout as a whole (layout.write(path))")
    elif recipe.kind == "new":
        if "gdsfactory" not in code:
            problems.append("a new recipe builds a gdsfactory component")
        if not re.search(r"write_gds\([^)]*with_metadata\s*=\s*False", code):
            problems.append("a new recipe writes its component with write_gds(..., with_metadata=False) (KLayout 0.28.5 reads it)")
    if recipe.kind in ("sandbox", "new") and re.search(r"\bgf\.write_gds\b", code):
        problems.append("gf.write_gds does not exist in gdsfactory 9; use component.write_gds(...)")
    return problems


# -- the sandbox kinds --------------------------------------------------------------------------
class _Fixtures:
    """Fixture GDS files built once per name (pip klayout.db), shared by the lanes."""

    def __init__(self, root: Path):
        self.root, self._done, self._lock = root, {}, threading.Lock()

    def gds(self, recipe: Recipe) -> Path:
        """in.gds for a recipe: its fixture (from its own cookbook's fixtures/) built once."""
        book = recipe.path.parent.parent
        key = (str(book), recipe.fixture)
        with self._lock:
            if key not in self._done:
                self._done[key] = write_fixture_gds(recipe.fixture, self.root / f"{len(self._done)}-{recipe.fixture}.gds", book)
            return self._done[key]


def _sandbox_lane(jobs: "queue.Queue[Recipe]", results: dict, fixtures: _Fixtures, work: Path, timeout_s: float,
                  progress: Callable[[RecipeRun], None]) -> None:
    from ..sandbox import Sandbox

    sb = None
    try:
        while True:
            try:
                r = jobs.get_nowait()
            except queue.Empty:
                return
            t0 = time.monotonic()
            try:
                if sb is None:
                    # a private root: other processes on the machine that use the default one
                    # (tests, engines, other checkouts) never touch this run's jobs
                    sb = Sandbox(root=work.parent / "_sandbox-root")
                inputs = {"in.gds": fixtures.gds(r)} if r.fixture else None
                wd = work / r.id
                if wd.exists():
                    shutil.rmtree(wd)
                res = sb.run(r.code, workdir=wd, timeout_s=timeout_s, inputs=inputs)
                rep = ExecutionReport.from_dict(res.to_dict())
                rep.where = "sandbox"
            except Exception as e:  # noqa: BLE001 - a harness problem is this recipe's failure, the others go on
                rep = failed_run(type(e).__name__, str(e), stdout="", stderr="", files=[], where="sandbox")
            run = RecipeRun(r.id, r.kind, rep, duration_s=round(time.monotonic() - t0, 3))
            results[r.id] = run
            progress(run)
    finally:
        if sb is not None:
            sb.close()


# -- KLayout (edit recipes, reading new recipes' layouts) ----------------------------------------
def _klayout() -> str:
    exe = shutil.which("klayout")
    if not exe:
        raise RuntimeError("KLayout is not installed (no `klayout` on PATH)")
    return exe


def run_klayout_jobs(jobs: list[dict], work: Path, job_timeout_s: float = 120, klayout: str | None = None) -> dict[str, dict]:
    """Run bridge jobs (see cookbook_runner_klayout.py) in as few ``klayout -b`` processes as possible.

    A job that crashes KLayout, or runs longer than ``job_timeout_s`` (the process is then killed),
    gets an error result; the remaining jobs run in a new process. Returns job id -> result dict.
    """
    exe = klayout or _klayout()
    work.mkdir(parents=True, exist_ok=True)
    home = work / "klayout-home"
    home.mkdir(exist_ok=True)
    results: dict[str, dict] = {}
    pending = list(jobs)
    round_no = 0
    while pending:
        round_no += 1
        req, out = work / f"request-{round_no}.json", work / f"results-{round_no}.jsonl"
        req.write_text(json.dumps({"jobs": pending}))
        out.write_text("")
        cmd = [exe, "-b", "-r", str(KLAYOUT_RUNNER), "-rd", f"root={PROJECT_ROOT}", "-rd", f"request={req}", "-rd", f"out={out}"]
        env = dict(os.environ, KLAYOUT_HOME=str(home))
        note = _watch(cmd, env, out, job_timeout_s, work / f"klayout-{round_no}.log")
        started = None
        for line in out.read_text().splitlines():
            try:
                msg = json.loads(line)
            except json.JSONDecodeError:
                continue
            if "start" in msg:
                started = msg["start"]
            elif "id" in msg:
                results[msg["id"]] = msg["result"]
                started = None
        done_ids = set(results)
        if started is not None:  # this job took the process down
            results[started] = {"ok": False, "stdout": "", "stderr": "", "summary": {}, "changes": {},
                                "exception": {"type": "KLayoutCrashed", "message": note, "traceback": ""}}
            done_ids.add(started)
        left = [j for j in pending if j["id"] not in done_ids]
        if len(left) == len(pending):  # nothing ran at all: give up on all of them
            for j in left:
                results[j["id"]] = {"ok": False, "stdout": "", "stderr": "", "summary": {}, "changes": {},
                                    "exception": {"type": "KLayoutCrashed", "message": note, "traceback": ""}}
            left = []
        pending = left
    return results


def _watch(cmd: list[str], env: dict, progress_file: Path, job_timeout_s: float, log: Path) -> str:
    """Run KLayout until it exits, killing it when its progress file has not grown for ``job_timeout_s``
    (KLayout's own start, before the first job begins, gets STARTUP_TIMEOUT_S: on a loaded machine it
    takes far longer than its 2-3 s).

    Returns a note on how it ended (for the result of the job it was running)."""
    with open(log, "w") as logf:
        proc = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        size, last = 0, time.monotonic()
        while proc.poll() is None:
            time.sleep(0.2)
            now_size = progress_file.stat().st_size if progress_file.exists() else 0
            limit = job_timeout_s if now_size else max(STARTUP_TIMEOUT_S, job_timeout_s)
            if now_size != size:
                size, last = now_size, time.monotonic()
            elif time.monotonic() - last > limit:
                try:
                    os.killpg(proc.pid, 9)   # KLayout may ignore SIGTERM
                except OSError:
                    pass
                proc.wait()
                return f"killed: the job ran over {job_timeout_s:.0f} s in klayout -b"
    tail = log.read_text(errors="replace")[-1500:]
    return f"klayout -b exited with {proc.returncode}: {tail}"


def _summarize_outputs(workdir: Path, skip: Iterable[str] = ()) -> list[dict]:
    from ..sandbox.summary import summarize_dir

    return [f for f in summarize_dir(str(workdir)) if f.get("path") not in set(skip)]


def _run_edits(recipes: list[Recipe], work: Path, progress: Callable[[RecipeRun], None]) -> dict[str, RecipeRun]:
    from ..retrieval.cookbook import fixture_path

    jobs = []
    for r in recipes:
        wd = work / r.id
        if wd.exists():
            shutil.rmtree(wd)
        wd.mkdir(parents=True)
        jobs.append({"action": "edit", "id": r.id, "code": r.code, "workdir": str(wd),
                     "fixture": str(fixture_path(r.fixture, r.path.parent.parent)) if r.fixture else ""})
    t0 = time.monotonic()
    raw = run_klayout_jobs(jobs, work / "_klayout")
    out = {}
    for r in recipes:
        rep = (ExecutionReport.from_dict(raw[r.id]) if raw.get(r.id) else failed_run("Missing", "no result"))
        rep.where = "klayout"
        rep.files = _summarize_outputs(work / r.id)
        run = RecipeRun(r.id, r.kind, rep, duration_s=float(rep.duration_s or 0.0))
        out[r.id] = run
        progress(run)
    out["_edit_batch_seconds"] = round(time.monotonic() - t0, 2)  # type: ignore[assignment]
    return out


def _read_new_layouts(runs: list[RecipeRun], work: Path) -> None:
    """Read every layout a ``new`` recipe wrote with KLayout 0.28.5 and insert it; record problems."""
    jobs = []
    for run in runs:
        wd = Path(run.report.workdir or "")
        paths = [str(wd / f["path"]) for f in run.report.files or [] if str(f.get("path", "")).lower().endswith(LAYOUT_SUFFIXES)]
        run.report.extra["klayout_read"] = None
        if paths and run.report.ok:
            jobs.append({"action": "read", "id": run.recipe_id, "paths": paths})
        elif run.report.ok:
            run.violations.append("a new recipe writes its component to a GDS/OAS file (none written)")
    if not jobs:
        return
    raw = run_klayout_jobs(jobs, work / "_klayout_read")
    by_id = {r.recipe_id: r for r in runs}
    for jid, res in raw.items():
        run = by_id[jid]
        run.report.extra["klayout_read"] = res
        for f in res.get("files") or []:
            if not f.get("ok"):
                run.violations.append(f"KLayout 0.28.5 cannot read {Path(f['path']).name}: {f.get('error')}")
        if not res.get("insert_ok", False) and all(f.get("ok") for f in res.get("files") or []):
            exc = res.get("insert_exception") or res.get("exception") or {}
            run.violations.append(f"placing the layout in an open KLayout layout failed: {exc.get('type')}: {exc.get('message')}")


# -- decks --------------------------------------------------------------------------------------
def _run_deck(r: Recipe, work: Path, fixtures: _Fixtures, timeout_s: float) -> RecipeRun:
    wd = work / r.id
    if wd.exists():
        shutil.rmtree(wd)
    wd.mkdir(parents=True)
    skip = []
    if r.fixture:
        shutil.copyfile(fixtures.gds(r), wd / "in.gds")
        skip.append("in.gds")
    text = r.path.read_text(encoding="utf-8")
    if text.lstrip().startswith("<"):   # an XML .lydrc macro runs as it is
        deck = r.path
    else:                               # plain DRC script text: KLayout takes it as .drc
        deck = wd / f"{r.slug}.drc"
        deck.write_text(text, encoding="utf-8")
        skip.append(deck.name)
    cmd = [_klayout(), "-b", "-r", str(deck), "-rd", "input=in.gds", "-rd", "report=out.lyrdb"]
    home = wd.parent / "_deck-home"
    home.mkdir(exist_ok=True)
    env = dict(os.environ, KLAYOUT_HOME=str(home))
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=wd, capture_output=True, text=True, timeout=timeout_s, env=env, start_new_session=True)
        rep = ExecutionReport.from_dict({"ok": proc.returncode == 0, "exit_code": proc.returncode,
                                         "stdout": proc.stdout, "stderr": proc.stderr})
        if proc.returncode != 0:
            rep.exception = {"type": "DeckFailed", "message": (proc.stderr or proc.stdout).strip()[-800:], "traceback": ""}
    except subprocess.TimeoutExpired:
        rep = failed_run("TimeoutError", f"deck ran over {timeout_s:.0f} s", stdout="", stderr="")
    rep.where = "klayout-drc"
    rep.workdir = str(wd)
    rep.files = _summarize_outputs(wd, skip)
    return RecipeRun(r.id, r.kind, rep, duration_s=round(time.monotonic() - t0, 3))


# -- all of it ----------------------------------------------------------------------------------
def run_recipes(recipes: list[Recipe], work: str | Path | None = None, lanes: int = 2, timeout_s: float = DEFAULT_TIMEOUT_S,
                progress: Callable[[RecipeRun], None] | None = None) -> dict[str, RecipeRun]:
    """Run recipes of every kind (sandbox lanes, one KLayout batch for edits, decks two at a time, all at once)
    and check each against its contract.

    Args:
        recipes: what to run (e.g. ``load_recipes()``).
        work: folder for work dirs and fixtures (a temporary one when None; kept for inspection when given).
        lanes: sandbox workers running in parallel (each warm, several recipes each).
        timeout_s: wall-time limit per sandbox recipe / deck.
        progress: called with each RecipeRun as it finishes (before the contract check).

    Returns:
        recipe id -> RecipeRun (``violations`` filled).
    """
    tmp = None
    if work is None:
        tmp = tempfile.mkdtemp(prefix="pic-copilot-cookbook-")
        work = tmp
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    say = progress or (lambda _run: None)
    lock = threading.Lock()

    def report(run: RecipeRun) -> None:
        with lock:
            say(run)

    fixtures = _Fixtures(work / "_fixtures")
    box_recipes = [r for r in recipes if r.kind in ("sandbox", "new")]
    box_recipes.sort(key=lambda r: r.kind != "new")  # new ones first: their KLayout read can start early
    edits = [r for r in recipes if r.kind == "edit"]
    decks = [r for r in recipes if r.kind == "deck"]
    results: dict[str, RecipeRun] = {}
    threads = []
    q: "queue.Queue[Recipe]" = queue.Queue()
    for r in box_recipes:
        q.put(r)
    for _ in range(max(1, min(lanes, len(box_recipes)))):
        t = threading.Thread(target=_sandbox_lane, args=(q, results, fixtures, work / "sandbox", timeout_s, report), daemon=True)
        t.start()
        threads.append(t)
    edit_runs: dict = {}
    if edits:
        t = threading.Thread(target=lambda: edit_runs.update(_run_edits(edits, work / "edit", report)), daemon=True)
        t.start()
        threads.append(t)
    deck_runs: list[RecipeRun] = []
    if decks:
        def decks_job():
            with ThreadPoolExecutor(max_workers=2) as ex:
                for run in ex.map(lambda r: _run_deck(r, work / "deck", fixtures, timeout_s), decks):
                    deck_runs.append(run)
                    report(run)
        t = threading.Thread(target=decks_job, daemon=True)
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    edit_runs.pop("_edit_batch_seconds", None)
    results.update(edit_runs)
    results.update({r.recipe_id: r for r in deck_runs})
    by_id = {r.id: r for r in recipes}
    for rid, run in results.items():
        r = by_id[rid]
        run.violations = r.expect.check(run.report) + lint_recipe(r)
    news = [results[r.id] for r in recipes if r.kind == "new" and r.id in results]
    _read_new_layouts(news, work / "new")
    for run in news:
        read = run.report.extra.get("klayout_read") or {}
        cells = set((read.get("open_layout") or {}).get("cells") or [])
        if read.get("ok"):
            for c in by_id[run.recipe_id].expect.cells:
                if c not in cells:
                    run.violations.append(f"cell {c!r} is missing after KLayout 0.28.5 read and placed the file")
    for r in recipes:
        if r.id not in results:   # a harness failure must not make a recipe disappear from the results
            results[r.id] = RecipeRun(r.id, r.kind, ExecutionReport(ok=False, stdout=""),
                                      ["the runner produced no result for this recipe"])
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    return {r.id: results[r.id] for r in recipes}


def _select(args) -> list[Recipe]:
    if not args.recipes:
        return load_recipes(families=args.family or None, kinds=args.kind or None)
    out = []
    for x in args.recipes:
        p = Path(x)
        out.append(parse_recipe(p, cookbook_dir() if p.resolve().is_relative_to(cookbook_dir().resolve()) else None)
                   if p.suffix in (".py", ".lydrc", ".drc") else get_recipe(x))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pic_copilot.bridges.cookbook_runner", description="Run cookbook recipes and check their [expect] contracts.")
    ap.add_argument("recipes", nargs="*", help="recipe files or ids (default: all)")
    ap.add_argument("--family", action="append", help="only this family (repeatable)")
    ap.add_argument("--kind", action="append", help="only this kind (repeatable)")
    ap.add_argument("--work", type=Path, default=None, help="keep work dirs here")
    ap.add_argument("--lanes", type=int, default=2)
    ap.add_argument("-v", "--verbose", action="store_true", help="explain passing recipes too")
    ap.add_argument("--json", type=Path, default=None, help="write every report here")
    args = ap.parse_args(argv)
    from ..retrieval.errors import RetrievalError

    try:
        recipes = _select(args)
    except RetrievalError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    runs = run_recipes(recipes, work=args.work, lanes=args.lanes)
    bad = [r for r in runs.values() if not r.ok]
    for run in runs.values():
        if not run.ok or args.verbose:
            print(run.explain())
    print(f"{len(runs) - len(bad)}/{len(runs)} recipes passed in {time.monotonic() - t0:.1f} s")
    if args.json:
        args.json.write_text(json.dumps({k: {"violations": v.violations, "report": v.report.to_dict(), "duration_s": v.duration_s}
                                         for k, v in runs.items()}, indent=1, default=str))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
