"""The verified cookbook: whole, tested example scripts of designer jobs, and their search index.

Recipes live in ``databases/cookbook/<family>/<slug>.py`` (``drc_deck``: ``<slug>.lydrc``), each
starting with a TOML header between ``# ---`` comment lines (docs: databases/cookbook/README.md,
/work/team/COOKBOOK_SPEC.md). This module parses them, loads fixtures, builds the ``cookbook``
retrieval database (hybrid dense + BM25 over title, summary and tags) and searches it:

    from pic_copilot.retrieval.cookbook import load_recipes, search_recipes
    recipes = load_recipes()                                  # every recipe, validated
    best = search_recipes("add-drop ring with 10 um radius", k=2, kind="sandbox")
    best[0].code                                              # the script without its header

The index lives in ``<databases>/cookbook/_index/`` (not committed). Its manifest carries a hash
of the recipe files; ``build-db --if-missing`` and :func:`search_recipes` rebuild it when the
recipes changed (about 3 s for 200 recipes, nearly all of it embedding).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
import time
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable

from ..checks.output_contract import ContractError, OutputContract
from .errors import RetrievalError
from .paths import REPO_ROOT, databases_dir

#: folder name -> what its recipes do
FAMILIES: dict[str, str] = {
    "layout": "gdsfactory components, cross-sections, hierarchy, arrays, routing, ports, labels, GDS/OAS",
    "edit": "pya edits of the open layout in KLayout",
    "drc": "design-rule checks with Region (pya or klayout.db)",
    "data": "layout data: read GDS/OAS, areas, counts, cell trees, conversions, tables and plots",
    "simulation": "SAX circuit models, netlists, sweeps and spectra",
    "drc_deck": "KLayout DRC decks (.lydrc) run by klayout -b -r",
}
#: recipe kind -> where it runs
KINDS: dict[str, str] = {
    "sandbox": "a plain Python program in its own work dir (engine venv: gdsfactory, klayout.db, SAX)",
    "edit": "KLayout's interpreter on the OPEN layout (globals pya, layout, cell, dbu, selection, workdir)",
    "new": "gdsfactory only: builds a component and writes it with write_gds(..., with_metadata=False); pic-copilot places it",
    "deck": "a KLayout DRC deck run as klayout -b -r deck -rd input=in.gds -rd report=out.lyrdb",
}
HEADER_KEYS = {"title", "summary", "kind", "tags", "apis", "fixture", "expect"}
REQUIRED_KEYS = ("title", "summary", "kind", "expect")
MARKER = "# ---"
SLUG_RE = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)*$")
RECIPE_SUFFIXES = {".py": "python", ".lydrc": "deck", ".drc": "deck"}
INDEX_DIRNAME = "_index"
DB_NAME = "cookbook"
#: bump when the parsing or the indexed text changes: it is part of the index's content hash
INDEX_FORMAT = 1


class CookbookError(RetrievalError):
    """A recipe or fixture is malformed (the message names the file), or the index cannot be used."""


def cookbook_dir() -> Path:
    """``$PIC_COPILOT_COOKBOOK`` or ``<repo>/databases/cookbook`` (the recipe sources)."""
    return Path(os.environ.get("PIC_COPILOT_COOKBOOK") or REPO_ROOT / "databases" / "cookbook")


def index_dir(root: Path | None = None) -> Path:
    """Where the built index lives: ``<databases>/cookbook/_index``."""
    return Path(root or databases_dir()) / DB_NAME / INDEX_DIRNAME


@dataclass
class Recipe:
    """One cookbook recipe.

    Attributes:
        id: ``cookbook.<family>.<slug>``.
        family: folder (layout, edit, drc, data, simulation, drc_deck).
        kind: sandbox, edit, new or deck (see KINDS).
        title: the job in a designer's words.
        summary: what it makes/measures, when to use it, key parameters with units.
        tags: words a designer would type for this job.
        apis: database entry ids the recipe uses.
        fixture: name of the starting-state fixture ("" for none).
        expect: what the recipe's run must produce.
        code: the script without its header (for a deck: the DRC script text).
        path: the recipe file.
    """

    id: str
    family: str
    kind: str
    title: str
    summary: str
    tags: list[str]
    apis: list[str]
    fixture: str
    expect: OutputContract
    code: str
    path: Path
    slug: str = ""

    def search_text(self) -> str:
        """What the index embeds and BM25 reads: title, summary and tags."""
        tags = ", ".join(self.tags)
        return f"{self.title}. {self.summary}" + (f" Tags: {tags}." if tags else "")

    def to_dict(self) -> dict:
        d = {k: getattr(self, k) for k in ("id", "family", "kind", "title", "summary", "tags", "apis", "fixture", "code", "slug")}
        d["expect"] = self.expect.to_dict()
        d["path"] = str(self.path)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Recipe":
        return cls(id=d["id"], family=d["family"], kind=d["kind"], title=d["title"], summary=d["summary"],
                   tags=list(d.get("tags") or []), apis=list(d.get("apis") or []), fixture=d.get("fixture") or "",
                   expect=OutputContract.from_dict(d.get("expect") or {}, d.get("path", d["id"])), code=d["code"],
                   path=Path(d["path"]), slug=d.get("slug") or d["id"].rsplit(".", 1)[-1])


# -- parsing ------------------------------------------------------------------------------------
def _deck_text(text: str, where: str) -> str:
    """The script of a deck file: XML .lydrc macros carry it in <text>; plain-text decks are it."""
    if not text.lstrip().startswith("<"):
        return text
    try:
        root = ET.fromstring(text.lstrip())
    except ET.ParseError as e:
        raise CookbookError(f"{where}: not a valid .lydrc macro (XML): {e}") from None
    el = root.find("text")
    if el is None or not (el.text or "").strip():
        raise CookbookError(f"{where}: the .lydrc macro has no <text> with the DRC script")
    return el.text


def split_header(text: str, where: str = "recipe") -> tuple[dict, str]:
    """Split a recipe's text into its header (parsed TOML) and its body.

    The header is the block of comment lines between the first line ``# ---`` and the next
    ``# ---`` line; each line's leading ``#`` (and one space) is removed before TOML parsing.

    Raises:
        CookbookError: no header, an unterminated header, a non-comment line inside it or bad TOML.
    """
    lines = text.splitlines()
    if not lines or lines[0].rstrip() != MARKER:
        raise CookbookError(f"{where}: a recipe must start with a header between '# ---' lines (first line is {lines[0][:60]!r})"
                            if lines else f"{where}: empty file")
    body_start = None
    toml_lines = []
    for i, line in enumerate(lines[1:], start=1):
        if line.rstrip() == MARKER:
            body_start = i + 1
            break
        if not line.startswith("#"):
            raise CookbookError(f"{where}: line {i + 1} inside the header is not a comment: {line[:80]!r} (is the closing '# ---' missing?)")
        toml_lines.append(line[2:] if line.startswith("# ") else line[1:])
    if body_start is None:
        raise CookbookError(f"{where}: the header is not closed by a '# ---' line")
    try:
        header = tomllib.loads("\n".join(toml_lines))
    except tomllib.TOMLDecodeError as e:
        raise CookbookError(f"{where}: the header is not valid TOML: {e}") from None
    body = "\n".join(lines[body_start:]).strip("\n") + "\n"
    return header, body


def parse_recipe(path: str | Path, root: Path | None = None) -> Recipe:
    """Parse and validate one recipe file.

    Args:
        path: ``<cookbook>/<family>/<slug>.py`` (or ``.lydrc``/``.drc`` for drc_deck).
        root: the cookbook folder (to resolve the family and fixtures); default: the file's grandparent.

    Raises:
        CookbookError: naming the file and what is wrong.
    """
    path = Path(path)
    root = Path(root) if root else path.parent.parent
    where = str(path)
    family, slug, suffix = path.parent.name, path.stem, path.suffix
    if family not in FAMILIES:
        raise CookbookError(f"{where}: unknown family folder {family!r}; recipes live in one of: {', '.join(FAMILIES)}")
    if suffix not in RECIPE_SUFFIXES:
        raise CookbookError(f"{where}: recipes are .py files (drc_deck: .lydrc)")
    if not SLUG_RE.match(slug):
        raise CookbookError(f"{where}: the file name must be lowercase words joined by '_' (got {slug!r})")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CookbookError(f"{where}: cannot read: {e}") from None
    if RECIPE_SUFFIXES[suffix] == "deck":
        text = _deck_text(text, where)
    header, body = split_header(text, where)
    unknown = sorted(set(header) - HEADER_KEYS)
    if unknown:
        raise CookbookError(f"{where}: unknown header key(s) {', '.join(unknown)}; known: {', '.join(sorted(HEADER_KEYS))} "
                            "(expectations go under [expect])")
    missing = [k for k in REQUIRED_KEYS if k not in header]
    if missing:
        raise CookbookError(f"{where}: header lacks {', '.join(missing)}")
    for k in ("title", "summary", "kind", "fixture"):
        if k in header and not isinstance(header[k], str):
            raise CookbookError(f"{where}: {k} must be a string")
    for k in ("title", "summary"):
        if not header[k].strip():
            raise CookbookError(f"{where}: {k} is empty")
    for k in ("tags", "apis"):
        v = header.get(k, [])
        if not (isinstance(v, list) and all(isinstance(x, str) and x.strip() for x in v)):
            raise CookbookError(f'{where}: {k} must be a list of non-empty strings, e.g. {k} = ["..."]')
    kind = header["kind"]
    if kind not in KINDS:
        raise CookbookError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
    if (kind == "deck") != (family == "drc_deck"):
        raise CookbookError(f"{where}: kind 'deck' recipes (and only they) live in drc_deck/")
    if (kind == "deck") != (RECIPE_SUFFIXES[suffix] == "deck"):
        raise CookbookError(f"{where}: a deck is a .lydrc file, every other kind a .py file")
    fixture = header.get("fixture", "") or ""
    if fixture:
        fixture_path(fixture, root, where)
    if not isinstance(header["expect"], dict):
        raise CookbookError(f"{where}: [expect] must be a table")
    try:
        expect = OutputContract.from_dict(header["expect"], where)
    except ContractError as e:
        raise CookbookError(str(e)) from None
    if not expect.can_fail():
        raise CookbookError(f"{where}: [expect] must check something that fails when the job is done wrongly "
                            "(a cell name, a layer, a header, a value, a count, a printout), not only that files exist")
    if expect.shapes and kind != "edit":
        raise CookbookError(f"{where}: shapes (per layer of the active cell) is for kind 'edit' only")
    if not body.strip():
        raise CookbookError(f"{where}: the recipe has no code below its header")
    return Recipe(id=f"cookbook.{family}.{slug}", family=family, kind=kind, title=header["title"].strip(),
                  summary=" ".join(header["summary"].split()), tags=[t.strip() for t in header.get("tags", [])],
                  apis=[a.strip() for a in header.get("apis", [])], fixture=fixture, expect=expect, code=body,
                  path=path, slug=slug)


def recipe_files(root: Path | None = None) -> list[Path]:
    """Every recipe file under the cookbook's family folders, sorted."""
    root = Path(root or cookbook_dir())
    out: list[Path] = []
    for fam in FAMILIES:
        d = root / fam
        if d.is_dir():
            out += sorted(p for p in d.iterdir() if p.is_file() and p.suffix in RECIPE_SUFFIXES and not p.name.startswith(("_", ".")))
    return out


