"""On-disk format of one tool-manual database and its loader.

``databases/<name>/``
  ``manifest.json``   source, tool + version, embedding model id + sha256, entry count, build time
  ``entries.jsonl``   one entry per line: id, kind, summary, content (original chunk), metadata
  ``index.json``      ids, kinds and byte offsets into entries.jsonl (random access, fast load)
  ``embeddings.npy``  (n, dim) float16 summary embeddings, L2-normalised
  ``bm25_*.npy`` + ``bm25_vocab.json``  term-major postings (doc ids, term freqs) + doc lengths
  ``symbols.json``    every known name (ids + aliases) -> canonical id, signature, parameter names
  ``review.json``     optional human review of summaries (kept across rebuilds)
  ``observations.json`` what the explorer observed running the APIs (kept across rebuilds)
"""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import RetrievalError
from .tokenize import tokenize

FORMAT_VERSION = 1
FILES = ("manifest.json", "entries.jsonl", "index.json", "embeddings.npy", "bm25_vocab.json", "bm25_indptr.npy", "bm25_docs.npy", "bm25_tfs.npy", "bm25_doclen.npy", "symbols.json")


def fix_cmd(name: str) -> str:
    return f"pic-copilot build-db {name}"


def build_postings(token_lists: list[list[str]]):
    """Term-major postings: vocab (sorted), indptr, doc ids, term freqs, doc lengths."""
    df: dict[str, list[tuple[int, int]]] = {}
    for d, toks in enumerate(token_lists):
        for t, c in Counter(toks).items():
            df.setdefault(t, []).append((d, c))
    vocab = sorted(df)
    indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
    docs, tfs = [], []
    for i, t in enumerate(vocab):
        post = df[t]
        indptr[i + 1] = indptr[i] + len(post)
        docs.extend(p[0] for p in post)
        tfs.extend(p[1] for p in post)
    doclen = np.array([len(t) for t in token_lists], dtype=np.int32)
    return vocab, indptr, np.array(docs, dtype=np.int32), np.array(tfs, dtype=np.uint16 if not tfs or max(tfs) < 65535 else np.int32), doclen


