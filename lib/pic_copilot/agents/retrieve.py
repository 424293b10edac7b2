"""Thin, failure-tolerant access to pic_copilot.retrieval (databases may be missing or still building)."""
from __future__ import annotations

import functools

DOC_CHARS = 900        # per retrieved chunk in a prompt
DOCS_BUDGET = 4400     # all chunks together (~1100 tokens)


def _mod():
    try:
        from .. import retrieval  # noqa: WPS433
        return retrieval
    except ImportError:
        return None


@functools.lru_cache(maxsize=1)
def available_databases() -> tuple[str, ...]:
    """Names of the databases that exist (empty if retrieval is not installed or nothing is built)."""
    r = _mod()
    if r is None or not hasattr(r, "list_databases"):
        return ()
    try:
        return tuple(d["name"] if isinstance(d, dict) else str(d) for d in r.list_databases()
                     if not (isinstance(d, dict) and d.get("ok") is False))
    except Exception:  # noqa: BLE001 - missing databases are not fatal for generation
        return ()


def search(query: str, db: str | None, k: int = 4) -> tuple[list[dict], str | None]:
    """(hits, error message or None)."""
    r = _mod()
    if r is None or not hasattr(r, "search_apis"):
        return [], "retrieval is not available"
    try:
        return list(r.search_apis(query, db=db, k=k)), None
    except Exception as e:  # noqa: BLE001 - RetrievalError and friends: continue without docs
        return [], f"{type(e).__name__}: {e}"


def symbol_index():
    """The SymbolIndex, or None when retrieval is unavailable."""
    r = _mod()
    if r is None or not hasattr(r, "symbol_index"):
        return None
    try:
        return r.symbol_index()
    except Exception:  # noqa: BLE001
        return None


def hit_name(h: dict) -> str:
    md = h.get("metadata") or {}
    return str(md.get("qualname") or md.get("name") or h.get("name") or h.get("id", "?"))


def format_docs(hits: list[dict], budget: int = DOCS_BUDGET) -> str:
    """Retrieved chunks as prompt text, original content clipped, within a character budget."""
    out, used, seen = [], 0, set()
    for h in hits:
        key = h.get("id")
        if key in seen:
            continue
        seen.add(key)
        body = str(h.get("content") or h.get("summary") or "").strip()
        if len(body) > DOC_CHARS:
            body = body[:DOC_CHARS].rstrip() + " ..."
        block = f"### {hit_name(h)} ({h.get('db', '')})\n{body}"
        if used + len(block) > budget:
            break
        out.append(block)
        used += len(block)
    return "\n\n".join(out) if out else "(none)"
