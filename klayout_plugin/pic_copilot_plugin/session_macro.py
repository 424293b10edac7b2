"""The session log and "Save session as macro" (stdlib only; the macro itself uses pya).

The controller records every change the copilot makes to an open layout, in order: a script that
ran in KLayout (pya, "kind A") or GDS files the bridge inserted (written by a script that ran in the
sandbox with gdsfactory, "kind B"). An undo of the copilot's last change drops its entry again, so
the log always holds the copilot's changes that are still on the layout, each with the request
(and feedback) it answered and whether the copilot accepted it.

The saved macro replays them on the layout open in KLayout (or a new one):

- kind A scripts run as they are, each in fresh globals like the bridge's (``layout``, ``cell``,
  ``view``, ``cellview``, ``dbu``, the ``selection`` recorded when it ran, ``workdir``);
- kind B scripts cannot run inside KLayout 0.28.5 (gdsfactory crashes it), so the GDS each one
  wrote is saved next to the macro (``<macro>_files/``) and inserted the way the bridge did: every
  top cell as a new cell, instantiated once under the active cell at the origin. The script that
  made it is kept in the macro as a comment.

The whole replay is one undo step. Changes the designer made by hand, and changes external agents
made through the remote endpoint, are not in the log.
"""
from __future__ import annotations

import ast
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Step:
    """One change of the open layout.

    Attributes:
        kind: "pya" (a script that ran in KLayout) or "gds" (files the bridge inserted).
        request: the request id it belonged to ("" for the panel's own Run / Insert buttons).
        texts: the designer's words: the request, then each feedback, as they were when it ran.
        code: the pya script (kind "pya").
        files: saved copies of the inserted GDS files (kind "gds").
        cells: the cells the insert created (kind "gds").
        selection: the selection the script saw (kind "pya").
        accepted: True/False once the request's result came, None while it runs.
        source_script: the sandbox script that wrote the GDS (kind "gds", from the result).
        layout: the layout it changed (the pya object; steps of other layouts are not saved).
    """

    kind: str
    request: str
    texts: list[str]
    code: str = ""
    files: list[str] = field(default_factory=list)
    cells: list[str] = field(default_factory=list)
    selection: list = field(default_factory=list)
    accepted: bool | None = None
    source_script: str = ""
    layout: object = None


class SessionLog:
    """The copilot's changes that are still on the layout, oldest first."""

    def __init__(self):
        self.steps: list[Step] = []
        self.texts: dict[str, list[str]] = {}
        self._files = None

    def note_request(self, request_id: str, text: str) -> None:
        self.texts[request_id] = [text]

    def note_feedback(self, request_id: str, text: str) -> None:
        self.texts.setdefault(request_id, []).append("feedback: " + text)

    def files_dir(self) -> str:
        """Where copies of inserted GDS files wait until a macro is saved (the bridge's inputs are temporary)."""
        if self._files is None or not os.path.isdir(self._files):
            self._files = tempfile.mkdtemp(prefix="pic-copilot-session-")
        return self._files

    def record(self, action: str, payload: dict, result: dict, request_id: str = "", layout=None,
               selection=None, texts: list[str] | None = None) -> None:
        """Note one bridge action and its result (called for every run_code / insert_files / undo)."""
        if action == "undo":
            if result.get("ok") and self.steps:
                self.steps.pop()
            return
        if not (result.get("ok") and (result.get("changes") or {}).get("changed") and result.get("undoable")):
            return  # nothing changed, or it cannot be undone and so cannot be tracked as one step
        words = list(texts if texts is not None else self.texts.get(request_id, []))
        if action == "insert_files":
            kept = []
            for p in payload.get("paths") or []:
                dst = os.path.join(self.files_dir(), f"{len(self.steps) + 1:02d}_{os.path.basename(p)}")
                shutil.copyfile(p, dst)
                kept.append(dst)
            self.steps.append(Step("gds", request_id, words, files=kept, layout=layout,
                                   cells=list(result.get("inserted_cells") or [])))
        else:
            self.steps.append(Step("pya", request_id, words, code=payload.get("code", ""), layout=layout,
                                   selection=list(selection or [])))

    def undone(self) -> None:
        """The designer's Undo last run took back the copilot's last change."""
        if self.steps:
            self.steps.pop()

    def verdict(self, request_id: str, ok: bool, script: str = "") -> None:
        """A request finished: mark its steps accepted (or not); remember the sandbox script of its inserts."""
        for st in self.steps:
            if st.request == request_id and st.accepted is None:
                st.accepted = bool(ok)
                if st.kind == "gds" and script:
                    st.source_script = script

    def for_layout(self, layout) -> list[Step]:
        return [s for s in self.steps if layout is None or s.layout is None or s.layout is layout]


