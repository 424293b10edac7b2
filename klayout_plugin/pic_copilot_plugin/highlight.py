"""Syntax colouring for the panel: Python scripts and unified diffs (pya QSyntaxHighlighter subclasses).

Subclassing ``pya.QSyntaxHighlighter`` and overriding ``highlightBlock`` works in KLayout 0.28.5
(measured). Every override catches its own exceptions: an exception inside a Qt virtual
would pop KLayout's modal error dialog.
"""
from __future__ import annotations

import keyword
import re

import pya

_KEYWORDS = re.compile(r"\b(" + "|".join(keyword.kwlist) + r")\b")
_BUILTINS = re.compile(r"\b(print|len|range|int|float|str|list|dict|set|tuple|enumerate|zip|min|max|abs|round|"
                       r"sorted|open|isinstance|super|self|pya|layout|cell|view|cellview|dbu|selection|workdir)\b")
_NUMBERS = re.compile(r"\b\d+(\.\d*)?([eE][-+]?\d+)?\b")
_STRINGS = re.compile(r"(\"\"\"|'''|\"[^\"\n]*\"|'[^'\n]*')")
_COMMENT = re.compile(r"#[^\n]*")
_DEF = re.compile(r"\b(def|class)\s+(\w+)")


def _fmt(rgb: tuple[int, int, int], bold: bool = False, italic: bool = False, background=None):
    f = pya.QTextCharFormat()
    f.setForeground(pya.QBrush(pya.QColor(*rgb)))
    if bold:
        f.setFontWeight(75)
    if italic:
        f.setFontItalic(True)
    if background is not None:
        f.setBackground(pya.QBrush(pya.QColor(*background)))
    return f


class PythonHighlighter(pya.QSyntaxHighlighter):
    """Keywords, builtins and the execution-context globals, numbers, strings, comments."""

    def _init_formats(self) -> None:
        self._formats = {
            "kw": _fmt((0, 0, 160), bold=True),
            "bi": _fmt((120, 40, 140)),
            "num": _fmt((160, 80, 0)),
            "str": _fmt((0, 130, 0)),
            "com": _fmt((120, 120, 120), italic=True),
            "def": _fmt((0, 90, 160), bold=True),
        }

    def highlightBlock(self, text):  # noqa: N802 - Qt virtual
        try:
            if not hasattr(self, "_formats"):
                self._init_formats()
            f = self._formats
            for rx, key in ((_KEYWORDS, "kw"), (_BUILTINS, "bi"), (_NUMBERS, "num")):
                for m in rx.finditer(text):
                    self.setFormat(m.start(), m.end() - m.start(), f[key])
            for m in _DEF.finditer(text):
                self.setFormat(m.start(2), m.end(2) - m.start(2), f["def"])
            for m in _STRINGS.finditer(text):
                self.setFormat(m.start(), m.end() - m.start(), f["str"])
            m = _COMMENT.search(text)
            if m and not _inside_string(text, m.start()):
                self.setFormat(m.start(), len(text) - m.start(), f["com"])
        except Exception:  # noqa: BLE001 - never raise from a Qt virtual
            pass


def _inside_string(text: str, pos: int) -> bool:
    for m in _STRINGS.finditer(text):
        if m.start() < pos < m.end():
            return True
    return False


class DiffHighlighter(pya.QSyntaxHighlighter):
    """Unified diff: added lines green, removed red, hunk headers blue."""

    def highlightBlock(self, text):  # noqa: N802 - Qt virtual
        try:
            if not hasattr(self, "_formats"):
                self._formats = {"+": _fmt((0, 110, 0), background=(225, 250, 225)),
                                 "-": _fmt((170, 0, 0), background=(252, 228, 228)),
                                 "@": _fmt((0, 70, 170), bold=True)}
            if text.startswith(("+++", "---")):
                self.setFormat(0, len(text), self._formats["@"])
            elif text[:1] in self._formats:
                self.setFormat(0, len(text), self._formats[text[:1]])
        except Exception:  # noqa: BLE001
            pass
