"""Hybrid retrieval: dense cosine + BM25 over summaries, fused by weighted reciprocal rank.

Dense: cosine (dot product of L2-normalised vectors) against every summary embedding of the
selected databases. Sparse: BM25 (Okapi, k1=1.5, b=0.75, the ``rank_bm25.BM25Okapi``
formula incl. its epsilon floor for negative idf) over the summaries, computed from
precomputed postings with corpus statistics of the selected databases taken together.
Exact names: entries whose short name (the last dotted part of the id, e.g. ``mmi1x2``) is
written verbatim in the query as an identifier form a third ranked list (best dense score
first), so that asking for ``mmi1x2`` finds ``mmi1x2`` before ``mmi1x2_with_sbend``. The glossary
(databases/glossary.toml) maps designer terms to entries ("all-pass ring" -> ring_single); the
entries of the terms a query contains form a fourth list, weight ``w_glossary`` (1.0: a term is
the designer naming the API in other words). Other plain-language queries are not affected.
Fusion: score(d) = sum_r w_r / (c + rank_r(d)), ranks 1-based, over the top ``depth`` of each.
"""
from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import RetrievalError
from .paths import databases_dir
from .store import Database
from .tokenize import operator_tokens, tokenize


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def identifiers(text: str) -> set[str]:
    """Identifier-like words of a query that could be API names: those with an underscore or a
    digit or a dot, or CamelCase (plain English words are left out), plus their last dotted part."""
    out: set[str] = set()
    for m in _IDENT.finditer(text):
        w = m.group(0)
        last = w.rsplit(".", 1)[-1]
        if "_" in w or "." in w or any(ch.isdigit() for ch in w) or (last[:1].isupper() and any(ch.islower() for ch in last[1:]) and any(ch.isupper() for ch in last[1:])):
            out.add(w.lower())
            out.add(last.lower())
    return out


class Glossary:
    """Designer terms -> entry ids (databases/glossary.toml); see that file for the format."""

    def __init__(self, terms: dict[str, list[str]] | None = None):
        self.terms = {_norm_words(k): list(v) for k, v in (terms or {}).items() if _norm_words(k)}
        self._re = (re.compile(r"\b(" + "|".join(re.escape(t) for t in sorted(self.terms, key=len, reverse=True)) + r")\b")
                    if self.terms else None)

    @classmethod
    def load(cls, path: Path | None = None) -> "Glossary":
        """The glossary file (default databases/glossary.toml); a missing file is an empty glossary."""
        path = path or databases_dir() / "glossary.toml"
        if not path.exists():
            return cls()
        try:
            data = tomllib.loads(path.read_text())
        except tomllib.TOMLDecodeError as e:
            raise RetrievalError(f"glossary {path} is not valid TOML: {e}") from None
        terms = data.get("terms") or {}
        bad = [k for k, v in terms.items() if not (isinstance(v, list) and all(isinstance(x, str) for x in v))]
        if bad:
            raise RetrievalError(f"glossary {path}: each term needs a list of entry ids, e.g. "
                                 f'"all pass ring" = ["gdsfactory.components.ring_single"] (check: {", ".join(bad[:3])})')
        return cls(terms)

    def entries_for(self, query: str) -> list[str]:
        """Entry ids of the glossary terms that the query contains."""
        if self._re is None:
            return []
        return [e for m in self._re.finditer(_norm_words(query)) for e in self.terms[m.group(1)]]


def _norm_words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


@dataclass(frozen=True)
class BM25Params:
    """Okapi BM25 as ``rank_bm25.BM25Okapi`` computes it, with its defaults.

    Attributes:
        k1: term-frequency saturation.
        b: how much an entry's length normalises its term frequencies (0 none, 1 fully).
        epsilon: a term in more than half of the entries (negative idf) counts with ``epsilon``
            times the average idf instead.
    """

    k1: float = 1.5
    b: float = 0.75
    epsilon: float = 0.25


@dataclass(frozen=True)
class FusionConfig:
    """How :meth:`Retriever.rank` ranks and fuses (the formula is in the module docstring).

    Attributes:
        w_dense: weight of the dense (cosine) list.
        w_sparse: weight of the BM25 list.
        w_name: weight of the exact-names list (0 leaves it out, as for the other lists).
        w_glossary: weight of the glossary list.
        w_expand: weight of the list of proposed API names and code (``names`` / ``code``).
        one_part: of an entry split into parts, keep only its best-ranked part.
        per_name: at most this many rows per proposed name in the expansion list.
        fuzzy_cutoff: how close (difflib ratio) a proposed name's last part must be to a short
            name when no entry id ends with it.
        c: the constant of reciprocal-rank fusion.
        depth: how many rows of each list are fused (at least ``k``).
        bm25: the BM25 parameters.
        w_class: weight of one more list, the classes of the first ``class_from`` fused rows
            (a query that finds several members of one class is often about that class); the
            lists are fused again with it. 0: off.
        class_from: how many fused rows give their classes.
        w_prior: every fused score times ``1 + w_prior * prior`` (how much the entry is used,
            0..1). 0: off.
    """

    # the ranked lists and how they are fused
    w_dense: float = 0.7
    w_sparse: float = 0.3
    w_name: float = 0.5
    w_glossary: float = 1.0
    w_expand: float = 1.0
    one_part: bool = True
    per_name: int = 4
    fuzzy_cutoff: float = 0.85
    c: float = 60.0
    depth: int = 50
    bm25: BM25Params = BM25Params()
    # adjustments of the fused ranking
    w_class: float = 0.0
    class_from: int = 10
    w_prior: float = 0.0


