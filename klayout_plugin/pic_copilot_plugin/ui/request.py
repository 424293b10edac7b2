"""Prompt & transcript: the request box, mode, Send / Stop, prompt history, feedback and the transcript."""
from __future__ import annotations

import pya

from .. import bridge, macro_ide
from ..stream_view import StreamView
from .common import button, context_line, mono_font, safe

TRANSCRIPT_MIN_LINES = 10


class RequestSection:
    """What the designer types and what the copilot answers in words.

    Args:
        panel: the CopilotPanel (status, controller, shared job state).
        parent: the dock's root widget.
    """

    def __init__(self, panel, parent):
        self.panel = panel
        self.prompt = pya.QPlainTextEdit(parent)
        self.prompt.placeholderText = ("Ask the copilot, e.g. 'make the selected waveguide 2 um wider'. "
                                       "Ctrl+Enter sends; Up/Down recall earlier requests.")
        self.prompt.setMinimumHeight(42)
        self.prompt.setMaximumHeight(78)
        self.mode = pya.QComboBox(parent)
        self.mode.addItem("interactive")
        self.mode.addItem("sandbox")
        self.mode.toolTip = ("interactive: scripts run on the open layout (one undoable step; a new layout is opened "
                             "when none is); sandbox: in the engine's sandbox")
        self.send_btn = button("Send", parent, "Send the request (Ctrl+Enter)")
        self.stop_btn = button("Stop", parent, "Stop what the copilot is doing (the layout is left as before it)")

        self.transcript = pya.QPlainTextEdit(parent)
        self.transcript.readOnly = True
        self.transcript.lineWrapMode = pya.QPlainTextEdit.WidgetWidth
        self.transcript.font = mono_font()
        self.transcript.objectName = "pic_copilot_transcript"
        spacing = pya.QFontMetrics(self.transcript.font).lineSpacing
        spacing = spacing() if callable(spacing) else spacing
        self.transcript.setMinimumHeight(TRANSCRIPT_MIN_LINES * spacing + 12)

        self.feedback = pya.QLineEdit(parent)
        self.feedback.placeholderText = "Not right? Say what to change, Enter"
        self.feedback_btn = button("Revise", parent, "Send the feedback: the copilot revises its last script")

        self._history: list[str] = []
        self._hist_pos = 0
        self._stream: StreamView | None = None

        self.send_btn.clicked = self.send
        self.stop_btn.clicked = self.stop
        self.feedback_btn.clicked = self.send_feedback
        self.feedback.returnPressed = self.send_feedback
        self._shortcuts = []
        for keys, fn in (("Ctrl+Return", self.send), ("Ctrl+Enter", self.send),
                         ("Up", self.history_up), ("Down", self.history_down)):
            sc = pya.QShortcut(pya.QKeySequence(keys), self.prompt)
            sc.context = pya.Qt.WidgetShortcut
            sc.activated = fn
            self._shortcuts.append(sc)

    # ------------------------------------------------------------------ requests
    @safe
    def send(self, *args) -> None:
        p = self.panel
        text = self.prompt.toPlainText().strip()
        if not text:
            p.set_status("Type a request first.")
            return
        if p.controller.busy:
            p.set_status("The copilot is working; press Stop first.")
            return
        if not self._history or self._history[-1] != text:
            self._history.append(text)
        self._hist_pos = len(self._history)
        self.transcript.clear()
        p.script_ui.clear_script()
        self.append(f"> {text}")
        mode = self.mode.currentText
        if mode == "interactive" and bridge.Session.current_gui() is None:
            self.open_new_layout()
        self.append(context_line(p.controller.layout_context()))
        p.start_job("request", lambda: p.controller.send_request(text, mode=mode, config=p.pipeline_config),
                    "Working… (KLayout stays usable; Stop cancels)")

    def open_new_layout(self):
        """No layout is open: open a new editable one with a TOP cell (File > New Layout) and say so."""
        session = bridge.Session.new_gui_layout()
        self.append(f"[layout] no layout was open: opened a new editable layout ({session.view.title}) with the "
                    f"cell {session.cell.name}, as File > New Layout does; the request runs on it")
        return session

    @safe
    def send_feedback(self, *args) -> None:
        p = self.panel
        text = self.feedback.text.strip()
        if not text:
            return
        if p.controller.current_id is None:
            p.set_status("Send a request first; feedback revises its result.")
            return
        self.append(f"> feedback: {text}")
        if p.start_job("request", lambda: p.controller.send_feedback(text), "Revising with your feedback…"):
            self.feedback.text = ""

    @safe
    def stop(self, *args) -> None:
        if self.panel.controller.cancel():
            self.panel.set_status("Stopping…")
        else:
            self.panel.set_status("Nothing is running.")

    @property
    def last_request(self) -> str:
        return self._history[-1] if self._history else ""

    # ------------------------------------------------------------------ prompt history
    @safe
    def history_up(self, *args) -> None:
        cur = macro_ide.val(self.prompt, "textCursor")
        if macro_ide.val(cur, "blockNumber") > 0:
            cur.movePosition(pya.QTextCursor.Up)
            self.prompt.setTextCursor(cur)
            return
        if self._history and self._hist_pos > 0:
            self._hist_pos -= 1
            self._set_prompt(self._history[self._hist_pos])

    @safe
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

    # ------------------------------------------------------------------ transcript
    def append(self, line: str) -> None:
        self.end_stream()
        self.transcript.appendPlainText(line)

    def _insert(self, text: str) -> None:
        if not text:
            return
        cursor = macro_ide.val(self.transcript, "textCursor")
        cursor.movePosition(pya.QTextCursor.End)
        cursor.insertText(text)
        self.transcript.setTextCursor(cursor)

    def end_stream(self) -> None:
        """The streamed answer ended: show what the view still holds (a JSON answer, a last line)."""
        if self._stream is None:
            return
        text, code = self._stream.finish()
        self._stream = None
        self._insert(text.rstrip("\n"))
        if code:
            self.panel.script_ui.append_streamed(code)

    def on_token(self, msg: dict) -> None:
        """Streamed LLM text: readable prose in the transcript, a script's code into the Script tab."""
        text = msg.get("text")
        if text is None:  # the stream restarts (a new call)
            if self._stream is not None:
                self.append("[stream restarted]")
            return
        if self._stream is None or self._stream.agent != msg.get("agent"):
            self.end_stream()
            to_script = self.panel.purpose == "request"
            self._stream = StreamView(str(msg.get("agent")), script_to_tab=to_script)
            if to_script and self._stream.to_script:
                self.panel.script_ui.clear_script()
            self._insert(f"\n[{msg.get('agent')}] ")
        shown, code = self._stream.feed(text)
        self._insert(shown)
        if code:
            self.panel.script_ui.append_streamed(code)

    def update_buttons(self, busy: bool) -> None:
        self.send_btn.enabled = not busy
        self.stop_btn.enabled = busy
        self.feedback_btn.enabled = not busy
