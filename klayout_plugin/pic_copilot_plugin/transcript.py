"""Human-readable transcript lines per engine event, shared by the panel and the headless runner."""
from __future__ import annotations


def _short(text: str, n: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _progress_details(stage: str, data) -> list[str]:
    """Indented detail lines for a progress event (plan, queries, retrieved entries, findings, decision)."""
    if not isinstance(data, dict):
        return []
    out: list[str] = []
    if stage == "plan":
        for i, s in enumerate(data.get("subtasks") or [], 1):
            outs = f" -> {', '.join(s['outputs'])}" if s.get("outputs") else ""
            out.append(f"    {i}. [{s.get('domain')}] {_short(s.get('task', ''), 200)}{outs}")
    elif stage == "query":
        for q in data.get("queries") or []:
            out.append(f"    ? {q.get('db') or 'all'}: {_short(q.get('query', ''), 120)}")
    elif stage == "retrieve":
        entries = data.get("entries") or []
        if entries:
            names = [f"{e.get('name') or e.get('id')} ({e.get('db')})" for e in entries[:12]]
            out.append("    " + _short(", ".join(names), 600))
        for err in (data.get("errors") or [])[:2]:
            out.append(f"    ! {_short(err, 200)}")
    elif stage == "check":
        for f in (data.get("findings") or [])[:8]:
            where = f" line {f['line']}" if f.get("line") else ""
            out.append(f"    {f.get('severity', '?')}{where}: {_short(f.get('message', ''), 180)}")
    elif stage == "execute":
        if data.get("ran"):
            exc = data.get("exception")
            if exc:
                out.append(f"    {exc.get('type')}: {_short(exc.get('message', ''), 200)}")
            if data.get("stdout"):
                out.append("    stdout: " + _short(data["stdout"], 200))
            for f in (data.get("files") or [])[:6]:
                out.append(f"    wrote {f.get('path')} ({f.get('kind')})")
    elif stage == "evaluate":
        if data.get("decision") == "revise" and data.get("instructions"):
            out.append(f"    -> {data.get('target') or 'programmer'}: {_short(data['instructions'], 300)}")
    return out


def describe(msg: dict) -> str | None:
    """The transcript text (one or more lines) for an event, or None for events not shown (tokens)."""
    t = msg.get("type")
    if t == "ready":
        return f"[engine] ready ({msg.get('provider')} model {msg.get('model')})"
    if t == "progress":
        data = msg.get("data") or {}
        stage = msg.get("stage")
        extra = ""
        if stage == "retrieve" and isinstance(data, dict) and data.get("ids"):
            extra = ": " + ", ".join(data["ids"][:8])
        lines = [f"[{stage}] {_short(msg.get('message', ''))}{extra}"] + _progress_details(stage, data)
        return "\n".join(lines)
    if t == "script":
        lines = (msg.get("code") or "").count("\n") + 1
        return f"[script] round {msg.get('round')}: {lines} lines"
    if t == "exec_done":
        r = msg.get("result") or {}
        if msg.get("action") == "undo":
            return f"[klayout] {r.get('message') or ('undone' if r.get('ok') else 'nothing undone')}"
        if r.get("deck") is not None:   # a KLayout DRC deck ran on the open cell
            if r.get("ok"):
                return (f"[drc] {_short(r.get('stdout') or 'no report', 300)}"
                        + (" (in the marker browser)" if r.get("report_shown") else "")
                        + (f"\n    deck: {r.get('deck_path')}" if r.get("deck_path") else ""))
            exc = r.get("exception") or {}
            return f"[drc] the deck failed: {_short(exc.get('message', ''), 300)}"
        if r.get("ok"):
            ch = r.get("changes") or {}
            text = (f"[klayout] ran on the open layout: cells added {ch.get('cells_added', [])}, "
                    f"shapes {ch.get('shapes_delta', {})}" + (", undoable" if r.get("undoable") else ""))
            if (r.get("stdout") or "").strip():
                text += "\n    stdout: " + _short(r["stdout"], 300)
            return text
        exc = r.get("exception") or {}
        return f"[klayout] failed and was rolled back: {exc.get('type')}: {_short(exc.get('message', ''))}"
    if t == "result":
        text = f"[result] {'accepted' if msg.get('ok') else 'not accepted'} after {msg.get('rounds')} round(s). {_short(msg.get('message') or '')}"
        if msg.get("time_summary"):
            text += f"\n[time] {_short(msg['time_summary'], 300)}"
        return text
    if t == "run_result":
        ex = msg.get("execution") or {}
        files = ", ".join(f.get("path", "") for f in ex.get("files") or [])
        if msg.get("ok"):
            return f"[sandbox] ran ok in {ex.get('duration_s')} s" + (f"; wrote {files}" if files else "")
        exc = ex.get("exception") or {}
        return f"[sandbox] failed: {exc.get('type')}: {_short(exc.get('message', ''), 300)}"
    if t == "explanation":
        return None  # streamed as tokens already
    if t == "fix_result":
        if not msg.get("needed"):
            return f"[fix] {_short(msg.get('message') or 'it ran without errors; nothing to fix')}"
        changed = sum(1 for line in (msg.get("diff") or "").splitlines()
                      if line[:1] in "+-" and not line.startswith(("+++", "---")))
        return (f"[fix] {'a fix was proposed' if msg.get('ok') else 'no verified fix'} after {msg.get('rounds')} "
                f"round(s): {changed} line(s) changed (see the Change tab). {_short(msg.get('message') or '')}")
    if t == "error":
        return f"[error] {msg.get('kind')}: {_short(msg.get('message', ''), 400)}"
    if t == "engine_died":
        return f"[error] {msg.get('message')}"
    return None