def rrf(rankings: list[list[int]], weights: list[float], c: float = 60.0) -> list[tuple[int, float]]:
    """Weighted reciprocal-rank fusion of ranked lists of ids -> [(id, score)] best first.

    Ties are broken by the first ranking's order, then by id.
    """
    scores: dict[int, float] = {}
    first: dict[int, int] = {}
    for ranking, w in zip(rankings, weights):
        for r, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + w / (c + r)
            first.setdefault(doc, len(first))
    return sorted(scores.items(), key=lambda kv: (-kv[1], first[kv[0]], kv[0]))


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest scores, best first (stable for ties)."""
    k = min(k, scores.shape[0])
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-scores, k - 1)[:k]
    return part[np.lexsort((part, -scores[part]))]


class Retriever:
    """Search over one or more loaded databases (global row numbers across them)."""

    def __init__(self, dbs: list[Database], config: FusionConfig | None = None, glossary: "Glossary | None" = None):
        self.dbs = dbs
        self.glossary = glossary if glossary is not None else Glossary.load()
        self._by_id: dict[str, list[int]] | None = None
        self.config = config or FusionConfig()
        self.starts = np.cumsum([0] + [len(d) for d in dbs])
        self.n = int(self.starts[-1])
        self.emb = np.ascontiguousarray(np.concatenate([np.asarray(d.embeddings, dtype=np.float32) for d in dbs])) if dbs else np.zeros((0, 384), np.float32)
        self.doclen = np.concatenate([np.asarray(d.doclen, dtype=np.float32) for d in dbs]) if dbs else np.zeros(0, np.float32)
        self.avgdl = float(self.doclen.mean()) if self.n else 1.0
        self._avg_idf: float | None = None
        self._by_short_name: dict[str, list[int]] | None = None
        self._by_suffix: dict[str, list[int]] | None = None
        self._parent_row: np.ndarray | None = None
        self._class_row: np.ndarray | None = None
        self._prior: np.ndarray | None = None
        self._norm = (1 - self.config.bm25.b + self.config.bm25.b * self.doclen / max(self.avgdl, 1e-9)) * self.config.bm25.k1

    def locate(self, row: int) -> tuple[Database, int]:
        i = int(np.searchsorted(self.starts, row, side="right") - 1)
        return self.dbs[i], int(row - self.starts[i])

    # -- dense
    def dense_scores(self, qvec: np.ndarray) -> np.ndarray:
        # einsum runs single-threaded without BLAS: waking BLAS threads right after an
        # onnxruntime call cost 10-20 ms on a busy 2-core machine; this takes ~0.3 ms
        return np.einsum("ij,j->i", self.emb, qvec.astype(np.float32, copy=False))

    # -- sparse
    def _idf(self, df: int) -> float:
        return math.log(self.n - df + 0.5) - math.log(df + 0.5)

    def average_idf(self) -> float:
        """Mean idf over the joint vocabulary (only needed when a query term has idf < 0)."""
        if self._avg_idf is None:
            df: dict[str, int] = {}
            for d in self.dbs:
                counts = np.diff(np.asarray(d.indptr))
                for t, i in d.vocab.items():
                    df[t] = df.get(t, 0) + int(counts[i])
            self._avg_idf = sum(self._idf(v) for v in df.values()) / max(len(df), 1)
        return self._avg_idf

    def bm25_scores(self, query_tokens: list[str]) -> np.ndarray:
        scores = np.zeros(self.n, dtype=np.float32)
        k1 = self.config.bm25.k1
        for t in query_tokens:  # duplicates count twice, like rank_bm25
            posts = []
            df = 0
            for j, d in enumerate(self.dbs):
                p = d.postings(t)
                if p is not None:
                    posts.append((j, p))
                    df += len(p[0])
            if not df:
                continue
            idf = self._idf(df)
            if idf < 0:
                idf = self.config.bm25.epsilon * self.average_idf()
            for j, (docs, tfs) in posts:
                rows = np.asarray(docs, dtype=np.int64) + int(self.starts[j])
                tf = np.asarray(tfs, dtype=np.float32)
                scores[rows] += idf * tf * (k1 + 1) / (tf + self._norm[rows])
        return scores

    # -- exact names
    def short_names(self) -> dict[str, list[int]]:
        """short name (lower case) -> rows; built once on first use (~10 ms)."""
        if self._by_short_name is None:
            idx: dict[str, list[int]] = {}
            for entry_id, rows in self.rows_of_ids().items():
                idx.setdefault(entry_id.rsplit(".", 1)[-1].lower(), []).extend(rows)
            self._by_short_name = idx
        return self._by_short_name

    def rows_of_ids(self) -> dict[str, list[int]]:
        """entry id without its part suffix -> rows; built once on first use."""
        if self._by_id is None:
            idx: dict[str, list[int]] = {}
            row = 0
            for d in self.dbs:
                for entry_id in d.ids:
                    idx.setdefault(entry_id.split("#")[0], []).append(row)
                    row += 1
            self._by_id = idx
        return self._by_id

    def name_ranking(self, query: str, dense: np.ndarray) -> list[int]:
        """Rows whose short name the query writes verbatim, best dense score first."""
        names = self.short_names()
        rows = [r for w in identifiers(query) for r in names.get(w, ())]
        return sorted(set(rows), key=lambda r: -float(dense[r]))

    def suffix_index(self) -> dict[str, list[int]]:
        """Every dotted suffix (lower case) of every entry id and alias -> the entries' first rows:
        ``pya.Region.sized`` is found as ``region.sized`` and ``sized``. Built on first use."""
        if self._by_suffix is None:
            idx: dict[str, list[int]] = {}

            def add(name: str, row: int) -> None:
                parts = name.lower().split(".")
                for i in range(len(parts)):
                    rows = idx.setdefault(".".join(parts[i:]), [])
                    if row not in rows:
                        rows.append(row)

            first = {i: rows[0] for i, rows in self.rows_of_ids().items()}
            for i, row in first.items():
                add(i, row)
            for d in self.dbs:
                try:
                    symbols = d.symbols
                except RetrievalError:
                    continue
                for alias, rec in symbols.items():
                    target = rec.get("alias_of")
                    if target and target in first:
                        add(alias, first[target])
            self._by_suffix = idx
        return self._by_suffix

    def resolve_name(self, name: str) -> list[int]:
        """Rows of the entries a proposed API name means: the longest dotted suffix of the name
        that some entry id or alias ends with (``gf.``/``kdb.`` prefixes understood, so
        ``c.add_ref`` finds ``Component.add_ref``), else close spellings of its last part
        (difflib, ``fuzzy_cutoff``); [] for a name nothing resembles."""
        n = re.sub(r"\(.*$", "", name.strip()).strip(". ").lower()
        if not n:
            return []
        for short, full in (("gf.", "gdsfactory."), ("kdb.", "klayout.db."), ("db.", "klayout.db.")):
            if n.startswith(short):
                n = full + n[len(short):]
                break
        idx = self.suffix_index()
        parts = n.split(".")
        for i in range(len(parts)):
            rows = idx.get(".".join(parts[i:]))
            if rows:
                return list(rows)
        import difflib

        close = difflib.get_close_matches(parts[-1], list(self.short_names()), n=2, cutoff=self.config.fuzzy_cutoff)
        return [r for c in close for r in idx.get(c, ())]

    def expansion_ranking(self, names, code: str, dense: np.ndarray) -> list[int]:
        """One ranked list from proposed names (in their order) and the names a code guess uses:
        each name's entries best dense score first, at most ``per_name`` of them."""
        from .expand import code_names

        out: list[int] = []
        for name in [*(names or ()), *code_names(code or "")]:
            rows = sorted(set(self.resolve_name(name)), key=lambda r: -float(dense[r]))
            out += [r for r in rows[: self.config.per_name] if r not in out]
        return out

    def glossary_ranking(self, query: str) -> list[int]:
        """Rows of the entries that the glossary terms in the query name, in glossary order."""
        by_id = self.rows_of_ids()
        rows: list[int] = []
        for entry in self.glossary.entries_for(query):
            rows += [r for r in by_id.get(entry, ()) if r not in rows]
        return rows

    # -- ranking
    def rank(self, query: str, qvec: np.ndarray | None, mode: str = "hybrid", k: int = 5,
             names=None, code: str = "") -> list[tuple[int, float]]:
        """[(global row, score)] best first. mode: hybrid | dense | bm25.

        ``names`` / ``code``: API names and a one-line code guess proposed for the query (e.g. by
        :func:`.expand.expand_query`); in hybrid mode they form one more list, weight ``w_expand``."""
        depth = max(self.config.depth, k)
        if mode == "dense":
            s = self.dense_scores(qvec)
            return [(int(i), float(s[i])) for i in top_k(s, k)]
        sparse = self.bm25_scores(tokenize(query) + operator_tokens(query))
        if mode == "bm25":
            idx = [int(i) for i in top_k(sparse, k) if sparse[i] > 0]
            return [(i, float(sparse[i])) for i in idx]
        dense = self.dense_scores(qvec)
        d_rank = [int(i) for i in top_k(dense, depth)]
        s_rank = [int(i) for i in top_k(sparse, depth) if sparse[i] > 0]
        rankings, weights = [d_rank, s_rank], [self.config.w_dense, self.config.w_sparse]
        n_rank = self.name_ranking(query, dense) if self.config.w_name > 0 else []
        if n_rank:
            rankings.append(n_rank[:depth])
            weights.append(self.config.w_name)
        e_rank = self.expansion_ranking(names, code, dense) if (names or code) and self.config.w_expand > 0 else []
        if e_rank:
            rankings.append(e_rank[:depth])
            weights.append(self.config.w_expand)
        g_rank = self.glossary_ranking(query) if self.config.w_glossary > 0 else []
        if g_rank:
            rankings.append(g_rank[:depth])
            weights.append(self.config.w_glossary)
        fused = rrf(rankings, weights, self.config.c)
        if self.config.w_class > 0:
            c_rank = self.class_ranking([r for r, _ in fused[: self.config.class_from]])
            if c_rank:
                fused = rrf(rankings + [c_rank], weights + [self.config.w_class], self.config.c)
        if self.config.w_prior > 0:
            prior = self.prior()
            fused = sorted(((r, sc * (1.0 + self.config.w_prior * float(prior[r]))) for r, sc in fused), key=lambda t: -t[1])
        if self.config.one_part:
            fused = self.best_part_only(fused, k)
        return fused[:k]

    # -- structure
    def _structure(self) -> None:
        """Row -> row of its parent entry (parts of a split entry) and row -> row of its class."""
        by_id: dict[str, list[int]] = {}
        row = 0
        for d in self.dbs:
            for entry_id in d.ids:   # only "#part<n>" marks a part (guide sections have "#" ids of their own)
                by_id.setdefault(re.sub(r"#part\d+$", "", entry_id), []).append(row)
                row += 1
        parent = np.arange(self.n, dtype=np.int64)
        cls = np.full(self.n, -1, dtype=np.int64)
        kinds = [k for d in self.dbs for k in d.kinds]
        class_rows = {i: rows[0] for i, rows in by_id.items() if kinds[rows[0]] == "class"}
        for i, rows in by_id.items():
            parent[rows] = rows[0]
            owner = i.rsplit(".", 1)[0]
            if owner in class_rows and owner != i:
                cls[rows] = class_rows[owner]
        self._parent_row, self._class_row = parent, cls

    def best_part_only(self, fused: list[tuple[int, float]], k: int) -> list[tuple[int, float]]:
        """Keep the best-ranked part of each split entry (the others repeat its id)."""
        if self._parent_row is None:
            self._structure()
        seen, out = set(), []
        for row, score in fused:
            p = int(self._parent_row[row])
            if p not in seen:
                seen.add(p)
                out.append((row, score))
                if len(out) >= k:
                    break
        return out

    def prior(self) -> np.ndarray:
        """How much each entry is used, 0..1: uses of its class's name (members) or of its own
        name (functions, classes) in the code that uses its database's tool (:func:`.usage.db_counts`),
        log-scaled."""
        if self._prior is None:
            from .usage import db_counts

            vals = np.zeros(self.n, dtype=np.float32)
            row = 0
            kinds = [k for d in self.dbs for k in d.kinds]
            for d in self.dbs:
                counts = db_counts(d.name)   # SAX names counted in SAX code, KLayout names in klayout.db code
                for entry_id in d.ids:
                    base = re.sub(r"#part\d+$", "", entry_id).split("#")[0]
                    parts = base.split(".")
                    if kinds[row] in ("method", "property", "constructor", "attribute") and len(parts) >= 2:
                        name = parts[-2]
                    else:
                        name = parts[-1]
                    vals[row] = math.log1p(counts.get(name, 0))
                    row += 1
            top = float(vals.max()) if self.n else 1.0
            self._prior = vals / max(top, 1e-9)
        return self._prior

    def class_ranking(self, rows: list[int]) -> list[int]:
        """The classes of the given member rows, in order of their first member: a query that
        finds several members of one class is often about that class."""
        if self._class_row is None:
            self._structure()
        out: list[int] = []
        for r in rows:
            c = int(self._class_row[r])
            if c >= 0 and c not in out:
                out.append(c)
        return out
