"""Fixes made from the static checks' findings: conventional aliases used but never imported,
keywords whose words the model reordered, counters never started, ``**kwargs`` copied from a
signature, PDK layer names written as variables, a method asked of the active cell that only the
open layout has (or the other way round), the open layout looked up through an API that does not exist;
and KLayout's types where another library's habit was written: a Region made of what has the method
(shapes, a layer's index), a method read as a value, a box's sides, a (layer, datatype) pair, a verb
the class calls otherwise, a bridge global asked of another, an iterator loop that never advances,
a parameter given twice, a name that differs from a defined one only in case."""
from __future__ import annotations

import ast
import builtins
import functools
import importlib
from dataclasses import dataclass
import re

from ...checks.static import IMPORTS
from .source import assignments, drop_statements, insert_after_imports, insert_at_top, offset, parsed, replace_nodes, replace_ranges, replace_spans


_UNDEFINED = re.compile(r"undefined name '(\w+)'")
#: conventional aliases of a plain Python script only (KLayout's own Python has pya for them)
SANDBOX_IMPORTS = {"rdb": "from klayout import rdb", "lay": "from klayout import lay", "tl": "from klayout import tl",
                   "pd": "import pandas as pd"}   # pandas is in the engine's venv, not in KLayout's Python


#: modules whose functions and classes a script calls by their bare name (``find_peaks(...)``,
#: ``defaultdict(list)``): standard library ones anywhere, SciPy's only in the engine's Python
CALLED_FROM = ("math", "statistics", "collections", "itertools", "functools", "dataclasses", "random", "datetime")
ENGINE_CALLED_FROM = ("scipy.signal", "scipy.interpolate", "scipy.optimize", "scipy.integrate")


@functools.lru_cache(maxsize=256)
def _one_home(name: str, modules: tuple[str, ...]) -> str | None:
    """The one module of ``modules`` that exports a function or class ``name`` (its ``__all__`` when it
    has one, so ``statistics`` is no home of the ``defaultdict`` it imports); None for none or several."""
    import importlib

    homes = []
    for mod in modules:
        try:
            module = importlib.import_module(mod)
        except Exception:   # noqa: BLE001 - a module missing from this Python is no home
            continue
        exported = name in getattr(module, "__all__", ()) or not hasattr(module, "__all__")
        if exported and callable(getattr(module, name, None)) and not name.startswith("_"):
            homes.append(mod)
    return homes[0] if len(homes) == 1 else None


#: KLayout's Python modules, in the order a bare class name is looked up in them
KLAYOUT_MODULES = ("klayout.db", "klayout.rdb", "klayout.lay", "klayout.tl")


@functools.lru_cache(maxsize=256)
def klayout_home(name: str) -> str | None:
    """The KLayout module (:data:`KLAYOUT_MODULES`) that has a class ``name``, or None."""
    import importlib

    for mod in KLAYOUT_MODULES:
        try:
            if isinstance(getattr(importlib.import_module(mod), name, None), type):
                return mod
        except ImportError:
            continue
    return None


@functools.lru_cache(maxsize=1)
def _klayout_enum_members() -> dict[str, tuple[tuple[str, str], ...]]:
    """Every enum constant of KLayout's Python modules -> the (module, enum class) pairs that have it
    (``Euclidian`` -> ``(("klayout.db", "Metrics"),)``; ``R90`` belongs to six transformation classes)."""
    members: dict[str, set[tuple[str, str]]] = {}
    for mod in KLAYOUT_MODULES:
        try:
            module = importlib.import_module(mod)
        except ImportError:
            continue
        for cls_name in dir(module):
            cls = getattr(module, cls_name)
            if not isinstance(cls, type):
                continue
            for attr in dir(cls):
                if attr.startswith("_"):
                    continue
                try:
                    value = getattr(cls, attr)
                except Exception:   # a property of an instance, read on the class
                    continue
                if type(value) is cls:
                    members.setdefault(attr, set()).add((mod, cls_name))
    return {k: tuple(sorted(v)) for k, v in members.items()}


def klayout_enum_of(name: str) -> tuple[str, str] | None:
    """The one (module, enum class) whose constant ``name`` is (``Euclidian`` -> ``("klayout.db",
    "Metrics")``), or None when no KLayout enum has it or several do."""
    homes = _klayout_enum_members().get(name, ())
    return homes[0] if len(homes) == 1 else None


def _called_only(tree: ast.Module, name: str) -> bool:
    """Every read of ``name`` calls it or decorates with it (a misspelt loop variable is never imported)."""
    funcs = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    funcs |= {id(d) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef)) for d in n.decorator_list}
    reads = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    return bool(reads) and all(id(n) in funcs for n in reads)


def add_missing_imports(code: str, findings: list[dict], mode: str = "interactive") -> tuple[str, list[str]]:
    """Add the imports that pyflakes' undefined-name findings call for, when the name is a
    conventional module alias (np, gf, csv, ...; in a sandbox script also rdb, the report
    database module the recipes import), or a function or class the script only calls that exactly
    one module of :data:`CALLED_FROM` (and, in the engine's Python, :data:`ENGINE_CALLED_FROM`)
    defines: ``find_peaks`` without ``from scipy.signal import find_peaks`` (a02, a15 of the
    advanced tier), ``defaultdict`` without its import; or a KLayout class written bare (``Cell``,
    ``DBox``, ``ReportDatabase``: 7 of 90 undefined names in session 17's advanced candidates),
    imported from pya in KLayout and from its klayout module elsewhere. Returns the script and the
    import lines added."""
    from ...execution.routing import needs_engine_python

    known = {**IMPORTS, **(SANDBOX_IMPORTS if mode == "sandbox" else {})}
    if "gdsfactory" in code:   # "PDK.activate()" after an import of a PDK module that does not exist (a01, a05, a14)
        known["PDK"] = "from gdsfactory.gpdk import PDK"
    homes = CALLED_FROM + (ENGINE_CALLED_FROM if mode == "sandbox" or needs_engine_python(code) else ())
    tree = None
    wanted = []
    for f in findings:
        m = _UNDEFINED.search(f.get("message", "")) if f.get("kind") == "pyflakes" else None
        name = m.group(1) if m else None
        line = known.get(name) if name else None
        if name and line is None and len(name) > 2:
            tree = tree or parsed(code)
            home = _one_home(name, homes) if tree is not None and _called_only(tree, name) else None
            line = f"from {home} import {name}" if home else None
        if name and line is None and name[:1].isupper():   # Box(...) as if pya's names were imported
            home = klayout_home(name)
            in_klayout = mode == "interactive" and not needs_engine_python(code)
            line = (f"from pya import {name}" if in_klayout else f"from {home} import {name}") if home else None
        if line and line not in wanted:
            wanted.append(line)
    if not wanted:
        return code, []
    return insert_at_top(code, wanted), wanted


