"""The docked pic-copilot panel, its menu entries and the Macro IDE hook (stdlib + pya only).

Everything runs on KLayout's main thread: engine output arrives through QProcess signals,
so the window never blocks while the LLM works. Every Qt signal handler catches its own
exceptions (an exception inside a handler would pop KLayout's modal error dialog).
"""
from __future__ import annotations

import difflib
import glob
import os
import re
import time
from pathlib import Path

import pya

from . import bridge, drc, guard, macro_ide
from .controller import Controller
from .highlight import DiffHighlighter, PythonHighlighter
from .transcript import describe

_panel = None
DOCK_WIDTH = 560


def panel() -> "CopilotPanel | None":
    """The panel instance once installed."""
    return _panel


def _safe(fn):
    """Wrap a Qt signal handler: exceptions become a status line instead of a modal dialog."""
    def handler(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except Exception as e:  # noqa: BLE001
            try:
                self.set_status(f"pic-copilot: {type(e).__name__}: {e}", error=True)
            except Exception:  # noqa: BLE001
                pass
    handler.__name__ = fn.__name__
    handler.__doc__ = fn.__doc__
    return handler


def _slug(text: str, n: int = 32) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "_", text.strip().lower()).strip("_")
    return (s[:n].rstrip("_") or "copilot_script")


def context_line(ctx: dict | None) -> str:
    """One line describing the layout context a request carries."""
    if not ctx:
        return "[context] no layout is open"
    sel = ctx.get("selection") or []
    sel_txt = "nothing selected"
    if sel:
        first = sel[0]
        what = first.get("kind", "?")
        if first.get("layer") is not None:
            what += f" on {first.get('layer')}/{first.get('datatype')}"
        if first.get("width_um") is not None:
            what += f", width {first['width_um']:g} um"
        sel_txt = f"{len(sel)} selected ({what}{', …' if len(sel) > 1 else ''})"
    return (f"[context] {ctx.get('file')}, cell {ctx.get('active_cell')}, {len(ctx.get('layers') or [])} layer(s), "
            f"{ctx.get('cell_count')} cell(s), dbu {ctx.get('dbu')}, {sel_txt}")


