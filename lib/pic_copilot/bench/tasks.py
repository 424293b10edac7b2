"""Benchmark tasks: loading and validation (stdlib only: also imported inside KLayout).

Format (see benchmark/README.md)::

    <tasks-dir>/<task-id>/task.toml    id, tier, domains, mode, prompt, timeout_s
    <tasks-dir>/<task-id>/solution.py  reference script
    <tasks-dir>/<task-id>/check.py     assertions on the outcome (no exception = pass)
    <tasks-dir>/<task-id>/setup.py     optional: prepares the starting state
    <tasks-dir>/<task-id>/wrong.toml   optional, for the self-test: plausible wrong variants of
                                       solution.py, written as edits of it (each must fail check.py)

wrong.toml::

    [[variant]]
    name = "wrong_gap"
    why = "uses 0.3 um instead of the requested 0.2 um gap"
    replace = [["gap=0.2", "gap=0.3"]]   # each old string occurs in solution.py exactly once
    # or: script = '''...'''             # the whole variant, when it is no edit of solution.py
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

TIERS = ("basic", "medium", "advanced")
DOMAINS = ("layout", "drc", "drc_deck", "simulation", "data")
#: a task with this domain asks for a KLayout DRC deck: its reference solution is solution.drc (deck text)
DECK_DOMAIN = "drc_deck"
MODES = ("sandbox", "interactive")
REQUIRED_KEYS = ("id", "tier", "domains", "mode", "prompt")
WRONG_FILE = "wrong.toml"
VARIANT_KEYS = ("name", "why", "replace", "script")


class TaskError(ValueError):
    """A task folder does not follow the format; the message names the folder and the problem."""


@dataclass(frozen=True)
class Task:
    """One benchmark task.

    Attributes:
        id: unique name (equals the folder name).
        tier: "basic", "medium" or "advanced".
        domains: subset of "layout", "drc", "drc_deck", "simulation", "data" ("drc_deck": the result is a
            KLayout DRC deck, see :attr:`deck`).
        mode: "sandbox" (plain engine Python in a work directory) or "interactive" (open layout in KLayout).
        prompt: the request as a designer would type it.
        timeout_s: wall-time limit for the candidate script.
        path: the task folder.
        solution, check, setup: script texts (setup "" when absent); a deck task's solution is its
            solution.drc (the deck's text).
        wrong: name -> script text of each wrong variant (solution.py with wrong.toml's edits applied).
        wrong_why: name -> the variant's ``why`` (what makes it wrong).
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
    wrong_why: dict = field(default_factory=dict)

    @property
    def deck(self) -> bool:
        """The task asks for a KLayout DRC deck: the candidate is deck text, run with KLayout's DRC engine."""
        return DECK_DOMAIN in self.domains

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


def _occurrences(text: str, sub: str) -> list[int]:
    """Start offsets of every (also overlapping) occurrence of ``sub`` in ``text``."""
    found, i = [], text.find(sub)
    while i >= 0:
        found.append(i)
        i = text.find(sub, i + 1)
    return found


def apply_replacements(text: str, replace, where: str = "variant") -> str:
    """``text`` with every ``[old, new]`` pair of ``replace`` applied; raises TaskError when invalid.

    The pairs are edits of the original ``text``, independent of their order: each ``old`` must be a
    non-empty string that occurs in ``text`` exactly once, and no two ``old`` strings may overlap.
    ``where`` (e.g. "<folder>/wrong.toml: variant 'wrong_gap'") starts every error message.
    """
    if not isinstance(replace, list) or not replace:
        raise TaskError(f"{where}: replace must be a non-empty list of [old, new] pairs")
    spans = []
    for k, pair in enumerate(replace, 1):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise TaskError(f"{where}: replace entry {k} must be a pair of strings [old, new], not {pair!r}")
        old, new = pair
        if not old:
            raise TaskError(f"{where}: replace entry {k} has an empty old string")
        hits = _occurrences(text, old)
        if not hits:
            raise TaskError(f"{where}: replace entry {k}: old string {old!r} does not occur in solution.py")
        if len(hits) > 1:
            lines = ", ".join(str(n) for n in sorted({text.count("\n", 0, i) + 1 for i in hits})[:8])
            raise TaskError(f"{where}: replace entry {k}: old string {old!r} is ambiguous, it occurs {len(hits)} "
                            f"times in solution.py (lines {lines}); add context to make it unique")
        spans.append((hits[0], hits[0] + len(old), new, k))
    spans.sort()
    for (_, end, _, k1), (start, _, _, k2) in zip(spans, spans[1:]):
        if start < end:
            raise TaskError(f"{where}: replace entries {min(k1, k2)} and {max(k1, k2)} overlap in solution.py")
    out, pos = [], 0
    for start, end, new, _ in spans:
        out += [text[pos:start], new]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def load_wrong_variants(folder: Path, solution: str) -> tuple[dict, dict]:
    """Read ``folder/wrong.toml`` (optional): ``({name: script text}, {name: why})``; TaskError when invalid."""
    path = folder / WRONG_FILE
    if not path.is_file():
        return {}, {}
    where = f"task {folder}: {WRONG_FILE}"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise TaskError(f"{where} is not valid TOML: {e}") from None
    if set(data) - {"variant"}:
        raise TaskError(f"{where}: unknown keys {', '.join(sorted(set(data) - {'variant'}))} (use [[variant]] tables)")
    variants = data.get("variant")
    if not isinstance(variants, list) or not variants:
        raise TaskError(f"{where}: no [[variant]] tables")
    wrong, why = {}, {}
    for k, v in enumerate(variants, 1):
        if not isinstance(v, dict):
            raise TaskError(f"{where}: variant {k} must be a [[variant]] table, not {v!r}")
        name = v.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"wrong_\w+", name):
            raise TaskError(f"{where}: variant {k} needs a name like \"wrong_gap\" (wrong_ + letters, digits, _), "
                            f"not {name!r}")
        vwhere = f"{where}: variant {name!r}"
        if name in wrong:
            raise TaskError(f"{vwhere} is defined twice")
        unknown = set(v) - set(VARIANT_KEYS)
        if unknown:
            raise TaskError(f"{vwhere}: unknown keys {', '.join(sorted(unknown))} (use {', '.join(VARIANT_KEYS)})")
        if not isinstance(v.get("why"), str) or not v["why"].strip():
            raise TaskError(f"{vwhere}: why (what makes the variant wrong) is missing or empty")
        if ("replace" in v) == ("script" in v):
            raise TaskError(f"{vwhere}: give exactly one of replace (edits of solution.py) or script (the whole text)")
        if "script" in v:
            if not isinstance(v["script"], str):
                raise TaskError(f"{vwhere}: script must be a string")
            code = v["script"]
        else:
            code = apply_replacements(solution, v["replace"], vwhere)
        if code == solution:
            raise TaskError(f"{vwhere}: the variant is identical to solution.py")
        wrong[name], why[name] = code, v["why"].strip()
    return wrong, why


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
    # a DRC-deck task's reference solution is the deck itself (KLayout DRC language, plain text)
    solution = _read(folder / ("solution.drc" if DECK_DOMAIN in doms else "solution.py"), True, folder)
    check = _read(folder / "check.py", True, folder)
    setup = _read(folder / "setup.py", False, folder)
    wrong, wrong_why = load_wrong_variants(folder, solution)
    return Task(id=tid, tier=meta["tier"], domains=tuple(doms), mode=meta["mode"], prompt=prompt.strip(),
                timeout_s=float(timeout), path=folder, solution=solution, check=check, setup=setup, wrong=wrong,
                wrong_why=wrong_why)


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
