"""Observed behaviour of the installed APIs: the per-database file and its use.

``databases/<db>/observations.json`` (written by ``pic-copilot explore``; no other database file
is touched)::

    {"format": 1, "database": "gdsfactory", "tool": "gdsfactory", "tool_version": "9.45.0",
     "environment": {...versions...}, "explored_at": "2026-11-30T...", "complete": true,
     "stats": {"targets": .., "probes": .., "with_observations": .., "timeouts": .., "seconds": ..},
     "entries": {"gdsfactory.components.mmi1x2": {
         "kind": "component", "probes": 17, "ok": 12,
         "default": {"ok": true, "returns": {...ports, bbox, layers, cell...}},
         "accepted": [{"args": "length_mmi=0", "bbox": .., "ports": [..]?, "warning": ..?}],
         "rejected": [{"args": "width_mmi=-2.5", "error": "ValueError: ..."}],
         "timeouts": [{"args": ".."}],
         "port_names": ["o1", "o2", "o3"], "port_sets_vary": false,
         "llm": [{"hypothesis": .., "script": .., "result": .., "belief": ..}]}}}

The raw probe results (one JSON line per probe) live in a progress file under
``$PIC_COPILOT_HOME/explore/`` so an interrupted exploration resumes where it stopped.
"""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

FORMAT = 1
FILE = "observations.json"
#: entry-id prefix -> database name (longest prefix wins)
PREFIX_DB = {"gdsfactory": "gdsfactory", "pya": "pya", "klayout.db": "klayout_db", "klayout": "klayout_db", "sax": "sax"}
_LOCK = threading.RLock()
_CACHE: dict[str, tuple[float, dict | None]] = {}


def read_json_lines(path: Path) -> list:
    """The records of a JSON-lines file (raw probe results), in order; [] when it does not exist.

    A line that does not parse is skipped: a torn last line after a kill (that probe simply runs again).

    Args:
        path: the file.
    """
    out = []
    if not path.exists():
        return out
    for ln in path.read_text(errors="replace").splitlines():
        try:
            out.append(json.loads(ln))
        except json.JSONDecodeError:
            continue
    return out


def databases_root(root: str | Path | None = None) -> Path:
    if root is not None:
        return Path(root)
    from .paths import databases_dir

    return databases_dir()


def obs_path(db: str, root: str | Path | None = None) -> Path:
    return databases_root(root) / db / FILE


def state_dir(path: str | Path | None = None) -> Path:
    """Where raw probe results are kept between runs (resumability)."""
    if path:
        return Path(path)
    from ..config import data_home

    return data_home() / "explore"


def db_for(entry_id: str) -> str | None:
    best = ""
    for p in PREFIX_DB:
        if (entry_id == p or entry_id.startswith(p + ".")) and len(p) > len(best):
            best = p
    return PREFIX_DB.get(best)


def load(db: str, root: str | Path | None = None) -> dict | None:
    """The observations file of one database (cached by mtime), or None."""
    p = obs_path(db, root)
    with _LOCK:
        try:
            mt = p.stat().st_mtime
        except OSError:
            _CACHE.pop(str(p), None)
            return None
        hit = _CACHE.get(str(p))
        if hit and hit[0] == mt:
            return hit[1]
        try:
            data = json.loads(p.read_text())
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                data = None
        except (OSError, json.JSONDecodeError):
            data = None
        _CACHE[str(p)] = (mt, data)
        return data


def save(db: str, data: dict, root: str | Path | None = None) -> Path:
    """Write atomically (temp file + rename) next to the database's other files."""
    p = obs_path(db, root)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{FILE}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False))
    os.replace(tmp, p)
    with _LOCK:
        _CACHE.pop(str(p), None)
    return p


_MANIFESTS: dict[str, tuple[float, str | None]] = {}


def manifest_version(db: str, root: str | Path | None = None) -> str | None:
    p = databases_root(root) / db / "manifest.json"
    try:
        mt = p.stat().st_mtime
    except OSError:
        return None
    hit = _MANIFESTS.get(str(p))
    if hit and hit[0] == mt:
        return hit[1]
    try:
        v = json.loads(p.read_text()).get("tool_version")
    except (OSError, json.JSONDecodeError):
        v = None
    _MANIFESTS[str(p)] = (mt, v)
    return v


def current(db: str, root: str | Path | None = None) -> dict | None:
    """Observations of ``db`` when they were made with the version the database documents."""
    data = load(db, root)
    if not data:
        return None
    mv = manifest_version(db, root)
    if mv and data.get("tool_version") and mv != data["tool_version"]:
        return None
    return data


def entry(entry_id: str, root: str | Path | None = None) -> tuple[dict, dict] | None:
    """(entry observations, file header) for an API id, or None."""
    db = db_for(entry_id)
    if db is None:
        return None
    data = current(db, root)
    if not data:
        return None
    e = (data.get("entries") or {}).get(entry_id)
    if not e:
        return None
    return e, data