class CopilotPanel:
    """Prompt, transcript, script/picture/change tabs, the actions, feedback and the remote switch."""

    def __init__(self, main_window):
        self.mw = main_window
        self.dock = pya.QDockWidget("pic-copilot", main_window)
        self.dock.objectName = "pic_copilot_dock"
        root = pya.QWidget(self.dock)
        root.setMinimumWidth(DOCK_WIDTH - 40)
        lay = pya.QVBoxLayout(root)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(4)

        # -- request
        self.prompt = pya.QPlainTextEdit(root)
        self.prompt.placeholderText = ("Ask the copilot, e.g. 'make the selected waveguide 2 um wider' or 'create a 1x2 "
                                       "MMI with gdsfactory and place it here'.  Ctrl+Enter sends, Up/Down recall earlier requests.")
        self.prompt.setMaximumHeight(84)
        self.prompt.setMinimumHeight(60)
        lay.addWidget(self.prompt)

        row = pya.QHBoxLayout()
        self.mode = pya.QComboBox(root)
        self.mode.addItem("interactive")
        self.mode.addItem("sandbox")
        self.mode.toolTip = "interactive: scripts run on the open layout (undoable); sandbox: in the engine's sandbox"
        self.settings_btn = pya.QPushButton("Settings…", root)
        self.send_btn = pya.QPushButton("Send", root)
        self.send_btn.toolTip = "Send the request (Ctrl+Enter)"
        self.stop_btn = pya.QPushButton("Stop", root)
        row.addWidget(pya.QLabel("Mode", root))
        row.addWidget(self.mode)
        row.addWidget(self.settings_btn)
        row.addStretch(1)
        row.addWidget(self.stop_btn)
        row.addWidget(self.send_btn)
        lay.addLayout(row)

        srow = pya.QHBoxLayout()
        self.busy_bar = pya.QProgressBar(root)
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setMaximumWidth(70)
        self.busy_bar.setMaximumHeight(14)
        self.busy_bar.visible = False
        self.status = pya.QLabel("Ready.", root)
        self.status.wordWrap = True
        self.restart_btn = pya.QPushButton("Restart engine", root)
        self.restart_btn.visible = False
        srow.addWidget(self.busy_bar)
        srow.addWidget(self.status, 1)
        srow.addWidget(self.restart_btn)
        lay.addLayout(srow)

        # -- transcript above, script / picture / change below
        split = pya.QSplitter(pya.Qt.Vertical, root)
        self.transcript = pya.QPlainTextEdit(split)
        self.transcript.readOnly = True
        self.transcript.lineWrapMode = pya.QPlainTextEdit.WidgetWidth
        mono = pya.QFont("Monospace")
        mono.setStyleHint(pya.QFont.TypeWriter)
        mono.setPointSize(9)
        self.transcript.font = mono

        self.tabs = pya.QTabWidget(split)
        self.script = pya.QPlainTextEdit(self.tabs)
        self.script.readOnly = True
        self.script.font = mono
        self.script.lineWrapMode = pya.QPlainTextEdit.NoWrap
        self.highlighter = PythonHighlighter(self.script.document)
        self.tabs.addTab(self.script, "Script")

        pic = pya.QWidget(self.tabs)
        pl = pya.QVBoxLayout(pic)
        prow = pya.QHBoxLayout()
        self.preview_pick = pya.QComboBox(pic)
        self.insert_btn = pya.QPushButton("Insert into the open layout", pic)
        self.report_btn = pya.QPushButton("Open report", pic)
        prow.addWidget(self.preview_pick, 1)
        prow.addWidget(self.insert_btn)
        prow.addWidget(self.report_btn)
        pl.addLayout(prow)
        self.thumb = pya.QLabel("No picture yet: run a script that writes a GDS/OAS file in the sandbox.", pic)
        self.thumb.alignment = pya.Qt.AlignCenter
        self.thumb.wordWrap = True
        self.thumb.setMinimumHeight(200)
        pl.addWidget(self.thumb, 1)
        self.tabs.addTab(pic, "Picture")

        chg = pya.QWidget(self.tabs)
        cl = pya.QVBoxLayout(chg)
        self.diff_label = pya.QLabel("No proposed change. Use 'Fix macro' on a macro open in the Macro IDE.", chg)
        self.diff_label.wordWrap = True
        cl.addWidget(self.diff_label)
        self.diff = pya.QPlainTextEdit(chg)
        self.diff.readOnly = True
        self.diff.font = mono
        self.diff.lineWrapMode = pya.QPlainTextEdit.NoWrap
        self.diff_highlighter = DiffHighlighter(self.diff.document)
        cl.addWidget(self.diff, 1)
        crow = pya.QHBoxLayout()
        self.apply_btn = pya.QPushButton("Apply to the macro", chg)
        self.discard_btn = pya.QPushButton("Discard", chg)
        crow.addStretch(1)
        crow.addWidget(self.discard_btn)
        crow.addWidget(self.apply_btn)
        cl.addLayout(crow)
        self.tabs.addTab(chg, "Change")
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([320, 340])
        lay.addWidget(split, 1)

        # -- actions on the script
        a1 = pya.QHBoxLayout()
        self.run_btn = pya.QPushButton("Run on layout", root)
        self.sandbox_btn = pya.QPushButton("Run in sandbox", root)
        self.macro_btn = pya.QPushButton("Open as macro", root)
        for b in (self.run_btn, self.sandbox_btn, self.macro_btn):
            a1.addWidget(b)
        lay.addLayout(a1)
        a2 = pya.QHBoxLayout()
        self.copy_btn = pya.QPushButton("Copy", root)
        self.save_btn = pya.QPushButton("Save as…", root)
        self.undo_btn = pya.QPushButton("Undo last run", root)
        for b in (self.copy_btn, self.save_btn, self.undo_btn):
            a2.addWidget(b)
        lay.addLayout(a2)

        fb = pya.QHBoxLayout()
        self.feedback = pya.QLineEdit(root)
        self.feedback.placeholderText = "Not right? Say what to change and press Enter"
        self.feedback_btn = pya.QPushButton("Send feedback", root)
        fb.addWidget(self.feedback, 1)
        fb.addWidget(self.feedback_btn)
        lay.addLayout(fb)

        mrow = pya.QHBoxLayout()
        mrow.addWidget(pya.QLabel("Macro IDE:", root))
        self.explain_btn = pya.QPushButton("Explain macro", root)
        self.fix_btn = pya.QPushButton("Fix macro", root)
        self.fix_btn.toolTip = ("Runs the macro open in the Macro IDE (mode above), then asks the copilot to fix the "
                                "error or your complaint in the feedback box; the change is shown before it is applied")
        mrow.addWidget(self.explain_btn)
        mrow.addWidget(self.fix_btn)
        mrow.addStretch(1)
        lay.addLayout(mrow)

        self.remote_cb = pya.QCheckBox("Allow external agents (MCP) to act on this layout", root)
        self.remote_label = pya.QLabel("Off: no local port is open.", root)
        self.remote_label.wordWrap = True
        self.remote_label.textInteractionFlags = pya.Qt.TextSelectableByMouse
        lay.addWidget(self.remote_cb)
        lay.addWidget(self.remote_label)

        self.dock.setWidget(root)
        self._place_dock(main_window)

        # -- state
        self.controller = Controller(bridge.Session.current_gui, self.on_event)
        self._streaming = False
        self._history: list[str] = []
        self._hist_pos = 0
        self.purpose: str | None = None       # what the running job is for: request, sandbox, explain, fix-probe, fix
        self.previews: list[dict] = []
        self.reports: list[str] = []
        self.fix: dict | None = None
        self.explanation: str | None = None
        self.settings_dialog = None
        self.remote = None
        self.opened_reports: list[str] = []
        self._job_t0 = 0.0
        self._stage = ""
        self.pipeline_config: str | None = None   # None: the engine's default (PIC_COPILOT_PIPELINE or full)

        # -- signals
        self.send_btn.clicked = self.send
        self.stop_btn.clicked = self.stop
        self.run_btn.clicked = self.run_script
        self.sandbox_btn.clicked = self.run_in_sandbox
        self.macro_btn.clicked = self.open_as_macro
        self.copy_btn.clicked = self.copy_script
        self.save_btn.clicked = self.save_as
        self.undo_btn.clicked = self.undo_last
        self.feedback_btn.clicked = self.send_feedback
        self.feedback.returnPressed = self.send_feedback
        self.settings_btn.clicked = self.open_settings
        self.restart_btn.clicked = self.restart_engine
        self.insert_btn.clicked = self.insert_preview
        self.report_btn.clicked = self.open_reports
        self.preview_pick.currentIndexChanged = self._show_preview
        self.apply_btn.clicked = self.apply_fix
        self.discard_btn.clicked = self.discard_fix
        self.explain_btn.clicked = self.explain_macro
        self.fix_btn.clicked = self.fix_macro
        self.remote_cb.toggled = self.toggle_remote
        self._shortcuts = []
        for keys, fn in (("Ctrl+Return", self.send), ("Ctrl+Enter", self.send),
                         ("Up", self.history_up), ("Down", self.history_down)):
            sc = pya.QShortcut(pya.QKeySequence(keys), self.prompt)
            sc.context = pya.Qt.WidgetShortcut
            sc.activated = fn
            self._shortcuts.append(sc)
        self.ticker = pya.QTimer()
        self.ticker.interval = 500
        self.ticker.timeout = self._tick
        self._update_buttons(busy=False)
        self._update_picture()
        self._apply_default_mode()

    def _apply_default_mode(self) -> None:
        """Preselect the mode from the settings (config file / environment)."""
        try:
            from .settings_dialog import config_module

            mode = config_module().load_settings().mode
            if mode in ("interactive", "sandbox"):
                self.mode.setCurrentText(mode)
        except Exception:  # noqa: BLE001 - a broken config file is reported when the engine starts
            pass

    def _place_dock(self, mw) -> None:
        """Dock on the right in a full-height column of its own (beside the layer panels, not under them)."""
        try:
            mw.addDockWidget(pya.Qt.RightDockWidgetArea, self.dock, pya.Qt.Horizontal)
        except Exception:  # noqa: BLE001 - no orientation overload: plain right-area dock
            mw.addDockWidget(pya.Qt.RightDockWidgetArea, self.dock)
        try:
            mw.resizeDocks([self.dock], [DOCK_WIDTH], pya.Qt.Horizontal)
        except Exception:  # noqa: BLE001 - the minimum width still applies
            pass

    # ------------------------------------------------------------------ requests
    @_safe
    def send(self, *args) -> None:
        text = self.prompt.toPlainText().strip()
        if not text:
            self.set_status("Type a request first.")
            return
        if self.controller.busy:
            self.set_status("The copilot is working; press Stop first.")
            return
        if not self._history or self._history[-1] != text:
            self._history.append(text)
        self._hist_pos = len(self._history)
        self.transcript.clear()
        self.script.setPlainText("")
        self.tabs.setCurrentIndex(0)
        self.append(f"> {text}")
        self.append(context_line(self.controller.layout_context()))
        self._start("request", lambda: self.controller.send_request(text, mode=self.mode.currentText, config=self.pipeline_config),
                    "Working… (KLayout stays usable; Stop cancels)")

    def _start(self, purpose: str, call, status: str) -> bool:
        try:
            call()
        except RuntimeError as e:
            self.set_status(f"{e}", error=True, offer_restart=True)
            return False
        self.purpose = purpose
        self._job_t0 = time.monotonic()
        self._stage = ""
        self.set_status(status)
        self._update_buttons(busy=True)
        return True

    @_safe
    def send_feedback(self, *args) -> None:
        text = self.feedback.text.strip()
        if not text:
            return
        if self.controller.current_id is None:
            self.set_status("Send a request first; feedback revises its result.")
            return
        self.append(f"> feedback: {text}")
        if self._start("request", lambda: self.controller.send_feedback(text), "Revising with your feedback…"):
            self.feedback.text = ""

    @_safe
    def stop(self, *args) -> None:
        if self.controller.cancel():
            self.set_status("Stopping…")
        else:
            self.set_status("Nothing is running.")

    @_safe
    def restart_engine(self, *args) -> None:
        self.restart_btn.visible = False
        try:
            self.controller.restart_engine()
        except RuntimeError as e:
            self.set_status(str(e), error=True, offer_restart=True)
            return
        self.purpose = None
        self._update_buttons(busy=False)
        self.set_status("The engine was restarted.")

    # ------------------------------------------------------------------ script actions
    def _script_text(self) -> str:
        return self.script.toPlainText()

    @_safe
    def run_script(self, *args) -> None:
        code = self._script_text()
        session = bridge.Session.current_gui()
        if not code.strip():
            self.set_status("There is no script to run yet.")
            return
        if session is None:
            self.set_status("No layout is open: open or create one (File → New Layout) first.")
            return
        if drc.is_deck(code):   # a KLayout DRC deck: KLayout's DRC engine on the open cell, report in the marker browser
            result = drc.run_deck(session, code)
            self.on_event({"type": "exec_done", "result": result})
            exc = result.get("exception") or {}
            self.set_status(f"Ran the DRC deck: {result.get('stdout') or 'no report'} (in the marker browser)."
                            if result.get("ok") else f"The DRC deck failed: {exc.get('message')}", error=not result.get("ok"))
            return
        result = bridge.execute(session, code)
        self._after_layout_run(session, result)

    def _after_layout_run(self, session, result: dict) -> None:
        self.on_event({"type": "exec_done", "result": result})
        self.controller.note_layout_change(result)
        if session.view is not None:
            session.view.zoom_fit()
        exc = result.get("exception") or {}
        self.set_status("Ran on the layout (Undo last run reverts it)." if result.get("ok") else
                        f"The script failed and the layout was restored: {exc.get('type')}: {exc.get('message')}",
                        error=not result.get("ok"))

    @_safe
    def run_in_sandbox(self, *args) -> None:
        code = self._script_text()
        if not code.strip():
            self.set_status("There is no script to run yet.")
            return
        self.append("> run the script in the sandbox")
        self._start("sandbox", lambda: self.controller.run_in_sandbox(code), "Running in the sandbox…")

    @_safe
    def open_as_macro(self, *args) -> str | None:
        code = self._script_text()
        if not code.strip():
            self.set_status("There is no script to keep yet.")
            return None
        title = self._history[-1] if self._history else "pic-copilot script"
        if drc.is_deck(code):   # a DRC deck goes to the DRC macro folder as .lydrc (Tools > DRC lists it)
            path = drc.save_deck(code, "copilot_" + _slug(title), description=f"pic-copilot: {' '.join(title.split())[:100]}")
            macro_ide.open_in_ide(str(path))
            self.set_status(f"Saved as the DRC deck {path.name} in KLayout's DRC macro folder ({path.parent}); "
                            "run it from the Macro IDE or Tools > DRC.")
            return str(path)
        folder = macro_ide.user_macro_dir()
        name = "copilot_" + _slug(title)
        path = folder / f"{name}.py"
        n = 2
        while path.exists():
            path = folder / f"{name}_{n}.py"
            n += 1
        header = f"# $description: pic-copilot: {' '.join(title.split())[:100]}\n"
        path.write_text(header + code if not code.startswith("# $description") else code)
        macro_ide.open_in_ide(str(path))
        self.set_status(f"Saved as the macro {path.name} in the Macro IDE's tree ({folder}). Note: there it runs "
                        "without the copilot's globals (layout, cell, selection): use pya.CellView.active().")
        return str(path)

    @_safe
    def copy_script(self, *args) -> None:
        pya.QApplication.clipboard().setText(self._script_text())
        self.set_status("Script copied.")

    @_safe
    def save_as(self, *args, path: str | None = None) -> str | None:
        code = self._script_text()
        if not code.strip():
            self.set_status("There is no script to save yet.")
            return None
        deck = drc.is_deck(code)
        if path is None:
            path = pya.QFileDialog.getSaveFileName(
                self.dock, "Save the DRC deck" if deck else "Save the script",
                os.path.expanduser("~/copilot_deck.lydrc" if deck else "~/copilot_script.py"),
                "KLayout DRC deck (*.lydrc);;Plain DRC deck (*.drc);;All files (*)" if deck else "Python (*.py);;All files (*)")
        if not path:
            return None
        if deck and str(path).lower().endswith(".lydrc"):
            code = drc.to_lydrc(drc.deck_text(code))   # .lydrc is KLayout's XML macro format
        elif deck and str(path).lower().endswith(".drc"):
            code = drc.deck_text(code)
        Path(path).write_text(code)
        self.set_status(f"Saved to {path}.")
        return path

    @_safe
    def undo_last(self, *args) -> None:
        if self.controller.undo_last_run():
            self.set_status("Undone: the layout is as before the copilot's last change.")
        else:
            self.set_status(f"Nothing undone: {getattr(self.controller, 'last_undo_message', '') or 'nothing to undo'}.")

    # ------------------------------------------------------------------ pictures and reports
    def _set_previews(self, execution: dict | None) -> None:
        ex = execution or {}
        self.previews = [p for p in ex.get("previews") or [] if p.get("png") or p.get("compat")]
        self.reports = list(ex.get("reports") or [])
        self._update_picture()
        if self.previews:
            self.tabs.setCurrentIndex(1)
        if self.reports:
            self.open_reports()

    def _update_picture(self) -> None:
        self.preview_pick.clear()
        for p in self.previews:
            self.preview_pick.addItem(p.get("path", "?"))
        self.preview_pick.visible = len(self.previews) > 1
        self.insert_btn.enabled = bool(self.previews)
        self.report_btn.enabled = bool(self.reports)
        self._show_preview()

    @_safe
    def _show_preview(self, *args) -> None:
        if not self.previews:
            self.thumb.setPixmap(pya.QPixmap())
            self.thumb.text = "No picture yet: run a script that writes a GDS/OAS file in the sandbox."
            return
        idx = max(0, self.preview_pick.currentIndex)
        p = self.previews[min(idx, len(self.previews) - 1)]
        if p.get("png") and os.path.exists(p["png"]):
            pix = pya.QPixmap(p["png"])
            w = min(520, max(320, macro_ide.val(self.tabs, "width") - 40))
            h = max(160, macro_ide.val(self.tabs, "height") - 110)
            if macro_ide.val(pix, "width") > w or macro_ide.val(pix, "height") > h:
                pix = pix.scaled(w, h, pya.Qt.KeepAspectRatio, pya.Qt.SmoothTransformation)
            self.thumb.setPixmap(pix)
            self.thumb.toolTip = f"{p.get('path')} (rendered by the engine)"
        else:
            self.thumb.setPixmap(pya.QPixmap())
            self.thumb.text = f"{p.get('path')}: no picture ({p.get('error') or 'rendering failed'})"

    @_safe
    def insert_preview(self, *args) -> dict | None:
        if not self.previews:
            self.set_status("Nothing to insert.")
            return None
        p = self.previews[min(max(0, self.preview_pick.currentIndex), len(self.previews) - 1)]
        if not p.get("compat"):
            self.set_status(f"{p.get('path')} cannot be read by this KLayout: {p.get('error')}", error=True)
            return None
        session = bridge.Session.current_gui()
        if session is None:
            self.mw.create_layout(1)
            session = bridge.Session.current_gui()
        result = bridge.insert_layout_files(session, [p["compat"]], description="pic-copilot insert")
        if result.get("ok"):
            self.controller.note_layout_change(result)
            if session.view is not None:
                session.view.zoom_fit()
            self.append(f"[klayout] inserted {', '.join(result.get('inserted_cells') or [])} under cell "
                        f"{session.cell.name} (one undoable step)")
            self.set_status(f"Inserted {p.get('path')} as a new cell instance (Undo last run reverts it).")
        else:
            exc = result.get("exception") or {}
            self.set_status(f"Insert failed, nothing changed: {exc.get('type')}: {exc.get('message')}", error=True)
        return result

    @_safe
    def open_reports(self, *args) -> None:
        for path in self.reports:
            self.open_report(path)

    def open_report(self, path: str) -> bool:
        """Load a report database (.lyrdb) into the current view and show KLayout's marker browser."""
        if not os.path.exists(path):
            self.set_status(f"The report {path} does not exist.", error=True)
            return False
        view = pya.LayoutView.current()
        if view is None:
            self.set_status("Open a layout to browse the report.")
            return False
        idx = view.create_rdb(Path(path).stem)
        rdb = view.rdb(idx)
        rdb.load(path)
        cv = view.active_cellview_index() if hasattr(view, "active_cellview_index") else 0
        view.show_rdb(idx, max(0, cv))
        self.opened_reports.append(path)
        self.append(f"[report] {Path(path).name}: {rdb.num_items()} marker(s), opened in the marker browser")
        return True

    # ------------------------------------------------------------------ macro IDE: explain and fix
    def _macro_or_none(self):
        m = macro_ide.current_macro()
        if m is None:
            self.set_status("Open the macro in the Macro IDE first (Macros → Macro Development).")
        return m

    @_safe
    def explain_macro(self, *args) -> None:
        m = macro_ide.current_macro()
        code, name = (m.text, m.name) if m is not None else (self._script_text(), "the copilot's script")
        if not code.strip():
            self.set_status("Open a macro in the Macro IDE (or get a script) first, then press Explain.")
            return
        self.explanation = None
        self.transcript.clear()
        self.append(f"> explain {name}")
        self._start("explain", lambda: self.controller.explain(code, name=name), f"Explaining {name}…")

    @_safe
    def fix_macro(self, *args, complaint: str | None = None, where: str | None = None) -> None:
        """Run the IDE's current macro (``where``: interactive = on the layout, sandbox), then ask for a fix."""
        m = self._macro_or_none()
        if m is None:
            return
        if self.controller.busy:
            self.set_status("The copilot is working; press Stop first.")
            return
        where = where or self.mode.currentText
        complaint = complaint if complaint is not None else self.feedback.text.strip()
        self.fix = {"macro": m, "name": m.name, "path": m.path, "old": m.text, "new": None,
                    "complaint": complaint, "where": where}
        self.transcript.clear()
        self.append(f"> fix {m.name} (run {'on the layout' if where == 'interactive' else 'in the sandbox'})"
                    + (f": {complaint}" if complaint else ""))
        self.diff.setPlainText("")
        self.diff_label.text = f"Working on a fix for {m.name}…"
        if where == "sandbox":
            self._start("fix-probe", lambda: self.controller.run_in_sandbox(self.fix["old"]),
                        f"Running {m.name} in the sandbox…")
            return
        session = bridge.Session.current_gui()
        if session is None:
            self.set_status("No layout is open to run the macro on: open one, or switch the mode to sandbox.")
            return
        result = bridge.execute(session, self.fix["old"], description=f"pic-copilot: run {m.name}")
        self.on_event({"type": "exec_done", "result": result})
        if result.get("ok") and (result.get("changes") or {}).get("changed") and result.get("undoable"):
            session.undo()  # only a probe: the fixed macro will be run instead
            self.append("    (the probe run's changes were undone)")
        self._fix_after_probe(result)

    def _fix_after_probe(self, rep: dict) -> None:
        fix = self.fix
        exc = rep.get("exception") or {}
        problems = []
        if not rep.get("ok"):
            tb = (exc.get("traceback") or "").strip().splitlines()[-6:]
            problems.append(f"Running it failed: {exc.get('type')}: {exc.get('message')}" +
                            (("\n" + "\n".join(tb)) if tb else ""))
        if fix["complaint"]:
            problems.append(f"The designer says: {fix['complaint']}")
        if not problems:
            self.diff_label.text = f"{fix['name']} ran without errors."
            self.set_status(f"{fix['name']} ran without errors. Type what is wrong in the feedback box, then press Fix again.")
            self._update_buttons(busy=False)
            return
        first = problems[0].splitlines()[0][:240]
        prompt = f"Fix the KLayout macro '{fix['name']}'. {first}"
        self._start("fix", lambda: self.controller.send_request(prompt, mode=fix["where"], previous_script=fix["old"],
                                                                 config=self.pipeline_config,
                                                                 feedback=["\n".join(problems)[:3000]]),
                    f"Asking the copilot to fix {fix['name']}…")

    def _show_fix(self, new_script: str, ok: bool) -> None:
        fix = self.fix
        fix["new"] = new_script
        old_lines = fix["old"].splitlines(keepends=True)
        new_lines = new_script.splitlines(keepends=True)
        diff = "".join(difflib.unified_diff(old_lines, new_lines, fromfile=f"{fix['name']} (now)",
                                            tofile=f"{fix['name']} (proposed)", n=3))
        self.diff.setPlainText(diff or "(no change proposed)")
        self.diff_label.text = (f"Proposed change to {fix['name']}" + ("" if ok else " (the copilot could not verify it)")
                                + ". Apply replaces the macro's text in the IDE (Ctrl+Z there undoes it).")
        self.apply_btn.enabled = bool(diff)
        self.discard_btn.enabled = True
        self.tabs.setCurrentIndex(2)

    @_safe
    def apply_fix(self, *args) -> str | None:
        fix = self.fix
        if not fix or not fix.get("new"):
            self.set_status("There is no proposed change to apply.")
            return None
        m = fix["macro"]
        try:
            current = m.text
        except Exception:  # noqa: BLE001 - the IDE page was closed
            m = macro_ide.current_macro()
            if m is None or (fix["path"] and m.path != fix["path"]):
                self.set_status(f"{fix['name']} is no longer open in the Macro IDE; open it and press Apply again.")
                return None
            current = m.text
        kept = macro_ide.keep_old_text(fix["name"], current)
        m.replace_text(fix["new"])
        self.apply_btn.enabled = False
        self.set_status(f"Applied to {fix['name']} in the Macro IDE (Ctrl+Z there undoes it; save the macro to keep "
                        f"it). The old text is kept in {kept}.")
        self.append(f"[fix] applied to {fix['name']}; old text kept in {kept}")
        fix["kept"] = str(kept)
        return str(kept)

    @_safe
    def discard_fix(self, *args) -> None:
        self.fix = None
        self.diff.setPlainText("")
        self.diff_label.text = "Discarded."
        self.apply_btn.enabled = False
        self.discard_btn.enabled = False

    # ------------------------------------------------------------------ settings and remote control
    @_safe
    def open_settings(self, *args):
        from .settings_dialog import SettingsDialog

        if self.settings_dialog is None:
            self.settings_dialog = SettingsDialog(self.mw, on_saved=self._settings_saved)
        self.settings_dialog.show()
        return self.settings_dialog

    def _settings_saved(self) -> None:
        if self.controller.busy:
            self.controller.cancel()
        self._apply_default_mode()
        self.restart_engine()
        self.set_status("Settings saved; the engine was restarted with them.")

    @_safe
    def toggle_remote(self, checked=None, *args) -> None:
        on = bool(self.remote_cb.checked)
        if not on:
            if self.remote is not None:
                self.remote.stop()
            self.remote_label.text = "Off: no local port is open."
            return
        try:
            from . import remote as remote_mod
        except ImportError as e:
            self.remote_label.text = f"Remote control is not available in this installation ({e})."
            self.remote_cb.checked = False
            return
        if self.remote is None:
            self.remote = remote_mod.RemoteEndpoint(bridge.Session.current_gui)
        try:
            self.remote.start()
        except Exception as e:  # noqa: BLE001
            self.remote_label.text = f"Could not start the local endpoint: {type(e).__name__}: {e}"
            self.remote_cb.checked = False
            return
        if getattr(self.remote, "running", False):
            self.remote_label.text = (f"Listening on 127.0.0.1:{self.remote.port}, token {self.remote.token} "
                                      "(only local programs holding the token can act on the open layout).")
        else:
            self.remote_label.text = "The local endpoint did not start."
            self.remote_cb.checked = False

    # ------------------------------------------------------------------ prompt history
    @_safe
    def history_up(self, *args) -> None:
        cur = macro_ide.val(self.prompt, "textCursor")
        if macro_ide.val(cur, "blockNumber") > 0:
            cur.movePosition(pya.QTextCursor.Up)
            self.prompt.setTextCursor(cur)
            return
        if self._history and self._hist_pos > 0:
            self._hist_pos -= 1
            self._set_prompt(self._history[self._hist_pos])

    @_safe
    def history_down(self, *args) -> None:
        cur = macro_ide.val(self.prompt, "textCursor")
        if macro_ide.val(cur, "blockNumber") < macro_ide.val(self.prompt.document, "blockCount") - 1:
            cur.movePosition(pya.QTextCursor.Down)
            self.prompt.setTextCursor(cur)
            return
        if self._hist_pos < len(self._history) - 1:
            self._hist_pos += 1
            self._set_prompt(self._history[self._hist_pos])
        elif self._hist_pos == len(self._history) - 1:
            self._hist_pos = len(self._history)
            self._set_prompt("")

    def _set_prompt(self, text: str) -> None:
        self.prompt.setPlainText(text)
        cur = macro_ide.val(self.prompt, "textCursor")
        cur.movePosition(pya.QTextCursor.End)
        self.prompt.setTextCursor(cur)

    # ------------------------------------------------------------------ display
    def append(self, line: str) -> None:
        self._end_stream()
        self.transcript.appendPlainText(line)

    def _end_stream(self) -> None:
        if self._streaming:
            self._streaming = False
            self.transcript.appendPlainText("")

    def set_status(self, text: str, error: bool = False, offer_restart: bool = False) -> None:
        self.status.text = text
        self.status.styleSheet = "color: #b00000;" if error else ""
        if offer_restart:
            self.restart_btn.visible = True

    def _update_buttons(self, busy: bool) -> None:
        has_script = bool(self._script_text().strip())
        self.send_btn.enabled = not busy
        self.stop_btn.enabled = busy
        self.feedback_btn.enabled = not busy
        self.run_btn.enabled = not busy and has_script
        self.sandbox_btn.enabled = not busy and has_script
        self.macro_btn.enabled = has_script
        self.copy_btn.enabled = has_script
        self.save_btn.enabled = has_script
        self.explain_btn.enabled = not busy
        self.fix_btn.enabled = not busy
        self.apply_btn.enabled = bool(self.fix and self.fix.get("new")) and not busy
        self.discard_btn.enabled = bool(self.fix and self.fix.get("new"))
        self.busy_bar.visible = busy
        if busy:
            self.ticker.start()
        else:
            self.ticker.stop()

    def _tick(self) -> None:
        try:
            if self.controller.busy and self._stage:
                self.set_status(f"Working… {self._stage} ({time.monotonic() - self._job_t0:.0f} s; Stop cancels)")
        except Exception:  # noqa: BLE001
            pass

    def on_event(self, msg: dict) -> None:
        # an exception in a Qt signal handler would pop a modal dialog in KLayout: show it as status
        try:
            self._on_event(msg)
        except Exception as e:  # noqa: BLE001
            self.set_status(f"pic-copilot display error: {type(e).__name__}: {e}", error=True)

    def _on_event(self, msg: dict) -> None:
        t = msg.get("type")
        if t == "token":
            text = msg.get("text")
            if text is None:
                if self._streaming:
                    self.append("[stream restarted]")
                return
            cursor = macro_ide.val(self.transcript, "textCursor")
            cursor.movePosition(pya.QTextCursor.End)
            if not self._streaming:
                self._streaming = True
                cursor.insertText(f"\n[{msg.get('agent')}] ")
            cursor.insertText(text)
            self.transcript.setTextCursor(cursor)
            return
        if t == "progress":
            self._stage = f"{msg.get('stage')}: {msg.get('message', '')}"[:120]
        if t == "script" and self.purpose != "fix":
            self.script.setPlainText(msg.get("code") or "")
        line = describe(msg)
        if line:
            self.append(line)
        if t == "exec_done":
            self._exec_reports(msg.get("result") or {})
        if t == "result":
            self._on_result(msg)
        elif t == "run_result":
            self._on_run_result(msg)
        elif t == "explanation":
            self.explanation = msg.get("text") or ""
            self.set_status("Explanation ready (in the transcript above).")
            self._job_done()
        elif t == "error":
            self._on_error(msg)
        elif t == "engine_died":
            # one line; the transcript line above has the exit code and the log file
            self.set_status("The copilot engine stopped; KLayout and your layout are unaffected. Press Restart engine.",
                            error=True, offer_restart=True)
            self._job_done()

    def _job_done(self) -> None:
        self.purpose = None
        self._update_buttons(busy=self.controller.busy)

    def _on_result(self, msg: dict) -> None:
        if self.purpose == "fix" and self.fix is not None:
            self._show_fix(msg.get("script") or "", bool(msg.get("ok")))
            self.set_status("A fix is proposed: see the Change tab; Apply replaces the macro text." if msg.get("ok") else
                            "A fix is proposed but did not pass the checks; see the transcript and the Change tab.",
                            error=not msg.get("ok"))
        else:
            self.script.setPlainText(msg.get("script") or "")
            self.set_status("Done: the script ran and was accepted. Not right? Use the feedback box." if msg.get("ok")
                            else "Finished, but the last script did not pass; see the transcript. Feedback revises it.",
                            error=not msg.get("ok"))
        self._set_previews(msg.get("execution"))
        self._job_done()

    def _on_run_result(self, msg: dict) -> None:
        ex = msg.get("execution") or {}
        if self.purpose == "fix-probe" and self.fix is not None:
            self._set_previews(ex)
            self.purpose = None
            self._update_buttons(busy=False)
            self._fix_after_probe(ex)
            return
        self._set_previews(ex)
        exc = ex.get("exception") or {}
        self.set_status("Ran in the sandbox" + (f"; {len(self.previews)} layout picture(s) in the Picture tab."
                                                 if self.previews else ".") if msg.get("ok") else
                        f"The sandbox run failed: {exc.get('type')}: {exc.get('message')}", error=not msg.get("ok"))
        self._job_done()

    def _on_error(self, msg: dict) -> None:
        kind = str(msg.get("kind") or "")
        text = str(msg.get("message") or "")
        if kind == "cancelled":
            self.set_status("Stopped. Nothing half-done was left on the layout.")
        elif kind == "llm-connection":
            self.set_status("Cannot reach the LLM endpoint: check Settings (URL, network) or Restart the engine.",
                            error=True, offer_restart=True)
        elif kind == "llm-timeout":
            self.set_status("The LLM endpoint did not answer in time: try again, Restart the engine, or check Settings.",
                            error=True, offer_restart=True)
        elif kind in ("llm-auth", "llm-authentication"):
            self.set_status("The LLM endpoint refused the API key: set it in Settings.", error=True)
        elif kind.startswith("llm-"):
            self.set_status(f"The LLM endpoint failed ({kind[4:]}): {text[:200]}", error=True, offer_restart=True)
        else:
            self.set_status(f"Error: {text[:300]}", error=True)
        if self.purpose == "fix" and self.fix is not None:
            self.diff_label.text = f"No fix: {text[:200]}"
        if msg.get("id") is None or msg.get("id") == self.controller.active_id or not self.controller.busy:
            self._job_done()

    def _exec_reports(self, result: dict) -> None:
        """Report databases a script wrote in its work folder on the layout: open them in the marker browser."""
        wd = result.get("workdir")
        if not result.get("ok") or not wd or not os.path.isdir(wd):
            return
        if result.get("report_shown"):   # a DRC deck in the GUI: KLayout's DRC engine opened its report already
            self.opened_reports.extend(p for p in [result.get("report_path")] if p)
            return
        for path in sorted(glob.glob(os.path.join(wd, "*.lyrdb")) + glob.glob(os.path.join(wd, "*.rdb"))):
            if path not in self.opened_reports:
                self.reports.append(path)
                self.report_btn.enabled = True
                self.open_report(path)