def write_database(out_dir: Path, manifest: dict, entries: list[dict], embeddings: np.ndarray, aliases: dict[str, str] | None = None) -> None:
    """Write a complete database into ``out_dir`` (which must be new or empty)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    offsets = []
    with open(out_dir / "entries.jsonl", "wb") as f:
        for e in entries:
            offsets.append(f.tell())
            f.write(json.dumps(e, ensure_ascii=False).encode("utf-8") + b"\n")
    (out_dir / "index.json").write_text(json.dumps({"ids": [e["id"] for e in entries], "kinds": [e["kind"] for e in entries], "offsets": offsets}))
    np.save(out_dir / "embeddings.npy", embeddings.astype(np.float16))
    vocab, indptr, docs, tfs, doclen = build_postings([tokenize(e["summary"]) for e in entries])
    (out_dir / "bm25_vocab.json").write_text(json.dumps(vocab))
    np.save(out_dir / "bm25_indptr.npy", indptr)
    np.save(out_dir / "bm25_docs.npy", docs)
    np.save(out_dir / "bm25_tfs.npy", tfs)
    np.save(out_dir / "bm25_doclen.npy", doclen)
    (out_dir / "symbols.json").write_text(json.dumps(symbol_table(entries, aliases)))
    manifest = {**manifest, "format_version": FORMAT_VERSION, "entry_count": len(entries), "embedding_dim": int(embeddings.shape[1]) if embeddings.ndim == 2 else 0}
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=1))


def symbol_table(entries: list[dict], aliases: dict[str, str] | None = None) -> dict[str, dict]:
    """``symbols.json``: every API name -> kind, signature, parameter names; all the overloads'
    signatures when there are several (what a method returns depends on them); aliases point to
    their canonical id.

    Args:
        entries: the database's entries (guide pages and split parts are left out).
        aliases: alias -> canonical id.
    """
    symbols = {}
    for e in entries:
        if e["kind"] in ("guide",) or "#" in e["id"]:
            continue
        md = e["metadata"]
        rec = {"kind": e["kind"], "signature": md.get("signature", ""), "params": [p["name"] for p in md.get("parameters", [])]}
        if len(md.get("signatures") or []) > 1:
            rec["signatures"] = list(md["signatures"])
        symbols[e["id"]] = rec
    for alias, target in (aliases or {}).items():
        if alias not in symbols and target in symbols:
            symbols[alias] = {**symbols[target], "alias_of": target}
    return symbols


@dataclass
class Database:
    """One loaded database (arrays memory-mapped; entries read on demand)."""

    name: str
    path: Path
    manifest: dict
    ids: list[str]
    kinds: list[str]
    offsets: list[int]
    embeddings: np.ndarray
    vocab: dict[str, int]
    indptr: np.ndarray
    docs: np.ndarray
    tfs: np.ndarray
    doclen: np.ndarray
    _id_pos: dict[str, int] = field(default_factory=dict)
    _symbols: dict | None = None

    @classmethod
    def load(cls, path: Path, name: str | None = None) -> "Database":
        path = Path(path)
        name = name or path.name
        if not path.is_dir():
            raise RetrievalError(f"database {name!r} is missing ({path}); build it with: {fix_cmd(name)}")
        missing = [f for f in FILES if not (path / f).is_file()]
        if missing:
            raise RetrievalError(f"database {name!r} is incomplete ({', '.join(missing)} missing in {path}); rebuild it with: {fix_cmd(name)}")
        try:
            manifest = json.loads((path / "manifest.json").read_text())
            index = json.loads((path / "index.json").read_text())
            vocab_list = json.loads((path / "bm25_vocab.json").read_text())
            emb = np.load(path / "embeddings.npy", mmap_mode="r")
            indptr = np.load(path / "bm25_indptr.npy", mmap_mode="r")
            docs = np.load(path / "bm25_docs.npy", mmap_mode="r")
            tfs = np.load(path / "bm25_tfs.npy", mmap_mode="r")
            doclen = np.load(path / "bm25_doclen.npy", mmap_mode="r")
        except (ValueError, OSError, json.JSONDecodeError, KeyError, EOFError) as e:
            raise RetrievalError(f"database {name!r} is corrupt ({e}); rebuild it with: {fix_cmd(name)}") from e
        n = manifest.get("entry_count")
        problems = []
        if manifest.get("format_version") != FORMAT_VERSION:
            problems.append(f"format version {manifest.get('format_version')} (expected {FORMAT_VERSION})")
        if not isinstance(index, dict) or not all(len(index.get(k, ())) == n for k in ("ids", "kinds", "offsets")):
            problems.append("index.json does not match the entry count")
        if emb.ndim != 2 or emb.shape[0] != n:
            problems.append(f"embeddings.npy has shape {emb.shape}, expected ({n}, dim)")
        if doclen.shape[0] != n or indptr.shape[0] != len(vocab_list) + 1 or (len(indptr) and int(indptr[-1]) != docs.shape[0]) or docs.shape != tfs.shape:
            problems.append("BM25 arrays are inconsistent")
        size = (path / "entries.jsonl").stat().st_size
        if n and index.get("offsets") and index["offsets"][-1] >= size:
            problems.append("entries.jsonl is truncated")
        if problems:
            raise RetrievalError(f"database {name!r} is corrupt: {'; '.join(problems)}; rebuild it with: {fix_cmd(name)}")
        return cls(name=name, path=path, manifest=manifest, ids=index["ids"], kinds=index["kinds"], offsets=index["offsets"],
                   embeddings=emb, vocab={t: i for i, t in enumerate(vocab_list)}, indptr=indptr, docs=docs, tfs=tfs, doclen=doclen)

    def __len__(self) -> int:
        return len(self.ids)

    def position(self, entry_id: str) -> int | None:
        if not self._id_pos:
            self._id_pos = {i: p for p, i in enumerate(self.ids)}
        return self._id_pos.get(entry_id)

    def entry(self, pos: int) -> dict:
        """The full entry at row ``pos`` (read from entries.jsonl by offset)."""
        with open(self.path / "entries.jsonl", "rb") as f:
            f.seek(self.offsets[pos])
            line = f.readline()
        try:
            e = json.loads(line)
        except json.JSONDecodeError as ex:
            raise RetrievalError(f"database {self.name!r} is corrupt (entries.jsonl line for {self.ids[pos]}: {ex}); rebuild it with: {fix_cmd(self.name)}") from ex
        if e.get("id") != self.ids[pos]:
            raise RetrievalError(f"database {self.name!r} is corrupt (entries.jsonl does not match index.json); rebuild it with: {fix_cmd(self.name)}")
        return e

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        i = self.vocab.get(term)
        if i is None:
            return None
        a, b = int(self.indptr[i]), int(self.indptr[i + 1])
        return self.docs[a:b], self.tfs[a:b]

    @property
    def symbols(self) -> dict:
        if self._symbols is None:
            try:
                self._symbols = json.loads((self.path / "symbols.json").read_text())
            except (OSError, json.JSONDecodeError) as e:
                raise RetrievalError(f"database {self.name!r} is corrupt (symbols.json: {e}); rebuild it with: {fix_cmd(self.name)}") from e
        return self._symbols


# files in a database folder that people or the explorer write, not the builder: a rebuild keeps them
KEPT_FILES = ("review.json", "observations.json", "llm_summaries.json")


def replace_dir(tmp: Path, final: Path) -> None:
    """Swap a freshly built database folder into place, keeping the old one's KEPT_FILES."""
    import shutil

    old = final.with_name("." + final.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if final.exists():
        for name in KEPT_FILES:
            if (final / name).exists() and not (tmp / name).exists():
                os.replace(final / name, tmp / name)
        os.replace(final, old)
    os.replace(tmp, final)
    if old.exists():
        shutil.rmtree(old)