def load_recipes(root: Path | None = None, families: Iterable[str] | None = None, kinds: Iterable[str] | None = None) -> list[Recipe]:
    """Parse every recipe (optionally of some families/kinds only).

    Raises:
        CookbookError: the first malformed recipe (naming its file), or two recipes with one id.
    """
    root = Path(root or cookbook_dir())
    fams, knds = set(families or FAMILIES), set(kinds or KINDS)
    bad = (fams - set(FAMILIES)) | (knds - set(KINDS))
    if bad:
        raise CookbookError(f"unknown famil(ies)/kind(s) {', '.join(sorted(bad))}; families: {', '.join(FAMILIES)}; kinds: {', '.join(KINDS)}")
    recipes: list[Recipe] = []
    seen: dict[str, Path] = {}
    for p in recipe_files(root):
        if p.parent.name not in fams:
            continue
        r = parse_recipe(p, root)
        if r.id in seen:
            raise CookbookError(f"{p}: recipe id {r.id} is also used by {seen[r.id]} (one slug per family)")
        seen[r.id] = p
        if r.kind in knds:
            recipes.append(r)
    return recipes


def get_recipe(recipe_id: str, root: Path | None = None) -> Recipe:
    """One recipe by id (``cookbook.<family>.<slug>``)."""
    parts = recipe_id.split(".")
    if len(parts) != 3 or parts[0] != "cookbook" or parts[1] not in FAMILIES:
        raise CookbookError(f"not a recipe id: {recipe_id!r} (expected cookbook.<family>.<slug>)")
    root = Path(root or cookbook_dir())
    for suffix in RECIPE_SUFFIXES:
        p = root / parts[1] / (parts[2] + suffix)
        if p.is_file():
            return parse_recipe(p, root)
    raise CookbookError(f"no recipe {recipe_id} in {root}")


