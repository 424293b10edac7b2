"""The docked pic-copilot panel and its menu entries (stdlib + pya only).

Everything runs on KLayout's main thread: engine output arrives through QProcess signals,
so the window never blocks while the LLM works.
"""
from __future__ import annotations

import pya

from . import bridge, guard
from .controller import Controller
from .transcript import describe

_panel = None


def panel() -> "CopilotPanel | None":
    """The panel instance once installed."""
    return _panel


class CopilotPanel:
    """Prompt box, transcript with streamed progress, the script, and the actions on it."""

    def __init__(self, main_window):
        self.mw = main_window
        self.dock = pya.QDockWidget("pic-copilot", main_window)
        self.dock.objectName = "pic_copilot_dock"
        root = pya.QWidget(self.dock)
        lay = pya.QVBoxLayout(root)

        self.prompt = pya.QPlainTextEdit(root)
        self.prompt.placeholderText = "Ask the copilot, e.g. 'create a 1x2 MMI splitter with gdsfactory and place it here' (Ctrl+Enter sends)"
        self.prompt.setMaximumHeight(80)
        lay.addWidget(self.prompt)

        row = pya.QHBoxLayout()
        self.mode = pya.QComboBox(root)
        self.mode.addItem("interactive")
        self.mode.addItem("sandbox")
        self.send_btn = pya.QPushButton("Send", root)
        self.stop_btn = pya.QPushButton("Stop", root)
        self.stop_btn.enabled = False
        row.addWidget(pya.QLabel("Mode", root))
        row.addWidget(self.mode)
        row.addStretch(1)
        row.addWidget(self.stop_btn)
        row.addWidget(self.send_btn)
        lay.addLayout(row)

        self.status = pya.QLabel("Ready.", root)
        self.status.wordWrap = True
        lay.addWidget(self.status)

        self.transcript = pya.QPlainTextEdit(root)
        self.transcript.readOnly = True
        lay.addWidget(self.transcript, 2)

        lay.addWidget(pya.QLabel("Script", root))
        self.script = pya.QPlainTextEdit(root)
        self.script.readOnly = True
        font = pya.QFont("Monospace")
        font.setStyleHint(pya.QFont.TypeWriter)
        self.script.font = font
        lay.addWidget(self.script, 3)

        actions = pya.QHBoxLayout()
        self.run_btn = pya.QPushButton("Run on layout", root)
        self.undo_btn = pya.QPushButton("Undo last run", root)
        self.copy_btn = pya.QPushButton("Copy", root)
        for b in (self.run_btn, self.undo_btn, self.copy_btn):
            actions.addWidget(b)
        lay.addLayout(actions)

        fb = pya.QHBoxLayout()
        self.feedback = pya.QLineEdit(root)
        self.feedback.placeholderText = "Not right? Say what to change and press Enter"
        self.feedback_btn = pya.QPushButton("Send feedback", root)
        fb.addWidget(self.feedback)
        fb.addWidget(self.feedback_btn)
        lay.addLayout(fb)

        self.dock.setWidget(root)
        main_window.addDockWidget(pya.Qt.RightDockWidgetArea, self.dock)

        self.controller = Controller(bridge.Session.current_gui, self.on_event)
        self._streaming = False
        self._history: list[str] = []

        self.send_btn.clicked = self.send
        self.stop_btn.clicked = self.stop
        self.run_btn.clicked = self.run_script
        self.undo_btn.clicked = self.undo_last
        self.copy_btn.clicked = self.copy_script
        self.feedback_btn.clicked = self.send_feedback
        self.feedback.returnPressed = self.send_feedback
        self.send_shortcut = pya.QShortcut(pya.QKeySequence("Ctrl+Return"), self.prompt)
        self.send_shortcut.activated = self.send
        self._update_buttons(busy=False)

    # -- actions
    def send(self) -> None:
        text = self.prompt.toPlainText().strip()
        if not text:
            self.set_status("Type a request first.")
            return
        if self.controller.current_id is not None and not self.controller.finished:
            self.set_status("A request is running; press Stop first.")
            return
        self._history.append(text)
        self.transcript.clear()
        self.script.setPlainText("")
        self.append(f"> {text}")
        try:
            self.controller.send_request(text, mode=self.mode.currentText)
        except RuntimeError as e:
            self.set_status(str(e))
            return
        self.set_status("Working… (the window stays usable)")
        self._update_buttons(busy=True)

    def send_feedback(self) -> None:
        text = self.feedback.text.strip()
        if not text:
            return
        try:
            self.controller.send_feedback(text)
        except RuntimeError as e:
            self.set_status(str(e))
            return
        self.feedback.text = ""
        self.append(f"> feedback: {text}")
        self.set_status("Revising with your feedback…")
        self._update_buttons(busy=True)

    def stop(self) -> None:
        self.controller.cancel()
        self.set_status("Stopping…")

    def run_script(self) -> None:
        code = self.script.toPlainText()
        session = bridge.Session.current_gui()
        if not code.strip() or session is None:
            self.set_status("Nothing to run, or no layout is open.")
            return
        result = bridge.execute(session, code)
        self.on_event({"type": "exec_done", "result": result})
        if result.get("ok") and result.get("undoable"):
            self.controller.undo_available = True
        session.view.zoom_fit()

    def undo_last(self) -> None:
        if self.controller.undo_last_run():
            self.set_status("Undone: the layout is as before the copilot's last run.")
        else:
            self.set_status("Nothing to undo.")

    def copy_script(self) -> None:
        pya.QApplication.clipboard().setText(self.script.toPlainText())
        self.set_status("Script copied.")

    # -- display
    def append(self, line: str) -> None:
        self._end_stream()
        self.transcript.appendPlainText(line)

    def _end_stream(self) -> None:
        if self._streaming:
            self._streaming = False
            self.transcript.appendPlainText("")

    def set_status(self, text: str) -> None:
        self.status.text = text

    def _update_buttons(self, busy: bool) -> None:
        self.send_btn.enabled = not busy
        self.stop_btn.enabled = busy
        self.feedback_btn.enabled = not busy
        self.run_btn.enabled = not busy

    def on_event(self, msg: dict) -> None:
        # an exception in a Qt signal handler would pop a modal dialog in KLayout: show it as status
        try:
            self._on_event(msg)
        except Exception as e:  # noqa: BLE001
            self.set_status(f"pic-copilot display error: {type(e).__name__}: {e}")

    def _on_event(self, msg: dict) -> None:
        t = msg.get("type")
        if t == "token":
            text = msg.get("text")
            if text is None:
                self.append("[stream restarted]")
                return
            cursor = self.transcript.textCursor
            cursor.movePosition(pya.QTextCursor.End)
            if not self._streaming:
                self._streaming = True
                cursor.insertText(f"\n[{msg.get('agent')}] ")
            cursor.insertText(text)
            self.transcript.setTextCursor(cursor)
            return
        if t == "script":
            self.script.setPlainText(msg.get("code") or "")
        line = describe(msg)
        if line:
            self.append(line)
        if t == "result":
            self.script.setPlainText(msg.get("script") or "")
            self.set_status("Done: the script ran and was accepted." if msg.get("ok")
                            else "Finished, but the last script did not pass; see the transcript.")
            self._update_buttons(busy=False)
        elif t == "error":
            self.set_status(f"Error: {msg.get('message')}")
            self._update_buttons(busy=False)
        elif t == "engine_died":
            self.set_status(f"{msg.get('message')}. Press Send to restart it; KLayout is unaffected.")
            self._update_buttons(busy=False)


def install() -> CopilotPanel | None:
    """Create the panel and menu entries once per KLayout session (called by the autorun macro)."""
    global _panel
    guard.install()
    mw = pya.MainWindow.instance()
    if mw is None or _panel is not None:
        return _panel
    _panel = CopilotPanel(mw)
    action = pya.Action()
    action.title = "pic-copilot panel"
    action.on_triggered = lambda: (_panel.dock.show(), _panel.dock.raise_())
    mw.menu().insert_item("tools_menu.end", "pic_copilot_show", action)
    return _panel
