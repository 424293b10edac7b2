"""The agents' access to pic_copilot.retrieval: a missing or outdated database degrades generation
(no documentation, no API check) instead of failing the request; the reason goes to the run record."""
from __future__ import annotations

import difflib
import functools
import re

from .. import retrieval

DOC_CHARS = 900        # per retrieved chunk in a prompt
DOCS_BUDGET = 4400     # all chunks together (~1100 tokens)


@functools.lru_cache(maxsize=1)
def available_databases() -> tuple[str, ...]:
    """Names of the databases that are built and readable."""
    return tuple(d["name"] for d in retrieval.list_databases() if d.get("status") == "built")


def search(query: str, db: str | None, k: int = 4) -> tuple[list[dict], str | None]:
    """(hits, None), or ([], the message) when retrieval cannot answer (missing or outdated database):
    generation goes on without documentation and the message lands in the run record."""
    try:
        return list(retrieval.search_apis(query, db=db, k=k)), None
    except retrieval.RetrievalError as e:
        return [], str(e)


def symbol_index():
    """The SymbolIndex, or None when no database is usable (the API check is then skipped)."""
    try:
        return retrieval.symbol_index()
    except retrieval.RetrievalError:
        return None


def hit_name(h: dict) -> str:
    md = h.get("metadata") or {}
    return str(md.get("qualname") or md.get("name") or h.get("name") or h.get("id", "?"))


_PART = re.compile(r"#part(\d+)$")


def doc_title(name: str) -> str:
    """A chunk's name as a heading a small model cannot mistake for a module: a manual page's id
    ``klayout.guide.programming.database_api#the_cell_class#part3`` becomes "KLayout guide:
    programming, database api, the cell class (part 3)" (a real a10 answer imported
    ``from klayout.guide.programming.database_api#the_cell_class#part3 import Cell``); an API
    entry keeps its dotted name, its "#part2" said in words."""
    part = _PART.search(name)
    base = name[:part.start()] if part else name
    tail = f" (part {part.group(1)})" if part else ""
    if "#" not in base and ".guide." not in base:
        return base + tail
    page, *sections = base.split("#")
    path = page.split(".")
    after = path[path.index("guide") + 1:] if "guide" in path else path
    tool = "KLayout DRC" if path[0] == "drc" else "KLayout"
    return f"{tool} guide: " + ", ".join(w.replace("_", " ") for w in [*after, *sections]) + tail


def format_docs(hits: list[dict], budget: int = DOCS_BUDGET) -> str:
    """Retrieved chunks as prompt text, original content clipped, within a character budget."""
    out, used, seen = [], 0, set()
    for h in hits:
        key = h.get("id")
        if key in seen:
            continue
        seen.add(key)
        body = str(h.get("content") or h.get("summary") or "").strip()
        name = hit_name(h)
        if "#" in name:   # a later part's text starts with the raw id: say it as the heading does
            body = body.replace(name.split("#part")[0], doc_title(name.split("#part")[0]))
        if len(body) > DOC_CHARS:
            body = body[:DOC_CHARS].rstrip() + " ..."
        block = f"### {doc_title(name)} ({h.get('db', '')})\n{body}"
        if used + len(block) > budget:
            break
        out.append(block)
        used += len(block)
    return "\n\n".join(out) if out else "(none)"


# ---------------------------------------------------------------------- cookbook
#: recipe kinds that can serve as examples for a request: (mode, interactive kind) -> kinds
RECIPE_KINDS = {("sandbox", None): ("sandbox", "new"), ("interactive", "edit"): ("edit",),
                ("interactive", "new"): ("new", "sandbox"), ("interactive", None): ("sandbox",)}
#: the generator domain a recipe family belongs to
FAMILY_DOMAIN = {"layout": "layout", "edit": "layout", "drc": "drc", "data": "data", "simulation": "simulation",
                 "drc_deck": "drc_deck"}