# -- fixtures -----------------------------------------------------------------------------------
def fixture_path(name: str, root: Path | None = None, where: str = "") -> Path:
    """``<cookbook>/fixtures/<name>.py``; raises CookbookError naming ``where`` if it does not exist."""
    root = Path(root or cookbook_dir())
    if not SLUG_RE.match(name or ""):
        raise CookbookError(f"{where or 'fixture'}: fixture names are lowercase words joined by '_' (got {name!r})")
    p = root / "fixtures" / f"{name}.py"
    if not p.is_file():
        have = sorted(x.stem for x in (root / "fixtures").glob("*.py")) if (root / "fixtures").is_dir() else []
        raise CookbookError(f"{where or 'fixture'}: fixture {name!r} not found ({p}); fixtures: {', '.join(have) or 'none'}")
    return p


def load_fixture(name: str, root: Path | None = None) -> Callable:
    """The ``build(db, layout, top)`` function of a fixture file."""
    p = fixture_path(name, root)
    ns: dict = {"__name__": f"cookbook_fixture_{name}", "__file__": str(p)}
    try:
        exec(compile(p.read_text(encoding="utf-8"), str(p), "exec"), ns)
    except Exception as e:  # noqa: BLE001 - a broken fixture is reported with its file
        raise CookbookError(f"{p}: the fixture does not load: {type(e).__name__}: {e}") from None
    build = ns.get("build")
    if not callable(build):
        raise CookbookError(f"{p}: a fixture defines build(db, layout, top)")
    return build


