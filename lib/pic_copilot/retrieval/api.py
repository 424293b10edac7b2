"""Engine entry points: search_apis, get_api_details, list_databases, symbol_index.

Databases load lazily on first use and stay cached for the process (agents call
``search_apis`` many times). Every user-fixable problem raises :class:`RetrievalError`.
"""
from __future__ import annotations

import os
import threading
import time
from importlib.metadata import PackageNotFoundError, version as dist_version
from pathlib import Path

import numpy as np

from .embedder import FIX_MODEL, MODELS, get_embedder
from .errors import RetrievalError
from .hybrid import FusionConfig, Retriever
from .paths import databases_dir
from .sources import SOURCES
from . import observations
from .store import Database, fix_cmd
from .symbols import SymbolIndex

_LOCK = threading.RLock()
_STATE: dict = {"root": None, "dbs": {}, "retrievers": {}, "symbols": None, "load_seconds": None}
DEFAULT_K = 5
MODES = ("hybrid", "dense", "bm25")


def _installed_version(tool: str) -> str | None:
    """Version of the tool a database documents, as installed now (None: cannot tell)."""
    try:
        if tool == "gdsfactory":
            return dist_version("gdsfactory")
        if tool == "sax":
            return dist_version("sax")
        if tool == "klayout-pip":
            return dist_version("klayout")
        if tool == "klayout":
            try:  # inside the KLayout application itself
                import pya  # type: ignore

                if hasattr(pya, "Application") and pya.Application.instance():
                    return pya.Application.instance().version().split()[-1]
            except Exception:
                pass
            from .sources.pya_help import installed_version

            return installed_version()
    except PackageNotFoundError:
        return None
    return None


def reset_cache() -> None:
    """Forget loaded databases (after a rebuild, or when $PIC_COPILOT_DATABASES changes)."""
    with _LOCK:
        _STATE.update(root=None, dbs={}, retrievers={}, symbols=None, load_seconds=None)


def _root() -> Path:
    root = databases_dir()
    if _STATE["root"] != root:
        reset_cache()
        _STATE["root"] = root
    return root


def available_names() -> list[str]:
    """Databases present on disk (known sources first, then any other built folder)."""
    root = _root()
    found = [p.name for p in sorted(root.iterdir()) if p.is_dir() and not p.name.startswith(".") and (p / "manifest.json").exists()] if root.is_dir() else []
    return [n for n in SOURCES if n in found] + [n for n in found if n not in SOURCES]


def _check_embeddings(db: Database) -> None:
    """The database's embeddings were made by the installed embedding model (search needs this)."""
    m = db.manifest
    model = m.get("embedding_model")
    if model not in MODELS:
        raise RetrievalError(f"database {db.name!r} was built with an unknown embedding model {model!r}; rebuild it with: {fix_cmd(db.name)}")
    emb = get_embedder(model)
    if emb.sha256 != m.get("embedding_sha256"):
        raise RetrievalError(
            f"embedding model {model} in {emb.dir} (sha256 {emb.sha256[:12]}...) is not the one database {db.name!r} was built with "
            f"({str(m.get('embedding_sha256'))[:12]}...); reinstall the model with: {FIX_MODEL} --name {model}, or rebuild with: {fix_cmd(db.name)}"
        )


def _check_version(db: Database) -> None:
    """The database documents the installed version of its tool (every use needs this)."""
    m = db.manifest
    if os.environ.get("PIC_COPILOT_SKIP_VERSION_CHECK"):
        return
    inst = _installed_version(m.get("tool", ""))
    if inst is not None and m.get("tool_version") and inst != m["tool_version"]:
        raise RetrievalError(
            f"database {db.name!r} documents {m.get('tool')} {m['tool_version']} but {inst} is installed; rebuild it with: {fix_cmd(db.name)}"
        )


def load_database(name: str) -> Database:
    """A built database, checked against the installed tool version (not against the embedding
    model: entries and symbols serve the API check and get_api_details without it)."""
    with _LOCK:
        root = _root()
        if name not in _STATE["dbs"]:
            names = available_names()
            if name not in names:
                known = sorted(set(names) | set(SOURCES))
                if name in SOURCES:
                    raise RetrievalError(f"database {name!r} is not built yet in {root}; build it with: {fix_cmd(name)}")
                raise RetrievalError(f"unknown database {name!r}; known databases: {', '.join(known)}")
            db = Database.load(root / name, name)
            _check_version(db)
            _STATE["dbs"][name] = db
        return _STATE["dbs"][name]


def _select(db: str | list[str] | None) -> tuple[str, ...]:
    if db is None or db == "" or db == "all":
        names = available_names()
        if not names:
            raise RetrievalError(f"no tool-manual databases in {_root()}; build them with: pic-copilot build-db")
        return tuple(names)
    if isinstance(db, str):
        db = [x.strip() for x in db.split(",") if x.strip()]
    return tuple(db)


def get_retriever(db: str | list[str] | None = None, config: FusionConfig | None = None) -> Retriever:
    with _LOCK:
        names = _select(db)
        key = (names, config)
        if key not in _STATE["retrievers"]:
            t0 = time.perf_counter()
            dbs = [load_database(n) for n in names]
            for d in dbs:
                _check_embeddings(d)
            models = {d.manifest["embedding_model"] for d in dbs}
            if len(models) > 1:
                raise RetrievalError(f"databases were built with different embedding models ({', '.join(sorted(models))}); rebuild them with: pic-copilot build-db")
            r = Retriever(dbs, config)
            r.model = models.pop()
            get_embedder(r.model)
            _STATE["retrievers"][key] = r
            _STATE["load_seconds"] = time.perf_counter() - t0
        return _STATE["retrievers"][key]


