"""Benchmark tasks: loading and validation (stdlib only: also imported inside KLayout).

Format (see benchmark/README.md)::

    <tasks-dir>/<task-id>/task.toml    id, tier, domains, mode, prompt, timeout_s
    <tasks-dir>/<task-id>/solution.py  reference script
    <tasks-dir>/<task-id>/check.py     assertions on the outcome (no exception = pass)
    <tasks-dir>/<task-id>/setup.py     optional: prepares the starting state
    <tasks-dir>/<task-id>/wrong_*.py   plausible wrong variants (the self-test expects them to fail)
"""
from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

TIERS = ("basic", "medium", "advanced")
DOMAINS = ("layout", "drc", "simulation", "data")
MODES = ("sandbox", "interactive")
REQUIRED_KEYS = ("id", "tier", "domains", "mode", "prompt")


class TaskError(ValueError):
    """A task folder does not follow the format; the message names the folder and the problem."""


@dataclass(frozen=True)
class Task:
    """One benchmark task.

    Attributes:
        id: unique name (equals the folder name).
        tier: "basic", "medium" or "advanced".
        domains: subset of "layout", "drc", "simulation", "data".
        mode: "sandbox" (plain engine Python in a work directory) or "interactive" (open layout in KLayout).
        prompt: the request as a designer would type it.
        timeout_s: wall-time limit for the candidate script.
        path: the task folder.
        solution, check, setup: script texts (setup "" when absent).
        wrong: name -> text of the wrong_*.py variants.
    """

    id: str
    tier: str
    domains: tuple[str, ...]
    mode: str
    prompt: str
    timeout_s: float
    path: Path
    solution: str
    check: str
    setup: str = ""
    wrong: dict = field(default_factory=dict)

    def digest(self) -> str:
        """A hash of everything that defines the task (a stored trial is reused only if it matches)."""
        h = hashlib.sha256()
        for part in (self.id, self.tier, ",".join(self.domains), self.mode, self.prompt, str(self.timeout_s),
                     self.setup, self.check):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()[:16]

    def public(self) -> dict:
        """What a driver sends to the pipeline/worker (no solution)."""
        return {"id": self.id, "tier": self.tier, "domains": list(self.domains), "mode": self.mode,
                "prompt": self.prompt, "timeout_s": self.timeout_s, "path": str(self.path)}


def _read(path: Path, required: bool, folder: Path) -> str:
    if not path.is_file():
        if required:
            raise TaskError(f"task {folder}: missing file {path.name}")
        return ""
    return path.read_text(encoding="utf-8")


def load_task(folder: str | Path) -> Task:
    """Load and validate one task folder. Raises TaskError with a clear message."""
    folder = Path(folder)
    if not folder.is_dir():
        raise TaskError(f"task {folder}: not a directory")
    meta_path = folder / "task.toml"
    if not meta_path.is_file():
        raise TaskError(f"task {folder}: missing file task.toml")
    try:
        meta = tomllib.loads(meta_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise TaskError(f"task {folder}: task.toml is not valid TOML: {e}") from None
    missing = [k for k in REQUIRED_KEYS if k not in meta]
    if missing:
        raise TaskError(f"task {folder}: task.toml lacks {', '.join(missing)}")
    tid = meta["id"]
    if not isinstance(tid, str) or tid != folder.name:
        raise TaskError(f"task {folder}: id {tid!r} must equal the folder name {folder.name!r}")
    if meta["tier"] not in TIERS:
        raise TaskError(f"task {folder}: bad tier {meta['tier']!r} (use one of {', '.join(TIERS)})")
    doms = meta["domains"]
    if not isinstance(doms, list) or not doms or any(d not in DOMAINS for d in doms):
        raise TaskError(f"task {folder}: bad domains {doms!r} (a non-empty list from {', '.join(DOMAINS)})")
    if meta["mode"] not in MODES:
        raise TaskError(f"task {folder}: bad mode {meta['mode']!r} (use sandbox or interactive)")
    prompt = meta["prompt"]
    if not isinstance(prompt, str) or not prompt.strip():
        raise TaskError(f"task {folder}: prompt is empty")
    timeout = meta.get("timeout_s", 60)
    if not isinstance(timeout, (int, float)) or timeout <= 0:
        raise TaskError(f"task {folder}: timeout_s must be a positive number, not {timeout!r}")
    unknown = set(meta) - set(REQUIRED_KEYS) - {"timeout_s", "notes"}
    if unknown:
        raise TaskError(f"task {folder}: unknown keys in task.toml: {', '.join(sorted(unknown))}")
    solution = _read(folder / "solution.py", True, folder)
    check = _read(folder / "check.py", True, folder)
    setup = _read(folder / "setup.py", False, folder)
    wrong = {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("wrong_*.py"))}
    return Task(id=tid, tier=meta["tier"], domains=tuple(doms), mode=meta["mode"], prompt=prompt.strip(),
                timeout_s=float(timeout), path=folder, solution=solution, check=check, setup=setup, wrong=wrong)


def load_tasks(tasks_dir: str | Path, tiers: list[str] | None = None, ids: list[str] | None = None) -> list[Task]:
    """Load every task folder under ``tasks_dir`` (sorted by tier, then id), optionally filtered.

    ``ids`` entries may be exact ids or shell-style patterns (``b0*``). Folders whose name starts
    with ``.`` or ``_`` are ignored. Raises TaskError for a missing folder, a bad task, duplicate ids,
    an unknown tier filter or an id filter that matches nothing.
    """
    import fnmatch

    root = Path(tasks_dir)
    if not root.is_dir():
        raise TaskError(f"tasks directory {root} does not exist")
    for t in tiers or []:
        if t not in TIERS:
            raise TaskError(f"unknown tier filter {t!r} (use {', '.join(TIERS)})")
    tasks = [load_task(p) for p in sorted(root.iterdir()) if p.is_dir() and not p.name.startswith((".", "_"))]
    if not tasks:
        raise TaskError(f"tasks directory {root} holds no task folders")
    if tiers:
        tasks = [t for t in tasks if t.tier in tiers]
    if ids:
        for pat in ids:
            if not any(fnmatch.fnmatchcase(t.id, pat) for t in tasks):
                raise TaskError(f"no task matches id filter {pat!r}")
        tasks = [t for t in tasks if any(fnmatch.fnmatchcase(t.id, pat) for pat in ids)]
    order = {t: i for i, t in enumerate(TIERS)}
    return sorted(tasks, key=lambda t: (order[t.tier], t.id))