def write_fixture_gds(name: str, out: str | Path, root: Path | None = None) -> Path:
    """Build a fixture with pip ``klayout.db`` into a fresh layout (top cell TOP) and write it as GDS."""
    import klayout.db as kdb

    build = load_fixture(name, root)
    ly = kdb.Layout()
    top = ly.create_cell("TOP")
    try:
        build(kdb, ly, top)
    except Exception as e:  # noqa: BLE001
        raise CookbookError(f"{fixture_path(name, root)}: build() failed with klayout.db: {type(e).__name__}: {e}") from None
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    ly.write(str(out))
    return out


# -- the index ----------------------------------------------------------------------------------
def recipes_hash(root: Path | None = None) -> str:
    """sha256 over every recipe file's relative path and bytes (plus the index format)."""
    root = Path(root or cookbook_dir())
    h = hashlib.sha256(f"cookbook-index-{INDEX_FORMAT}".encode())
    for p in recipe_files(root):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


def _index_manifest(root: Path | None = None) -> dict | None:
    try:
        return json.loads((index_dir(root) / "manifest.json").read_text())
    except (OSError, json.JSONDecodeError):
        return None


def index_is_current(out_root: Path | None = None, recipes_root: Path | None = None) -> bool:
    """True if the built index exists and was built from the recipes as they are now."""
    m = _index_manifest(out_root)
    return bool(m) and m.get("recipes_sha256") == recipes_hash(recipes_root)


