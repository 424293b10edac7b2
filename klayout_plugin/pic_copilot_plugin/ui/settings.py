"""Settings: the settings dialog's button, the default mode, and the external-agents (MCP) switch."""
from __future__ import annotations

import pya

from .. import bridge
from .common import button, safe


class SettingsSection:
    """The gear button (settings dialog) and "Allow external agents".

    Args:
        panel: the CopilotPanel.
        parent: the dock's root widget.
    """

    def __init__(self, panel, parent, menu):
        self.panel = panel
        self.settings_btn = button("⚙", parent)
        self.settings_btn.toolTip = "pic-copilot settings: LLM endpoint, models, ports, databases"
        self.settings_btn.setMaximumWidth(32)
        # a checkable entry of the More menu (a checkbox row would cost the transcript its tenth line)
        menu.addSeparator()
        self.remote_cb = pya.QAction("Allow external agents (MCP) to act on this layout", menu)
        self.remote_cb.objectName = "pic_copilot_remote"
        self.remote_cb.checkable = True
        self.remote_cb.toolTip = "Let local programs holding this session's token act on the open layout"
        menu.addAction(self.remote_cb)
        self.remote_label = pya.QLabel("Off: no local port is open.", parent)   # its text goes to the transcript
        self.remote_label.visible = False
        self.settings_dialog = None
        self.remote = None
        self.settings_btn.clicked = self.open_settings
        self.remote_cb.toggled = self.toggle_remote

    def apply_default_mode(self) -> None:
        """Preselect the mode from the settings (config file): asks the engine (starting it), which answers
        within a moment; quietly does nothing if it cannot start (the first request reports why)."""
        try:
            self.panel.controller.settings("get", self._mode_from_answer)
        except Exception:  # noqa: BLE001 - e.g. the engine is not installed yet
            pass

    def _mode_from_answer(self, msg: dict) -> None:
        if msg.get("ok"):
            self._apply_mode(msg.get("form"))

    def _apply_mode(self, form) -> None:
        mode = ((form or {}).get("values") or {}).get("mode")
        if mode in ("interactive", "sandbox"):
            self.panel.request_ui.mode.setCurrentText(mode)

    @safe
    def open_settings(self, *args):
        from ..settings_dialog import SettingsDialog

        if self.settings_dialog is None:
            self.settings_dialog = SettingsDialog(self.panel.mw, self.panel.controller, on_saved=self._settings_saved)
        self.settings_dialog.show()
        return self.settings_dialog

    def _settings_saved(self, form=None) -> None:
        p = self.panel
        if p.controller.busy:
            p.controller.cancel()
        self._apply_mode(form)
        p.restart_engine()
        p.set_status("Settings saved; the engine was restarted with them.")

    @safe
    def toggle_remote(self, checked=None, *args) -> None:
        on = bool(self.remote_cb.checked)
        if not on:
            if self.remote is not None:
                self.remote.stop()
            self._say("Off: no local port is open.")
            return
        try:
            from .. import remote as remote_mod
        except ImportError as e:
            self._say(f"Remote control is not available in this installation ({e}).")
            self.remote_cb.checked = False
            return
        if self.remote is None:
            self.remote = remote_mod.RemoteEndpoint(bridge.Session.current_gui)
        try:
            self.remote.start()
        except Exception as e:  # noqa: BLE001 - e.g. the set port is taken: the message names the setting
            self._say(f"Could not start the local endpoint: {e}", error=True)
            self.remote_cb.checked = False
            return
        if getattr(self.remote, "running", False):
            self._say(f"Listening on 127.0.0.1:{self.remote.port}, token {self.remote.token} (only local programs "
                      "holding the token, e.g. pic-copilot serve-mcp, can act on the open layout).")
        else:
            self._say("The local endpoint did not start.", error=True)
            self.remote_cb.checked = False

    def _say(self, text: str, error: bool = False) -> None:
        """The switch's state: in the transcript and the status line (and in remote_label's text)."""
        self.remote_label.text = text
        self.remote_cb.toolTip = text
        self.panel.request_ui.append(f"[external agents] {text}")
        self.panel.set_status(text[:160], error=error)