def init_counters(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``failing += 1`` with ``failing`` never assigned: a counter the script forgot to start. It
    is started at 0 before the top-level statement that first counts (a small model told "undefined
    name 'failing'" rewrote the same line for three rounds in a real run). Only names that are
    never assigned otherwise, only ``+=``/``-=`` by a number, only at module level or in loops.

    Returns the script and the names started.
    """
    undefined = _undefined_names(findings)
    tree = parsed(code) if undefined else None
    if tree is None:
        return code, []
    counted = {id(n.target) for n in ast.walk(tree) if isinstance(n, ast.AugAssign)}
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and id(n) not in counted}
    in_function = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                   for n in ast.walk(f)}
    first: dict[str, int] = {}   # name -> index of the top-level statement that counts it first
    for i, st in enumerate(tree.body):
        for n in ast.walk(st):
            if (isinstance(n, ast.AugAssign) and isinstance(n.op, (ast.Add, ast.Sub)) and isinstance(n.target, ast.Name)
                    and n.target.id in undefined and n.target.id not in stored and id(n) not in in_function
                    and isinstance(n.value, ast.Constant) and type(n.value.value) in (int, float)):
                first.setdefault(n.target.id, i)
    if not first:
        return code, []
    lines = code.splitlines(keepends=True)
    for name, i in sorted(first.items(), key=lambda x: -x[1]):
        at = tree.body[i].lineno - 1
        while at > 0 and lines[at - 1].lstrip().startswith("#"):   # above the statement's own comment
            at -= 1
        lines.insert(at, f"{name} = 0\n")
    return "".join(lines), sorted(first)


def _undefined_names(findings: list[dict]) -> set[str]:
    """The names pyflakes found used but never defined."""
    return {m.group(1) for f in findings if f.get("kind") == "pyflakes"
            for m in [_UNDEFINED.search(f.get("message", ""))] if m}


def _stored_names(tree: ast.AST) -> set[str]:
    """Every name the script assigns, imports or defines somewhere (then it is not ours to drop)."""
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    names |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments)
              for a in n.args + n.kwonlyargs + n.posonlyargs + [x for x in (n.vararg, n.kwarg) if x]}
    names |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
              for a in n.names}
    names |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    return names


def drop_undefined_unpacking(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``f(width=0.5, **kwargs)`` at a place where no ``kwargs`` exists: a library function's own
    signature copied into a call (in a real run all three candidates of a round failed only on
    it). The unpacking argument is removed; the call keeps every argument it names. Only names
    that are assigned nowhere in the script.

    Returns the script and the arguments removed.
    """
    undefined = _undefined_names(findings)
    tree = parsed(code) if undefined else None
    if tree is None:
        return code, []
    undefined -= _stored_names(tree)
    cuts = []   # (start, end, text) of each argument with its separating comma, in characters
    lines = code.splitlines(keepends=True)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        args = sorted(node.args + node.keywords, key=lambda a: (a.lineno, a.col_offset))   # positions include * and **
        for i, a in enumerate(args):
            value = a.value if isinstance(a, (ast.Starred, ast.keyword)) else None
            if not (isinstance(value, ast.Name) and value.id in undefined
                    and (isinstance(a, ast.Starred) or a.arg is None)):
                continue
            start, end = offset(lines, a.lineno, a.col_offset), offset(lines, a.end_lineno, a.end_col_offset)
            if i > 0:   # from the comma after the previous argument
                prev_end = offset(lines, args[i - 1].end_lineno, args[i - 1].end_col_offset)
                start = prev_end + code[prev_end:start].index(",")
            elif i + 1 < len(args):   # the first argument: up to the next one
                end = offset(lines, args[i + 1].lineno, args[i + 1].col_offset)
            cuts.append((start, end, ("*" if isinstance(a, ast.Starred) else "**") + value.id))
    if not cuts:
        return code, []
    code = replace_ranges(code, [(start, end, "") for start, end, _ in cuts])
    return code, [f"removed {what} (undefined here)" for *_, what in sorted(cuts)]


@functools.lru_cache(maxsize=1)
def pdk_layer_names() -> frozenset[str]:
    """The layer names of gdsfactory's generic PDK (WG, SLAB90, M1, ...); empty without gdsfactory."""
    try:
        from gdsfactory.gpdk import LAYER
    except Exception:  # noqa: BLE001 - a Python without gdsfactory has no layer names to offer
        return frozenset()
    return frozenset(n for n in dir(LAYER) if n.isupper() and not n.startswith("_"))


def quote_pdk_layer_names(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``rib(layer=WG, layer_slab=SLAB90)`` in a gdsfactory script with no such variables: the
    generic PDK's layer names written as Python names (three candidates of a real round failed only
    on that). gdsfactory takes the name as a string, so an undefined name that is a PDK layer name
    (any case) given to a ``layer...`` keyword, or inside a ``...layers=(...)`` tuple, becomes
    ``"WG"``. The output contract then judges the layer numbers as for any other script.

    Returns the script and the names quoted.
    """
    undefined = _undefined_names(findings)
    tree = parsed(code) if undefined and "gdsfactory" in code else None
    if tree is None:
        return code, []
    undefined -= _stored_names(tree)
    known = pdk_layer_names()
    spans, quoted = [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.keyword) or not node.arg or "layer" not in node.arg:
            continue
        values = node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) else [node.value]
        for v in values:
            if isinstance(v, ast.Name) and v.id in undefined and v.id.upper() in known:
                spans.append((v.lineno, v.col_offset, v.end_col_offset, f'"{v.id.upper()}"'))
                quoted.append(v.id)
    if not spans:
        return code, []
    return replace_spans(code, spans), [f'wrote {n} as the PDK layer name "{n.upper()}"' for n in dict.fromkeys(quoted)]


def rename_reordered_keywords(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """Rename a keyword argument the called function does not have when exactly one of its real
    parameters is made of the same words in another order (``mmi1x2(mmi_length=12)`` ->
    ``length_mmi=12``): the designer's value stays where it was meant to go, where a revision by
    the model tends to drop the argument. Uses the API check's findings (``same_words``).

    Returns the script and what was renamed.
    """
    renames = {(f["line"], f["keyword"]): f["same_words"][0] for f in findings
               if f.get("kind") == "api" and f.get("keyword") and len(f.get("same_words") or ()) == 1}
    tree = parsed(code) if renames else None
    if tree is None:
        return code, []
    edits = []   # (line, byte column, old name, new name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        present = {k.arg for k in node.keywords}
        for kw in node.keywords:
            new = renames.get((node.lineno, kw.arg))
            if new and new not in present:
                edits.append((kw.lineno, kw.col_offset, kw.arg, new))
    if not edits:
        return code, []
    code = replace_spans(code, [(line, col, col + len(old.encode()), new) for line, col, old, new in edits])
    return code, [f"renamed {old}= to {new}=" for _, _, old, new in sorted(edits)]


def use_the_global_that_has_it(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``cell.layer_indexes()`` -> ``layout.layer_indexes()``: the API check found that the bridge
    global the script asked lacks the attribute and exactly one other global has it (the open
    layout and its active cell are the only Layout and Cell a pya edit has). Every use of that
    attribute on that global is rewritten; a run showed a 1.5B model told "'Cell' object has no
    attribute 'layer_indexes'" answer ``cell.shapes().layer_indexes()`` for two rounds.

    Returns the script and what was changed.
    """
    swaps = {(f["receiver"], f["attribute"]): f["use"] for f in findings
             if f.get("kind") == "api" and f.get("receiver") and f.get("use") and f.get("attribute")}
    tree = parsed(code) if swaps else None
    if tree is None:
        return code, []
    spans, done = [], []
    for n in ast.walk(tree):
        if (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and (n.value.id, n.attr) in swaps
                and isinstance(n.value.ctx, ast.Load)):
            v = n.value
            spans.append((v.lineno, v.col_offset, v.end_col_offset, swaps[(v.id, n.attr)]))
            what = f"{v.id}.{n.attr} -> {swaps[(v.id, n.attr)]}.{n.attr}"
            if what not in done:
                done.append(what)
    if not spans:
        return code, []
    return replace_spans(code, spans), done


def make_regions_for_region_methods(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``shapes.width_check(w)`` -> ``pya.Region(shapes).width_check(w)``, ``layout.layer(1, 0).area()``
    -> ``pya.Region(cell.begin_shapes_rec(layout.layer(1, 0))).area()``: the API check found a Region
    method asked of what a Region is made from (Shapes, Polygon, Box, Path, a layer's index) and
    wrote the Region to use in its place (``wrap_with``). Every such use of that receiver is
    replaced; a 1.5B model told "pya.Shapes has no attribute 'width_check'" wrote it again, or
    another invented method, in real advanced-tier runs.

    Returns the script and what was changed.
    """
    wraps = {(f["wrap_receiver"], f["attribute"]): f["wrap_with"] for f in findings
             if f.get("kind") == "api" and f.get("wrap_with") and f.get("wrap_receiver") and f.get("attribute")}
    tree = parsed(code) if wraps else None
    if tree is None:
        return code, []
    edits, done = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)):
            continue
        receiver = ast.unparse(n.value)
        region = wraps.get((receiver, n.attr))
        if region is None:
            continue
        edits.append((n.value, region))
        what = f"{receiver}.{n.attr} -> {region}.{n.attr}"
        if what not in done:
            done.append(what)
    fixed = replace_nodes(code, edits)
    return (code, []) if fixed is None else (fixed, done)


def make_regions_of_shapes(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``pya.Region(layout.layer(1, 0))`` -> ``pya.Region(cell.begin_shapes_rec(layout.layer(1, 0)))``:
    the API check found a Region made of a layer index and named the cell's shapes to use
    (``shapes_of``; the cell with everything below it, what a layer's Region means in a request that
    does not say "only this cell's own shapes").

    Returns the script and what was changed.
    """
    shapes = {f["region_of_layer"]: f["shapes_of"] for f in findings
              if f.get("kind") == "api" and f.get("region_of_layer") and f.get("shapes_of")}
    tree = parsed(code) if shapes else None
    if tree is None:
        return code, []
    edits, done = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and len(n.args) == 1 and not n.keywords
                and ast.unparse(n.func).rsplit(".", 1)[-1] == "Region"):
            continue
        li = ast.unparse(n.args[0])
        if li not in shapes:
            continue
        edits.append((n.args[0], shapes[li]))
        what = f"Region({li}) -> Region({shapes[li]})"
        if what not in done:
            done.append(what)
    fixed = replace_nodes(code, edits)
    return (code, []) if fixed is None else (fixed, done)


def make_regions_of_layer_operands(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``si & mask`` -> ``pya.Region(cell.begin_shapes_rec(si)) & pya.Region(cell.begin_shapes_rec(mask))``:
    the API check found a boolean of two layer indexes (ints, see ``layer_operands``); each operand of
    such an operator becomes the Region of its layer's shapes.

    Returns the script and what was changed.
    """
    from ...checks.static import REGION_OPERATORS

    wraps: dict[str, str] = {}
    for f in findings:
        if f.get("kind") == "api" and f.get("layer_operands"):
            wraps.update(f["layer_operands"])
    tree = parsed(code) if wraps else None
    if tree is None:
        return code, []
    edits, done = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.BinOp) and type(n.op) in REGION_OPERATORS):
            continue
        sides = (n.left, n.right)
        if not all(ast.unparse(x) in wraps for x in sides):
            continue
        edits += [(x, wraps[ast.unparse(x)]) for x in sides]
        what = f"{ast.unparse(n)} -> a boolean of the layers' Regions"
        if what not in done:
            done.append(what)
    fixed = replace_nodes(code, edits)
    return (code, []) if fixed is None else (fixed, done)


def use_the_defined_spelling(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``pitch`` -> ``PITCH``: a name the script never binds differs only in case from exactly one
    name it does bind (the check's ``close`` names); every read of it is renamed. Closer-looking but
    different names (``area_4`` for ``area_4_0``) are only suggested to the model.

    Returns the script and what was changed.
    """
    renames = {n: f["close"][0] for f in findings if f.get("code") == "UndefinedName" and len(f.get("close") or []) == 1
               for n in _UNDEFINED.findall(f["message"])[:1] if n.lower() == f["close"][0].lower()}
    tree = parsed(code) if renames else None
    if tree is None:
        return code, []
    # a name an import now binds (add_missing_imports gave ``Library`` its import) is no misspelling
    imported = {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                for a in n.names}
    renames = {a: b for a, b in renames.items() if a not in imported}
    spans = {(n.lineno, n.col_offset, n.end_col_offset, renames[n.id]) for n in ast.walk(tree)
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in renames}
    if not spans:
        return code, []
    return replace_spans(code, spans), [f"{a} -> {b} (the name the script defines)" for a, b in renames.items()]


def call_methods_read_as_values(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``layout.top_cell.name`` -> ``layout.top_cell().name``: the API check found a method that takes
    no argument read as a value and asked for an attribute its result has (``call_method``).

    Returns the script and what was changed.
    """
    methods = {f["call_method"] for f in findings if f.get("kind") == "api" and f.get("call_method")}
    tree = parsed(code) if methods else None
    if tree is None:
        return code, []
    spans = {(n.value.end_lineno, n.value.end_col_offset, n.value.end_col_offset, "()") for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute)
             and ast.unparse(n.value) in methods and n.value.end_lineno == n.value.lineno}
    if not spans:
        return code, []
    return replace_spans(code, spans), [f"called {m}() (a method, not a value)" for m in sorted(methods)]


_BOX_ATTR = re.compile(r"^(?:pya|klayout\.db)\.D?Box\.(\w+)$")


def use_the_box_sides(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``bbox.xmin`` / ``bbox.xmin()`` -> ``bbox.left``: the API check found another library's name for
    a side of a KLayout Box/DBox (gdsfactory's xmin, shapely's minx; see checks.static.BOX_SIDES); the
    read on that line becomes KLayout's property (a call of it without arguments too, since
    ``box.left()`` calls a number).

    Returns the script and what was changed.
    """
    from ...checks.static import BOX_ALL_SIDES, BOX_SIDES

    wanted = {(f["line"], m.group(1)) for f in findings if f.get("kind") == "api"
              for m in [_BOX_ATTR.match(str(f.get("name") or ""))] if m and (m.group(1) in BOX_SIDES or m.group(1) in BOX_ALL_SIDES)}
    tree = parsed(code) if wanted else None
    if tree is None:
        return code, []
    called = {id(n.func): n for n in ast.walk(tree) if isinstance(n, ast.Call) and not n.args and not n.keywords}
    # xmin, ymin, xmax, ymax = box.bounds: the value of a four-name unpacking
    unpacked = {id(st.value): st for st in ast.walk(tree) if isinstance(st, ast.Assign) and len(st.targets) == 1
                and isinstance(st.targets[0], ast.Tuple) and len(st.targets[0].elts) == 4}
    spans, done = set(), []
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and (n.lineno, n.attr) in wanted and n.end_lineno == n.lineno:
            call = called.get(id(n))
            whole = call if call is not None and call.end_lineno == n.lineno else n
            end = whole.end_col_offset
            if n.attr in BOX_SIDES:
                spans.add((n.lineno, n.value.end_col_offset, end, "." + BOX_SIDES[n.attr]))
                done.append(f"{n.attr} -> {BOX_SIDES[n.attr]}")
            elif id(whole) in unpacked and n.value.lineno == n.lineno:
                box = ast.unparse(n.value)
                sides = (f"{box}.left, {box}.bottom, {box}.right, {box}.top" if isinstance(n.value, ast.Name)
                         else f"(_b := {box}).left, _b.bottom, _b.right, _b.top")
                spans.add((n.lineno, n.value.col_offset, end, sides))
                done.append(f"{n.attr} -> left, bottom, right, top")
    if not spans:
        return code, []
    fixed = replace_spans(code, spans)
    if parsed(fixed) is None:
        return code, []
    return fixed, [f"box sides: {', '.join(dict.fromkeys(done))} (KLayout's names)"]


def use_the_bare_global(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``layout.selection`` -> ``selection``: the API check found a bridge global (selection, dbu,
    cell ...) asked of another global that lacks it (a real a16 candidate).

    Returns the script and what was changed.
    """
    bare = {(f["global_of"], f["bare_global"]) for f in findings if f.get("kind") == "api" and f.get("bare_global")}
    tree = parsed(code) if bare else None
    if tree is None:
        return code, []
    spans = {(n.lineno, n.col_offset, n.end_col_offset, n.attr) for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and (n.value.id, n.attr) in bare
             and isinstance(n.ctx, ast.Load) and n.lineno == n.end_lineno}
    if not spans:
        return code, []
    return replace_spans(code, spans), [f"{o}.{g} -> {g} (a global of the script)" for o, g in sorted(bare)]


def spread_layer_pairs(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``layout.layer(VIA, DATATYPE)`` -> ``layout.layer(*VIA)``: the API check found a (layer,
    datatype) pair given as the layer number (``layer_call``, ``layer_pair``).

    Returns the script and what was changed.
    """
    calls = {f["layer_call"]: f["layer_pair"] for f in findings if f.get("kind") == "api" and f.get("layer_call")}
    tree = parsed(code) if calls else None
    if tree is None:
        return code, []
    spans = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and n.lineno == n.end_lineno and ast.unparse(n) in calls:
            spans.add((n.lineno, n.col_offset, n.end_col_offset, f"{ast.unparse(n.func)}(*{calls[ast.unparse(n)]})"))
    if not spans:
        return code, []
    return replace_spans(code, spans), [f"layer(*{p}) ({p} is a (layer, datatype) pair)" for p in sorted(set(calls.values()))]


def advance_iterator_loops(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``while not it.at_end(): ...`` without ``it.next()`` (see checks.static.endless_iterator_loops):
    ``it.next()`` becomes the loop's last statement, when the body has no ``continue`` of its own
    (which would skip it).

    Returns the script and what was changed.
    """
    lines_of = {f["line"]: f["advance"] for f in findings if f.get("kind") == "loop" and f.get("advance")}
    tree = parsed(code) if lines_of else None
    if tree is None:
        return code, []
    src = code.splitlines(keepends=True)
    inserts, done = [], []
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.While) or loop.lineno not in lines_of:
            continue
        own = [n for st in loop.body for n in ast.walk(st) if isinstance(n, ast.Continue)]
        nested = [n for st in loop.body for m in ast.walk(st) if isinstance(m, (ast.For, ast.While))
                  for n in ast.walk(m) if isinstance(n, ast.Continue)]
        if len(own) > len(nested) or loop.orelse:
            continue
        last = loop.body[-1]
        indent = src[loop.body[0].lineno - 1][:len(src[loop.body[0].lineno - 1]) - len(src[loop.body[0].lineno - 1].lstrip())]
        inserts.append((last.end_lineno, f"{indent}{lines_of[loop.lineno]}.next()\n"))
        done.append(f"added {lines_of[loop.lineno]}.next() at the end of the loop on line {loop.lineno} (it never advanced)")
    for after, text in sorted(inserts, reverse=True):
        if not src[after - 1].endswith("\n"):
            src[after - 1] += "\n"
        src.insert(after, text)
    fixed = "".join(src)
    if not inserts or parsed(fixed) is None:
        return code, []
    return fixed, done


def drop_keywords_given_twice(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``metal.enclosing_check(via, d_dbu, d=100)`` -> ``metal.enclosing_check(via, d_dbu)``: the API
    check found a keyword naming a parameter the positional arguments already give; the keyword goes
    (the positional value is the one the script computed in the parameter's units).

    Returns the script and what was changed.
    """
    twice = {(f["call"], f["given_twice"]) for f in findings if f.get("kind") == "api" and f.get("given_twice")}
    tree = parsed(code) if twice else None
    if tree is None:
        return code, []
    lines = code.splitlines(keepends=True)
    edits, done = [], []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call) or not n.keywords:
            continue
        text = ast.unparse(n)
        for i, k in enumerate(n.keywords):
            if (text, k.arg) not in twice:
                continue
            before = n.keywords[i - 1] if i else n.args[-1]
            start = offset(lines, before.end_lineno, before.end_col_offset)
            end = offset(lines, k.end_lineno, k.end_col_offset)
            edits.append((start, end, ""))
            done.append(f"dropped {k.arg}= (given by position too)")
    fixed = replace_ranges(code, edits)
    if not edits or parsed(fixed) is None:
        return code, []
    return fixed, done


def use_the_classs_word(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``shapes.add(box)`` -> ``shapes.insert(box)``, ``layout.get_cell(n)`` -> ``layout.cell(n)``: the
    API check found a verb borrowed from lists or a ``get_`` prefix where the class has exactly one
    word for the same thing (``rename_attribute`` -> ``to``); the reads on that line are renamed.

    Returns the script and what was changed.
    """
    renames = {(f["line"], f["rename_attribute"]): f["to"] for f in findings
               if f.get("kind") == "api" and f.get("rename_attribute") and f.get("to")}
    tree = parsed(code) if renames else None
    if tree is None:
        return code, []
    spans, done = set(), []
    for n in ast.walk(tree):
        to = renames.get((getattr(n, "lineno", 0), getattr(n, "attr", None))) if isinstance(n, ast.Attribute) else None
        if to and n.end_lineno == n.lineno and isinstance(n.ctx, ast.Load):
            spans.add((n.lineno, n.end_col_offset - len(n.attr.encode()), n.end_col_offset, to))
            done.append(f"{n.attr} -> {to}")
    if not spans:
        return code, []
    return replace_spans(code, spans), [f"{', '.join(dict.fromkeys(done))} (the class's own word)"]


def use_the_operator(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``a.xor(b)`` -> ``(a ^ b)``, ``a.union(b)`` -> ``(a + b)``: the API check found a set operation
    called as a method (shapely's habit) on a KLayout class that has an operator for it
    (``operator_attribute`` -> ``operator``); every such one-argument call on that line is rewritten.

    Returns the script and what was changed.
    """
    ops = {(f["line"], f["operator_attribute"]): f["operator"] for f in findings
           if f.get("kind") == "api" and f.get("operator_attribute") and f.get("operator")}
    tree = parsed(code) if ops else None
    if tree is None:
        return code, []
    lines = code.splitlines(keepends=True)
    edits, done = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and len(n.args) == 1 and not n.keywords):
            continue
        op = ops.get((n.lineno, n.func.attr))
        if op and not isinstance(n.args[0], ast.Starred):
            text = f"({ast.get_source_segment(code, n.func.value)} {op} {ast.get_source_segment(code, n.args[0])})"
            edits.append((offset(lines, n.lineno, n.col_offset), offset(lines, n.end_lineno, n.end_col_offset), text))
            done.append(f"{n.func.attr}() -> {op}")
    if not edits:
        return code, []
    return replace_ranges(code, edits), [f"{', '.join(dict.fromkeys(done))} (the class's operator)"]


#: where a factory a script looks for in the wrong module most likely lives (first wins)
_PREFERRED_HOMES = ("gdsfactory.components.",)


def _home_of(name: str, suggestions: list[str]) -> str | None:
    """The one module of the same package where the API check found ``name``'s last part:
    ``gdsfactory.routing.straight`` -> "gdsfactory.components" (suggested: gdsfactory.components.straight,
    gdsfactory.path.straight, sax.models.straight). gdsfactory.components wins a tie; None when the
    homes stay ambiguous. Only modules are homes: ``gf.write_gds`` is not ``gf.Component.write_gds``."""
    package, leaf = name.split(".", 1)[0], name.rsplit(".", 1)[-1]
    homes = [s.rsplit(".", 1)[0] for s in suggestions if s.rsplit(".", 1)[-1] == leaf
             and s.split(".", 1)[0] == package and s != name
             and s.rsplit(".", 1)[0].rsplit(".", 1)[-1].islower()]   # a module, not a class's method
    for pref in _PREFERRED_HOMES:
        if any(h + "." == pref for h in homes):
            return pref[:-1]
    if not homes:   # objects the index does not list (gdsfactory.gpdk.PDK): the package's own modules say
        homes = _runtime_homes(package, leaf)
    return homes[0] if len(set(homes)) == 1 else None


#: the modules of a package where a name written on the package itself most likely lives
_SUBMODULES = {"gdsfactory": ("gpdk", "components", "routing", "cross_section", "path", "typings")}


@functools.lru_cache(maxsize=64)
def _runtime_homes(package: str, leaf: str) -> list[str]:
    """The modules of ``package`` (see _SUBMODULES) that have ``leaf`` when imported: ``gf.PDK`` ->
    ["gdsfactory.gpdk"] (a real m04 candidate wrote gf.PDK.activate())."""
    import importlib

    out = []
    for sub in _SUBMODULES.get(package, ()):
        try:
            if hasattr(importlib.import_module(f"{package}.{sub}"), leaf):
                out.append(f"{package}.{sub}")
        except Exception:  # noqa: BLE001 - a module that does not import is no home
            continue
    return out


def use_the_module_that_has_it(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``gf.routing.straight`` -> ``gf.components.straight``, ``from gdsfactory import bend_euler`` ->
    ``from gdsfactory.components import bend_euler``: the API check found that the module has no
    such name and the same name exists in another module of the package (in a real m02 run a 1.5B
    model told "gdsfactory.routing has no attribute 'straight' ... Did you mean:
    gdsfactory.components.straight" wrote it again in eight of nine candidates). Uses the
    findings' suggestions; gdsfactory.components is preferred when several modules have the name.

    Returns the script and what was changed.
    """
    from ...checks.static import _aliases, _dotted

    moves = {f["name"]: home for f in findings if f.get("kind") == "api" and f.get("name") and "." in f["name"]
             for home in [_home_of(f["name"], f.get("suggestions") or [])] if home}
    tree = parsed(code) if moves else None
    if tree is None:
        return code, []
    aliases = _aliases(tree)
    lines = code.splitlines(keepends=True)
    edits, done = [], []   # (start, end, text) character offsets
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            moved = [a for a in node.names if moves.get(f"{node.module}.{a.name}")]
            homes = {moves[f"{node.module}.{a.name}"] for a in moved}
            if not moved or len(homes) != 1:
                continue
            home = homes.pop()
            kept = [a for a in node.names if a not in moved]
            names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in moved)
            text = f"from {home} import {names}"
            if kept:
                text = (f"from {node.module} import "
                        + ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in kept)
                        + "\n" + " " * node.col_offset + text)
            edits.append((offset(lines, node.lineno, node.col_offset), offset(lines, node.end_lineno, node.end_col_offset), text))
            done += [f"imported {a.name} from {home}" for a in moved]
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.lineno == node.end_lineno:
            parts = _dotted(node)
            if not parts or parts[0] not in aliases:
                continue
            full = ".".join([aliases[parts[0]], *parts[1:]])
            home = moves.get(full)
            root = aliases[parts[0]]
            if home is None or not home.startswith(root):
                continue
            text = parts[0] + home[len(root):] + "." + parts[-1]
            edits.append((offset(lines, node.lineno, node.col_offset), offset(lines, node.end_lineno, node.end_col_offset), text))
            what = f"{'.'.join(parts)} -> {text}"
            if what not in done:
                done.append(what)
    fixed = replace_ranges(code, edits)
    if not edits or parsed(fixed) is None:
        return code, []
    return fixed, [f"{d} (the name lives there)" for d in done]


def _gives_any(module: str, names: set[str]) -> bool:
    """True if importing ``module`` works and it has one of ``names`` (what a star import of it may give)."""
    from ...checks.static import star_import_names

    return bool(star_import_names(module) & names)


def drop_imports_that_break_the_script(code: str, mode: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``from gdsfactory import get_template, cell`` at the top of an otherwise right pya edit of the
    open layout (a real m09 candidate): ``get_template`` does not exist, so the import can only fail,
    and ``cell`` hides the open layout's active cell that the script then inserts into. Names the API
    check proves cannot be imported are dropped from their import, and in a script on the open layout
    so are imported names that hide the bridge's globals (layout, cell, view, cellview); an import
    left with no names goes.

    Returns the script and what was dropped.
    """
    from ...checks.static import BRIDGE_GLOBAL_TYPES, BRIDGE_GLOBALS, open_layout_globals_read
    from ...execution.routing import ENGINE_ONLY_MODULES

    missing = {f["name"] for f in findings if f.get("kind") == "api" and f.get("name")
               and "cannot be imported from" in f.get("message", "")}
    # a module that does not exist (a10: ``from klayout.guide.programming.database_api import *``, the
    # id of a manual page shown as documentation): its star import or unused names give nothing
    no_module = {f["name"] for f in findings if f.get("kind") == "api" and f.get("name")
                 and re.search(r"module '[\w.]+' does not exist", f.get("message", ""))}
    hiding = set(BRIDGE_GLOBAL_TYPES) if mode == "interactive" else set()
    tree = parsed(code) if (missing or hiding or no_module) and "import" in code else None
    if tree is None:
        return code, []
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    # an edit of the open layout (it reads layout/cell/dbu... and never makes them) that imports an
    # engine-only package it never uses (a06: ``from gdsfactory import Port``) is sent to the engine's
    # sandbox by that import alone, where the open layout does not exist: the unused import goes
    on_open_layout = mode == "interactive" and bool(open_layout_globals_read(tree))
    if hiding and any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in hiding for n in ast.walk(tree)):
        hiding = set()   # the script makes its own layout or cell: a macro of the designer's, not a bridge edit
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    called |= {d.id for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))
               for d in n.decorator_list if isinstance(d, ast.Name)}
    hiding -= called     # gdsfactory's @cell decorator used as one is what the script meant
    lines = code.splitlines(keepends=True)
    edits, dropped = [], []
    for node in tree.body:
        if on_open_layout and isinstance(node, ast.Import) and all(
                a.name.split(".")[0] in ENGINE_ONLY_MODULES and (a.asname or a.name.split(".")[0]) not in loaded
                for a in node.names):
            start, end = offset(lines, node.lineno, node.col_offset), offset(lines, node.end_lineno, node.end_col_offset)
            edits.append((start, end + (code[end:end + 1] == "\n"), ""))
            dropped += [a.name for a in node.names]
            continue
        if not (isinstance(node, ast.ImportFrom) and node.module and node.level == 0):
            continue
        engine = on_open_layout and node.module.split(".")[0] in ENGINE_ONLY_MODULES
        gone = [a for a in node.names if f"{node.module}.{a.name}" in missing or (a.asname or a.name) in hiding
                or (engine and a.name != "*" and (a.asname or a.name) not in loaded)
                or (engine and a.name == "*" and not _gives_any(node.module, loaded - stored - set(BRIDGE_GLOBALS)
                                                                   - set(dir(builtins))))]
        if node.module in no_module and (any(a.name == "*" for a in node.names)
                                         or not {a.asname or a.name for a in node.names} & loaded):
            gone = list(node.names)
        if not gone:
            continue
        kept = [a for a in node.names if a not in gone]
        text = (f"from {node.module} import " + ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in kept)
                if kept else "")
        start, end = offset(lines, node.lineno, node.col_offset), offset(lines, node.end_lineno, node.end_col_offset)
        if not kept and code[end:end + 1] == "\n":
            end += 1
        edits.append((start, end, text))
        dropped += [f"{node.module}.{a.name}" for a in gone]
    if not edits:
        return code, []
    code = replace_ranges(code, edits)
    return code, [f"dropped the import of {', '.join(dropped)} (a name that does not exist, that hides the "
                  "open layout's own, or an unused package that would take the edit away from the open layout)"]


def _literal_assignments(code: str) -> dict[str, str]:
    """Module-level ``NAME = <literal>`` lines of a script (numbers, strings, None, tuples and lists
    of them; ``A, B = 1, 2`` gives each name its own line), name -> source line."""
    tree = parsed(code)
    out: dict[str, str] = {}
    if tree is None:
        return out

    def literal(v: ast.AST) -> bool:
        if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub):
            v = v.operand
        if isinstance(v, (ast.Tuple, ast.List)):
            return all(literal(e) for e in v.elts)
        return isinstance(v, ast.Constant)

    for name, val in assignments(tree):
        if literal(val):
            out[name] = f"{name} = {ast.get_source_segment(code, val)}"
    return out


#: how many statements (a definition and what it needs; imports do not count) one fix may bring
#: back from an example: with imports counted, 10 of 11 candidates in history that reached 8 still
#: had undefined names (a real a02 script lost its L_SHORT to numpy's and SAX's imports)
MAX_RESTORED = 8


@dataclass
class _Definition:
    """A module-level statement of a worked example that defines names."""
    order: tuple[int, int]      # (example, statement) position: restored statements keep it
    names: set[str]             # what it defines
    needs: set[str]             # the names it reads (for a function: those its body reads from outside)
    source: str                 # its source text
    kind: str                   # "import", "constant", "assign" or "def"


def _example_definitions(examples: list[str]) -> dict[str, _Definition]:
    """name -> the first example statement that defines it at module level: imports, one-target
    assignments (tuples unpacked; a literal one gives each name its own line) and functions."""
    out: dict[str, _Definition] = {}
    for e, ex in enumerate(examples):
        tree = parsed(ex)
        if tree is None:
            continue
        literals = _literal_assignments(ex)
        for k, st in enumerate(tree.body):
            if isinstance(st, (ast.Import, ast.ImportFrom)):
                for a in st.names:
                    name = (a.asname or a.name).split(".")[0]
                    alias = f" as {a.asname}" if a.asname else ""
                    text = f"import {a.name}{alias}" if isinstance(st, ast.Import) else \
                        f"from {'.' * st.level}{st.module or ''} import {a.name}{alias}"
                    out.setdefault(name, _Definition((e, k), {name}, set(), text, "import"))
            elif isinstance(st, ast.FunctionDef):
                inner = {n.id for n in ast.walk(st) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                inner |= {a.arg for a in ast.walk(st.args) if isinstance(a, ast.arg)}
                reads = {n.id for n in ast.walk(st) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
                out.setdefault(st.name, _Definition((e, k), {st.name}, reads - inner - {st.name},
                                                    ast.get_source_segment(ex, st), "def"))
            elif isinstance(st, ast.Assign) and len(st.targets) == 1:
                names = {n.id for n in ast.walk(st.targets[0]) if isinstance(n, ast.Name)}
                if not all(isinstance(n, (ast.Name, ast.Tuple, ast.Store)) for n in ast.walk(st.targets[0])):
                    continue   # an attribute or item target: not a definition
                for name in names:
                    if name in literals:
                        out.setdefault(name, _Definition((e, k), {name}, set(), literals[name], "constant"))
                    else:
                        reads = {n.id for n in ast.walk(st.value) if isinstance(n, ast.Name)}
                        out.setdefault(name, _Definition((e, k), names, reads, ast.get_source_segment(ex, st), "assign"))
    return out


def restore_example_definitions(code: str, examples: list[str], predefined: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    """A name the script uses and never defines, that a worked example shown to the model defines at
    its top level: the model copied the example's code and dropped the line that sets it. The
    example's statement goes back, with the ones it needs that the script lacks: a constant
    (``OUTLINE = (99, 0)``, ``MAX_D = 0.8``; 57 of 102 "undefined name" candidates of sessions 12-13's
    medium runs) or an import after the script's imports; a computed value (``mzi, _ = sax.circuit(...)``,
    ``c = gf.Component(...)``, ``L_HALF = L / 2``) or a function (``def box_list(...)``) just before the
    script's first top-level statement that uses what it defines, when all it reads is set by then
    (49 of 213 "undefined name" findings in recent run records were such names). The request's words
    and the run then judge the values.

    Args:
        code: the script.
        examples: the source of the examples shown to the model (the nearest recipes).
        predefined: names the script's interpreter defines (the bridge's globals).

    Returns the script and the statements restored (their first lines).
    """
    import builtins

    from ...checks.static import pyflakes_check

    if not examples:
        return code, []
    undefined = list(dict.fromkeys(m.group(1) for f in pyflakes_check(code, predefined)
                                   for m in [_UNDEFINED.search(f.get("message", ""))] if m))
    tree = parsed(code) if undefined else None
    if tree is None:
        return code, []
    known = _example_definitions(examples)
    have = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    have |= {(a.asname or a.name).split(".")[0] for st in ast.walk(tree) if isinstance(st, (ast.Import, ast.ImportFrom))
             for a in st.names}
    have |= {st.name for st in ast.walk(tree) if isinstance(st, (ast.FunctionDef, ast.ClassDef))}
    free = set(dir(builtins)) | set(predefined)

    def chain(name: str, taken: list[_Definition]) -> list[_Definition] | None:
        """The definitions that give ``name``, what they need first; None when one is missing."""
        d = known.get(name)
        if d is None:
            return None
        if any(d is t for t in taken):
            return []
        out: list[_Definition] = []
        for need in sorted(d.needs - d.names - have - free):
            sub = chain(need, taken + out + [d])
            if sub is None:
                return None
            out += [s for s in sub if not any(s is t for t in out)]
        return out + [d]

    asked: dict[str, set[str]] = {}   # the attributes the script reads of each name
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
            asked.setdefault(n.value.id, set()).add(n.attr)

    def fits(name: str) -> bool:
        """An example's constant can stand for the script's name only if it has what the script asks
        of it: a real a17 script's ``VIA.cell_index()`` got a layer tuple ``VIA = (4, 0)`` back."""
        d = known.get(name)
        if d is None or d.kind != "constant" or not asked.get(name):
            return True
        try:
            value = ast.literal_eval(d.source.split("=", 1)[1].split("#", 1)[0].strip())
        except (ValueError, SyntaxError, IndexError):
            return True
        return all(hasattr(value, a) for a in asked[name])

    restored: list[_Definition] = []
    for name in undefined:
        if not fits(name):
            continue
        got = chain(name, restored)
        if got and sum(d.kind != "import" for d in restored + got) <= MAX_RESTORED:
            restored += [d for d in got if not any(d is r for r in restored)]
    if not restored:
        return code, []
    restored.sort(key=lambda d: d.order)
    top = [d for d in restored if d.kind in ("import", "constant")]
    late = [d for d in restored if d.kind not in ("import", "constant")]
    src = code.splitlines(keepends=True)
    last_import = max((st.end_lineno for st in tree.body if isinstance(st, (ast.Import, ast.ImportFrom))), default=0)
    at = None
    if late:
        # before the first top-level statement that reads a restored name; what they read must be set by then
        given = {n for d in late for n in d.names}
        first = next((st for st in tree.body if any(isinstance(n, ast.Name) and n.id in given for n in ast.walk(st))), None)
        at = first.lineno - 1 if first is not None else len(src)
        before = {n.id for st in tree.body if st.end_lineno <= at for n in ast.walk(st) if isinstance(n, ast.Name)
                  and isinstance(n.ctx, ast.Store)}
        before |= {(a.asname or a.name).split(".")[0] for st in tree.body if st.end_lineno <= at
                   and isinstance(st, (ast.Import, ast.ImportFrom)) for a in st.names}
        set_by_then = before | free | {n for d in restored for n in d.names}
        if at < last_import or any(d.kind == "assign" and d.needs - set_by_then for d in late):
            late, at = [], None   # the script sets what they read too late: only constants and imports go back
    if not top and not late:
        return code, []
    if at is not None:
        src = src[:at] + [d.source + "\n" for d in late] + src[at:]
    fixed = "".join(src)
    if top:
        fixed = insert_after_imports(fixed, "".join(d.source + "\n" for d in top))
    return fixed, [d.source.splitlines()[0] + (" ..." if "\n" in d.source else "") for d in top + late]


#: the open layout's objects an interactive script is given (see checks.static.BRIDGE_GLOBALS)
OPEN_LAYOUT_NAMES = ("layout", "cell", "view", "cellview")


def drop_invented_open_layout_lookups(code: str, mode: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``layout = gf.get_layout()`` / ``gf.read_layout("existing_layout.gds")`` in an interactive
    script: the model looked the open layout up through an API the check says does not exist, where
    the open layout and its cell are given to the script (two of six warm main-job requests in the
    GUI lost their first candidate to such a line). The module-level assignment goes, with the
    assignments to the open layout's names that only read what it set (``cell = layout.top_cell``).
    A script that still reads a dropped name keeps it only when it runs in KLayout, where the name
    is the open layout's own; otherwise nothing is changed.

    Args:
        code: the script.
        mode: the request's mode; only "interactive" scripts are changed.
        findings: the static findings of ``code``.

    Returns:
        The script and what was dropped.
    """
    from ...execution.routing import needs_engine_python

    # by name, not line: the fixes before this one may have added lines
    bad = {f["name"].rsplit(".", 1)[-1] for f in findings if f.get("kind") == "api" and f.get("severity") == "error" and f.get("name")}
    tree = parsed(code) if mode == "interactive" and any(n in code for n in OPEN_LAYOUT_NAMES) else None
    if tree is None:
        return code, []
    engine = needs_engine_python(code)
    lines = code.splitlines(keepends=True)

    def whole(st: ast.stmt) -> bool:
        return not lines[st.lineno - 1][:st.col_offset].strip() and \
            not lines[st.end_lineno - 1].encode()[st.end_col_offset:].decode(errors="ignore").split("#")[0].strip()

    def root(node: ast.AST) -> str | None:
        while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
            node = node.func if isinstance(node, ast.Call) else node.value
        return node.id if isinstance(node, ast.Name) else None

    gone: set[str] = set()
    drop: list[tuple[ast.stmt, str]] = []
    for st in tree.body:
        if not (isinstance(st, ast.Assign) and all(isinstance(t, ast.Name) and t.id in OPEN_LAYOUT_NAMES for t in st.targets)):
            continue
        reads = {n.id for n in ast.walk(st.value) if isinstance(n, ast.Name)}
        invented = any(isinstance(n, ast.Attribute) and n.attr in bad for n in ast.walk(st.value))
        if whole(st) and (invented or (reads and reads <= gone)):
            drop.append((st, "the open layout is given to the script; that API does not exist"))
            gone |= {t.id for t in st.targets}
    gdsfactory_names = {(a.asname or a.name).split(".")[0] for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
                        for a in n.names if ((n.module or "") if isinstance(n, ast.ImportFrom) else a.name).startswith("gdsfactory")}
    makes_component = any(isinstance(n, ast.Call) and root(n.func) in gdsfactory_names for n in ast.walk(tree))
    if engine and makes_component:
        # a gdsfactory script runs in the engine's Python, where the open layout is no object: its
        # component is written to GDS and placed for it; "layout.add(c)", "layout.place(c, (0, 0))",
        # "layout.active_cell = ..." can only fail (warm main-job requests in the GUI). A script that
        # makes nothing with gdsfactory (only imports from it) has no component to stand in for them.
        stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        gone |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in OPEN_LAYOUT_NAMES} - stored
        dropped = {id(st) for st, _ in drop}
        for st in tree.body:
            uses = isinstance(st, ast.Expr) and root(st.value) in gone or \
                isinstance(st, ast.Assign) and all(isinstance(t, (ast.Attribute, ast.Subscript)) and root(t) in gone for t in st.targets)
            if uses and id(st) not in dropped and whole(st):
                drop.append((st, "this script runs outside KLayout: its component is written and placed in the open layout for it"))
    if not drop:
        return code, []
    dropped = {id(st) for st, _ in drop}
    still_read = any(isinstance(n, ast.Name) and n.id in gone and isinstance(n.ctx, ast.Load)
                     for st in tree.body if id(st) not in dropped for n in ast.walk(st))
    if still_read and engine:
        return code, []   # the engine's Python has no open layout to fall back on
    return drop_statements(code, [st for st, _ in drop]), [f"dropped {ast.get_source_segment(code, st)!r} ({why})" for st, why in drop]
