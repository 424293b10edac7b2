"""Decide where a generated script runs and run it there.

- Scripts that only need KLayout's ``pya`` run in KLayout on the open layout (interactive mode),
  through the bridge, in one undoable transaction, after a trial run on a copy of the layout in
  a KLayout process of their own (:mod:`.trial_run`: a crash or an endless loop stays there).
- Scripts that import gdsfactory, kfactory, pip ``klayout`` or SAX run in the sandbox (the
  engine's Python). In interactive mode every GDS/OAS they write is then rewritten without
  gdsfactory metadata and inserted into the open layout by the bridge.
- KLayout DRC decks (Ruby DSL, not Python) run with KLayout's own DRC engine: in the sandbox on
  the run's input layout, or through the bridge on the open layout (see :mod:`pic_copilot.execution.drc_deck`).

See docs/EXECUTION_CONTEXT.md.
"""
from __future__ import annotations

import ast
import tempfile
from pathlib import Path
from typing import Callable

from ..bridges import Bridge
from . import drc_deck
from .render import is_layout_file
from .report import ExecutionReport
from .trial_run import trial_run

ENGINE_ONLY_MODULES = {"gdsfactory", "kfactory", "klayout", "sax", "jax", "gplugins", "femwell", "gdstk", "shapely"}


def imported_modules(code: str) -> set[str]:
    """Top-level module names a script imports (empty if it does not parse)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def needs_engine_python(code: str) -> bool:
    """True if the script imports a package that exists only in the engine's Python."""
    return bool(imported_modules(code) & ENGINE_ONLY_MODULES)


def run_in_sandbox(code: str, timeout_s: float = 120, workdir: str | None = None,
                   inputs: dict | None = None) -> ExecutionReport:
    """Run a script in the sandbox and return its report (the sandbox's RunResult, where "sandbox").
    ``inputs``: Request.inputs (see :func:`input_files`)."""
    from ..sandbox import default_sandbox

    res = default_sandbox().run(code, timeout_s=timeout_s, workdir=workdir, inputs=input_files(inputs))
    rep = ExecutionReport.from_dict(res.to_dict())
    rep.where = "sandbox"
    return rep


def _compatible_copies(workdir: str, files: list[dict], out_dir: Path) -> list[str]:
    """Rewrite each layout file the script wrote into ``out_dir`` so KLayout 0.28.5 can read it.

    Returns the new paths.
    """
    from ..sandbox.gds_compat import strip_metadata

    from .render import job_file_copy

    paths = []
    for f in files:
        rel = f.get("path", "")
        if not is_layout_file(rel) or f.get("kind") in ("symlink", "special"):
            continue
        # the job chose what this name is: copy it without following links first
        raw = job_file_copy(workdir, rel, out_dir / ("raw-" + Path(rel).name))
        dst = out_dir / (Path(rel).stem + ".gds")
        strip_metadata(raw, dst)
        raw.unlink(missing_ok=True)
        paths.append(str(dst))
    return paths


def workdir_files(workdir: str, before: dict | None = None) -> list[dict]:
    """Summaries of the data files a script that ran in KLayout wrote to its work folder.

    Tables, JSON and report databases are read with the standard library; layout files are not
    parsed in the engine (their effect on the open layout is in the bridge's report).

    Args:
        workdir: the folder the script ran in.
        before: ``{path: [size, mtime_ns]}`` of the folder's files before the run; a file with the
            same size and time was left by an earlier run (or was an input) and is not listed.
    """
    from ..sandbox.summary import summarize_dir

    try:
        return summarize_dir(workdir, skip=before, max_files=50, parse_layouts=False)
    except OSError:
        return []


def input_files(inputs: dict | None) -> dict | None:
    """Request.inputs (name -> path of a prepared file) as the sandbox wants them: a ``str`` value
    that names an existing file becomes a Path (the sandbox writes a plain ``str`` as the file's
    content, so a benchmark task's prepared in.gds arrived as the text of its path)."""
    if not inputs:
        return inputs
    return {k: (Path(v) if isinstance(v, str) and Path(v).is_absolute() and Path(v).is_file() else v)
            for k, v in inputs.items()}


def execute(code: str, mode: str, bridge: Bridge | None, timeout_s: float = 120,
            emit: Callable[[str], None] | None = None, inputs: dict | None = None,
            expected_files: list[str] | tuple = ()) -> ExecutionReport:
    """Run a script where it belongs and return one execution report.

    Args:
        code: the script.
        mode: "interactive" (act on the open layout) or "sandbox".
        bridge: how to reach KLayout; required for interactive mode.
        timeout_s: wall-time limit for sandbox runs.
        emit: optional progress callback (one line of text).
        inputs: files copied into the sandbox work directory first (name -> path or content).
        expected_files: files the designer named (a DRC deck's file and report names come from them).

    Returns:
        the report, where "klayout", "sandbox", "sandbox+insert" or, for a DRC deck on the open
        layout, "klayout-drc": ok, stdout, stderr, exception, and the bridge's changes/summary or
        the sandbox's files (a deck adds ``deck``: its file, input, report and marker counts).
    """
    say = emit or (lambda _msg: None)
    inputs = input_files(inputs)
    if drc_deck.is_deck(code):
        return drc_deck.execute_deck(code, mode, bridge, timeout_s=timeout_s, emit=emit, inputs=inputs,
                                     expected_files=expected_files)
    if mode == "interactive" and bridge is None:
        raise ValueError("interactive mode needs a KLayout bridge (open KLayout, or use --mode sandbox)")
    if mode == "interactive" and not needs_engine_python(code):
        if hasattr(bridge, "copy_layout"):
            say("trying the script on a copy of the open layout")
            blocked = trial_run(code, bridge, timeout_s=timeout_s)
            if blocked is not None:
                return blocked
        say("running on the open layout in KLayout")
        rep = ExecutionReport.from_dict(bridge.run_code(code))
        rep.where = "klayout"
        if rep.files is None and rep.workdir:
            rep.files = workdir_files(rep.workdir, rep.workdir_before)
        return rep
    say("running in the sandbox")
    rep = run_in_sandbox(code, timeout_s=timeout_s, inputs=inputs)
    if mode != "interactive" or not rep.ok:
        return rep
    layout_files = [f for f in rep.files or [] if is_layout_file(f.get("path", ""))]
    if not layout_files:
        rep.ok = False
        rep.exception = {"type": "NoLayoutOutput", "traceback": "",
                         "message": "the script ran in the sandbox but wrote no GDS/OAS file, so nothing could be "
                                    "placed in the open layout; write the component with "
                                    "c.write_gds('name.gds', with_metadata=False)"}
        return rep
    say(f"inserting {', '.join(f['path'] for f in layout_files)} into the open layout")
    # the copies live only until KLayout has read them (insert_files returns after reading)
    with tempfile.TemporaryDirectory(prefix="pic-copilot-insert-") as out_dir:
        try:
            paths = _compatible_copies(rep.workdir, layout_files, Path(out_dir))
        except Exception as e:  # noqa: BLE001 - an unreadable output file is a script failure
            rep.ok = False
            rep.exception = {"type": type(e).__name__, "message": f"cannot read the written layout: {e}",
                             "traceback": ""}
            return rep
        ins = ExecutionReport.from_dict(bridge.insert_files(paths))
    rep.where = "sandbox+insert"
    rep.ok = bool(ins.ok)
    rep.changes = ins.changes
    rep.summary = ins.summary
    rep.inserted_cells = ins.inserted_cells if ins.has("inserted_cells") else []
    if not ins.ok:
        rep.exception = ins.exception
    return rep
