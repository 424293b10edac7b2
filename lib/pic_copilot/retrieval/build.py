"""Build tool-manual databases from the installed tools.

    pic-copilot build-db [NAMES...] [--if-missing] [--quiet] [--summaries auto|extractive|llm]

Workflow per database: collect (clean, one API / one guide section per entry) -> split
oversized entries (parts point to their parent) -> summarise (the committed LLM summaries
of llm_summaries.json where they match, extractive elsewhere; human review edits win) -> embed summaries -> write into a temporary folder -> swap into
``databases/<name>/``. Building one database never touches another.
"""
from __future__ import annotations

import importlib
import re
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from .embedder import DEFAULT_MODEL, Embedder
from .errors import RetrievalError
from .paths import databases_dir
from .review import apply_review, load_review
from .sources import SOURCES, SourceResult
from .store import replace_dir, write_database
from .standalone import stand_alone
from .llm_summaries import load_store, stored_summary
from .summarise import extractive_summary, llm_summary
from .usage import corpus_counts, count_uses

MAX_CHARS = 4000


class Progress:
    """A minimal progress bar on stderr (silent when quiet)."""

    def __init__(self, label: str, total: int, quiet: bool = False):
        self.label, self.total, self.quiet, self.done, self.t0, self._last = label, max(total, 1), quiet, 0, time.time(), 0.0

    def __call__(self, n: int = 1) -> None:
        self.done += n
        now = time.time()
        if self.quiet or (now - self._last < 0.2 and self.done < self.total):
            return
        self._last = now
        frac = min(self.done / self.total, 1.0)
        bar = "#" * int(30 * frac) + "-" * (30 - int(30 * frac))
        sys.stderr.write(f"\r{self.label:<12} [{bar}] {self.done}/{self.total} {now - self.t0:5.1f}s")
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def split_oversized(entries: list[dict], max_chars: int = MAX_CHARS) -> list[dict]:
    """Split entries whose content exceeds ``max_chars`` at paragraph boundaries.

    The parent keeps its id and the first part; parts ``<id>#part<n>`` (n >= 2) carry
    ``metadata.parent``, ``part`` and ``parts``.
    """
    out = []
    for e in entries:
        text = e["content"]
        if len(text) <= max_chars:
            out.append(e)
            continue
        paras = re.split(r"(\n\s*\n)", text)
        chunks, cur = [], ""
        for p in paras:
            if len(cur) + len(p) > max_chars and cur.strip():
                chunks.append(cur)
                cur = ""
            while len(p) > max_chars:  # one giant paragraph: hard split
                chunks.append(cur + p[:max_chars])
                cur, p = "", p[max_chars:]
            cur += p
        if cur.strip():
            chunks.append(cur)
        n = len(chunks)
        first = {**e, "content": chunks[0].strip(), "metadata": {**e["metadata"], "parts": n}}
        out.append(first)
        for i, ch in enumerate(chunks[1:], start=2):
            md = {k: v for k, v in e["metadata"].items() if k in ("module", "class", "source", "version", "title", "section")}
            md.update({"parent": e["id"], "part": i, "parts": n, "signature": e["metadata"].get("signature", ""), "parameters": [], "doc": ch.strip()[:400]})
            out.append({"id": f"{e['id']}#part{i}", "kind": e["kind"], "content": f"{e['id']} (part {i} of {n})\n\n{ch.strip()}", "metadata": md})
    return out


SUMMARY_MODES = ("auto", "extractive", "llm")