# ---------------------------------------------------------------------- rendering
def _fmt_num(x) -> str:
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


def _port_text(p: dict) -> str:
    ld = p.get("ld")
    layer = f"{p.get('layer')}" + (f" {ld[0]}/{ld[1]}" if isinstance(ld, list) and len(ld) == 2 else "")
    o = p.get("orientation")
    return (f"{p.get('name')} ({_fmt_num(o) + ' deg' if o is not None else 'no orientation'}, width {_fmt_num(p.get('width'))}, "
            f"{layer}, {p.get('type')})")


def _bbox_text(b) -> str:
    if not b:
        return "empty"
    (x0, y0), (x1, y1) = b
    return f"({_fmt_num(x0)}, {_fmt_num(y0)})-({_fmt_num(x1)}, {_fmt_num(y1)}) um"


def _port_short(p: dict) -> str:
    o = p.get("orientation")
    return f"{p.get('name')} {_fmt_num(o) + 'deg' if o is not None else ''} w{_fmt_num(p.get('width'))} {p.get('layer')}".replace("  ", " ")


def returns_text(r: dict | None, short: bool = False) -> str:
    if not r:
        return "?"
    t = r.get("type", "?")
    if "ports" in r and "bbox" in r:  # a component
        ports = r.get("ports") or []
        s = f"{t} with {r.get('ports_total') or len(ports)} port(s)"
        if ports and short:
            s += ": " + ", ".join(_port_short(p) for p in ports[:8]) + (" ..." if len(ports) > 8 else "")
            return s + f"; bbox {_bbox_text(r.get('bbox'))}"
        if ports:
            s += ": " + "; ".join(_port_text(p) for p in ports[:8]) + (" ..." if len(ports) > 8 else "")
        s += f"; bbox {_bbox_text(r.get('bbox'))}"
        if r.get("layers"):
            s += "; layers " + ", ".join(f"{n} {ld[0]}/{ld[1]}" if isinstance(ld, list) and len(ld) == 2 else str(n)
                                          for n, ld in r["layers"][:8])
        return s
    if t == "CrossSection":
        bits = [f"{k} {r[k]}" for k in ("width", "layer", "radius", "radius_min") if r.get(k) is not None]
        if r.get("port_names"):
            bits.append("port names " + "/".join(r["port_names"]))
        if r.get("sections") and len(r["sections"]) > 1:
            bits.append(f"{len(r['sections'])} sections")
        return f"CrossSection ({', '.join(bits)})"
    if "value" in r:
        return f"{t} {r['value']!r}"
    if "repr" in r:
        return f"{t} {r['repr']}"
    if "len" in r:
        inner = returns_text(r["items"][0]) if r.get("items") and isinstance(r["items"][0], dict) else ""
        return f"{t} of {r['len']}" + (f" (first: {inner})" if inner else "")
    if r.get("attrs"):
        return f"{t} (" + ", ".join(f"{k}={v}" for k, v in list(r["attrs"].items())[:6]) + ")"
    if "first" in r:
        return f"iterator (first: {', '.join(r['first'][:2])})"
    return str(t)


def render(e: dict, header: dict, max_chars: int = 1200, short: bool = False) -> str:
    """Human/LLM-readable observed behaviour of one entry."""
    head = f"Observed behaviour ({header.get('tool')} {header.get('tool_version')}, probed {str(header.get('explored_at', ''))[:10]})"
    if short:
        head = f"Observed behaviour ({header.get('tool')} {header.get('tool_version')})"
    lines = [head + ":"]
    if e.get("setup") and not short:
        lines.append(f"- {e['setup']}")
    d = e.get("default") or {}
    what = "default call" if e.get("kind") != "pya" else (d.get("call") or "call")
    if d.get("ok"):
        lines.append(f"- {what} -> {returns_text(d.get('returns'), short)}" + (f" (warning: {d['warning'][:120]})" if d.get("warning") else ""))
    elif d:
        lines.append(f"- {what} fails: {d.get('error') or 'timeout'}")
        work = next((a for a in e.get("accepted") or [] if a.get("returns") or a.get("bbox") is not None), None)
        if work is not None and e.get("kind") != "pya":
            lines.append(f"- {work['args']} works -> {returns_text(work.get('returns')) if work.get('returns') else 'bbox ' + _bbox_text(work.get('bbox'))}")
    if e.get("port_names") and e.get("port_sets_vary"):
        lines.append(f"- port names seen across parameter variants: {', '.join(e['port_names'][:16])}")
    acc = e.get("accepted") or []
    rej = e.get("rejected") or []
    n_acc, n_rej = (3, 3) if short else (8, 8)
    if acc:
        parts = []
        for a in acc[:n_acc]:
            s = a["args"]
            if e.get("kind") == "pya" and a.get("returns"):
                s += f" -> {returns_text(a['returns'])[:80]}"
            elif a.get("empty"):
                s += " (empty geometry)"
            if a.get("warning"):
                s += f" (warning: {a['warning'][:80]})"
            parts.append(s)
        lines.append("- accepted: " + "; ".join(parts) + (f" (+{len(acc) - n_acc} more)" if len(acc) > n_acc else ""))
    if rej:
        groups: dict[str, list[str]] = {}
        # value-range findings first; made-up names, '' and None (which scripts rarely pass) last
        rej = sorted(rej, key=lambda r: any(m in r["args"] for m in ("not_a_", "NOT_A_", "=''", "=None", "(999, 999)")))
        for r in rej:
            groups.setdefault(r["error"][:140], []).append(r["args"])
        cut = 70 if short else 140
        parts = [f"{', '.join(a[:4])}{' ...' if len(a) > 4 else ''} -> {err[:cut]}" for err, a in list(groups.items())[:n_rej]]
        lines.append("- rejected: " + "; ".join(parts) + (f" (+{len(groups) - n_rej} more kinds)" if len(groups) > n_rej else ""))
    if e.get("timeouts"):
        lines.append("- timed out: " + "; ".join(t["args"] for t in e["timeouts"][:4]))
    llm = e.get("llm") or []
    for f in [f for f in llm if not f.get("final")][: 1 if short else 4]:
        r = f.get("result") or {}
        res = ("printed: " + (r.get("stdout") or "nothing")[:120]) if r.get("ok") else f"failed: {str(r.get('error'))[:120]}"
        lines.append(f"- experiment: {str(f.get('hypothesis', ''))[:120]} -> {res}")
    fin = next((f for f in llm if f.get("final") and f.get("belief")), None)
    if fin and not short:
        lines.append(f"- the LLM explorer concluded (unverified): {fin['belief'][:200]}")
    text = "\n".join(lines)
    return text if len(text) <= max_chars else text[: max_chars - 4].rstrip() + " ..."


