"""Human review of summaries: ``databases/<db>/review.json``.

Format: ``{"<entry id>": {"status": "verified" | "edited" | "corrected", "summary": "...", "note": "..."}}``.
``edited``: the person's summary replaces the generated one on every rebuild.
``corrected``: the person's fix of an LLM-written summary text (a wrong fact, a missing unit); it
takes the LLM text's place, so the index text around it (signature, the manual's own words) stays.
``verified``: the summary the person checked is kept on rebuilds (even if the generated one
changes); delete the record to accept a new generated summary. Rebuilds never modify this file.
"""
from __future__ import annotations

import json
from pathlib import Path

from .errors import RetrievalError, read_json_file

REVIEW_FILE = "review.json"
STATUSES = ("verified", "edited", "corrected")


def load_review(db_dir: Path) -> dict[str, dict]:
    p = Path(db_dir) / REVIEW_FILE
    data = read_json_file(p, "fix or delete it")
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RetrievalError(f"{p} must hold a JSON object keyed by entry id")
    return {k: v for k, v in data.items() if isinstance(v, dict) and v.get("status") in STATUSES and v.get("summary")}


def apply_review(entries: list[dict], review: dict[str, dict], compose=None) -> int:
    """Replace summaries by reviewed ones; mark ``metadata.review``. Returns how many applied.

    ``compose(entry, text)`` builds the index text of a ``corrected`` LLM summary (default: the
    text as it is)."""
    n = 0
    for e in entries:
        r = review.get(e["id"])
        if r:
            e["summary"] = compose(e, r["summary"]) if r["status"] == "corrected" and compose else r["summary"]
            e["metadata"]["review"] = r["status"]
            n += 1
    return n


def mark(db_dir: Path, entry_id: str, status: str, summary: str) -> None:
    """Record a review (used by tools/UIs; a person can also edit the file by hand)."""
    if status not in STATUSES:
        raise RetrievalError(f"review status must be one of {STATUSES}")
    p = Path(db_dir) / REVIEW_FILE
    data = json.loads(p.read_text()) if p.exists() else {}
    data[entry_id] = {"status": status, "summary": summary}
    p.write_text(json.dumps(data, indent=1, sort_keys=True))
