"""One human-readable line per engine event, shared by the panel and the headless runner."""
from __future__ import annotations


def _short(text: str, n: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def describe(msg: dict) -> str | None:
    """The transcript line for an event, or None for events not shown as lines (tokens)."""
    t = msg.get("type")
    if t == "ready":
        return f"[engine] ready ({msg.get('provider')} model {msg.get('model')})"
    if t == "progress":
        data = msg.get("data") or {}
        extra = ""
        if msg.get("stage") == "retrieve" and isinstance(data, dict) and data.get("ids"):
            extra = ": " + ", ".join(data["ids"][:8])
        return f"[{msg.get('stage')}] {_short(msg.get('message', ''))}{extra}"
    if t == "script":
        lines = (msg.get("code") or "").count("\n") + 1
        return f"[script] round {msg.get('round')}: {lines} lines"
    if t == "exec_done":
        r = msg.get("result") or {}
        if r.get("ok"):
            ch = r.get("changes") or {}
            return (f"[klayout] ran on the open layout: cells added {ch.get('cells_added', [])}, "
                    f"shapes {ch.get('shapes_delta', {})}" + (", undoable" if r.get("undoable") else ""))
        exc = r.get("exception") or {}
        return f"[klayout] failed and was rolled back: {exc.get('type')}: {_short(exc.get('message', ''))}"
    if t == "result":
        return f"[result] {'accepted' if msg.get('ok') else 'not accepted'} after {msg.get('rounds')} round(s). {_short(msg.get('message') or '')}"
    if t == "error":
        return f"[error] {msg.get('kind')}: {_short(msg.get('message', ''), 400)}"
    if t == "engine_died":
        return f"[error] {msg.get('message')}"
    return None