# ----------------------------------------------------------------------------------- the macro
def py_literal(code: str) -> str:
    """A Python string literal for ``"\\n" + code`` that reads like the code (a raw triple-quoted string
    when that spells it exactly, else an escaped one)."""
    for q in ("'''", '"""'):
        cand = f"r{q}\n{code}{q}"
        try:
            if q not in code and ast.literal_eval(cand) == "\n" + code:
                return cand
        except (SyntaxError, ValueError):
            pass
    return repr("\n" + code)


def _comment(text: str, prefix: str = "# ") -> str:
    return "\n".join(prefix + line if line.strip() else prefix.rstrip() for line in text.splitlines())


def _slug(text: str, n: int = 40) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text.strip().lower()).strip("_")[:n].rstrip("_") or "session"


_HEADER = '''# $description: pic-copilot session of {date} ({n} step{s})
"""Replays the pic-copilot session of {date} on the layout open in KLayout, or on a new one.

Every change the copilot made to the layout and that was still there when the session was saved,
in order, each after the request it answered. Scripts that ran in KLayout (pya) run here as they
are, with the globals the copilot gave them (layout, cell, view, cellview, dbu, selection,
workdir). Scripts that needed gdsfactory ran in the copilot's sandbox (gdsfactory cannot run inside
KLayout 0.28.5): the GDS they wrote is in {files}/ next to this macro and is inserted the way the
copilot did (its top cells as new cells, instantiated under the active cell at the origin).
The replay is one undo step. Run it from the Macro IDE, or: klayout -e -r {name}
(klayout -b -r {name} -rd output=replayed.gds writes the result without a window).
"""
import os
import tempfile

import pya

FILES = os.path.join(os.path.dirname(os.path.abspath(globals().get("__file__") or {fallback!r})), {files!r})


def _open_layout():
    """(layout, cell, view, cellview): the current view's, else a new editable layout with a TOP cell."""
    mw = pya.MainWindow.instance() if hasattr(pya, "MainWindow") else None
    if mw is None:  # klayout -b
        layout = pya.Layout(True)
        return layout, layout.create_cell("TOP"), None, None
    view = pya.LayoutView.current()
    if view is None or view.active_cellview() is None or not view.active_cellview().is_valid():
        if pya.Application.instance().is_editable():
            mw.create_layout(1)
        else:  # viewer mode: an editable layout in a new view, so the replay can be undone
            mw.select_view(mw.create_view())
            mgr = mw.manager() if callable(mw.manager) else mw.manager
            mw.current_view().show_layout(pya.Layout(True, mgr), True)
        view = pya.LayoutView.current()
    cv = view.active_cellview()
    layout = cv.layout()
    if cv.cell is None:
        tops = list(layout.each_top_cell())
        cv.cell = layout.cell(tops[0]) if tops else layout.create_cell("TOP")
    return layout, cv.cell, view, cv


def _run_pya(step, code, layout, cell, view, cellview, selection):
    """Run one script as the copilot's bridge did: fresh globals, in a work folder."""
    workdir = tempfile.mkdtemp(prefix="pic-copilot-replay-")
    ctx = {{"__name__": "__main__", "__builtins__": __builtins__, "pya": pya, "layout": layout, "cell": cell,
           "view": view, "cellview": cellview, "dbu": layout.dbu, "selection": selection, "workdir": workdir}}
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        exec(compile(code, f"<session step {{step}}>", "exec"), ctx)
    finally:
        os.chdir(cwd)


def _insert_gds(step, names, layout, cell):
    """Insert each file's top cells under the active cell, as the copilot's bridge did."""
    for name in names:
        src = pya.Layout()
        src.read(os.path.join(FILES, name))
        if abs(src.dbu - layout.dbu) > 1e-12:
            src.dbu = layout.dbu
        for top_index in src.each_top_cell():
            top = src.cell(top_index)
            new = layout.create_cell(top.name)
            new.copy_tree(top)
            cell.insert(pya.CellInstArray(new.cell_index(), pya.Trans()))


def replay(steps):
    layout, cell, view, cellview = _open_layout()
    undoable = view is not None and layout.is_editable()
    if undoable:
        view.transaction("pic-copilot session replay")
    try:
        for i, (kind, what, selection) in enumerate(steps, 1):
            try:
                if kind == "pya":
                    _run_pya(i, what[1:], layout, cell, view, cellview, selection)
                else:
                    _insert_gds(i, what, layout, cell)
            except Exception as e:
                raise RuntimeError(f"step {{i}} of the session failed: {{type(e).__name__}}: {{e}}") from e
        if view is not None:
            view.add_missing_layers()
    finally:
        if undoable:
            view.commit()
    if view is not None:
        view.max_hier()
        view.zoom_fit()
    if globals().get("output"):
        layout.write(output)  # noqa: F821 - from -rd output=...
    print(f"pic-copilot: replayed {{len(steps)}} step(s) on {{cell.name}}")
    return layout


STEPS = []
'''


