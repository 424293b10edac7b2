"""LLM-written summaries of the entries a designer needs, built once and committed.

    pic-copilot summarise [gdsfactory pya sax ...] [--limit N] [--ids ID ...] [--estimate]

The summaries say what an API does in a designer's words, when to use it rather than its
siblings, and its key parameters with units: the words a designer searches with and the
manuals do not use. They are written by the configured LLM (the embedded 1.5B model by default)
for the designer subset (:func:`in_subset`), one entry at a time, and kept in
``databases/<db>/llm_summaries.json`` (committed, kept across rebuilds):

    {"<entry id>": {"text": "...", "key": "<hash of the entry's signature/doc/parameters>",
                    "model": "...", "seconds": 4.2, "prompt": "<prompt version>"}}

The store is written after every entry, so an interrupted run resumes where it stopped. A
rebuild (``build-db``) uses a stored summary when its ``key`` still matches the entry (the tool's
docs did not change) and the extractive summary otherwise, so building from a fresh clone needs
no LLM. Human corrections go to ``review.json`` and win over both (see :mod:`.review`).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

from .clean import first_paragraph
from .errors import read_json_file

STORE_FILE = "llm_summaries.json"
PROMPT = "summariser_user"
MAX_CONTENT = 1400      # characters of the entry shown to the model
MAX_SIBLINGS = 5

#: pya classes of everyday layout work (issue 16): their members get LLM summaries
PYA_CLASSES = (
    "Layout", "Cell", "Shapes", "Shape", "Region", "Edges", "EdgePairs", "Texts", "Box", "DBox", "Polygon", "DPolygon",
    "SimplePolygon", "DSimplePolygon", "Path", "DPath", "Text", "DText", "Trans", "DTrans", "ICplxTrans", "DCplxTrans",
    "CplxTrans", "CellInstArray", "DCellInstArray", "Instance", "RecursiveShapeIterator", "LayerInfo", "LoadLayoutOptions",
    "SaveLayoutOptions", "ReportDatabase", "RdbCategory", "RdbItem", "RdbCell", "RdbItemValue", "LayoutView", "CellView",
)
#: of these big GUI classes only the most used members are "basics"
PYA_BASICS = {"LayoutView": 40, "CellView": 25}
GDSFACTORY_MODULES = ("gdsfactory.components.", "gdsfactory.cross_section.", "gdsfactory.routing.")
GDSFACTORY_CLASSES = ("gdsfactory.Component", "gdsfactory.ComponentBase", "gdsfactory.ComponentReference", "gdsfactory.Instance",
                      "gdsfactory.Port", "gdsfactory.CrossSection")
#: object plumbing every pya class has: not summarised
PLUMBING = {"assign", "create", "destroy", "destroyed", "dup", "is_const_object", "hash", "to_s", "__eq__", "__ne__", "__lt__",
            "__hash__", "__repr__", "__str__", "__copy__", "__deepcopy__"}

#: units and conventions per database, told to the model
UNITS = {
    "gdsfactory": "gdsfactory lengths, widths, gaps and radii are in micrometres (um); angles in degrees; a component function returns a Component with named ports (o1, o2, ... optical; e1, ... electrical).",
    "pya": "KLayout pya: integer classes (Box, Polygon, Path, Text, Trans, Region, Edges) use database units (dbu, usually 1 nm); D classes (DBox, DPolygon, DPath, DText, DTrans) and methods starting with d use micrometres (um).",
    "klayout_db": "pip klayout.db: integer classes use database units (dbu), D classes micrometres (um).",
    "sax": "SAX: wavelengths wl in micrometres (um), lengths in um, losses in dB; models return S-parameter dicts (SDict) keyed by port pairs.",
}


def source_key(entry: dict) -> str:
    """What a summary depends on: the entry's id, signature(s), doc text and parameters."""
    md = entry.get("metadata") or {}
    basis = [entry["id"], md.get("signatures") or md.get("signature") or "", md.get("doc") or "",
             [(p.get("name"), p.get("description", "")) for p in md.get("parameters") or []]]
    return hashlib.sha256(json.dumps(basis, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def prompt_version() -> str:
    from .. import prompts

    return hashlib.sha256(prompts.text(PROMPT).encode()).hexdigest()[:10]


def _leaf(entry_id: str) -> str:
    return entry_id.split("#")[0].rsplit(".", 1)[-1]


def in_subset(db: str, entry: dict, usage: Counter | None = None) -> bool:
    """Is this one of the entries a designer needs (issue 16's list)?

    gdsfactory: every component, cross-section and routing function, and the Component,
    ComponentReference, Port and CrossSection classes and members; pya: the everyday classes
    (:data:`PYA_CLASSES`) and their members, without object plumbing and deprecated members
    (for LayoutView/CellView only the most used); sax: everything.
    """
    i, kind, md = entry["id"], entry["kind"], entry.get("metadata") or {}
    if "#" in i or kind in ("guide", "sample"):
        return False
    if md.get("deprecated"):
        return False
    if db == "sax":
        return True
    if db == "gdsfactory":
        if i.startswith(GDSFACTORY_MODULES):
            return True
        owner = md.get("class") or (i if kind == "class" else "")
        return owner in GDSFACTORY_CLASSES and not _leaf(i).startswith("_")
    if db == "pya":
        parts = i.split(".")
        if len(parts) < 2 or parts[1] not in PYA_CLASSES:
            return False
        if len(parts) == 2:
            return kind == "class"
        if len(parts) != 3 or kind == "class":   # nested helper classes (enums, filters) are left out
            return False
        leaf = parts[2]
        if leaf in PLUMBING or (leaf.startswith("_") and not leaf.startswith("__")):
            return False
        limit = PYA_BASICS.get(parts[1])
        if limit is not None:
            return leaf in (md.get("_basics") or ())
        return True
    return False


def mark_basics(entries: list[dict], usage: Counter) -> None:
    """For the big GUI classes, record their most used members on each member (``_basics``)."""
    from .usage import rank_members

    for cls, n in PYA_BASICS.items():
        cid = f"pya.{cls}"
        members = [_leaf(e["id"]) for e in entries if (e.get("metadata") or {}).get("class") == cid and "#" not in e["id"]]
        top = set(rank_members(members, usage)[:n])
        for e in entries:
            if (e.get("metadata") or {}).get("class") == cid:
                e["metadata"]["_basics"] = sorted(top)


def siblings(entry: dict, by_parent: dict[str, list[dict]]) -> list[dict]:
    """Neighbours a designer could confuse it with: same class or module, sharing a word of the
    name (``bend_euler`` -> ``bend_circular``, ``bend_s``), at most MAX_SIBLINGS."""
    i = entry["id"]
    parent = i.rsplit(".", 1)[0]
    words = set(re.split(r"[_\d]+|(?<=[a-z])(?=[A-Z])", _leaf(i).lower())) - {""}
    out = []
    for o in by_parent.get(parent, ()):
        if o["id"] == i or "#" in o["id"]:
            continue
        ow = set(re.split(r"[_\d]+|(?<=[a-z])(?=[A-Z])", _leaf(o["id"]).lower())) - {""}
        shared = len(words & ow)
        if shared:
            out.append((-shared, len(o["id"]), o))
    out.sort(key=lambda t: (t[0], t[1]))
    return [o for _, _, o in out[:MAX_SIBLINGS]]


def render_prompt(db: str, entry: dict, sibs: list[dict]) -> str:
    from .. import prompts

    md = entry.get("metadata") or {}
    sib_lines = "\n".join(f"- {o['id']}: {first_paragraph((o.get('metadata') or {}).get('doc') or '', 100)}" for o in sibs)
    content = entry["content"]
    if len(content) > MAX_CONTENT:
        content = content[:MAX_CONTENT].rsplit("\n", 1)[0] + "\n[...]"
    return prompts.render("summariser_user", api=entry["id"], content=content, units=UNITS.get(db, ""),
                          context=(f"It belongs to {md['class']}: {md['class_purpose']}." if md.get("class_purpose") and md.get("class") else ""),
                          siblings=("Other APIs nearby (not this one):\n" + sib_lines) if sib_lines else "")


#: the summariser answers in these fields (JSON-schema constrained: a small model keeps to them)
SUMMARY_SCHEMA = {
    "type": "object", "required": ["does", "use_it", "search_words", "key_parameters"],
    "properties": {
        "does": {"type": "string", "maxLength": 220},
        "use_it": {"type": "string", "maxLength": 220},
        "search_words": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 6},
        "key_parameters": {"type": "string", "maxLength": 160},
    },
}


def summary_text(answer: dict) -> str:
    """One paragraph from the summariser's fields."""
    def sentence(t) -> str:
        t = clean_summary(str(t or "")).rstrip(". ")
        return t[0].upper() + t[1:] + "." if t else ""

    use = sentence(answer.get("use_it"))
    words = [clean_summary(str(w)) for w in answer.get("search_words") or [] if str(w).strip()]
    parts = [sentence(answer.get("does")), use]
    if words:
        parts.append("Search words: " + ", ".join(dict.fromkeys(words)) + ".")
    params = clean_summary(str(answer.get("key_parameters") or "")).rstrip(". ")
    params = params + "." if params else ""
    if params and re.search(r"[A-Za-z]{2}", params):
        parts.append("Key parameters: " + params)
    return " ".join(p for p in parts if p)


def clean_summary(text: str) -> str:
    """One paragraph of plain text: markdown, labels and trailing chatter removed."""
    t = re.sub(r"```.*?```", " ", text, flags=re.S)
    t = re.sub(r"[*#`]+", "", t)
    t = re.sub(r"^\s*(summary|answer)\s*:\s*", "", t, flags=re.I)
    t = re.sub(r"\s+", " ", t).strip()
    return t[:1200]


# ---------------------------------------------------------------------- store
def load_store(db_dir: Path) -> dict:
    data = read_json_file(Path(db_dir) / STORE_FILE, "fix it, or delete it to rebuild the LLM summaries")
    return data if isinstance(data, dict) else {}


def save_store(db_dir: Path, data: dict) -> None:
    p = Path(db_dir) / STORE_FILE
    tmp = p.with_name(f".{STORE_FILE}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=0, ensure_ascii=False, sort_keys=True))
    os.replace(tmp, p)


def stored_summary(store: dict, entry: dict) -> str | None:
    """The stored LLM text for an entry whose docs did not change since it was written."""
    rec = store.get(entry["id"])
    if rec and rec.get("text") and rec.get("key") == source_key(entry):
        return rec["text"]
    return None


# ---------------------------------------------------------------------- the run
def _format_eta(s: float) -> str:
    h, m = divmod(int(s) // 60, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{int(s) % 60:02d}s"


def priority(entry: dict, usage: Counter) -> tuple:
    """Most useful first, so a partial run already covers what designers use most: classes,
    then functions and methods, then properties, each by how often their name is used in the installed tools' source (:mod:`.usage`)."""
    rank = {"class": 0, "property": 2, "attribute": 2}.get(entry["kind"], 1)
    return (rank, -usage.get(_leaf(entry["id"]), 0))


def plan(db: str, entries: list[dict], usage: Counter, store: dict) -> tuple[list[dict], int]:
    """(entries still to summarise, most used first; how many of the subset are already stored)."""
    mark_basics(entries, usage)
    subset = [e for e in entries if in_subset(db, e, usage)]
    todo = sorted((e for e in subset if stored_summary(store, e) is None), key=lambda e: priority(e, usage))
    return todo, len(subset) - len(todo)


def run(db: str, db_dir: Path, client, limit: int | None = None, ids: list[str] | None = None, quiet: bool = False,
        log=None, workers: int = 1) -> dict:
    """Summarise the designer subset of one built database into its store, resumable.

    Args:
        workers: requests in flight at once (1: one call stream; more only for a server with
            that many parallel slots).

    Returns {db, subset, done_before, written, failed, seconds, per_entry_s (wall time per entry),
    call_s_mean (mean time of one call)}.
    """
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from .store import Database
    from .usage import corpus_counts

    d = Database.load(db_dir, db)
    entries = [d.entry(i) for i in range(len(d))]
    store = load_store(db_dir)
    if ids:
        want = set(ids)
        todo = [e for e in entries if e["id"] in want]
        before = 0
    else:
        todo, before = plan(db, entries, corpus_counts(), store)
    if limit is not None:
        todo = todo[:limit]
    by_parent: dict[str, list[dict]] = {}
    for e in entries:
        by_parent.setdefault(e["id"].rsplit(".", 1)[0], []).append(e)
    model = getattr(getattr(client, "settings", None), "model", "") or "llm"
    version = prompt_version()
    t0 = time.time()
    times: list[float] = []
    failed = [0]
    lock = threading.Lock()

    def one(e: dict) -> None:
        t1 = time.time()
        try:
            from ..llm.agent import parse_json

            res = client.chat([{"role": "user", "content": render_prompt(db, e, siblings(e, by_parent))}], agent="summarise",
                              json_schema=SUMMARY_SCHEMA, max_tokens=200, temperature=0.2)
            text = summary_text(parse_json(res.text, SUMMARY_SCHEMA))
        except Exception as ex:  # noqa: BLE001 - one failed entry keeps its extractive summary
            text = ""
            if log:
                log(f"{e['id']}: {ex}")
        dt = time.time() - t1
        with lock:
            times.append(dt)
            if text:
                store[e["id"]] = {"text": text, "key": source_key(e), "model": model, "prompt": version, "seconds": round(dt, 2)}
                save_store(db_dir, store)
            else:
                failed[0] += 1
            if not quiet:
                n = len(times)
                wall = (time.time() - t0) / n
                done = int(30 * n / max(len(todo), 1))
                sys.stderr.write(f"\r{db:<10} [{'#' * done}{'-' * (30 - done)}] {n}/{len(todo)} last {dt:4.1f}s, {wall:4.1f}s/entry, "
                                 f"eta {_format_eta(wall * (len(todo) - n))}   ")
                sys.stderr.flush()

    if workers <= 1:
        for e in todo:
            one(e)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(one, todo))
    if not quiet and todo:
        sys.stderr.write("\n")
    total = time.time() - t0
    return {"db": db, "subset": before + len(todo) if not ids else len(todo), "done_before": before, "written": len(todo) - failed[0],
            "failed": failed[0], "seconds": round(total, 1), "per_entry_s": round(total / len(todo), 2) if todo else None,
            "call_s_mean": round(sum(times) / len(times), 2) if times else None, "workers": workers}


def estimate(db: str, db_dir: Path) -> dict:
    """How many entries the subset has and how many are still to do (no LLM needed)."""
    from .store import Database
    from .usage import corpus_counts

    d = Database.load(db_dir, db)
    entries = [d.entry(i) for i in range(len(d))]
    todo, before = plan(db, entries, corpus_counts(), load_store(db_dir))
    return {"db": db, "subset": len(todo) + before, "stored": before, "todo": len(todo),
            "prompt_chars_mean": round(sum(min(len(e["content"]), MAX_CONTENT) for e in todo) / max(len(todo), 1))}


def review_sample(db_dir: Path, n: int, seed: int = 0) -> list[dict]:
    """A seeded random sample of stored LLM summaries with the docs they were written from, for
    a person to check (corrections go to review.json as ``corrected``)."""
    import random

    from .store import Database

    d = Database.load(db_dir, Path(db_dir).name)
    store = load_store(db_dir)
    ids = sorted(i for i in store if d.position(i) is not None)
    pick = random.Random(seed).sample(ids, min(n, len(ids)))
    return [{"id": i, "llm": store[i]["text"], "doc": d.entry(d.position(i))["content"][:MAX_CONTENT]} for i in pick]