def summarise_entries(entries: list[dict], mode: str, progress=None, store: dict | None = None) -> dict:
    """Set every entry's ``summary``; returns how many came from where.

    ``auto``/``llm``: the stored LLM summary (``llm_summaries.json``) where one matches the entry,
    the extractive summary elsewhere; ``extractive``: extractive everywhere. Parts of split entries
    always get a short extractive line pointing to their parent.
    """
    if mode not in SUMMARY_MODES:
        raise RetrievalError(f"unknown summaries mode {mode!r}; use one of {', '.join(SUMMARY_MODES)}")
    counts = {"llm": 0, "extractive": 0}
    store = store if mode != "extractive" else None
    for e in entries:
        if "parent" in e["metadata"]:
            e["summary"] = f"{e['metadata']['parent']} (part {e['metadata']['part']}): " + re.sub(r"\s+", " ", e["metadata"]["doc"])[:300]
            counts["extractive"] += 1
        else:
            text = stored_summary(store, e) if store else None
            e["summary"] = llm_summary(e, text) if text else extractive_summary(e)
            e["metadata"]["summary_source"] = "llm" if text else "extractive"
            counts["llm" if text else "extractive"] += 1
        if progress:
            progress(1)
    return counts


def build_from_source(name: str, result: SourceResult, out_root: Path, model: str = DEFAULT_MODEL, summaries: str = "auto",
                      quiet: bool = False, embedder: Embedder | None = None, t0: float | None = None) -> dict:
    """Turn a collected source into ``out_root/name`` (atomic swap). Returns the manifest."""
    t0 = t0 or time.time()
    out_root = Path(out_root)
    out_root.mkdir(parents=True, exist_ok=True)
    final = out_root / name
    counts = corpus_counts() + count_uses(e["content"] for e in result.entries if e["kind"] in ("guide", "sample"))
    stand_alone(result.entries, counts, result.aliases)
    entries = split_oversized(result.entries)
    seen = set()
    entries = [e for e in entries if not (e["id"] in seen or seen.add(e["id"]))]
    store = load_store(final) if final.exists() else {}
    counts = summarise_entries(entries, summaries, None, store)
    review = load_review(final) if final.exists() else {}
    n_review = apply_review(entries, review, llm_summary)
    emb = embedder or Embedder(model)
    vecs = emb.embed([e["summary"] for e in entries], progress=Progress(f"{name}:embed", len(entries), quiet))
    manifest = {
        "name": name,
        "description": SOURCES.get(name, ("", ""))[1],
        "source": result.source,
        "tool": result.tool,
        "tool_version": result.tool_version,
        "embedding_model": emb.name,
        "embedding_sha256": emb.sha256,
        "summaries": "llm+extractive" if counts["llm"] else "extractive",
        "summary_counts": counts,
        "reviewed_summaries": n_review,
        "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=out_root))
    try:
        manifest["build_seconds"] = round(time.time() - t0, 1)
        write_database(tmp, manifest, entries, vecs, result.aliases)
        replace_dir(tmp, final)
    except BaseException:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {**manifest, "entry_count": len(entries)}


def refresh_database(name: str, out_root: Path | None = None, quiet: bool = False, embedder: Embedder | None = None) -> dict:
    """Re-summarise and re-embed a built database from its own entries (no collection from the
    tool): after ``pic-copilot summarise`` wrote LLM summaries, or after review.json changed."""
    from .store import Database

    t0 = time.time()
    out_root = Path(out_root or databases_dir())
    final = out_root / name
    d = Database.load(final, name)
    entries = [d.entry(i) for i in range(len(d))]
    for e in entries:
        e.pop("summary", None)
        (e.get("metadata") or {}).pop("review", None)
    counts = summarise_entries(entries, "auto", None, load_store(final))
    n_review = apply_review(entries, load_review(final), llm_summary)
    emb = embedder or Embedder(d.manifest.get("embedding_model") or DEFAULT_MODEL)
    vecs = emb.embed([e["summary"] for e in entries], progress=Progress(f"{name}:embed", len(entries), quiet))
    aliases = {a: rec["alias_of"] for a, rec in d.symbols.items() if rec.get("alias_of")}
    manifest = {k: v for k, v in d.manifest.items() if k not in ("format_version", "entry_count", "embedding_dim")}
    manifest.update({"embedding_model": emb.name, "embedding_sha256": emb.sha256, "summaries": "llm+extractive" if counts["llm"] else "extractive",
                     "summary_counts": counts, "reviewed_summaries": n_review, "refreshed_at": datetime.now(timezone.utc).isoformat(timespec="seconds")})
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=out_root))
    try:
        manifest["refresh_seconds"] = round(time.time() - t0, 1)
        write_database(tmp, manifest, entries, vecs, aliases)
        replace_dir(tmp, final)
    except BaseException:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {**manifest, "entry_count": len(entries)}


