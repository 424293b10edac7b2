"""Run scripts in KLayout's own interpreter on the open layout, undoably, and report what changed.

The execution context contract is documented in docs/EXECUTION_CONTEXT.md. stdlib + pya only.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import os
import tempfile
import time
import traceback

import pya

from . import guard

MAX_OUTPUT = 20000
COPILOT_TRANSACTION = "pic-copilot"  # every transaction the copilot opens starts with this


class Session:
    """Where scripts run: the GUI's current view, or a headless layout with its own undo manager.

    Attributes:
        layout: the open layout.
        view: the GUI view, or None headless.
        cellview: the GUI cell view, or None headless.
        manager: the undo manager (the main window's in the GUI).
        filename: the layout's file, "" when unsaved.
    """

    def __init__(self, layout, view=None, cellview=None, manager=None, filename: str = ""):
        self.layout = layout
        self.view = view
        self.cellview = cellview
        self.manager = manager
        self.filename = filename
        self._headless_cell = None

    @classmethod
    def current_gui(cls) -> "Session | None":
        """The session of the GUI's active cell view, or None if no layout is open."""
        mw = pya.MainWindow.instance() if hasattr(pya, "MainWindow") else None
        view = pya.LayoutView.current() if mw is not None else None
        if view is None:
            return None
        cv = view.active_cellview()
        if cv is None or not cv.is_valid():
            return None
        manager = mw.manager() if callable(mw.manager) else mw.manager  # a method in pya 0.28.5
        return cls(cv.layout(), view=view, cellview=cv, manager=manager, filename=cv.filename())

    @classmethod
    def new_gui_layout(cls) -> "Session":
        """Open a new, unsaved, editable layout with a TOP cell in a new view (as File > New Layout
        does) and return its session.

        In editing mode (``klayout -e`` or the setting) that is ``create_layout``. KLayout started
        as a viewer makes viewer layouts, which cannot be undone: then an editable layout on the
        main window's undo manager is shown in a new view instead (measured on 0.28.5: the
        copilot's change is one step that ``cm_undo`` reverts).
        """
        mw = pya.MainWindow.instance()
        if pya.Application.instance().is_editable():
            mw.create_layout(1)
        else:
            mw.select_view(mw.create_view())
            manager = mw.manager() if callable(mw.manager) else mw.manager
            mw.current_view().show_layout(pya.Layout(True, manager), True)
        session = cls.current_gui()
        session.cell  # creates TOP and makes it the active cell
        session.view.max_hier()
        return session

    @classmethod
    def headless(cls, layout=None) -> "Session":
        """A headless session on a new editable layout (or the given one) with its own undo manager."""
        mgr = pya.Manager()
        if layout is None:
            layout = pya.Layout(True, mgr)
        return cls(layout, manager=mgr)

    @property
    def cell(self):
        """The active cell; a TOP cell is created when the layout has none."""
        if self.cellview is not None and self.cellview.cell is not None:
            return self.cellview.cell
        if self._headless_cell is not None and self._headless_cell.cell_index() < self.layout.cells():
            return self._headless_cell
        tops = list(self.layout.each_top_cell())
        if tops:
            c = self.layout.cell(tops[0])
        else:
            c = self.layout.create_cell("TOP")
        if self.cellview is not None:
            self.cellview.cell = c
        self._headless_cell = c
        return c

    def activate(self, name: str) -> None:
        """Make the cell called ``name`` the active cell of a headless session (a copy of a GUI
        layout keeps the GUI's active cell); an unknown name changes nothing."""
        c = self.layout.cell(name) if name else None
        if c is not None:
            self._headless_cell = c

    @property
    def undoable(self) -> bool:
        return self.manager is not None and self.layout.is_editable()

    def begin(self, description: str) -> None:
        if self.view is not None:
            self.view.transaction(description)
        else:
            self.manager.transaction(description)

    def commit(self) -> None:
        if self.view is not None:
            self.view.commit()
        else:
            self.manager.commit()

    def undo(self) -> bool:
        """Undo the last transaction. Returns False when there is nothing to undo."""
        if self.manager is None or not self.manager.has_undo():
            return False
        self.manager.undo()
        self.refresh()
        return True

    def undo_copilot_change(self) -> dict:
        """Undo the last transaction only if the copilot made it (its name starts with "pic-copilot").

        The designer may have edited the layout since; their change is never undone by the copilot.
        Returns {"ok": bool, "message": str}.
        """
        if self.manager is None or not self.manager.has_undo():
            return {"ok": False, "message": "there is nothing to undo"}
        last = self.manager.transaction_for_undo() or ""
        if not last.startswith(COPILOT_TRANSACTION):
            return {"ok": False, "message": f"the last change in the layout ({last!r}) is not the copilot's; "
                                            "it was left alone (use Ctrl+Z yourself)"}
        self.undo()
        return {"ok": True, "message": f"undone: {last}"}

    def refresh(self) -> None:
        """Make new layers visible and the view redraw (GUI only)."""
        if self.view is not None:
            self.view.add_missing_layers()

    def selection(self) -> list[dict]:
        """The selected shapes in the GUI as plain dicts (empty headless)."""
        out: list[dict] = []
        if self.view is None:
            return out
        ly = self.layout
        for obj in self.view.each_object_selected():
            if obj.is_cell_inst():
                inst = obj.inst()
                out.append({"kind": "instance", "cell": ly.cell(inst.cell_index).name,
                            "bbox": _box_um(inst.dbbox())})
                continue
            shape = obj.shape
            info = ly.get_info(obj.layer)
            d = {"kind": _shape_kind(shape), "layer": info.layer, "datatype": info.datatype,
                 "layer_name": info.name or "", "cell": ly.cell(obj.cell_index()).name,
                 "bbox": _box_um(shape.dbbox())}
            if shape.is_path():
                p = shape.dpath
                d["width_um"] = p.width
                d["points_um"] = [[pt.x, pt.y] for pt in p.each_point()]
            out.append(d)
            if len(out) >= 50:
                break
        return out


def _shape_kind(shape) -> str:
    for kind in ("box", "polygon", "path", "text", "edge"):
        if getattr(shape, "is_" + kind)():
            return kind
    return "other"


def _box_um(b) -> list[float]:
    if b.empty():
        return []
    return [round(b.left, 6), round(b.bottom, 6), round(b.right, 6), round(b.top, 6)]


def layout_fingerprint(layout) -> str:
    """A hash of every cell, layer, instance and shape: equal hashes mean equal layouts."""
    h = hashlib.sha256()
    h.update(f"dbu={layout.dbu}".encode())
    for li in sorted(layout.layer_indexes(), key=lambda i: str(layout.get_info(i))):
        h.update(f"L{layout.get_info(li)}".encode())
    for cell in sorted(layout.each_cell(), key=lambda c: c.name):
        h.update(f"C{cell.name}".encode())
        for li in layout.layer_indexes():
            shapes = sorted(str(s) for s in cell.shapes(li).each())
            if shapes:
                h.update(f"S{layout.get_info(li)}:{len(shapes)}".encode())
                h.update("\n".join(shapes).encode())
        insts = sorted(f"{layout.cell(i.cell_index).name}@{i.trans}x{i.na}x{i.nb}" for i in cell.each_inst())
        h.update("\n".join(insts).encode())
    return h.hexdigest()


def _max_placements(ly, max_cells=5000):
    """The most cell placements inside one cell (each element of an array counts)."""
    best = 0
    for n, cell in enumerate(ly.each_cell()):
        if n >= max_cells:
            break
        best = max(best, sum(i.na * i.nb if i.is_regular_array() else 1 for i in cell.each_inst()))
    return best


def _placement_grid(ly, max_cells=5000, max_positions=200):
    """Where the most-placed cell sits inside the cell that places most (distinct origin x and y
    in um; each element of an array counts). Same as the engine's sandbox.summary.placement_grid."""
    best = None
    for n, cell in enumerate(ly.each_cell()):
        if n >= max_cells:
            break
        spots = {}
        for inst in cell.each_inst():
            d = inst.dcplx_trans.disp
            if inst.is_regular_array():
                a, b = inst.da, inst.db
                pts = [(d.x + i * a.x + j * b.x, d.y + i * a.y + j * b.y)
                       for i in range(min(inst.na, max_positions)) for j in range(min(inst.nb, max_positions))]
            else:
                pts = [(d.x, d.y)]
            spots.setdefault(inst.cell_index, []).extend(pts)
        for child, pts in spots.items():
            if best is None or len(pts) > best["count"]:
                best = {"cell": cell.name, "child": ly.cell(child).name, "count": len(pts),
                        "x": sorted({round(x, 3) for x, _ in pts})[:max_positions],
                        "y": sorted({round(y, 3) for _, y in pts})[:max_positions]}
    return best


def _shape_boxes(ly, per_layer=50, max_cells=200):
    """Bounding boxes (um, in their own cell's coordinates) of the first shapes of each layer. Same
    as the engine's sandbox.summary.shape_boxes."""
    out = {}
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        boxes = []
        for n, cell in enumerate(ly.each_cell()):
            if n >= max_cells or len(boxes) >= per_layer:
                break
            for sh in cell.shapes(li).each():
                if len(boxes) >= per_layer:
                    break
                if sh.is_text():
                    continue
                b = sh.dbbox()
                boxes.append([round(b.left, 6), round(b.bottom, 6), round(b.right, 6), round(b.top, 6)])
        if boxes:
            out["%d/%d" % (info.layer, info.datatype)] = boxes
    return out


def _texts(ly, per_layer: int = 100, max_cells: int = 200) -> dict:
    """The strings of the text objects on each layer ("L/D" -> strings, every cell); the engine's
    sandbox/summary.py has the same function for written layouts."""
    out = {}
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        found = []
        for n, cell in enumerate(ly.each_cell()):
            if n >= max_cells or len(found) >= per_layer:
                break
            for sh in cell.shapes(li).each(pya.Shapes.STexts):
                if len(found) >= per_layer:
                    break
                found.append(sh.text_string)
        if found:
            out["%d/%d" % (info.layer, info.datatype)] = found
    return out


def _instance_origins(ly, max_cells: int = 5000, max_points: int = 500) -> list:
    """The distinct origins [x, y] (µm) of every cell placement, array elements counting; the
    engine's sandbox/summary.py has the same function for written layouts."""
    seen = {}
    for n, cell in enumerate(ly.each_cell()):
        if n >= max_cells:
            break
        for inst in cell.each_inst():
            d = inst.dcplx_trans.disp
            arr = inst.is_regular_array()
            na, nb = (inst.na, inst.nb) if arr else (1, 1)
            for i in range(min(na, max_points)):
                for j in range(min(nb, max_points)):
                    x = d.x + (i * inst.da.x + j * inst.db.x if arr else 0)
                    y = d.y + (i * inst.da.y + j * inst.db.y if arr else 0)
                    seen[(round(x, 4), round(y, 4))] = None
                    if len(seen) >= max_points:
                        return [list(p) for p in seen]
    return [list(p) for p in seen]


def layout_summary(session: Session, max_cells: int = 30) -> dict:
    """A compact description of the open layout, for requests and results."""
    ly = session.layout
    cell = session.cell if ly.cells() else None
    layers = []
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        count = sum(c.shapes(li).size() for c in ly.each_cell())
        layers.append({"layer": info.layer, "datatype": info.datatype, "name": info.name or "", "shapes": count})
    cells = [c.name for c in ly.each_cell()]
    # shapes per layer in the active cell itself (not its children): what an edit changed there
    cell_shapes = {}
    if cell is not None:
        for li in ly.layer_indexes():
            n = cell.shapes(li).size()
            if n:
                info = ly.get_info(li)
                cell_shapes[f"{info.layer}/{info.datatype}"] = n
    return {
        "file": session.filename or "unsaved",
        "dbu": ly.dbu,
        "top_cells": [ly.cell(i).name for i in ly.each_top_cell()],
        "active_cell": cell.name if cell is not None else None,
        "cell_count": len(cells),
        "cells": cells[:max_cells],
        "layers": layers,
        "bbox_um": _box_um(cell.dbbox()) if cell is not None else [],
        "cell_shapes": cell_shapes,
        "max_placements": _max_placements(ly),
        "placement_grid": _placement_grid(ly),
        "shape_boxes": _shape_boxes(ly),
        "texts": _texts(ly),
        "instance_origins": _instance_origins(ly),
        "selection": session.selection(),
        "editable": ly.is_editable(),
    }


def _changes(before: dict, after: dict) -> dict:
    b_cells, a_cells = set(before["cells_all"]), set(after["cells_all"])
    b_layers = {(l["layer"], l["datatype"]): l["shapes"] for l in before["layers"]}
    a_layers = {(l["layer"], l["datatype"]): l["shapes"] for l in after["layers"]}
    shape_delta = {f"{k[0]}/{k[1]}": a_layers.get(k, 0) - b_layers.get(k, 0)
                   for k in set(b_layers) | set(a_layers) if a_layers.get(k, 0) != b_layers.get(k, 0)}
    return {
        "cells_added": sorted(a_cells - b_cells),
        "cells_removed": sorted(b_cells - a_cells),
        "layers_added": sorted(f"{k[0]}/{k[1]}" for k in set(a_layers) - set(b_layers)),
        "shapes_delta": shape_delta,
        "bbox_before_um": before["bbox_um"],
        "bbox_after_um": after["bbox_um"],
        "changed": before["fingerprint"] != after["fingerprint"],
    }


def _snapshot(session: Session) -> dict:
    s = layout_summary(session)
    s["cells_all"] = [c.name for c in session.layout.each_cell()]
    s["fingerprint"] = layout_fingerprint(session.layout)
    s["cell_indexes"] = {c.cell_index() for c in session.layout.each_cell()}
    s["layer_indexes"] = set(session.layout.layer_indexes())
    return s


def make_context(session: Session, workdir: str) -> dict:
    """The globals a script runs with (see docs/EXECUTION_CONTEXT.md)."""
    ly = session.layout
    cell = session.cell
    return {
        "__name__": "__main__",
        "__builtins__": __builtins__,
        "pya": pya,
        "layout": ly,
        "cell": cell,
        "view": session.view,
        "cellview": session.cellview,
        "dbu": ly.dbu,
        "selection": session.selection(),
        "workdir": workdir,
    }


def _clip(text: str) -> str:
    if len(text) <= MAX_OUTPUT:
        return text
    return text[:MAX_OUTPUT] + f"\n... [{len(text) - MAX_OUTPUT} more characters cut]"


def _remove_new_objects(session: Session, before: dict) -> None:
    """After undo: drop cells and layers the script created (cell creation is not always undone)."""
    ly = session.layout
    for c in list(ly.each_cell()):
        if c.cell_index() not in before["cell_indexes"]:
            if ly.is_valid_cell_index(c.cell_index()):
                ly.delete_cell(c.cell_index())
    for li in list(ly.layer_indexes()):
        if li not in before["layer_indexes"]:
            ly.delete_layer(li)


class RecursiveHierarchy(RuntimeError):
    """A script placed a cell inside itself; the layout answers no hierarchy query until rolled back."""


def _refuse_recursive_hierarchy(ly) -> None:
    """Raise when a script made a cell contain itself (directly or through its children).

    KLayout 0.28.5 accepts such an instance, then every later top-cell query fails with an
    internal error (topological_sort) and the layout cannot be shown or saved: a generated script
    did this in a benchmark run and took the whole process down. Raising here rolls the script back.
    """
    try:
        ly.top_cells()
    except RuntimeError:   # nothing tells which cell: each_child_cell fails on every cell of such a layout
        raise RecursiveHierarchy("the script placed a cell inside itself (directly or through the cells it places), "
                                 "a recursive hierarchy KLayout cannot draw or save; place a new cell only into the "
                                 "current cell, never the current cell into the new one") from None


def _run_guarded(session: Session, description: str, action) -> dict:
    """Run ``action()`` in one transaction; on an exception roll everything back.

    Returns a result dict with ok, exception, rolled_back, rollback_exact, undoable, changes.
    """
    before = _snapshot(session)
    backup = None
    undoable = session.undoable
    if not undoable:
        backup = session.layout.dup()  # viewer mode: no undo, keep a copy to restore on failure
    exc_info, recursive = None, False
    t0 = time.monotonic()
    if undoable:
        session.begin(description)
    try:
        action()
        _refuse_recursive_hierarchy(session.layout)
        # inside the transaction: adding the new layers to the view outside it would clear
        # KLayout's undo stack (layer-list edits are journaled too; measured on 0.28.5)
        session.refresh()
    except BaseException as e:  # noqa: BLE001 - SystemExit from a script must not kill KLayout
        recursive = isinstance(e, RecursiveHierarchy)
        exc_info = {
            "type": type(e).__name__,
            "message": str(e),
            "traceback": "".join(traceback.format_exception(type(e), e, e.__traceback__)),
        }
    finally:
        if undoable:
            session.commit()
    rolled_back = False
    if exc_info is not None:
        if undoable:
            # an empty transaction is not recorded: undoing then would revert the PREVIOUS change;
            # a recursive layout cannot even be fingerprinted (each_inst fails) and surely changed
            if recursive or layout_fingerprint(session.layout) != before["fingerprint"]:
                session.undo()
            _remove_new_objects(session, before)
        else:
            session.layout.assign(backup)
        rolled_back = True
    session.refresh()
    after = _snapshot(session)
    result = {
        "ok": exc_info is None,
        "exception": exc_info,
        "rolled_back": rolled_back,
        "rollback_exact": (after["fingerprint"] == before["fingerprint"]) if rolled_back else None,
        "undoable": undoable,
        "duration_s": round(time.monotonic() - t0, 4),
        "changes": _changes(before, after),
        "summary": {k: v for k, v in after.items() if k not in ("cells_all", "fingerprint", "cell_indexes", "layer_indexes")},
    }
    if not undoable:
        result["note"] = "the layout is not editable, so this change cannot be undone (start KLayout in editing mode with -e)"
    return result


def execute(session: Session, code: str, workdir: str | None = None, description: str = "pic-copilot script") -> dict:
    """Execute a script on the session's layout in one undoable transaction.

    Args:
        session: where to run.
        code: the script text.
        workdir: a folder the script may write to (a temp folder when None).
        description: the undo entry's name.

    Returns:
        dict with ok, stdout, stderr, exception {type, message, traceback}, rolled_back,
        rollback_exact, undoable, duration_s, changes, summary.
    """
    workdir = workdir or tempfile.mkdtemp(prefix="pic-copilot-run-")
    before = file_stamps(workdir)
    out, err = io.StringIO(), io.StringIO()
    try:
        compiled = compile(code, "<pic-copilot script>", "exec")
    except SyntaxError as e:
        return {"ok": False, "stdout": "", "stderr": "", "rolled_back": False, "rollback_exact": None,
                "undoable": session.undoable, "duration_s": 0.0, "changes": {}, "summary": layout_summary(session),
                "exception": {"type": "SyntaxError", "message": str(e),
                              "traceback": "".join(traceback.format_exception_only(type(e), e))}}
    ctx = make_context(session, workdir)
    cwd = os.getcwd()

    def action():
        os.chdir(workdir)
        try:
            with guard.blocking(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                exec(compiled, ctx)
        finally:
            os.chdir(cwd)

    result = _run_guarded(session, description, action)
    result["stdout"] = _clip(out.getvalue())
    result["stderr"] = _clip(err.getvalue())
    result["workdir"] = workdir
    result["workdir_before"] = before
    return result


def file_stamps(folder: str, limit: int = 5000) -> dict:
    """{relative path: [size, mtime_ns]} of the files in ``folder`` (at most ``limit``), so that
    files an earlier run left in a shared work folder are not read as this run's output (the
    engine's sandbox.summary.snapshot, which KLayout's Python cannot import)."""
    stamps = {}
    for dirpath, _dirs, files in os.walk(folder, followlinks=False):
        for name in files:
            full = os.path.join(dirpath, name)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            stamps[os.path.relpath(full, folder)] = [st.st_size, st.st_mtime_ns]
            if len(stamps) >= limit:
                return stamps
    return stamps


def insert_layout_files(session: Session, paths: list[str], description: str = "pic-copilot insert") -> dict:
    """Insert each GDS/OAS file's top cell(s) under the active cell, all in one undoable transaction.

    The files must be readable by this KLayout (gdsfactory 9 GDS must be written without metadata;
    the engine rewrites them before asking).
    """
    inserted: list[str] = []

    def action():
        parent = session.cell
        for path in paths:
            src = pya.Layout()
            src.read(path)
            if abs(src.dbu - session.layout.dbu) > 1e-12:
                src.dbu = session.layout.dbu  # keep micrometre geometry: scale to the target's grid
            for top_index in src.each_top_cell():
                top = src.cell(top_index)
                new = session.layout.create_cell(top.name)
                new.copy_tree(top)
                parent.insert(pya.CellInstArray(new.cell_index(), pya.Trans()))
                inserted.append(new.name)

    result = _run_guarded(session, description, action)
    result["inserted_cells"] = inserted if result["ok"] else []
    result["stdout"] = ""
    result["stderr"] = ""
    return result


def copy_layout(session: Session, path: str) -> dict:
    """Write the open layout to ``path`` (GDS) for a trial run of a script on a copy, outside this
    process (the engine's crash guard: a script that crashes KLayout there never runs here). The
    layout is not changed; a layout without cells gets no TOP cell from this.

    Returns:
        {"ok": True, "path": path, "active_cell": name or ""}, or a failed result.
    """
    try:
        active = session.cell.name if session.layout.cells() else ""
        session.layout.write(path)
    except Exception as e:  # noqa: BLE001 - no copy means no trial run, not a failed script
        return {"ok": False, "exception": {"type": type(e).__name__, "message": str(e), "traceback": ""}}
    return {"ok": True, "path": path, "active_cell": active}


def dispatch(session: Session, action: str, payload: dict) -> dict:
    """Run one bridge action on the session's layout and return its bridge result.

    The one place the KLayout side turns an action and its fields into a call: the panel's
    controller (the engine's ``exec`` messages and its own buttons: Run on layout, Undo), the remote
    endpoint, the ``klayout -b`` batch runner, the cookbook runner and the benchmark driver all come here.

    Args:
        session: where to run.
        action: ``run_code``, ``insert_files``, ``undo``, ``run_deck`` or ``copy_layout``; any other
            gets a failed result (``BadRequest``).
        payload: the action's fields (an ``exec`` message, a request body): ``code`` (run_code),
            ``paths`` (insert_files), ``deck``, ``report``, ``deck_file`` (run_deck), ``path``
            (copy_layout), and optional
            ``workdir`` (run_code, run_deck) and ``description`` (the undo entry's name).
    """
    workdir = payload.get("workdir") or None
    if action == "run_code":
        return execute(session, payload.get("code", ""), workdir=workdir,
                       description=payload.get("description") or "pic-copilot script")
    if action == "insert_files":
        return insert_layout_files(session, list(payload.get("paths") or []),
                                   description=payload.get("description") or "pic-copilot insert")
    if action == "copy_layout":   # read only: the engine's trial run on a copy
        return copy_layout(session, str(payload.get("path") or ""))
    if action == "undo":   # only the copilot's own last change (see Session.undo_copilot_change)
        return session.undo_copilot_change()
    if action == "run_deck":   # a KLayout DRC deck on the active cell: a report, the layout unchanged
        from . import drc   # drc uses this module's guarded transaction

        return drc.run_deck(session, payload.get("deck", ""), workdir=workdir,
                            report=str(payload.get("report") or "drc_report.lyrdb"),
                            deck_file=str(payload.get("deck_file") or "deck.lydrc"))
    return {"ok": False, "exception": {"type": "BadRequest", "message": f"unknown bridge action {action!r}",
                                       "traceback": ""}}


def exec_result(exec_msg: dict, result: dict) -> dict:
    """The ``exec_result`` message answering an ``exec`` (docs/PROTOCOL.md; the engine side's twin is
    pic_copilot.bridges.jsonlines, which this stdlib + pya layer does not import)."""
    return {"type": "exec_result", "id": exec_msg.get("id"), "exec_id": exec_msg.get("exec_id"), "result": result}