def macro_text(steps: list[Step], name: str, files_name: str, fallback_dir: str, date: str) -> str:
    """The macro's text for ``steps`` (see the module docstring)."""
    out = [_HEADER.format(date=date, n=len(steps), s="" if len(steps) == 1 else "s", files=files_name, name=name,
                          fallback=os.path.join(fallback_dir, name))]
    for i, st in enumerate(steps, 1):
        out.append(f"\n# {'-' * 30} step {i} {'-' * 30}")
        words = st.texts or ["(run from the panel's Script tab)"]
        out.append("\n".join(_comment(("request: " + w) if j == 0 and not w.startswith("feedback: ") and st.texts else w)
                             for j, w in enumerate(words)))
        verdict = {True: "accepted by the copilot", False: "NOT accepted by the copilot, but left on the layout",
                   None: "run by the designer" if not st.request else "still running when saved"}[st.accepted]
        if st.kind == "pya":
            out.append(f"# ({verdict}; a pya script that ran in KLayout on the active cell)")
            out.append(f"STEPS.append((\"pya\", {py_literal(st.code)}, {st.selection!r}))")
        else:
            names = [os.path.basename(f) for f in st.files]
            out.append(f"# ({verdict}; ran in the sandbox with gdsfactory, which cannot run inside KLayout 0.28.5;")
            out.append(f"#  the GDS it wrote is inserted: cell(s) {', '.join(st.cells) or '?'})")
            if st.source_script.strip():
                out.append("# The sandbox script, for reference:")
                out.append(_comment(st.source_script.rstrip(), "#     "))
            out.append(f"STEPS.append((\"gds\", {names!r}, None))")
    out.append("\nreplay(STEPS)\n")
    return "\n".join(out)


def save(steps: list[Step], folder: str | Path, title: str = "") -> tuple[Path, int]:
    """Write the macro (and the GDS files it inserts, in ``<stem>_files/``) into ``folder``.

    Returns (path of the macro, number of GDS files saved). Raises ValueError when there is nothing to save.
    """
    if not steps:
        raise ValueError("the copilot has not changed this layout in this session (nothing to save)")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d_%H%M%S")
    stem = f"copilot_session_{stamp}" + (f"_{_slug(title, 24)}" if title else "")
    path = folder / f"{stem}.py"
    n = 2
    while path.exists():
        path = folder / f"{stem}_{n}.py"
        n += 1
    files_name = path.stem + "_files"
    copied = 0
    for st in steps:
        if st.kind == "gds":
            (folder / files_name).mkdir(exist_ok=True)
            for f in st.files:
                shutil.copyfile(f, folder / files_name / os.path.basename(f))
                copied += 1
    path.write_text(macro_text(steps, path.name, files_name, str(folder), time.strftime("%Y-%m-%d %H:%M")))
    return path, copied
