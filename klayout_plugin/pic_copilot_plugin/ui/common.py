"""Small helpers the panel's sections share (stdlib + pya only)."""
from __future__ import annotations

import re

import pya


def safe(fn):
    """Wrap a Qt signal handler of a section: an exception becomes a status line instead of KLayout's modal dialog."""
    def handler(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except Exception as e:  # noqa: BLE001
            try:
                self.panel.set_status(f"pic-copilot: {type(e).__name__}: {e}", error=True)
            except Exception:  # noqa: BLE001
                pass
    handler.__name__ = fn.__name__
    handler.__doc__ = fn.__doc__
    return handler


def mono_font(size: int = 9):
    f = pya.QFont("Monospace")
    f.setStyleHint(pya.QFont.TypeWriter)
    f.setPointSize(size)
    return f


def button(text: str, parent, tip: str = ""):
    """A push button as narrow as its text (Qt's styles otherwise make every text button at least
    80 px wide, and a row of them would set the panel's minimum width)."""
    b = pya.QPushButton(text, parent)
    if tip:
        b.toolTip = tip
    fit_width(b, text)
    return b


def fit_width(widget, text: str, padding: int = 18) -> None:
    """Let a layout shrink ``widget`` down to its text's width plus padding."""
    fm = pya.QFontMetrics(widget.font)
    try:
        w = fm.horizontalAdvance(text)
    except AttributeError:  # older Qt bindings
        w = fm.width(text)
    widget.setMinimumWidth(int(w) + padding)


def slug(text: str, n: int = 32) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "_", text.strip().lower()).strip("_")
    return s[:n].rstrip("_") or "copilot_script"


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