def build_database(name: str, out_root: Path | None = None, model: str = DEFAULT_MODEL, summaries: str = "auto", quiet: bool = False,
                   embedder: Embedder | None = None) -> dict:
    """Collect one source and build its database."""
    if name not in SOURCES:
        raise RetrievalError(f"unknown database {name!r}; known: {', '.join(SOURCES)}")
    t0 = time.time()
    mod = importlib.import_module(f".sources.{SOURCES[name][0]}", __package__)
    with tempfile.TemporaryDirectory(prefix=f"pic-copilot-{name}-") as wd:
        if not quiet:
            sys.stderr.write(f"{name}: collecting from the installed tool...\n")
        result = mod.collect(Path(wd))
    return build_from_source(name, result, out_root or databases_dir(), model, summaries, quiet, embedder, t0)


#: databases built from the project's own files rather than an installed tool's manual
PROJECT_DATABASES = ("cookbook",)


def build_all(names: list[str] | None = None, out_root: Path | None = None, if_missing: bool = False, model: str = DEFAULT_MODEL,
              summaries: str = "auto", quiet: bool = False) -> list[dict]:
    """Build the named databases (default: every tool manual and the cookbook).

    ``if_missing``: skip tool manuals that exist; the cookbook is rebuilt whenever its recipes
    changed since its last build (content hash in its manifest), which takes seconds.
    """
    out_root = Path(out_root or databases_dir())
    names = names or [*SOURCES, *PROJECT_DATABASES]
    known = [*SOURCES, *PROJECT_DATABASES]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise RetrievalError(f"unknown database(s) {', '.join(unknown)}; known: {', '.join(known)}")
    done = []
    emb = None
    for n in names:
        if n == "cookbook":
            from . import cookbook

            if if_missing and cookbook.index_is_current(out_root):
                continue
            emb = emb or Embedder(model)
            done.append(cookbook.build_cookbook_db(out_root, embedder=emb, quiet=quiet))
            continue
        if if_missing and (out_root / n / "manifest.json").exists():
            continue
        emb = emb or Embedder(model)
        m = build_database(n, out_root, model, summaries, quiet, emb)
        if summaries == "llm":
            m = summarise_with_llm(n, out_root, quiet=quiet, embedder=emb)
        if not quiet:
            sys.stderr.write(f"{n}: {m['entry_count']} entries in {m['build_seconds']} s\n")
        done.append(m)
    return done


def summarise_with_llm(name: str, out_root: Path | None = None, client=None, limit: int | None = None, ids: list[str] | None = None,
                       quiet: bool = False, embedder: Embedder | None = None, refresh: bool = True, workers: int = 1) -> dict:
    """Write the missing LLM summaries of a built database's designer subset (resumable), then
    re-embed it. Returns the refreshed manifest with ``llm_run`` (counts and times)."""
    from .llm_summaries import run

    out_root = Path(out_root or databases_dir())
    if client is None:
        try:
            from ..llm import make_client

            client = make_client()
        except Exception as e:  # noqa: BLE001 - configuration or server problems
            raise RetrievalError(f"cannot reach the configured LLM for summaries ({e}); the databases keep their current summaries") from e
    stats = run(name, out_root / name, client, limit=limit, ids=ids, quiet=quiet, workers=workers,
                log=None if quiet else (lambda msg: sys.stderr.write(f"\n{msg}\n")))
    m = refresh_database(name, out_root, quiet, embedder) if refresh and stats["written"] else {"name": name}
    return {**m, "llm_run": stats}