def recipe_kinds(mode: str, kind: str | None, domains: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The recipe kinds that can serve as examples: a DRC deck's are decks; otherwise by the mode
    and the interactive script kind (see RECIPE_KINDS)."""
    if "drc_deck" in domains:
        return ("deck",)
    return RECIPE_KINDS[(mode, kind)]


#: how far down the ranking an arranging recipe is looked for (see :func:`recipes`)
ARRANGING_DEPTH = 12
#: what a grid-arranging recipe does, in words, for when the request's own words find none
GRID_QUERY = "place a cell as an array of columns and rows with an x and y pitch"


#: output files whose writing an example must show when the request asks for one: a layout file, a
#: report database, a plot (a CSV or JSON file is a few lines any model knows)
SHOWN_WRITERS = (".gds", ".oas", ".lyrdb", ".png")
#: what writing each of them is, in words, for when the request's own words find no recipe that does
WRITER_QUERIES = {".gds": "write the layout to a GDS file", ".oas": "save the layout as an OASIS file",
                  ".lyrdb": "save the violations to a report database lyrdb file with categories",
                  ".png": "plot the result and save the figure as a PNG image"}


def recipes(query: str, kinds: tuple[str, ...], k: int = 2, starts_from_layout: bool = False,
            places: int = 0, two_d: bool = False, outputs: tuple[str, ...] = (),
            steps: tuple[str, ...] = ()) -> tuple[list, str | None]:
    """The ``k`` cookbook recipes of these kinds nearest to a request, and an error message when the
    cookbook cannot answer (generation then uses the fixed examples).

    Args:
        query: the request (or its one task).
        kinds: recipe kinds that fit the request's mode.
        k: how many recipes at most.
        starts_from_layout: the request works on a layout file it is given; the recipes that start
            from a layout come first (the others only if none is found).
        places: how many cells the request places together (its output contract). With two or
            more, one recipe shown must place several cells (a loop of references, an array, a
            grid): "an array of the PDK's rings" found only ring recipes in real runs, and the
            answer placed one ring, or twelve in a line. The nearest such recipe among the first
            ARRANGING_DEPTH takes the last place when none of the nearest does.
        two_d: the placements form columns and rows (the contract's grid): the arranging recipe must
            then place in two directions (a real m02 run copied a row of renamed rings into twelve
            in a line for "4 columns and 3 rows", three rounds).
        outputs: the files the request asks for (its output contract). When it asks for a kind of
            file in SHOWN_WRITERS that no recipe shown writes, the nearest recipe among the first
            ARRANGING_DEPTH that writes one is shown too (see :func:`writer_for_missing_output`).
        steps: the request's sentences; when fewer than ``k`` recipes are found for the whole
            request, the nearest recipe to one of them is shown too (:func:`recipe_for_another_step`).
    """
    from ..retrieval import cookbook

    try:
        found = list(cookbook.search_recipes(query, k=k, kind=kinds, starts_from_layout=True)) if starts_from_layout else []
        found = complementary(found or list(cookbook.search_recipes(query, k=k, kind=kinds)), query)
        step_recipe = recipe_for_another_step(found, steps, kinds) if found and len(found) < k else None
    except retrieval.RetrievalError as e:
        return [], f"cookbook unavailable: {e}"
    if step_recipe is not None:
        found = found + [step_recipe]
    arranges = places_in_rows_and_columns if two_d else places_several
    if places >= 2 and found and not any(arranges(r.code) for r in found):
        # nearest to the request first, then to the arrangement itself: a request's device words
        # ("ring", "all-pass") can fill the whole depth with recipes of that device alone
        deeper = list(cookbook.search_recipes(query, k=ARRANGING_DEPTH, kind=kinds))
        if two_d:
            deeper += list(cookbook.search_recipes(GRID_QUERY, k=ARRANGING_DEPTH, kind=kinds))
        arranging = next((r for r in deeper if arranges(r.code) and r.id not in {f.id for f in found}), None)
        if arranging is not None:
            found = found[:max(1, k - 1)] + [arranging]
    writer = writer_for_missing_output(found, query, kinds, outputs) if found else None
    if writer is not None:
        # it takes the last place, unless that place shows the arrangement the request needs
        found = found[:k - 1] + [writer] if len(found) >= k and k > 1 and places < 2 else found + [writer]
    return found, None


#: a sentence shorter than this is no job of its own ("Save it there.")
STEP_MIN_CHARS = 25


def recipe_for_another_step(found: list, steps: tuple[str, ...], kinds: tuple[str, ...]):
    """The recipe nearest to one of a request's sentences that ``found`` does not hold: of each
    sentence's nearest recipe, the one with the best score. None for a request of fewer than two
    sentences of STEP_MIN_CHARS or more.

    A composite request's nearest recipe as a whole can fit one of its steps only: a real a07
    request (boolean result layers, then an area JSON "within 0.01 µm² (grid snapping)") found
    snap_shapes_to_grid alone. Over the project's tasks it changes the recipes of 11 of 48, and
    the share of each reference solution's API calls that the shown recipes make rises from 0.45 to
    0.51 (advanced), 0.80 to 0.85 (basic) and 0.76 to 0.77 (medium), lower for none (session 27,
    offline). Paired with ``full`` in runs (session 28) it did not pay: 5/9 against 7/9 on b10, b11,
    m06 at n=3 and 0/8 both on eight advanced tasks, with more calls, so it is config ``step-recipes``.

    Args:
        found: the recipes already chosen for the whole request.
        steps: the request's sentences, in order (agents.addition.request_steps).
        kinds: the recipe kinds that fit the request.
    """
    from ..retrieval import cookbook

    steps = tuple(s for s in steps if len(s) >= STEP_MIN_CHARS)
    if len(steps) < 2:
        return None
    shown = {r.id for r in found}
    nearest = [hit for step in steps for hit in cookbook.search_recipes_scored(step, k=1, kind=kinds)]
    others = [(rec, score) for rec, score in nearest if rec.id not in shown]
    return max(others, key=lambda hit: hit[1])[0] if others else None


def _suffix(name: str) -> str:
    return ("." + name.rsplit(".", 1)[1].lower()) if "." in name else ""


def writer_for_missing_output(found: list, query: str, kinds: tuple[str, ...], outputs: tuple[str, ...]):
    """The nearest recipe (among the first ARRANGING_DEPTH for ``query``) that writes a kind of file
    the request asks for and no recipe in ``found`` writes, for the kinds in SHOWN_WRITERS; None when
    none is missing or none is found. Over the project's 24 advanced tasks, 8 asked for such a file
    that no example shown wrote (a GDS beside a simulation, a report database, an OASIS copy, a
    plot), and a real a01 run wrote the spectrum and the JSON of a ring filter but never its GDS."""
    from ..retrieval import cookbook

    shown = {_suffix(f) for r in found for f in r.expect.files}
    missing = [s for s in SHOWN_WRITERS if s in {_suffix(o) for o in outputs} and s not in shown]
    if not missing or all(r.kind == "deck" for r in found):
        return None
    ids = {r.id for r in found}
    try:
        # the request's words, then with the writing's words first (nearest to both), then those alone
        for words in (query, *(f"{WRITER_QUERIES[s]}. {query}" for s in missing), *(WRITER_QUERIES[s] for s in missing)):
            writer = next((r for r in cookbook.search_recipes(words, k=ARRANGING_DEPTH, kind=kinds) if r.id not in ids
                           and any(_suffix(f) in missing for f in r.expect.files)), None)
            if writer is not None:
                return writer
    except retrieval.RetrievalError:
        pass
    return None


_PLACING_CALLS = frozenset({"add_ref", "insert", "grid", "pack", "CellInstArray", "DCellInstArray"})


def places_several(code: str) -> bool:
    """True when a script places several cells: a placement (``<<``, ``add_ref``, ``insert``) inside a
    loop or comprehension, an array placement (``columns=``/``rows=``, a CellInstArray with counts),
    or a grid/pack of components."""
    import ast

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False

    def placing(node: ast.AST) -> bool:
        for n in ast.walk(node):
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.LShift):
                return True
            if isinstance(n, ast.Call):
                name = n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
                if name in _PLACING_CALLS and name not in ("insert",) or (name == "insert" and any(
                        isinstance(a, ast.Call) and getattr(a.func, "attr", getattr(a.func, "id", "")).endswith("CellInstArray")
                        for a in n.args)):
                    return True
        return False

    for n in ast.walk(tree):
        if isinstance(n, (ast.For, ast.While, ast.ListComp, ast.GeneratorExp)) and placing(n):
            return True
        if isinstance(n, ast.Call):
            name = n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
            if isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and \
                    n.func.value.id in ("ax", "plt", "np", "numpy", "jnp"):
                continue   # a plot's grid, a numeric array
            if name in ("grid", "pack", "grid_with_text", "array", "pad_array"):
                return True
            if {k.arg for k in n.keywords} & {"columns", "rows", "na", "nb"} and name in _PLACING_CALLS:
                return True
            if name.endswith("CellInstArray") and len(n.args) >= 5:
                return True
    return False


def places_in_rows_and_columns(code: str) -> bool:
    """True when a script places cells in two directions: an array with both columns and rows
    (``add_ref(..., columns=, rows=)``, ``CellInstArray(cell, trans, a, b, na, nb)``), a grid of
    components, or a placement inside a loop inside a loop."""
    import ast

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    loops = (ast.For, ast.While, ast.ListComp, ast.GeneratorExp)
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            name = n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
            keys = {k.arg for k in n.keywords}
            if name in _PLACING_CALLS and ({"columns", "rows"} <= keys or {"na", "nb"} <= keys):
                return True
            if name.endswith("CellInstArray") and len(n.args) >= 6:
                return True
            if name in ("grid", "grid_with_text") and not (isinstance(n.func, ast.Attribute) and isinstance(
                    n.func.value, ast.Name) and n.func.value.id in ("ax", "plt")):
                return True
        if isinstance(n, loops) and any(isinstance(m, loops) and m is not n and places_several(ast.unparse(m))
                                        for m in ast.walk(n)):
            return True
    return False


_STOP = frozenset("the and for with from into onto its their this that then than each every one two all any are "
                  "was were has have how what when where which while given chosen using use used make makes write "
                  "writes written add adds put get set new your you our per also only other like".split())


def _terms(text: str) -> set[str]:
    """Content words of a text, lower case, a plural 's' cut (a crude stem that is enough to compare)."""
    words = re.findall(r"[a-z][a-z0-9]+", text.lower())
    return {w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w for w in words
            if len(w) > 2 and w not in _STOP}


#: a word is distinctive when at most this share of the recipes use it ("pitch", "rows", "slot";
#: not "waveguide", "layer", "whole")
DISTINCTIVE_DF = 0.05


@functools.lru_cache(maxsize=4)
def _recipe_df(signature: tuple) -> tuple[dict, int]:
    from ..retrieval import cookbook

    texts = [_terms(r.search_text()) for r in cookbook.load_recipes()]
    df: dict[str, int] = {}
    for t in texts:
        for w in t:
            df[w] = df.get(w, 0) + 1
    return df, len(texts)


def complementary(found: list, query: str) -> list:
    """The nearest recipe, and each further one only when it covers at least two distinctive words
    of the request that the ones before it do not: a second example of a neighbouring job pulls a
    small model off the request (a ring 'in a rib cross-section' recipe made a plain ring sweep use
    rib and fail at radius 5, and a rib cross-section request build a ring, in real runs), while a
    composite request keeps an example for each of its parts ("place UNIT on a grid of 4 columns and
    3 rows ... then write placements.csv"). A rule deck keeps them all: each recipe shows one rule."""
    from ..retrieval import cookbook

    if len(found) < 2 or all(r.kind == "deck" for r in found):
        return found
    df, n = _recipe_df(cookbook._signature(cookbook.cookbook_dir()))
    want = {w for w in _terms(query) if df.get(w, 0) <= DISTINCTIVE_DF * n}
    kept = [found[0]]
    covered = _terms(found[0].search_text())
    for r in found[1:]:
        own = _terms(r.search_text())
        if len((own - covered) & want) >= 2:
            kept.append(r)
            covered |= own
    return kept


_API_DATABASES = (("klayout.db.", "klayout_db"), ("pya.", "pya"), ("gdsfactory.", "gdsfactory"), ("sax.", "sax"))


def recipe_databases(found: list) -> list[str]:
    """The manuals of the tools the nearest verified recipes use (their ``apis``), first used first:
    a recipe that builds a straight with gdsfactory says the job needs gdsfactory's manual, not
    KLayout's (whose nearest entries to the request's words are only noise to a small model)."""
    out: list[str] = []
    for r in found:
        for api in r.apis:
            db = next((d for prefix, d in _API_DATABASES if api.startswith(prefix)), None)
            if db and db not in out:
                out.append(db)
    return out


def recipe_api_docs(found: list, n: int = 2) -> list[dict]:
    """The manual entries of the first ``n`` APIs the nearest recipe calls (its signature with every
    parameter, so a number the designer gives finds its parameter); entries that no longer exist
    are left out (a recipe's test would fail first)."""
    out = []
    for api in (found[0].apis if found else [])[:n]:
        try:
            d = retrieval.get_api_details(api)
        except Exception:   # noqa: BLE001 - a missing entry only costs this hint
            continue
        if d and d.get("id"):
            out.append(d)
    return out


def recipe_messages(found: list) -> tuple:
    """Recipes as worked examples (user/assistant pairs): the job in the designer's words, the script."""
    msgs = []
    for r in found:
        msgs.append({"role": "user", "content": f"Write the script for this task.\nTask: {r.title}\n{r.summary}"})
        fence = "ruby" if r.kind == "deck" else "python"   # a KLayout DRC deck is the DRC engine's Ruby DSL
        msgs.append({"role": "assistant", "content": f"```{fence}\n{r.code.strip()}\n```"})
    return tuple(msgs)


#: how many recipes an invented name's words are searched in, and how many real APIs it is told
MEANING_DEPTH = 12
MEANT_APIS = 2
#: a suggestion this close in spelling to an unknown name is a typo's mend, not another meaning
SPELLING_RATIO = 0.85
_UNKNOWN = "does not exist in the installed version"


def _name_words(leaf: str) -> list[str]:
    """An identifier's words: ``allpass_ring`` -> allpass, ring; ``addText`` -> add, text."""
    return [w.lower() for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", leaf) if w]


@functools.lru_cache(maxsize=256)
def cookbook_meaning(name: str) -> tuple[tuple[str, str], ...]:
    """``(API, recipe title)`` pairs for a function that does not exist: the real functions of the
    same namespace that the verified recipes nearest to its words call, when they share one of its
    words (``gdsfactory.components.allpass_ring`` -> ``ring_single``, from "All-pass ring resonator
    ..."). Spelling neighbours miss these (allpass_ring -> seal_ring), and a real a04 run kept the
    invented name for three rounds. Class members get none: a method's words say what it does,
    not which class has it.

    Args:
        name: the dotted name the script used (``gdsfactory.components.allpass_ring``).
    """
    from ..retrieval import cookbook

    owner, _, leaf = name.rpartition(".")
    index = symbol_index()
    info = index.lookup(owner) if index is not None and owner else None
    if index is None or not owner or (info or {}).get("kind") == "class":
        return ()
    words = [w for w in _name_words(leaf) if len(w) >= 3]
    if not words:
        return ()
    try:
        hits = cookbook.search_recipes(" ".join(words), k=MEANING_DEPTH)
    except retrieval.RetrievalError:
        return ()
    out: dict[str, str] = {}
    for r in hits:
        for api in r.apis:
            real_leaf = api.rpartition(".")[2].lower()
            if (api.rpartition(".")[0] == owner and api not in out and index.has(api)
                    and any(w in real_leaf for w in words)):
                out[api] = r.title
    return tuple(out.items())[:MEANT_APIS]


def _misspelt(name: str, suggestions: list[str]) -> bool:
    """A suggestion spelt almost like ``name`` (``ring_singel`` / ``ring_single``): a typo, which the
    spelling suggestions already mend."""
    leaf = name.rpartition(".")[2]
    return any(difflib.SequenceMatcher(None, leaf, s.rpartition(".")[2]).ratio() >= SPELLING_RATIO for s in suggestions)


def name_invented_apis(findings: list[dict]) -> list[dict]:
    """``findings`` with each unknown-function finding told which real function the cookbook uses for
    its words (see :func:`cookbook_meaning`): named in its message and first among its suggestions,
    which the revision's documentation lookup reads."""
    out = []
    for f in findings:
        meant = cookbook_meaning(f["name"]) if f.get("kind") == "api" and _UNKNOWN in f.get("message", "") \
            and f.get("name") and not _misspelt(f["name"], f.get("suggestions") or []) else ()
        if meant:
            told = "; ".join(f"the verified recipe \"{title}\" calls {api}" for api, title in meant)
            sug = [a for a, _ in meant] + [s for s in f.get("suggestions") or [] if s not in dict(meant)]
            spelt = re.sub(r" Did you mean: [^?]*\?", "", f["message"])
            f = dict(f, message=f"{spelt} Did you mean: {', '.join(sug[:3])}? By its words, {told}.", suggestions=sug)
        out.append(f)
    return out