def build_cookbook_db(out_root: Path | None = None, recipes_root: Path | None = None, embedder=None, quiet: bool = True) -> dict:
    """Build the ``cookbook`` index into ``<out_root>/cookbook/_index`` (atomic swap); returns its manifest.

    Raises:
        CookbookError: a malformed recipe (nothing is written then).
    """
    from .embedder import DEFAULT_MODEL, get_embedder
    from .store import replace_dir, write_database

    t0 = time.time()
    recipes_root = Path(recipes_root or cookbook_dir())
    digest = recipes_hash(recipes_root)
    recipes = load_recipes(recipes_root)
    entries = []
    for r in recipes:
        md = {k: v for k, v in r.to_dict().items() if k not in ("id", "code", "path")}
        md["path"] = r.path.relative_to(recipes_root).as_posix()
        entries.append({"id": r.id, "kind": r.kind, "summary": r.search_text(), "content": r.code, "metadata": md})
    emb = embedder or get_embedder(DEFAULT_MODEL)
    import numpy as np

    vecs = emb.embed([e["summary"] for e in entries]) if entries else np.zeros((0, 384), dtype=np.float32)
    manifest = {
        "name": DB_NAME,
        "description": "verified cookbook recipes (whole example scripts of designer jobs)",
        "source": str(recipes_root),
        "tool": "cookbook",
        "tool_version": str(INDEX_FORMAT),
        "embedding_model": emb.name,
        "embedding_sha256": emb.sha256,
        "summaries": "title + summary + tags",
        "recipes_sha256": digest,
        "recipes_per_family": {f: sum(r.family == f for r in recipes) for f in FAMILIES},
        "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    final = index_dir(out_root)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{INDEX_DIRNAME}.", dir=final.parent))
    try:
        manifest["build_seconds"] = round(time.time() - t0, 2)
        write_database(tmp, manifest, entries, vecs)
        replace_dir(tmp, final)
    except BaseException:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
        raise
    _CACHE.clear()
    if not quiet:
        import sys

        sys.stderr.write(f"cookbook: {len(entries)} recipes in {manifest['build_seconds']} s\n")
    return {**manifest, "entry_count": len(entries)}


_CACHE: dict = {}
_LOCK = threading.RLock()
#: seconds between two checks whether the recipe files changed (a search in between uses the cache)
RECHECK_S = 2.0


def _signature(root: Path) -> tuple:
    """Cheap change detector: (relative path, size, mtime) of every recipe file."""
    out = []
    for p in recipe_files(root):
        st = p.stat()
        out.append((p.relative_to(root).as_posix(), st.st_size, st.st_mtime_ns))
    return tuple(out)


