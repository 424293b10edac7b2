"""KLayout's Macro IDE: the current macro's text, replacing it undoably, the context-menu hook.

There is no documented API for the macro editor (KLayout 0.28.5). What works (measured):
the top-level widget ``MacroEditorDialog`` holds a ``QTabWidget`` named ``tabWidget`` whose
context menu is actions-based; each page holds a ``QPlainTextEdit`` with the macro's text and
the tab's tool tip holds the macro's path. Macros can be opened in the IDE by setting the
``macro-editor-open-macros`` / ``macro-editor-current-macro`` configuration before it opens.
stdlib + pya only.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pya

from .paths import data_folder, klayout_folder

EXPLAIN_NAME = "pic_copilot_explain_macro"
FIX_NAME = "pic_copilot_fix_macro"


def val(obj, name: str, *args):
    """A Qt property or getter: pya exposes some as attributes, others as methods."""
    x = getattr(obj, name)
    return x(*args) if callable(x) else x


def dialog():
    """The Macro IDE's top-level dialog, or None if it was never opened."""
    for w in pya.QApplication.topLevelWidgets():
        if w.objectName == "MacroEditorDialog":
            return w
    return None


def _walk(w, depth: int = 0, limit: int = 10):
    for c in w.children():
        yield c
        if depth < limit and hasattr(c, "children"):
            yield from _walk(c, depth + 1, limit)


def tab_widget(dlg=None):
    dlg = dlg or dialog()
    if dlg is None:
        return None
    for c in _walk(dlg):
        if c.objectName == "tabWidget" and "QTabWidget" in type(c).__name__:
            return c
    return None


def _editor_of(page):
    for c in _walk(page, 0, 6):
        if type(c).__name__.startswith("QPlainTextEdit"):
            return c
    return None


class CurrentMacro:
    """The macro shown in the IDE's current tab.

    Attributes:
        name: the tab's title.
        path: the macro's file ("" if unknown).
        editor: the QPlainTextEdit showing it.
        text: its current (possibly unsaved) text.
    """

    def __init__(self, name: str, path: str, editor):
        self.name = name
        self.path = path
        self.editor = editor

    @property
    def text(self) -> str:
        return self.editor.toPlainText()

    def replace_text(self, new_text: str) -> None:
        """Replace the whole text as one edit the IDE's Undo (Ctrl+Z) reverts."""
        cur = val(self.editor, "textCursor")
        cur.beginEditBlock()
        cur.select(pya.QTextCursor.Document)
        cur.insertText(new_text)
        cur.endEditBlock()
        self.editor.setTextCursor(cur)


def current_macro() -> CurrentMacro | None:
    """The macro in the IDE's current tab, or None when the IDE has no macro open."""
    tw = tab_widget()
    if tw is None or not val(dialog(), "isVisible"):
        return None
    idx = val(tw, "currentIndex")
    if idx is None or idx < 0:
        return None
    page = val(tw, "currentWidget")
    ed = _editor_of(page) if page is not None else None
    if ed is None:
        return None
    tip = tw.tabToolTip(idx) or ""
    path = re.sub(r"<[^>]+>", " ", tip).split()
    path = next((p for p in path if os.path.sep in p), "")
    return CurrentMacro(tw.tabText(idx), path, ed)


_pending_timers: list = []


def raise_widget(w) -> None:
    """Bring a widget to the front (pya names QWidget::raise ``qt_raise``)."""
    for name in ("qt_raise", "raise_"):
        fn = getattr(w, name, None)
        if callable(fn):
            fn()
            return


def open_in_ide(path: str, timeout_s: float = 10.0) -> None:
    """Open a macro file in the IDE (through its remembered-state configuration) and show the IDE.

    A file written just now becomes a macro only once KLayout's file watcher has seen it; until
    then (at most ``timeout_s``) a QTimer waits, so the call itself returns at once.
    """
    mw = pya.MainWindow.instance()

    def do_open():
        open_list = [p for p in (mw.get_config("macro-editor-open-macros") or "").split() if p and p != path]
        mw.set_config("macro-editor-open-macros", " ".join(open_list + [path]))
        mw.set_config("macro-editor-current-macro", path)
        mw.menu().action("macros_menu.macro_development").trigger()

    if pya.Macro.macro_by_path(path) is not None:
        do_open()
        return
    t0 = time.monotonic()
    timer = pya.QTimer()
    timer.interval = 200

    def poll():
        try:
            if pya.Macro.macro_by_path(path) is not None or time.monotonic() - t0 > timeout_s:
                timer.stop()
                if timer in _pending_timers:
                    _pending_timers.remove(timer)
                do_open()
        except Exception:  # noqa: BLE001 - a timer handler must never raise
            pass
    timer.timeout = poll
    _pending_timers.append(timer)
    timer.start()


def user_macro_dir() -> Path:
    """<KLayout home>/pymacros: the IDE's own Python macro folder."""
    return klayout_folder("pymacros")


def macros_dir() -> Path:
    """<KLayout home>/macros: the user's macro folder (the IDE lists its .py and .lym files)."""
    d = user_macro_dir().parent / "macros"
    d.mkdir(parents=True, exist_ok=True)
    return d


def history_dir() -> Path:
    """Where old macro texts are kept before a fix is applied."""
    return data_folder("macro-history")


def keep_old_text(name: str, text: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:60] or "macro"
    p = history_dir() / f"{safe}.{time.strftime('%Y%m%d-%H%M%S')}.py"
    n = 1
    while p.exists():
        p = p.with_name(f"{safe}.{time.strftime('%Y%m%d-%H%M%S')}-{n}.py")
        n += 1
    p.write_text(text)
    return p


class IdeHook:
    """Keeps "Explain this macro" / "Fix this macro" on the IDE tab's context menu.

    The IDE dialog can be created later or re-created; a 1 s QTimer re-applies the actions.
    ``on_explain`` / ``on_fix`` are called without arguments.
    """

    def __init__(self, on_explain, on_fix):
        self.on_explain = on_explain
        self.on_fix = on_fix
        self._actions = []   # keep the Python objects alive
        self.hooked = 0
        self.timer = pya.QTimer()
        self.timer.interval = 1000
        self.timer.timeout = self.check
        self.timer.start()

    def _tab_widget(self):
        """The IDE's tab widget, cached (walking the IDE's widget tree every second would cost time)."""
        tw = getattr(self, "_tw", None)
        try:
            if tw is not None and not tw.destroyed():
                return tw
        except Exception:  # noqa: BLE001
            pass
        self._tw = tab_widget()
        return self._tw

    def check(self) -> None:
        try:
            tw = self._tab_widget()
            if tw is None:
                return
            names = {a.objectName for a in tw.actions()}
            if EXPLAIN_NAME in names and FIX_NAME in names:
                return
            sep = pya.QAction(tw)
            sep.setSeparator(True)
            explain = pya.QAction("pic-copilot: Explain this macro", tw)
            explain.objectName = EXPLAIN_NAME
            explain.triggered = lambda *a: self.on_explain()
            fix = pya.QAction("pic-copilot: Fix this macro", tw)
            fix.objectName = FIX_NAME
            fix.triggered = lambda *a: self.on_fix()
            for a in (sep, explain, fix):
                tw.addAction(a)
            self._actions = [sep, explain, fix]
            self.hooked += 1
        except Exception:  # noqa: BLE001 - a timer handler must never raise
            pass

    def actions(self):
        tw = tab_widget()
        return [] if tw is None else [a for a in tw.actions() if a.objectName in (EXPLAIN_NAME, FIX_NAME)]