def section(entry_id: str, root: str | Path | None = None, max_chars: int = 1600) -> dict | None:
    """The "observed" section of get_api_details: versions, date, data and text."""
    hit = entry(entry_id, root)
    if hit is None:
        return None
    e, header = hit
    out = {"tool": header.get("tool"), "tool_version": header.get("tool_version"),
           "environment": header.get("environment", {}), "explored_at": header.get("explored_at"),
           "text": render(e, header, max_chars)}
    out.update({k: v for k, v in e.items() if k not in ("text",)})
    return out


def short_text(entry_id: str, root: str | Path | None = None, max_chars: int = 420) -> str | None:
    """A compact version for the programmer's context and for summaries."""
    hit = entry(entry_id, root)
    if hit is None:
        return None
    e, header = hit
    return render(e, header, max_chars, short=True)


def summary_sentence(entry_id: str, root: str | Path | None = None, max_chars: int = 240, version: str | None = None) -> str:
    """One sentence for search summaries (ports, what is rejected), or ''. ``version``: the documented
    version of the entry being summarised; observations of another version are not used."""
    hit = entry(entry_id, root)
    if hit is None:
        return ""
    e, header = hit
    if version and header.get("tool_version") and version != header["tool_version"]:
        return ""
    bits = []
    if e.get("port_names"):
        bits.append("ports " + ", ".join(e["port_names"][:10]))
    d = e.get("default") or {}
    r = d.get("returns") or {}
    if d.get("ok") and r.get("type"):
        bits.append(f"returns {r['type']}")
    if e.get("rejected"):
        bits.append("rejects " + ", ".join(x["args"] for x in e["rejected"][:3]))
    if not bits:
        return ""
    s = "Observed: " + "; ".join(bits)
    return s[:max_chars]


# ---------------------------------------------------------------------- consumers
def port_table(root: str | Path | None = None) -> dict[str, dict]:
    """API id -> {"ports": [...], "vary": bool, "version": str} for factories with observed ports."""
    out: dict[str, dict] = {}
    for db in ("gdsfactory",):
        data = current(db, root)
        if not data:
            continue
        for k, e in (data.get("entries") or {}).items():
            d = e.get("default") or {}
            if e.get("kind") == "component" and d.get("ok") and "port_names" in e:
                out[k] = {"ports": list(e["port_names"]), "vary": bool(e.get("port_sets_vary")),
                          "port_params": list(e.get("port_params") or []),
                          "version": f"{data.get('tool')} {data.get('tool_version')}"}
    return out


def annotate_hits(hits: list[dict], root: str | Path | None = None, max_chars: int = 420) -> list[dict]:
    """Copies of retrieval hits with the observed behaviour inserted after the first paragraph of the
    content (so it survives clipping in the programmer's prompt). Hits without observations are unchanged."""
    out = []
    for h in hits:
        hid = h.get("id") or ""
        txt = short_text(hid, root, max_chars) if hid else None
        if not txt:
            out.append(h)
            continue
        content = str(h.get("content") or "")
        head, sep, rest = content.partition("\n\n")
        out.append({**h, "content": f"{head}\n\n{txt}" + (f"\n\n{rest}" if sep else ""), "observed": True})
    return out