def cookbook_retriever(auto_build: bool = True):
    """The loaded index as a :class:`~pic_copilot.retrieval.hybrid.Retriever` (cached per process).

    When the recipes changed since the index was built (content hash in its manifest), the index is
    rebuilt first (``auto_build``), or a CookbookError says how to rebuild it.
    """
    from .embedder import get_embedder
    from .hybrid import Glossary, Retriever
    from .store import Database

    with _LOCK:
        root, out_root = cookbook_dir(), databases_dir()
        cached = _CACHE.get("retriever")
        now = time.monotonic()
        if cached is not None and cached[0][:2] == (str(root), str(out_root)) and now - _CACHE.get("checked", 0.0) < RECHECK_S:
            return cached[1]
        sig = (str(root), str(out_root), _signature(root))   # ~1 ms per 10 recipes: not on every search
        _CACHE["checked"] = now
        if cached is not None and cached[0] == sig:
            return cached[1]
        if not index_is_current(out_root, root):
            if not auto_build:
                raise CookbookError(f"the cookbook index in {index_dir(out_root)} is missing or older than the recipes; "
                                    "rebuild it with: pic-copilot build-db cookbook")
            build_cookbook_db(out_root, root)
        db = Database.load(index_dir(out_root), DB_NAME)
        emb = get_embedder(db.manifest["embedding_model"])
        if emb.sha256 != db.manifest.get("embedding_sha256"):
            build_cookbook_db(out_root, root)
            db = Database.load(index_dir(out_root), DB_NAME)
        r = Retriever([db], glossary=Glossary())
        r.model = db.manifest["embedding_model"]
        _CACHE["retriever"] = (sig, r)
        return r


def _as_set(value, allowed: dict, what: str) -> set[str] | None:
    if value is None or value == "" or value == []:
        return None
    vals = {value} if isinstance(value, str) else set(value)
    bad = vals - set(allowed)
    if bad:
        raise CookbookError(f"unknown recipe {what}(s) {', '.join(sorted(bad))}; use one of {', '.join(allowed)}")
    return vals


def search_recipes_scored(query: str, k: int = 2, kind: str | Iterable[str] | None = None,
                          family: str | Iterable[str] | None = None, mode: str = "hybrid",
                          starts_from_layout: bool = False) -> list[tuple[Recipe, float]]:
    """The ``k`` recipes nearest to ``query`` with their fused scores, best first.

    Args:
        query: the designer's request (or a subtask) in plain words.
        k: how many recipes.
        kind: only recipes of this kind / these kinds (sandbox, edit, new, deck).
        family: only recipes of this family / these families (layout, edit, drc, data, simulation, drc_deck).
        mode: hybrid (default), dense or bm25.
        starts_from_layout: only recipes that start from an existing layout (a fixture), for a
            request that works on a layout file it is given.
    """
    from .api import _validate_query
    from .embedder import get_embedder

    query, k = _validate_query(query, k)
    kinds, fams = _as_set(kind, KINDS, "kind"), _as_set(family, FAMILIES, "family")
    if mode not in ("hybrid", "dense", "bm25"):
        raise CookbookError(f"unknown mode {mode!r}; use hybrid, dense or bm25")
    r = cookbook_retriever()
    if r.n == 0:
        return []
    qvec = get_embedder(r.model).embed_one(query) if mode != "bm25" else None
    out: list[tuple[Recipe, float]] = []
    db = r.dbs[0]
    for row, score in r.rank(query, qvec, mode, k=r.n):
        if kinds is not None and db.kinds[row] not in kinds:
            continue
        e = db.entry(row)
        md = e["metadata"]
        if fams is not None and md["family"] not in fams:
            continue
        if starts_from_layout and not md.get("fixture"):
            continue
        rec = Recipe.from_dict({**md, "id": e["id"], "code": e["content"], "path": str(cookbook_dir() / md["path"])})
        out.append((rec, float(score)))
        if len(out) >= k:
            break
    return out


def search_recipes(query: str, k: int = 2, kind: str | Iterable[str] | None = None,
                   family: str | Iterable[str] | None = None, mode: str = "hybrid",
                   starts_from_layout: bool = False) -> list[Recipe]:
    """The ``k`` recipes nearest to ``query``, best first (see :func:`search_recipes_scored`)."""
    return [r for r, _ in search_recipes_scored(query, k, kind, family, mode, starts_from_layout)]
