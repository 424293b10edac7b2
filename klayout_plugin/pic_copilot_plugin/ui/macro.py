"""Macro IDE: explain / fix the macro open in KLayout's Macro IDE, and the Change tab (diff, Apply, Discard).

The engine does the work (``explain`` and ``fix`` messages, see docs/PROTOCOL.md): it runs the
macro, builds the prompts and revises it; this section only sends the macro's text and shows
the explanation and the proposed diff.
"""
from __future__ import annotations

import pya

from .. import macro_ide
from ..highlight import DiffHighlighter
from .common import button, mono_font, safe


class MacroSection:
    """Explain / Fix macro and the Change tab (added to the script section's tabs and More menu).

    Args:
        panel: the CopilotPanel.
        tabs: the QTabWidget the Change tab goes into.
    """

    CHANGE_TAB = 2

    def __init__(self, panel, tabs):
        self.panel = panel
        chg = pya.QWidget(tabs)
        cl = pya.QVBoxLayout(chg)
        cl.setContentsMargins(2, 2, 2, 2)
        cl.setSpacing(2)
        self.diff_label = pya.QLabel("No proposed change. Use 'Fix macro' on a macro open in the Macro IDE.", chg)
        self.diff_label.wordWrap = True
        self.diff_label.setMaximumHeight(34)
        cl.addWidget(self.diff_label)
        self.diff = pya.QPlainTextEdit(chg)
        self.diff.readOnly = True
        self.diff.font = mono_font()
        self.diff.lineWrapMode = pya.QPlainTextEdit.NoWrap
        self.diff.setMinimumHeight(40)
        self.diff_highlighter = DiffHighlighter(self.diff.document)
        cl.addWidget(self.diff, 1)
        crow = pya.QHBoxLayout()
        self.apply_btn = button("Apply to the macro", chg)
        self.discard_btn = button("Discard", chg)
        crow.addStretch(1)
        crow.addWidget(self.discard_btn)
        crow.addWidget(self.apply_btn)
        cl.addLayout(crow)
        tabs.addTab(chg, "Change")
        self.fix: dict | None = None
        self.explanation: str | None = None
        self.apply_btn.clicked = self.apply_fix
        self.discard_btn.clicked = self.discard_fix

    # ------------------------------------------------------------------ explain
    @safe
    def explain_macro(self, *args) -> None:
        p = self.panel
        m = macro_ide.current_macro()
        code, name = (m.text, m.name) if m is not None else (p.script_ui.text(), "the copilot's script")
        if not code.strip():
            p.set_status("Open a macro in the Macro IDE (or get a script) first, then press Explain.")
            return
        self.explanation = None
        p.request_ui.transcript.clear()
        p.request_ui.append(f"> explain {name}")
        p.start_job("explain", lambda: p.controller.explain(code, name=name), f"Explaining {name}…")

    def on_explanation(self, msg: dict) -> None:
        self.explanation = msg.get("text") or ""
        self.panel.set_status("Explanation ready (in the transcript above).")

    # ------------------------------------------------------------------ fix
    @safe
    def fix_macro(self, *args, complaint: str | None = None, where: str | None = None) -> None:
        """Ask the engine to run the IDE's current macro (``where``: interactive = on the layout, or sandbox)
        and fix what fails or what the feedback box says."""
        p = self.panel
        m = macro_ide.current_macro()
        if m is None:
            p.set_status("Open the macro in the Macro IDE first (Macros → Macro Development).")
            return
        if p.controller.busy:
            p.set_status("The copilot is working; press Stop first.")
            return
        where = where or p.request_ui.mode.currentText
        complaint = complaint if complaint is not None else p.request_ui.feedback.text.strip()
        if where == "interactive" and p.controller.session_provider() is None:
            p.set_status("No layout is open to run the macro on: open one, or switch the mode to sandbox.")
            return
        self.fix = {"macro": m, "name": m.name, "path": m.path, "old": m.text, "new": None,
                    "complaint": complaint, "where": where}
        p.request_ui.transcript.clear()
        p.request_ui.append(f"> fix {m.name} (run {'on the layout' if where == 'interactive' else 'in the sandbox'})"
                            + (f": {complaint}" if complaint else ""))
        self.diff.setPlainText("")
        self.diff_label.text = f"Working on a fix for {m.name}…"
        p.start_job("fix", lambda: p.controller.fix(self.fix["old"], name=m.name, complaint=complaint, mode=where,
                                                      config=p.pipeline_config), f"Fixing {m.name}…")

    def on_fix_result(self, msg: dict) -> None:
        fix = self.fix
        if fix is None:
            return
        p = self.panel
        if not msg.get("needed"):
            self.diff_label.text = f"{fix['name']} ran without errors."
            p.set_status(f"{fix['name']} ran without errors. Type what is wrong in the feedback box, then press Fix again.")
            return
        fix["new"] = msg.get("script") or ""
        diff = msg.get("diff") or ""
        self.diff.setPlainText(diff or "(no change proposed)")
        ok = bool(msg.get("ok"))
        self.diff_label.text = (f"Proposed change to {fix['name']}" + ("" if ok else " (the copilot could not verify it)")
                                + ". Apply replaces the macro's text in the IDE (Ctrl+Z there undoes it).")
        self.apply_btn.enabled = bool(diff)
        self.discard_btn.enabled = True
        p.script_ui.tabs.setCurrentIndex(self.CHANGE_TAB)
        p.set_status("A fix is proposed: see the Change tab; Apply replaces the macro text." if ok else
                     "A fix is proposed but did not pass the checks; see the transcript and the Change tab.",
                     error=not ok)
        p.script_ui.set_previews(msg.get("execution"))

    def on_error(self, text: str) -> None:
        if self.panel.purpose == "fix" and self.fix is not None:
            self.diff_label.text = f"No fix: {text[:200]}"

    @safe
    def apply_fix(self, *args) -> str | None:
        p = self.panel
        fix = self.fix
        if not fix or not fix.get("new"):
            p.set_status("There is no proposed change to apply.")
            return None
        m = fix["macro"]
        try:
            current = m.text
        except Exception:  # noqa: BLE001 - the IDE page was closed
            m = macro_ide.current_macro()
            if m is None or (fix["path"] and m.path != fix["path"]):
                p.set_status(f"{fix['name']} is no longer open in the Macro IDE; open it and press Apply again.")
                return None
            current = m.text
        kept = macro_ide.keep_old_text(fix["name"], current)
        m.replace_text(fix["new"])
        self.apply_btn.enabled = False
        p.set_status(f"Applied to {fix['name']} in the Macro IDE (Ctrl+Z there undoes it; save the macro to keep "
                     f"it). The old text is kept in {kept}.")
        p.request_ui.append(f"[fix] applied to {fix['name']}; old text kept in {kept}")
        fix["kept"] = str(kept)
        return str(kept)

    @safe
    def discard_fix(self, *args) -> None:
        self.fix = None
        self.diff.setPlainText("")
        self.diff_label.text = "Discarded."
        self.apply_btn.enabled = False
        self.discard_btn.enabled = False

    def update_buttons(self, busy: bool) -> None:
        for key in ("explain", "fix"):
            a = self.panel.script_ui.actions.get(key)
            if a is not None:
                a.enabled = not busy
        self.apply_btn.enabled = bool(self.fix and self.fix.get("new")) and not busy
        self.discard_btn.enabled = bool(self.fix and self.fix.get("new"))
