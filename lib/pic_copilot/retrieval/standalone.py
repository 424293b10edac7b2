"""Entries that stand on their own: a member says what its class is for, a class lists its
most used members.

A retrieved chunk is read without its neighbours (the programmer sees a few chunks, the index
sees one summary), so ``pya.Region.sized`` alone does not say that a Region is a set of polygons
and ``pya.Region`` alone does not say which of its 196 members people call. After collection,
before oversized entries are split:

- every member entry (``metadata.class`` names its class) gets the line
  ``Member of <class>: <what the class is for>`` after its header, and ``metadata.class_purpose``;
- every class entry gets ``Most used members`` (up to :data:`MOST_USED`, ranked by
  :mod:`.usage`, each with its one-line description) after its first paragraph, ``metadata.most_used``,
  and its member list without the underscore plumbing.

Version notes and everything else in the original text stay as they are.
"""
from __future__ import annotations

import re
from collections import Counter

from .clean import first_paragraph
from .usage import rank_members

MOST_USED = 12
#: a member name that most classes of a database have (``dup``, ``to_s``, ``assign``) is object
#: plumbing, not what one class is for; it is left out of "most used"
GENERIC_SHARE = 0.4


def class_purpose(entry: dict, limit: int = 220) -> str:
    """What a class is for: the first paragraph of its description."""
    return first_paragraph((entry.get("metadata") or {}).get("doc") or "", limit).rstrip(".")


def _brief(entry: dict, limit: int = 110) -> str:
    doc = (entry.get("metadata") or {}).get("doc") or ""
    return first_paragraph(doc.split(";")[0] if doc else "", limit).rstrip(".")


def generic_members(entries: list[dict]) -> set[str]:
    """Member names shared by at least GENERIC_SHARE of the classes (with 10+ classes)."""
    lists = [set(e["metadata"].get("members") or ()) for e in entries if e["kind"] == "class"]
    lists = [m for m in lists if m]
    if len(lists) < 10:
        return set()
    c = Counter(n for m in lists for n in m)
    return {n for n, k in c.items() if k >= GENERIC_SHARE * len(lists)}


def _insert_after_header(content: str, line: str) -> str:
    head, sep, rest = content.partition("\n")
    return f"{head}\n{line}\n{rest}" if sep else f"{head}\n{line}"


def _insert_after_first_paragraph(content: str, block: str) -> str:
    parts = content.split("\n\n", 2)
    if len(parts) < 3:
        return content + "\n\n" + block
    return f"{parts[0]}\n\n{parts[1]}\n\n{block}\n\n{parts[2]}"


def stand_alone(entries: list[dict], counts: Counter, aliases: dict[str, str] | None = None) -> None:
    """Add class purposes to member entries and most-used members to class entries (in place).

    Args:
        entries: one database's entries, before oversized ones are split.
        counts: uses per member name (:func:`.usage.corpus_counts`).
        aliases: alias id -> canonical id, so an inherited member listed under a class finds its entry.
    """
    by_id = {e["id"]: e for e in entries}
    aliases = aliases or {}
    classes = {e["id"]: e for e in entries if e["kind"] == "class"}
    members: dict[str, dict[str, dict]] = {}
    for e in entries:
        cls = (e.get("metadata") or {}).get("class")
        if cls and "#" not in e["id"]:
            members.setdefault(cls, {})[e["id"].rsplit(".", 1)[-1]] = e
    generic = generic_members(entries)
    for cid, c in classes.items():
        md = c["metadata"]
        purpose = class_purpose(c)
        if purpose:
            md["purpose"] = purpose
        own = members.get(cid, {})
        names = list(md.get("members") or own)
        if not names:
            continue
        public = rank_members(names, counts)
        top = [n for n in public if n not in generic][:MOST_USED]
        if not top:
            continue
        md["most_used"] = top
        lines = []
        for n in top:
            target = own.get(n) or by_id.get(aliases.get(f"{cid}.{n}", ""))
            b = _brief(target) if target else ""
            lines.append(f"- {n}: {b}" if b else f"- {n}")
        content = re.sub(r"\n\nMembers: [^\n]*$", "", c["content"])
        content = _insert_after_first_paragraph(content, "Most used members:\n" + "\n".join(lines))
        c["content"] = content + "\n\nMembers: " + ", ".join(sorted(public))
    for cid, own in members.items():
        c = classes.get(cid)
        purpose = (c["metadata"].get("purpose") if c else "") or ""
        if not purpose:
            continue
        for e in own.values():
            e["metadata"]["class_purpose"] = purpose
            e["content"] = _insert_after_header(e["content"], f"Member of {cid}: {purpose}.")
