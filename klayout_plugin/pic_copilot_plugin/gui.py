"""The pic-copilot panel's entry point: ``install()`` (called by the autorun macro) and ``panel()``.

The panel itself lives in ``ui/`` split by concern (see ``ui/__init__.py``). stdlib + pya only.
"""
from __future__ import annotations

import pya

from . import guard, macro_ide
from .ui.common import context_line, slug as _slug  # noqa: F401 - kept importable from here
from .ui.panel import DOCK_MIN_WIDTH, DOCK_SHARE, CopilotPanel  # noqa: F401

_panel = None


def panel() -> "CopilotPanel | None":
    """The panel instance once installed."""
    return _panel


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
    session = action("pic-copilot: Save session as macro", lambda: (_panel.dock.show(), _panel.save_session_macro()))
    menu.insert_item("macros_menu.end", "pic_copilot_explain", explain)
    menu.insert_item("macros_menu.end", "pic_copilot_fix", fix)
    menu.insert_item("macros_menu.end", "pic_copilot_session", session)
    _panel._menu_actions = [show, settings, explain, fix, session]
    _panel.ide_hook = macro_ide.IdeHook(lambda: (_panel.dock.show(), _panel.explain_macro()),
                                        lambda: (_panel.dock.show(), _panel.fix_macro()))
    return _panel
