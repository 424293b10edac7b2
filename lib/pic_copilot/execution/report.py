"""The execution report: what running one script produced, wherever it ran, and its summaries.

A report arrives as a dict from whoever ran the script: the sandbox (``RunResult.to_dict()``), the
KLayout plugin's bridge over JSON lines (``run_code``, ``insert_files``, ``run_deck``), ``klayout -b``
(:mod:`pic_copilot.bridges.klayout_batch`) or the running KLayout's endpoint
(:mod:`pic_copilot.bridges.remote_client`). Those stay dicts on the wire (the plugin is stdlib+pya
only); the engine turns each into an :class:`ExecutionReport` with :meth:`ExecutionReport.from_dict`
where it arrives (:mod:`pic_copilot.execution.routing`, :mod:`pic_copilot.execution.drc_deck`, the
benchmark worker, the command line and MCP server for the engine's answers) and reads attributes.

:meth:`ExecutionReport.to_dict` gives the dict back: the keys the report came with, in their order,
plus every field assigned since, so the engine's ``execution`` messages are the dicts they always
were. A field that was never set is left out (a KLayout report has no ``exit_code``, a sandbox report
no ``changes``); ``None`` means "absent" for the attributes, ``ok`` is always there.

The summaries of a report live here too: :func:`execution_summary` (what a decision needs; also the
progress events, run records, ``ask --json`` and MCP results), :func:`execution_text` (the same as
prompt text for the LLM evaluator) and :func:`trial_record` (what a benchmark trial file keeps).

stdlib only.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from pathlib import PurePath

#: the "where" of a report whose run changed the open layout (and so can be undone)
CHANGES_OPEN_LAYOUT = ("klayout", "sandbox+insert")


#: a traceback frame of the script itself: the sandbox runs script.py, the bridge compiles "<pic-copilot script>"
_SCRIPT_FRAME = re.compile(r'File "(?:[^"]*script\.py|<[^">]*script>)", line (\d+)')


@dataclass(eq=True)
class ExecutionReport:
    """What running a script produced (every field but ``ok`` may be absent: None).

    Attributes:
        ok: the script ran without an exception (and, inserted into KLayout, was inserted).
        where: "sandbox", "klayout" (a pya script on the open layout), "sandbox+insert" (a sandbox
            run whose layouts were inserted into the open layout), "klayout-drc" (a DRC deck on the
            open layout) or "none" (the runner itself failed).
        stdout, stderr: what the script printed (clipped by the runner).
        exception: ``{"type", "message", "traceback"}`` (a deck error adds ``"line"``), or None.
        duration_s: seconds the run took.
        workdir: the folder the script ran in (its output files are there).
        files: what the script wrote, one dict each: ``path`` (relative to workdir), ``kind``
            (layout, json, csv, rdb, deck, ...), ``size``, ``summary`` (cells/layers/bbox of a
            layout, keys of a JSON file, categories of a report database, ...). None when the
            runner does not list files (a KLayout run without a work folder).
        workdir_before: ``{path: [size, mtime_ns]}`` of the files the work folder held before a
            KLayout run (the folder may be shared by several runs); a file unchanged since is not
            the run's output.
        exit_code, timed_out, killed_reason, warm, isolation, isolation_detail, job_id: the
            sandbox's (see :class:`pic_copilot.sandbox.RunResult`); killed_reason names the limit
            that stopped the job (timeout, memory, disk, pids, cpu, file-size, worker-died, signal:...).
        changes: what a KLayout run changed in the open layout: cells_added, cells_removed,
            layers_added, shapes_delta {"L/D": n}, bbox_before_um, bbox_after_um, changed.
        summary: the open layout after the run (see the plugin's ``bridge.layout_summary``).
        rolled_back, rollback_exact, undoable, note: the KLayout transaction (a failed script is
            rolled back; ``note`` says why a change cannot be undone).
        inserted_cells: the cells an insert placed under the active cell.
        deck: a DRC deck's run: ``{"file", "input", "report", "categories": {name: items}, "items"}``.
        previews, reports: thumbnails/readable copies of written layouts and the report databases
            (added by the engine before it sends a sandbox report to the panel).
        probe_undone: the fix flow's first run changed the open layout and was undone.
        extra: any other key a runner sent (e.g. the plugin's deck_path, report_path, report_shown),
            kept as it came.
    """

    ok: bool = False
    where: str | None = None
    stdout: str | None = None
    stderr: str | None = None
    exception: dict | None = None
    duration_s: float | None = None
    workdir: str | None = None
    files: list[dict] | None = None
    workdir_before: dict | None = None
    exit_code: int | None = None
    timed_out: bool | None = None
    killed_reason: str | None = None
    warm: bool | None = None
    isolation: str | None = None
    isolation_detail: dict | None = None
    job_id: str | None = None
    changes: dict | None = None
    summary: dict | None = None
    rolled_back: bool | None = None
    rollback_exact: bool | None = None
    undoable: bool | None = None
    note: str | None = None
    inserted_cells: list[str] | None = None
    deck: dict | None = None
    previews: list | None = None
    reports: list | None = None
    probe_undone: bool | None = None
    extra: dict = field(default_factory=dict)
    # the report's keys in order (what to_dict writes); set last, so the constructor's fields are not counted twice
    _keys: list[str] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # made with the constructor: the fields given a value (ok always), then the extra keys
        object.__setattr__(self, "_keys", [k for k in _FIELDS if k == "ok" or getattr(self, k) is not None]
                           + list(self.extra))

    def __setattr__(self, name: str, value) -> None:
        object.__setattr__(self, name, value)
        keys = self.__dict__.get("_keys")
        if keys is not None and name in _FIELD_SET and name not in keys:
            keys.append(name)

    # ------------------------------------------------------------------ the wire
    @classmethod
    def from_dict(cls, d: dict) -> "ExecutionReport":
        """A report from the dict a runner delivered (the sandbox, a bridge, the engine's messages);
        every key is kept, unknown ones in ``extra``."""
        d = dict(d or {})
        rep = cls(**{k: d[k] for k in _FIELDS if k in d},
                  extra={k: v for k, v in d.items() if k not in _FIELD_SET})
        object.__setattr__(rep, "_keys", list(d))
        return rep

    def to_dict(self) -> dict:
        """The report as the dict it came as (plus the fields set since): the JSON of the
        engine's ``execution`` messages."""
        out = {}
        for k in self._keys:
            if k in _FIELD_SET:
                out[k] = getattr(self, k)
            elif k in self.extra:
                out[k] = self.extra[k]
        for k, v in self.extra.items():
            out.setdefault(k, v)
        return out

    # ------------------------------------------------------------------ what readers ask
    @property
    def changed_layout(self) -> bool:
        """The run changed the open layout (and so can be undone)."""
        return self.where in CHANGES_OPEN_LAYOUT and bool(self.ok) and bool((self.changes or {}).get("changed"))

    def failing_line(self) -> int | None:
        """The line of the script itself where the run failed: the last traceback frame of the
        sandbox's script.py or of the bridge's "<pic-copilot script>"; None when none is shown."""
        exc = self.exception or {}
        lines = _SCRIPT_FRAME.findall(str(exc.get("traceback") or self.stderr or ""))
        return int(lines[-1]) if lines else None

    def written_names(self) -> set[str]:
        """The file names (without folders) of the files the run wrote (empty when none are listed)."""
        return {PurePath(f.get("path", "")).name for f in self.files or []}

    def has(self, key: str) -> bool:
        """The report has this key (came with it, or the field was set since), even if its value is None."""
        return key in self._keys or key in self.extra

    def file(self, path: str) -> dict | None:
        """The entry of ``files`` with this path, or None."""
        return next((f for f in self.files or [] if f.get("path") == path), None)

    def deck_categories(self) -> dict | None:
        """A deck run's report categories {name: items}, or None when no report was read."""
        return (self.deck or {}).get("categories")


_FIELDS = tuple(f.name for f in fields(ExecutionReport) if f.name not in ("extra", "_keys"))
_FIELD_SET = frozenset(_FIELDS)


def failed_run(type_: str, message: str, traceback: str = "", **fields_) -> ExecutionReport:
    """A report for a run that did not happen or broke before the script's result was known
    (``fields_``: where, stdout, stderr, files, ... as the caller reports them)."""
    return ExecutionReport(ok=False, **fields_, exception={"type": type_, "message": message, "traceback": traceback})


# ---------------------------------------------------------------------------------- summaries
OUT_CHARS = 600    # characters of stdout a summary keeps
TRIAL_CLIP = 4000  # characters of stdout/stderr a benchmark trial record keeps


def tail(text: str | None, n: int) -> str:
    """The last ``n`` characters of a text, stripped ("..." in front when cut)."""
    text = (text or "").strip()
    return text if len(text) <= n else "..." + text[-n:]


def execution_summary(rep: ExecutionReport | None) -> dict:
    """The parts of an execution report that matter for a decision (also the progress/record data,
    ``ask --json`` and the MCP results)."""
    if rep is None:
        return {"ran": False}
    exc = rep.exception or None
    files = [{"path": f.get("path"), "kind": f.get("kind"), "size": f.get("size"),
              "summary": f.get("summary")} for f in (rep.files or [])][:10]
    out = {"ran": True, "where": rep.where, "ok": bool(rep.ok), "timed_out": bool(rep.timed_out),
           "exit_code": rep.exit_code, "duration_s": rep.duration_s,
           "exception": {"type": exc.get("type"), "message": tail(exc.get("message"), 400)} if exc else None,
           "stdout": tail(rep.stdout, OUT_CHARS), "stderr": tail(rep.stderr, 300), "files": files}
    if rep.killed_reason:
        out["killed_reason"] = rep.killed_reason
    if rep.changes is not None:
        out["changes"] = rep.changes
    if rep.inserted_cells:
        out["inserted_cells"] = rep.inserted_cells
    return out


def execution_text(rep: ExecutionReport | None) -> str:
    """Execution evidence as prompt text (short)."""
    s = execution_summary(rep)
    parts = ["ok" if s["ok"] else "FAILED"]
    if s.get("killed_reason"):
        parts.append(f"stopped by the sandbox's {s['killed_reason']} limit")
    if s.get("exception"):
        parts.append(f"{s['exception']['type']}: {s['exception']['message']}")
    if s.get("stdout"):
        parts.append("printed: " + s["stdout"])
    if s.get("files"):
        parts.append("files: " + ", ".join(f"{f['path']} ({f.get('kind') or '?'}"
                                            + (f"; {json.dumps(f['summary'], separators=(',', ':'))[:160]}" if f.get("summary") else "")
                                            + ")" for f in s["files"]))
    ch = s.get("changes")
    if ch:
        parts.append("layout changes: " + json.dumps({k: ch.get(k) for k in ("cells_added", "layers_added", "shapes_delta",
                                                                           "bbox_after_um") if ch.get(k)}, separators=(",", ":"))[:400])
    return "; ".join(parts)


def clip(s: str | None, n: int = TRIAL_CLIP) -> str:
    """The first ``n`` characters of a text, saying how many more were cut."""
    s = s or ""
    return s if len(s) <= n else s[:n] + f"\n... [{len(s) - n} more characters cut]"


#: the fields a benchmark trial record keeps as they are, when the report has them
_TRIAL_FIELDS = ("ok", "exception", "timed_out", "killed_reason", "duration_s", "where", "exit_code", "rolled_back",
                 "inserted_cells")


def trial_record(rep: ExecutionReport | None) -> dict:
    """The parts of an execution report a benchmark trial record keeps (file paths only, long
    output clipped)."""
    rep = rep or ExecutionReport.from_dict({})
    out = {k: getattr(rep, k) for k in _TRIAL_FIELDS if rep.has(k)}
    out["stdout"] = clip(rep.stdout)
    out["stderr"] = clip(rep.stderr)
    if rep.files is not None:
        out["files"] = [f.get("path") for f in rep.files or []]
    if rep.changes:
        out["changes"] = rep.changes
    return out