def install() -> CopilotPanel | None:
    """Create the panel, menu entries and the Macro IDE hook once per KLayout session (autorun macro)."""
    global _panel
    guard.install()
    mw = pya.MainWindow.instance()
    if mw is None or _panel is not None:
        return _panel
    _panel = CopilotPanel(mw)
    menu = mw.menu()

    def action(title: str, fn):
        a = pya.Action()
        a.title = title

        def run():
            try:
                fn()
            except Exception as e:  # noqa: BLE001
                _panel.set_status(f"pic-copilot: {type(e).__name__}: {e}", error=True)
        a.on_triggered = run
        return a

    show = action("pic-copilot panel", lambda: (_panel.dock.show(), macro_ide.raise_widget(_panel.dock)))
    menu.insert_item("tools_menu.end", "pic_copilot_show", show)
    settings = action("pic-copilot settings…", _panel.open_settings)
    menu.insert_item("tools_menu.end", "pic_copilot_settings", settings)
    menu.insert_separator("macros_menu.end", "pic_copilot_sep")
    explain = action("pic-copilot: Explain the current macro", lambda: (_panel.dock.show(), _panel.explain_macro()))
    fix = action("pic-copilot: Fix the current macro", lambda: (_panel.dock.show(), _panel.fix_macro()))
    menu.insert_item("macros_menu.end", "pic_copilot_explain", explain)
    menu.insert_item("macros_menu.end", "pic_copilot_fix", fix)
    _panel._menu_actions = [show, settings, explain, fix]
    _panel.ide_hook = macro_ide.IdeHook(lambda: (_panel.dock.show(), _panel.explain_macro()),
                                        lambda: (_panel.dock.show(), _panel.fix_macro()))
    return _panel