def _validate_query(query, k) -> tuple[str, int]:
    if not isinstance(query, str) or not query.strip():
        raise RetrievalError('empty query: describe what you are looking for, e.g. pic-copilot search "connect two ports with a waveguide"')
    try:
        k = int(k)
    except (TypeError, ValueError):
        raise RetrievalError(f"k must be a positive integer, got {k!r}") from None
    if k < 1:
        raise RetrievalError(f"k must be a positive integer, got {k}")
    return query.strip(), k


def search_apis(query: str, db: str | list[str] | None = None, k: int = DEFAULT_K, mode: str = "hybrid", config: FusionConfig | None = None,
                names: list[str] | tuple[str, ...] | None = None, code: str = "") -> list[dict]:
    """Top-k original documentation chunks for ``query``.

    Each result: ``{id, db, kind, score, summary, content, metadata}``. ``db``: one name,
    a list / comma-separated names, or None for all databases. ``mode``: hybrid (default),
    dense or bm25. ``names`` / ``code`` (hybrid only): candidate API names and a one-line code
    guess for the need (from an LLM, see :func:`pic_copilot.retrieval.expand.expand_query`),
    fused as one more ranked list through the exact-name / suffix / fuzzy index; names that no
    searched database knows are ignored.
    """
    query, k = _validate_query(query, k)
    if mode not in MODES:
        raise RetrievalError(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    r = get_retriever(db, config)
    qvec = get_embedder(r.model).embed_one(query) if mode != "bm25" else None
    out = []
    if names is not None and (isinstance(names, str) or not all(isinstance(n, str) for n in names)):
        raise RetrievalError("names must be a list of API name strings, e.g. ['gdsfactory.components.mmi1x2']")
    for row, score in r.rank(query, qvec, mode, k, names=names, code=code or ""):
        d, pos = r.locate(row)
        e = d.entry(pos)
        out.append({"id": e["id"], "db": d.name, "kind": e["kind"], "score": round(float(score), 6), "summary": e.get("summary", ""), "content": e["content"], "metadata": e.get("metadata", {})})
    return out


def symbol_index() -> SymbolIndex:
    """The symbol index over all built databases (cached)."""
    with _LOCK:
        if _STATE["symbols"] is None:
            _STATE["symbols"] = SymbolIndex({n: load_database(n).symbols for n in _select(None)})
        return _STATE["symbols"]


def get_api_details(name: str, observed: bool = True) -> dict:
    """Full entry for an API name (aliases, ``gf.``/``kdb.`` prefixes understood).

    Returns ``{id, db, kind, summary, content, metadata, members?, observed?}``; a split entry's parts
    are joined back into ``content``. Unknown names raise RetrievalError with suggestions.
    ``observed`` (when ``pic-copilot explore`` probed this API for the documented version and
    ``observed=True``): what the installed API really did, ``{tool, tool_version, explored_at,
    environment, text, default, accepted, rejected, port_names?, ...}`` (see pic_copilot.retrieval.observations).
    """
    if not isinstance(name, str) or not name.strip():
        raise RetrievalError("empty name: give an API name, e.g. pic-copilot api gdsfactory.components.mmi1x2")
    idx = symbol_index()
    rec = idx.lookup(name)
    target = None
    if rec is not None:
        target = (rec["db"], rec.get("alias_of") or rec["name"])
    else:
        for n in _select(None):
            d = load_database(n)
            if d.position(name.strip()) is not None:
                target = (n, name.strip())
                break
    if target is None:
        sugg = idx.suggest(name)
        hint = f"; did you mean: {', '.join(sugg)}" if sugg else ""
        members = idx.members(name)
        if members:
            return {"id": name, "db": None, "kind": "namespace", "summary": f"{name} has {len(members)} known members", "content": "\n".join(members), "metadata": {}, "members": members}
        raise RetrievalError(f"unknown API {name!r}{hint}", suggestions=sugg)
    d = load_database(target[0])
    pos = d.position(target[1])
    if pos is None:
        raise RetrievalError(f"database {d.name!r} is inconsistent ({target[1]} in symbols.json but not in the entries); rebuild it with: {fix_cmd(d.name)}")
    e = d.entry(pos)
    parts = e.get("metadata", {}).get("parts", 1)
    content = e["content"]
    for i in range(2, int(parts) + 1):
        p = d.position(f"{e['id']}#part{i}")
        if p is not None:
            content += "\n\n" + d.entry(p)["content"].split("\n\n", 1)[-1]
    out = {"id": e["id"], "db": d.name, "kind": e["kind"], "summary": e.get("summary", ""), "content": content, "metadata": e.get("metadata", {})}
    if name.strip() != e["id"]:
        out["requested"] = name.strip()
    members = idx.members(e["id"])
    if members:
        out["members"] = members
    if observed:
        obs = observations.section(e["id"], _root())
        if obs:
            out["observed"] = obs
    return out


def list_databases() -> list[dict]:
    """Manifests of the built databases (plus known sources not built yet, with status)."""
    out = []
    root = _root()
    built = available_names()
    for n in built:
        try:
            import json

            m = json.loads((root / n / "manifest.json").read_text())
            out.append({**m, "name": n, "path": str(root / n), "status": "built"})
        except Exception as e:
            out.append({"name": n, "path": str(root / n), "status": f"corrupt ({e}); rebuild with: {fix_cmd(n)}"})
    for n in SOURCES:
        if n not in built:
            out.append({"name": n, "path": str(root / n), "status": f"not built; build with: {fix_cmd(n)}"})
    return out


def load_seconds() -> float | None:
    return _STATE["load_seconds"]
