"""Script & actions: the Script and Picture tabs, running / keeping the script, pictures, reports and
"Save session as macro"."""
from __future__ import annotations

import glob
import os
from pathlib import Path

import pya

from .. import bridge, drc, macro_ide, session_macro
from ..highlight import PythonHighlighter
from .common import button, mono_font, safe, slug

NO_PICTURE = "No picture yet: run a script that writes a GDS/OAS file in the sandbox."


class ScriptSection:
    """The candidate script, what the designer can do with it, and the sandbox's pictures and reports.

    Args:
        panel: the CopilotPanel.
        parent: the dock's root widget.
    """

    def __init__(self, panel, parent):
        self.panel = panel
        self.tabs = pya.QTabWidget(parent)
        self.script = pya.QPlainTextEdit(self.tabs)
        self.script.readOnly = True
        self.script.font = mono_font()
        self.script.lineWrapMode = pya.QPlainTextEdit.NoWrap
        self.script.setMinimumHeight(60)
        self.highlighter = PythonHighlighter(self.script.document)
        self.tabs.addTab(self.script, "Script")

        pic = pya.QWidget(self.tabs)
        pl = pya.QVBoxLayout(pic)
        pl.setContentsMargins(2, 2, 2, 2)
        pl.setSpacing(2)
        prow = pya.QHBoxLayout()
        self.preview_pick = pya.QComboBox(pic)
        self.insert_btn = button("Insert", pic, "Insert the picture's layout into the open layout (one undoable step)")
        self.report_btn = button("Report", pic, "Open the report database(s) in the marker browser")
        prow.addWidget(self.preview_pick, 1)
        prow.addWidget(self.insert_btn)
        prow.addWidget(self.report_btn)
        pl.addLayout(prow)
        self.thumb = pya.QLabel(NO_PICTURE, pic)
        self.thumb.alignment = pya.Qt.AlignCenter
        self.thumb.wordWrap = True
        self.thumb.setMinimumHeight(60)
        pl.addWidget(self.thumb, 1)
        self.tabs.addTab(pic, "Picture")

        self.run_btn = button("Run on layout", parent, "Run the script on the open layout (one undoable step)")
        self.undo_btn = button("Undo", parent, "Undo the copilot's last change of the layout")
        self.more_btn = pya.QToolButton(parent)
        self.more_btn.text = "More ▾"
        self.more_btn.popupMode = pya.QToolButton.InstantPopup
        self.menu = pya.QMenu(self.more_btn)
        self.more_btn.setMenu(self.menu)
        self.actions = {}
        for key, title, fn in (("sandbox", "Run the script in the sandbox", self.run_in_sandbox),
                               ("macro", "Open the script as a macro", self.open_as_macro),
                               ("session", "Save session as macro", self.save_session_macro),
                               ("copy", "Copy the script", self.copy_script),
                               ("save", "Save the script as…", self.save_as)):
            self.add_action(key, title, fn)

        self.previews: list[dict] = []
        self.reports: list[str] = []
        self.opened_reports: list[str] = []
        self.run_btn.clicked = self.run_script
        self.undo_btn.clicked = self.undo_last
        self.insert_btn.clicked = self.insert_preview
        self.report_btn.clicked = self.open_reports
        self.preview_pick.currentIndexChanged = self._show_preview
        self.update_picture()

    def add_action(self, key: str, title: str, fn, separator: bool = False) -> None:
        """An entry of the More menu (the macro section adds its own)."""
        if separator:
            self.menu.addSeparator()
        a = self.menu.addAction(title)
        a.objectName = f"pic_copilot_{key}"
        a.triggered = lambda *args, fn=fn: fn()
        self.actions[key] = a

    # ------------------------------------------------------------------ the script
    def text(self) -> str:
        return self.script.toPlainText()

    def set_script(self, code: str) -> None:
        self.script.setPlainText(code or "")

    def clear_script(self) -> None:
        self.script.setPlainText("")
        self.tabs.setCurrentIndex(0)

    def append_streamed(self, code: str) -> None:
        """Code of the script the programmer is writing, as it streams."""
        cursor = macro_ide.val(self.script, "textCursor")
        cursor.movePosition(pya.QTextCursor.End)
        cursor.insertText(code)
        self.script.setTextCursor(cursor)

    def on_result(self, msg: dict) -> None:
        self.set_script(msg.get("script") or "")
        ok = msg.get("ok")
        self.panel.set_status("Done: ran and accepted. Not right? Say so in the feedback box." if ok
                              else "Finished, but the last script did not pass (see the transcript); feedback revises it.",
                              error=not ok)
        self.set_previews(msg.get("execution"))

    # ------------------------------------------------------------------ actions
    def _script_to_run(self) -> str | None:
        """The script in the editor, or None after telling the designer there is none."""
        code = self.text()
        if not code.strip():
            self.panel.set_status("There is no script to run yet.")
            return None
        return code

    @safe
    def run_script(self, *args) -> None:
        p = self.panel
        code = self._script_to_run()
        if code is None:
            return
        if bridge.Session.current_gui() is None:
            p.request_ui.open_new_layout()
        if drc.is_deck(code):   # a KLayout DRC deck: KLayout's DRC engine on the open cell, report in the marker browser
            result = p.controller.apply("run_deck", {"deck": code})
            p.on_event({"type": "exec_done", "result": result})
            exc = result.get("exception") or {}
            p.set_status(f"Ran the DRC deck: {result.get('stdout') or 'no report'} (in the marker browser)."
                         if result.get("ok") else f"The DRC deck failed: {exc.get('message')}", error=not result.get("ok"))
            return
        result = p.controller.apply("run_code", {"code": code})
        p.on_event({"type": "exec_done", "result": result})
        exc = result.get("exception") or {}
        p.set_status("Ran on the layout (Undo reverts it)." if result.get("ok") else
                     f"The script failed and the layout was restored: {exc.get('type')}: {exc.get('message')}",
                     error=not result.get("ok"))

    @safe
    def run_in_sandbox(self, *args) -> None:
        code = self._script_to_run()
        if code is not None:
            p = self.panel
            p.request_ui.append("> run the script in the sandbox")
            p.start_job("sandbox", lambda: p.controller.run_in_sandbox(code), "Running in the sandbox…")

    @safe
    def undo_last(self, *args) -> None:
        ctl = self.panel.controller
        if ctl.undo_last_run():
            self.panel.set_status("Undone: the layout is as before the copilot's last change.")
        else:
            self.panel.set_status(f"Nothing undone: {getattr(ctl, 'last_undo_message', '') or 'nothing to undo'}.")

    @safe
    def open_as_macro(self, *args) -> str | None:
        code = self.text()
        if not code.strip():
            self.panel.set_status("There is no script to keep yet.")
            return None
        title = self.panel.request_ui.last_request or "pic-copilot script"
        if drc.is_deck(code):   # a DRC deck goes to the DRC macro folder as .lydrc (Tools > DRC lists it)
            path = drc.save_deck(code, "copilot_" + slug(title), description=f"pic-copilot: {' '.join(title.split())[:100]}")
            macro_ide.open_in_ide(str(path))
            self.panel.set_status(f"Saved as the DRC deck {path.name} in KLayout's DRC macro folder ({path.parent}); "
                                  "run it from the Macro IDE or Tools > DRC.")
            return str(path)
        folder = macro_ide.user_macro_dir()
        name = "copilot_" + slug(title)
        path = folder / f"{name}.py"
        n = 2
        while path.exists():
            path = folder / f"{name}_{n}.py"
            n += 1
        header = f"# $description: pic-copilot: {' '.join(title.split())[:100]}\n"
        path.write_text(header + code if not code.startswith("# $description") else code)
        macro_ide.open_in_ide(str(path))
        self.panel.set_status(f"Saved as the macro {path.name} in the Macro IDE's tree ({folder}). Note: there it runs "
                              "without the copilot's globals (layout, cell, selection): use pya.CellView.active().")
        return str(path)

    @safe
    def save_session_macro(self, *args, folder: str | None = None, open_ide: bool = True) -> str | None:
        """Every change the copilot made to this layout that is still there, as one macro in the macros folder."""
        p = self.panel
        session = bridge.Session.current_gui()
        steps = p.controller.session_log.for_layout(session.layout if session is not None else None)
        if not steps:
            p.set_status("Nothing to save: the copilot has not changed this layout in this session.")
            return None
        target = Path(folder) if folder else macro_ide.macros_dir()
        path, copied = session_macro.save(steps, target, title=p.request_ui.last_request)
        if open_ide:
            macro_ide.open_in_ide(str(path))
        pending = sum(1 for s in steps if s.accepted is False)
        p.request_ui.append(f"[session] saved {len(steps)} step(s) as the macro {path}"
                            + (f" with {copied} GDS file(s) in {path.stem}_files/" if copied else "")
                            + (f"; {pending} of them were not accepted by the copilot (marked in the macro)"
                               if pending else ""))
        p.set_status(f"Saved the session as {path.name} in {target}: running it on a new layout replays "
                     f"{len(steps)} step(s) (one undo step).")
        return str(path)

    @safe
    def copy_script(self, *args) -> None:
        pya.QApplication.clipboard().setText(self.text())
        self.panel.set_status("Script copied.")

    @safe
    def save_as(self, *args, path: str | None = None) -> str | None:
        code = self.text()
        if not code.strip():
            self.panel.set_status("There is no script to save yet.")
            return None
        deck = drc.is_deck(code)
        if path is None:
            path = pya.QFileDialog.getSaveFileName(
                self.panel.dock, "Save the DRC deck" if deck else "Save the script",
                os.path.expanduser("~/copilot_deck.lydrc" if deck else "~/copilot_script.py"),
                "KLayout DRC deck (*.lydrc);;Plain DRC deck (*.drc);;All files (*)" if deck else "Python (*.py);;All files (*)")
        if not path:
            return None
        if deck and str(path).lower().endswith(".lydrc"):
            code = drc.to_lydrc(drc.deck_text(code))   # .lydrc is KLayout's XML macro format
        elif deck and str(path).lower().endswith(".drc"):
            code = drc.deck_text(code)
        Path(path).write_text(code)
        self.panel.set_status(f"Saved to {path}.")
        return path

    # ------------------------------------------------------------------ pictures and reports
    def set_previews(self, execution: dict | None) -> None:
        ex = execution or {}
        self.previews = [p for p in ex.get("previews") or [] if p.get("png") or p.get("compat")]
        self.reports = list(ex.get("reports") or [])
        self.update_picture()
        if self.previews:
            self.tabs.setCurrentIndex(1)
        if self.reports:
            self.open_reports()

    def on_run_result(self, msg: dict) -> None:
        ex = msg.get("execution") or {}
        self.set_previews(ex)
        exc = ex.get("exception") or {}
        self.panel.set_status("Ran in the sandbox" + (f"; {len(self.previews)} layout picture(s) in the Picture tab."
                                                       if self.previews else ".") if msg.get("ok") else
                              f"The sandbox run failed: {exc.get('type')}: {exc.get('message')}", error=not msg.get("ok"))

    def update_picture(self) -> None:
        self.preview_pick.clear()
        for p in self.previews:
            self.preview_pick.addItem(p.get("path", "?"))
        self.preview_pick.visible = len(self.previews) > 1
        self.insert_btn.enabled = bool(self.previews)
        self.report_btn.enabled = bool(self.reports)
        self._show_preview()

    @safe
    def _show_preview(self, *args) -> None:
        if not self.previews:
            self.thumb.setPixmap(pya.QPixmap())
            self.thumb.text = NO_PICTURE
            return
        idx = max(0, self.preview_pick.currentIndex)
        p = self.previews[min(idx, len(self.previews) - 1)]
        if p.get("png") and os.path.exists(p["png"]):
            pix = pya.QPixmap(p["png"])
            w = max(160, macro_ide.val(self.tabs, "width") - 20)
            h = max(100, macro_ide.val(self.tabs, "height") - 70)
            if macro_ide.val(pix, "width") > w or macro_ide.val(pix, "height") > h:
                pix = pix.scaled(w, h, pya.Qt.KeepAspectRatio, pya.Qt.SmoothTransformation)
            self.thumb.setPixmap(pix)
            self.thumb.toolTip = f"{p.get('path')} (rendered by the engine)"
        else:
            self.thumb.setPixmap(pya.QPixmap())
            self.thumb.text = f"{p.get('path')}: no picture ({p.get('error') or 'rendering failed'})"

    @safe
    def insert_preview(self, *args) -> dict | None:
        p = self.panel
        if not self.previews:
            p.set_status("Nothing to insert.")
            return None
        pv = self.previews[min(max(0, self.preview_pick.currentIndex), len(self.previews) - 1)]
        if not pv.get("compat"):
            p.set_status(f"{pv.get('path')} cannot be read by this KLayout: {pv.get('error')}", error=True)
            return None
        session = bridge.Session.current_gui() or p.request_ui.open_new_layout()
        result = p.controller.apply("insert_files", {"paths": [pv["compat"]], "description": "pic-copilot insert"},
                                    texts=[f"insert {pv.get('path')} (from the Picture tab)"])
        if result.get("ok"):
            p.request_ui.append(f"[klayout] inserted {', '.join(result.get('inserted_cells') or [])} under cell "
                                f"{session.cell.name} (one undoable step)")
            p.set_status(f"Inserted {pv.get('path')} as a new cell instance (Undo reverts it).")
        else:
            exc = result.get("exception") or {}
            p.set_status(f"Insert failed, nothing changed: {exc.get('type')}: {exc.get('message')}", error=True)
        return result

    @safe
    def open_reports(self, *args) -> None:
        for path in self.reports:
            self.open_report(path)

    def open_report(self, path: str) -> bool:
        """Load a report database (.lyrdb) into the current view and show KLayout's marker browser."""
        if not os.path.exists(path):
            self.panel.set_status(f"The report {path} does not exist.", error=True)
            return False
        view = pya.LayoutView.current()
        if view is None:
            self.panel.set_status("Open a layout to browse the report.")
            return False
        idx = view.create_rdb(Path(path).stem)
        rdb = view.rdb(idx)
        rdb.load(path)
        cv = view.active_cellview_index() if hasattr(view, "active_cellview_index") else 0
        view.show_rdb(idx, max(0, cv))
        self.opened_reports.append(path)
        self.panel.request_ui.append(f"[report] {Path(path).name}: {rdb.num_items()} marker(s), opened in the marker browser")
        return True

    def exec_reports(self, result: dict) -> None:
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

    def update_buttons(self, busy: bool) -> None:
        has_script = bool(self.text().strip())
        self.run_btn.enabled = not busy and has_script
        self.actions["sandbox"].enabled = not busy and has_script
        for key in ("macro", "copy", "save"):
            self.actions[key].enabled = has_script
        self.actions["session"].enabled = not busy
