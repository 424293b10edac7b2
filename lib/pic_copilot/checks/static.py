"""Static evidence about a script, gathered without running it.

- syntax: ``ast.parse``;
- pyflakes: undefined names (errors), unused imports and the like (warnings);
- API check: attributes of imported modules, functions and keyword arguments looked up in the
  retrieval databases' symbol index, with "did you mean" suggestions;
- the custom check library: ``databases/checks/*.toml`` (see databases/checks/README.md).

A finding is a dict: kind, severity ("error" | "warning"), message, line (or None), and for
API findings ``name`` and ``suggestions``; for custom checks ``check`` and ``prompt``.
"""
from __future__ import annotations

import ast
import difflib
import functools
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..config import project_root

# names the bridge defines for scripts that run in KLayout (docs/EXECUTION_CONTEXT.md)
BRIDGE_GLOBALS = ("pya", "layout", "cell", "view", "cellview", "dbu", "selection", "workdir")
#: the classes of the bridge's object globals: their attributes are checked like a module's
BRIDGE_GLOBAL_TYPES = {"layout": "pya.Layout", "cell": "pya.Cell", "view": "pya.LayoutView", "cellview": "pya.CellView"}
PYFLAKES_ERRORS = {"UndefinedName", "UndefinedLocal", "UndefinedExport", "DuplicateArgument", "ReturnOutsideFunction",
                   "YieldOutsideFunction", "ContinueOutsideLoop", "BreakOutsideLoop", "DefaultExceptNotLast",
                   "TwoStarredExpressions", "TooManyExpressionsInStarredAssignment", "ForwardAnnotationSyntaxError",
                   "StringDotFormatExtraNamedArguments", "PercentFormatInvalidFormat"}


# the one import each conventional module alias needs (a missing one is added, not sent back)
IMPORTS = {"gf": "import gdsfactory as gf", "np": "import numpy as np", "pya": "import pya",
           "kdb": "import klayout.db as kdb", "sax": "import sax", "jnp": "import jax.numpy as jnp",
           "plt": "import matplotlib.pyplot as plt", "csv": "import csv", "json": "import json",
           "math": "import math", "os": "import os", "re": "import re", "sys": "import sys",
           "time": "import time", "Path": "from pathlib import Path", "gdsfactory": "import gdsfactory",
           "numpy": "import numpy", "itertools": "import itertools", "collections": "import collections"}


def needs_pdk_activation(code: str) -> bool:
    """True if a script imports gdsfactory at module level but never activates a PDK
    (gdsfactory 9 raises `ValueError: No active PDK` on the first component)."""
    return bool(re.search(r"(?m)^(import gdsfactory|from gdsfactory)", code)) and ".activate()" not in code


def syntax_check(code: str) -> list[dict]:
    try:
        ast.parse(code)
    except SyntaxError as e:
        text = (e.text or "").strip()
        hint = (" JSON written by hand in an f-string: build a dict and write it with json.dump(data, f) instead."
                if "f-string" in (e.msg or "") and ("{{" in text or '":' in text or "json" in text.lower()) else "")
        return [{"kind": "syntax", "severity": "error", "line": e.lineno,
                 "message": f"SyntaxError: {e.msg} (line {e.lineno}): {text}{hint}"}]
    return []


def pyflakes_check(code: str, predefined: tuple[str, ...] = ()) -> list[dict]:
    """pyflakes messages; ``predefined`` names count as defined (bridge globals)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    try:
        from pyflakes import checker
    except ImportError:  # pragma: no cover - pyflakes is a dependency
        return []
    w = checker.Checker(tree, filename="<script>", builtins=set(predefined))
    out = []
    defined = None
    for m in sorted(w.messages, key=lambda m: m.lineno):
        kind = type(m).__name__
        text, close = m.message % m.message_args, []
        if kind == "ImportStarUsage" and not _star_imports_give(str(m.message_args[1]), str(m.message_args[0])):
            # `from gdsfactory import *` then `gf.Component(...)`: no star import gives gf, so it is undefined
            # (29 "name 'gf' is not defined" runs in history that the star import hid from the checks)
            kind, text = "UndefinedName", f"undefined name {m.message_args[0]!r}"
        if kind == "UndefinedName":
            defined = _defined_names(tree) | set(predefined) if defined is None else defined
            lower = {d.lower(): d for d in sorted(defined)}
            close = [lower[c] for c in difflib.get_close_matches(str(m.message_args[0]).lower(), list(lower), n=2, cutoff=0.75)
                     if lower[c] != m.message_args[0]]   # a name bound only later, in a function: not a spelling
            if close:   # a 1.5B model reads area_4 for its own area_4_0, or pitch for PITCH
                text += f" (the script defines {', '.join(close)}: did you mean {' or '.join(close)}?)"
        out.append({"kind": "pyflakes", "severity": "error" if kind in PYFLAKES_ERRORS else "warning",
                    "line": m.lineno, "code": kind, "message": f"line {m.lineno}: {text}",
                    **({"close": close} if close else {})})
    return out


#: star-imported modules whose names are not looked up (KLayout's own pya has more than the engine's)
_STAR_UNKNOWN = ("pya", "klayout")


def star_import_names(module: str) -> set[str]:
    """The names ``from module import *`` gives (its ``__all__``, else its public names); none for a
    module that cannot be imported (an invented or broken one)."""
    import importlib

    try:
        mod = importlib.import_module(module)
    except Exception:   # noqa: BLE001 - an invented or broken module gives nothing
        return set()
    return set(getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")])


def _star_imports_give(modules: str, name: str) -> bool:
    """True unless every module in ``modules`` (pyflakes' comma-separated list of a script's star
    imports) is importable here, is not KLayout's, and lacks ``name``: only then is a name that
    pyflakes says "may be defined from star imports" surely undefined."""
    mods = [m.strip() for m in modules.split(",")]
    return any(m.split(".")[0] in _STAR_UNKNOWN for m in mods) or any(name in star_import_names(m) for m in mods)


def _defined_names(tree: ast.AST) -> set[str]:
    """Every name a script binds: assignments, loop and with targets, functions, classes, imports."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out |= {(a.asname or a.name).split(".")[0] for a in n.names if a.name != "*"}
    return out


# ---------------------------------------------------------------------- API check
def _aliases(tree: ast.AST) -> dict[str, str]:
    """Local name -> full dotted name, from the script's imports."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    names[a.asname] = a.name
                else:
                    names[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                if a.name != "*":
                    names[a.asname or a.name] = f"{node.module}.{a.name}"
    return names


def attribute_chain(node: ast.AST) -> tuple[list[str], ast.AST]:
    """The attribute names read in ``a.b.c``, innermost first (``["b", "c"]``), and the node they
    are read from (``a``); ``([], node)`` for a node that is not an attribute.

    Args:
        node: an expression node.
    """
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return parts[::-1], node


def _dotted(node: ast.AST) -> list[str] | None:
    """``["a", "b", "c"]`` for ``a.b.c`` (and ``["a"]`` for ``a``); None when the chain does not start at a name."""
    attrs, base = attribute_chain(node)
    return [base.id, *attrs] if isinstance(base, ast.Name) else None


def _reassigned(tree: ast.AST) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
    return out


def _param_names(params) -> tuple[set[str], bool] | None:
    """(names, accepts **kwargs) from SymbolIndex.params output (list of str or dicts), or None."""
    if not params:
        return None if params is None else (set(), False)
    names, var_kw = set(), False
    for p in params:
        if isinstance(p, dict):
            n = str(p.get("name", ""))
            kind = str(p.get("kind", ""))
        else:
            n, kind = str(p), ""
        if n.startswith("**") or "VAR_KEYWORD" in kind.upper():
            var_kw = True
            continue
        if n.startswith("*") or "VAR_POSITIONAL" in kind.upper():
            continue
        names.add(n.split(":")[0].split("=")[0].strip())
    return names, var_kw


#: the verbs a small model borrows from Python lists and other APIs, and KLayout's words for them
#: (``shapes.add(box)`` / ``shapes.append(box)`` for ``shapes.insert(box)``; ``remove`` for ``erase``)
VERB_SYNONYMS = {"add": ("insert",), "append": ("insert",), "push": ("insert",), "put": ("insert",),
                 "remove": ("erase", "delete"), "delete": ("erase", "delete"), "del": ("erase",),
                 "length": ("size", "count"), "len": ("size", "count"), "num": ("size", "count"),
                 # files: a report database is loaded and saved, not read and written
                 "read": ("load",), "open": ("load",), "write": ("save",), "dump": ("save",),
                 # shapely's and other tools' words for growing a polygon set (Region.sized(d))
                 "grow": ("sized",), "grown": ("sized",), "expand": ("sized",), "expanded": ("sized",),
                 "dilate": ("sized",), "buffer": ("sized",), "inflate": ("sized",), "offset": ("sized",)}


#: set operations a small model calls as methods (shapely's ``a.union(b)``, ``a.xor(b)``) where KLayout's
#: Region, Edges and Texts have operators (``a + b``, ``a ^ b``), with the method each operator is
OPERATOR_METHODS = {"xor": "^", "xor_": "^", "symmetric_difference": "^", "union": "+", "or_": "+", "join": "+",
                    "intersection": "&", "intersect": "&", "difference": "-", "subtract": "-", "minus": "-",
                    "diff": "-"}
OPERATOR_DUNDERS = {"^": "__xor__", "+": "__add__", "&": "__and__", "-": "__sub__"}


#: a box's sides under other libraries' names (gdsfactory's xmin, shapely's minx); KLayout's Box and
#: DBox call them left, bottom, right, top (properties: ``box.left``, not ``box.left()``)
BOX_SIDES = {"xmin": "left", "x_min": "left", "minx": "left", "x0": "left", "ymin": "bottom", "y_min": "bottom",
             "miny": "bottom", "y0": "bottom", "xmax": "right", "x_max": "right", "maxx": "right", "x1": "right",
             "ymax": "top", "y_max": "top", "maxy": "top", "y1": "top", "min": "p1", "max": "p2",
             "lower_left": "p1", "upper_right": "p2"}
#: names for all four sides at once (``xmin, ymin, xmax, ymax = box.bounds``)
BOX_ALL_SIDES = frozenset({"corners", "bounds", "extent", "extents", "coords", "coordinates", "limits"})


def same_meaning(index, name: str) -> list[str]:
    """What the class of ``name`` (``pya.Shapes.add``) calls the same thing: a synonym verb it has
    (``pya.Shapes.insert``), or the name without a ``get_``/``create_``/``add_`` prefix, or with
    ``insert_`` (``Layout.get_cell`` -> ``Layout.cell``, ``Layout.create_layer`` -> ``Layout.layer``).
    Spelling suggestions miss these: 'add' is not a misspelt 'insert'."""
    owner, _, attr = name.rpartition(".")
    if not owner:
        return []
    words = list(VERB_SYNONYMS.get(attr, ()))
    if owner.rsplit(".", 1)[-1] in ("Box", "DBox") and attr in BOX_SIDES:
        words.append(BOX_SIDES[attr])
    if owner.rsplit(".", 1)[-1] in ("Box", "DBox") and attr in BOX_ALL_SIDES:
        words += ["left", "bottom", "right", "top"]
    for prefix in ("get_", "create_", "new_", "add_", "make_"):   # Layout.create_layer -> Layout.layer
        if attr.startswith(prefix) and len(attr) > len(prefix):
            words += [attr[len(prefix):], "insert_" + attr[len(prefix):]]
    return [f"{owner}.{w}" for w in words if _has_strictly(index, f"{owner}.{w}")]


def _has_strictly(index, name: str) -> bool:
    """``name`` is in the index (False when the index cannot answer)."""
    try:
        return bool(index.has(name))
    except Exception:  # noqa: BLE001
        return False


def _suggest(index, name: str) -> list[str]:
    meant = same_meaning(index, name)
    try:
        s = index.suggest(name) or []
    except Exception:  # noqa: BLE001 - suggestions are best effort
        return meant
    spelt = [x if isinstance(x, str) else str(x.get("name", x)) for x in s]
    return (meant + [x for x in spelt if x not in meant])[:max(3, len(meant))]


def _library(name: str) -> str:
    """The library an API name belongs to: ``pya.X`` and ``klayout.db.X`` are both KLayout's."""
    root = name.split(".", 1)[0]
    return "klayout" if root in ("pya", "klayout") else root


def _same_library_for_a_class(full: str, suggestions: list[str]) -> list[str]:
    """The suggestions for a member a class lacks, from that class's own library only: the object
    is of that class, so "klayout.db.LayerInfo has no attribute 'dbbox'. Did you mean:
    gdsfactory.Component.dbbox" (a real a04 round, three rounds running) names nothing it has. A
    module's missing function keeps every library's (``gdsfactory.read`` -> ``klayout.db.Layout.read``
    is an answer)."""
    owner = full.rpartition(".")[0]
    if not owner.rpartition(".")[2][:1].isupper():
        return suggestions
    return [x for x in suggestions if _library(x) == _library(full)]


def _has(index, name: str) -> bool:
    try:
        return bool(index.has(name))
    except Exception:  # noqa: BLE001
        return True  # when the index cannot answer, do not accuse the script


def _global_that_has(index, globals_typed: dict[str, str], receiver: str, attr: str) -> str | None:
    """The one other typed global (``layout`` for ``cell``) whose class has ``attr``, if ``receiver``
    is a typed global; None otherwise."""
    if receiver not in globals_typed:
        return None
    holders = [g for g, cls in globals_typed.items() if g != receiver and _has(index, f"{cls}.{attr}")]
    return holders[0] if len(holders) == 1 else None


#: KLayout's C++ scalar return types and the Python type a script gets for them
_PYA_SCALARS = {"int": int, "unsigned int": int, "long": int, "unsigned long": int, "long long": int,
                "unsigned long long": int, "short": int, "unsigned short": int, "char": int, "unsigned char": int,
                "double": float, "float": float, "bool": bool, "string": str, "void": type(None)}
# "[const] Region sized (int dx, int dy)", "Cell ptr top_cell", "[const,iter] Shape each"
_STUB_RETURN = re.compile(r"\)\s*->\s*([\w\[\], ]+?)\s*$")
_STUB_TYPES = {"str": "string", "None": "void"}
_PYA_SIGNATURE = re.compile(r"^\s*(?:\[(?P<flags>[^\]]*)\]\s*)?(?P<ret>.*?)\s+(?P<name>\S+?)\s*(?:\(.*\))?\s*$")


def pya_return(index, method: str) -> str | type | None:
    """What a KLayout API method returns when all its overloads agree.

    Args:
        index: the symbol index.
        method: the method's full name, e.g. ``pya.Layout.layer`` or ``klayout.db.Region.sized``.

    Returns:
        The full class name (``pya.Region``), the Python type of a scalar (``int`` for "unsigned int",
        ``type(None)`` for void), or None when unknown: not a KLayout method, an iterator, an array, or
        overloads that return different things (``Layout.clip``: a cell index or a Cell).
    """
    root = "klayout.db" if method.startswith("klayout.db.") else "pya" if method.startswith("pya.") else None
    if root is None:
        return None
    try:
        rec = index.lookup(method)
    except Exception:  # noqa: BLE001
        rec = None
    if not rec or rec.get("kind") != "method":
        return None
    returns = set()
    for sig in rec.get("signatures") or [rec.get("signature") or ""]:
        arrow = _STUB_RETURN.search(sig)   # the pip module's stubs: "klayout.db.Cell.shapes(layer_index: int) -> Shapes"
        if arrow:
            returns.add(_STUB_TYPES.get(arrow.group(1), arrow.group(1)))
            continue
        m = _PYA_SIGNATURE.match(sig)
        if not m or "iter" in (m.group("flags") or ""):
            return None
        returns.add(" ".join(re.sub(r"\b(?:const|ptr)\b|[&*]", " ", m.group("ret")).split()))
    if len(returns) != 1:
        return None
    ret = returns.pop()
    if ret in _PYA_SCALARS:
        return _PYA_SCALARS[ret]
    return f"{root}.{ret}" if re.fullmatch(r"\w+", ret) and _has(index, f"{root}.{ret}") else None


def region_of(index, owner: str, attr: str) -> str | None:
    """``pya.Region`` when ``owner`` (a full class name such as ``pya.Shapes``) lacks ``attr``, a Region
    has it and a Region can be made from one owner (its constructor takes it alone): a 1.5B model asks
    Region's checks and measures of the shapes themselves (``shapes.width_check(...)``,
    ``polygon.sized(...)``, seen for rounds in real runs), where ``pya.Region(shapes).width_check(...)``
    was meant. None otherwise."""
    root, _, cls = owner.rpartition(".")
    if root not in ("pya", "klayout.db") or cls == "Region" or not _has(index, f"{root}.Region.{attr}"):
        return None
    try:
        rec = index.lookup(f"{root}.Region.new") or {}
    except Exception:  # noqa: BLE001
        return None
    alone = re.compile(rf"\((?:const {re.escape(cls)} \w+|\w+: {re.escape(cls)})\)(?: -> Region)?$")
    return f"{root}.Region" if any(alone.search(s) for s in rec.get("signatures") or []) else None


def _alias_of(aliases: dict[str, str], shadowed: set[str], module: str) -> str | None:
    """The name a script calls ``module`` by (``kdb`` for klayout.db), or None."""
    return next((a for a, full in aliases.items() if full == module and a not in shadowed), None)


def _value_type(node: ast.AST, types: dict[str, str], scalars: dict[str, tuple[type, str]], aliases: dict[str, str],
                shadowed: set[str], index) -> str | type | None:
    """The class (full name) or Python scalar type of an expression, where the index says it: a typed
    name, ``pya.Region(...)``, or a KLayout method called on an expression of known class
    (``layout.layer(1, 0)`` -> int, ``cell.dbbox()`` -> pya.DBox)."""
    if isinstance(node, ast.Name):
        return types.get(node.id) or (scalars[node.id][0] if node.id in scalars else None)
    if not isinstance(node, ast.Call):
        return None
    parts = _dotted(node.func)
    if parts and parts[0] in aliases and parts[0] not in shadowed and parts[0] not in types:
        full = ".".join(aliases[parts[0]].split(".") + parts[1:])
        try:
            rec = index.lookup(full)
        except Exception:  # noqa: BLE001
            rec = None
        if rec and rec.get("kind") == "class":
            return rec.get("name", full)
        return pya_return(index, full) if rec else None
    if isinstance(node.func, ast.Attribute):
        owner = _value_type(node.func.value, types, scalars, aliases, shadowed, index)
        if isinstance(owner, str):
            return pya_return(index, f"{owner}.{node.func.attr}")
    return None


def _uncalled_method(index, method: str, attr: str) -> str | None:
    """The call's argument names (``"layer_index"``; ``""`` for none) when ``method`` is a KLayout method
    whose return value has ``attr`` (``pya.Cell.shapes`` returns Shapes, which has ``clear``): the
    script read the method itself; None otherwise."""
    try:
        rec = index.lookup(method)
    except Exception:  # noqa: BLE001
        return None
    if not rec or rec.get("kind") != "method":
        return None
    ret = pya_return(index, method)
    if not isinstance(ret, str) or not _has(index, f"{ret}.{attr}"):
        return None
    args = re.search(r"\(([^)]*)\)", str(rec.get("signature") or ""))
    return ", ".join(a.split("=")[0].split(":")[0].split()[-1] for a in args.group(1).split(",") if a.strip()) if args else ""


def _region_wrap(index, owner: str, node: ast.Attribute, aliases: dict[str, str], shadowed: set[str]) -> dict:
    """The finding's fields for :func:`region_of`'s case: the receiver's source, the attribute, and
    what to write in the receiver's place (a Region made of it, as the script names the module);
    {} when it is not that case."""
    region = region_of(index, owner, node.attr)
    alias = _alias_of(aliases, shadowed, region.rsplit(".", 1)[0]) if region else None
    if not alias:
        return {}
    receiver = ast.unparse(node.value)
    return {"wrap_receiver": receiver, "attribute": node.attr, "wrap_with": f"{alias}.Region({receiver})"}


def _one_cell(types: dict[str, str]) -> str | None:
    """The cell a layer's shapes are taken from: the bridge's ``cell``, else the script's one name of
    type Cell; None when there are several or none."""
    cells = sorted(n for n, t in types.items() if t.endswith(".Cell"))
    return "cell" if "cell" in cells else cells[0] if len(cells) == 1 else None


def _layer_region_wrap(index, node: ast.Attribute, origin: str, types: dict[str, str], aliases: dict[str, str],
                       shadowed: set[str]) -> dict:
    """The finding's fields when a Region method is asked of a layer index (``layout.layer(1, 0).area()``,
    ``li.merged()``): the Region of the script's one cell's shapes on that layer, everything below
    the cell included; {} when the index is not a layer's or no one cell is known."""
    if ".layer(" not in origin:
        return {}
    region = next((f"{alias}.Region" for root in ("pya", "klayout.db") if _has(index, f"{root}.Region.{node.attr}")
                   for alias in [_alias_of(aliases, shadowed, root)] if alias), None)
    cell = _one_cell(types)
    if region is None or cell is None:
        return {}
    receiver = ast.unparse(node.value)
    return {"wrap_receiver": receiver, "attribute": node.attr,
            "wrap_with": f"{region}({cell}.begin_shapes_rec({receiver}))"}


def _returned_value_findings(tree: ast.AST, types: dict[str, str], aliases: dict[str, str], shadowed: set[str],
                             index, report, exists) -> None:
    """Attributes asked of what a KLayout method returned, when that value lacks them:
    ``layout.layer(1, 0).bbox()`` (a layer index is an int), ``li = layout.layer(1, 0)`` then
    ``li.bbox()``, ``cell.dbbox().area2()``. Names assigned once from such a call get its type
    (classes join ``types`` for the attribute-chain check). ``exists(parent, attr)`` confirms an
    index miss (see :func:`api_check`)."""
    scalars: dict[str, tuple[type, str]] = {}
    assigned: dict[str, ast.AST] = {}
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned[node.targets[0].id] = node.value
    for var, value in assigned.items():
        if stores.get(var) != 1 or var in types or var in aliases:
            continue
        t = _value_type(value, types, scalars, aliases, shadowed, index)
        if isinstance(t, str):
            types[var] = t
        elif t is not None:
            scalars[var] = (t, ast.unparse(value)[:60])
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        value = node.value
        if isinstance(value, ast.Name) and value.id in scalars:
            t, origin = scalars[value.id]
            what = f"{value.id} (what {origin} returns) is"
        elif isinstance(value, ast.Call):
            t = _value_type(value, types, scalars, aliases, shadowed, index)
            what = f"{ast.unparse(value)[:60]} returns"
        else:
            continue
        if isinstance(t, type):
            if not hasattr(t, node.attr):
                kind = "nothing (None)" if t is type(None) else f"a Python {t.__name__}"
                origin = scalars[value.id][1] if isinstance(value, ast.Name) else ast.unparse(value)
                report(f"{ast.unparse(value)[:60]}.{node.attr}", node.lineno,
                       f"{what} {kind}, which has no attribute {node.attr!r}.", suggest=False,
                       **(_layer_region_wrap(index, node, origin, types, aliases, shadowed) if t is int else {}))
        elif isinstance(t, str) and isinstance(value, ast.Call):
            if not _has(index, f"{t}.{node.attr}") and not exists(t, node.attr):
                report(f"{t}.{node.attr}", node.lineno, f"{what} a {t}, which has no attribute {node.attr!r}.",
                       **_region_wrap(index, t, node, aliases, shadowed))
    _region_of_a_layer_index(tree, types, scalars, aliases, shadowed, index, report)
    _boolean_of_layer_indexes(tree, types, scalars, aliases, shadowed, index, report)
    _layer_pair_as_a_number(tree, types, stores, report)


def _layer_pair_as_a_number(tree: ast.AST, types: dict[str, str], stores: dict[str, int], report) -> None:
    """``layout.layer(VIA, 0)`` where ``VIA = (4, 0)``: a (layer, datatype) pair given as the layer
    number, which KLayout refuses ("Value cannot be converted to an integer"); real a17 runs, where
    the pair came from a worked example. The finding names ``layout.layer(*VIA)``."""
    pairs = {st.targets[0].id for st in getattr(tree, "body", []) if isinstance(st, ast.Assign) and len(st.targets) == 1
             and isinstance(st.targets[0], ast.Name) and stores.get(st.targets[0].id) == 1
             and isinstance(st.value, ast.Tuple) and len(st.value.elts) == 2
             and all(isinstance(e, ast.Constant) and type(e.value) is int for e in st.value.elts)}
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "layer"
                and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id in pairs and not n.keywords):
            continue
        owner = n.func.value
        if not (isinstance(owner, ast.Name) and types.get(owner.id, "").endswith(".Layout")):
            continue
        call, pair = ast.unparse(n), n.args[0].id
        report(f"{call}", n.lineno, f"{call}: {pair} is a (layer, datatype) pair, not a layer number: write "
                                    f"{ast.unparse(owner)}.layer(*{pair}).", suggest=False,
               layer_call=call, layer_pair=pair)


def _region_of_a_layer_index(tree: ast.AST, types: dict[str, str], scalars: dict[str, tuple[type, str]],
                             aliases: dict[str, str], shadowed: set[str], index, report) -> None:
    """``pya.Region(layout.layer(1, 0))``: a Region is made of shapes, not of a layer index (an int);
    KLayout stops it with "No overload with matching arguments" and a 1.5B model keeps the form for
    rounds (real a07 and m07 runs). The finding names the cell whose shapes are meant when the
    script has one (the bridge's ``cell``, or its one name of type Cell): ``cell.begin_shapes_rec(li)``,
    the cell with everything below it."""
    cell = _one_cell(types)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords):
            continue
        parts = _dotted(node.func)
        if not parts or parts[-1] != "Region" or parts[0] not in aliases or parts[0] in shadowed \
                or ".".join([aliases[parts[0]], *parts[1:]]) not in ("pya.Region", "klayout.db.Region"):
            continue
        arg = node.args[0]
        t = int if isinstance(arg, ast.Constant) and type(arg.value) is int else \
            _value_type(arg, types, scalars, aliases, shadowed, index)
        if t is not int:
            continue
        region, li = ast.unparse(node.func), ast.unparse(arg)
        shapes = f"{cell or '<cell>'}.begin_shapes_rec({li})"
        report(f"{region}({li})", node.lineno,
               f"{region}({li}): {li} is a layer index (an int), and a Region is made of shapes: write "
               f"{region}({shapes}) (the cell and everything below it) or {region}({cell or '<cell>'}.shapes({li})) "
               f"(the cell's own shapes).", suggest=False,
               **({"region_of_layer": li, "shapes_of": shapes} if cell else {}))


#: Python operators that a KLayout Region overloads for its booleans (AND, OR, XOR, NOT, join)
REGION_OPERATORS = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.Sub: "-", ast.Add: "+"}


def _boolean_of_layer_indexes(tree: ast.AST, types: dict[str, str], scalars: dict[str, tuple[type, str]],
                              aliases: dict[str, str], shadowed: set[str], index, report) -> None:
    """``si & mask`` with ``si = layout.layer(1, 0)``: a boolean of two layer indexes combines the
    numbers (3 & 2 is 2), not the layers' shapes, and nothing fails until the number is asked for an
    area (a real a07 script, its last round). The finding names, for each operand, the Region of the
    script's one cell with everything below it (``layer_operands``), when the script has one cell."""
    cell = _one_cell(types)
    region = next((f"{alias}.Region" for root in ("pya", "klayout.db") for alias in [_alias_of(aliases, shadowed, root)]
                   if alias), None)

    def layer_index(n: ast.AST) -> bool:
        origin = scalars[n.id][1] if isinstance(n, ast.Name) and n.id in scalars and scalars[n.id][0] is int else \
            ast.unparse(n) if isinstance(n, ast.Call) and _value_type(n, types, scalars, aliases, shadowed, index) is int else ""
        return ".layer(" in origin

    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and type(node.op) in REGION_OPERATORS
                and layer_index(node.left) and layer_index(node.right)):
            continue
        a, b, op = ast.unparse(node.left), ast.unparse(node.right), REGION_OPERATORS[type(node.op)]
        wraps = {x: f"{region or 'pya.Region'}({cell or '<cell>'}.begin_shapes_rec({x}))" for x in (a, b)}
        report(f"{a} {op} {b}", node.lineno,
               f"{a} {op} {b}: {a} and {b} are layer indexes (ints), so {op} combines the numbers, not the layers' "
               f"shapes: write {wraps[a]} {op} {wraps[b]}.", suggest=False,
               **({"layer_operands": wraps} if cell and region else {}))


def same_words(a: str, b: str) -> bool:
    """Two identifiers made of the same words in another order (``mmi_length`` / ``length_mmi``)."""
    wa, wb = a.lower().split("_"), b.lower().split("_")
    return a != b and len(wa) > 1 and sorted(wa) == sorted(wb)


def api_check(code: str, index, predefined: tuple[str, ...] = (), observations: dict | None = None) -> list[dict]:
    """Unknown module attributes/functions and unknown keyword arguments, checked against ``index``.

    Only names whose root module the index knows are checked (numpy etc. are left alone).
    ``predefined`` names (e.g. the bridge's ``pya``) are treated as imported modules of the same name.
    ``observations``: observed port names per component factory (``pic_copilot.retrieval.observations.port_table()``);
    when given, port names used on components whose factory is known are checked too (:func:`port_check`).
    """
    if index is None:
        return []
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    aliases = {n: n for n in predefined if n == "pya"}
    imported = _aliases(tree)
    # conventional names used without their import (pyflakes reports the missing import separately)
    for short, full in (("gf", "gdsfactory"), ("kdb", "klayout.db")):
        if short not in imported and short not in _reassigned(tree):
            aliases[short] = full
    aliases.update(imported)
    shadowed = _reassigned(tree) - set(_aliases(tree))
    findings: list[dict] = []
    seen: set[str] = set()
    covered: dict[str, bool] = {}

    def is_covered(root: str) -> bool:
        if root not in covered:
            covered[root] = _has(index, root) if hasattr(index, "has") else False
        return covered[root]

    def report(full: str, line: int, msg: str, suggest: bool = True, **extra):
        # one finding per API name, but one per receiver for those a fix acts on (every
        # shapes.count of two cells is wrapped, not only the first)
        key = full + repr(sorted(extra.items())) if extra else full
        if key in seen:
            return
        seen.add(key)
        sug = _same_library_for_a_class(full, _suggest(index, full)) if suggest else []
        attr = full.rpartition(".")[2]
        if (suggest and (attr in VERB_SYNONYMS or attr.startswith("get_")) and "wrap_with" not in extra
                and full.startswith(("pya.", "klayout.db."))):   # KLayout's are methods; gdsfactory's info is a property
            meant = same_meaning(index, full)
            if len(meant) == 1:   # shapes.add -> shapes.insert: the class's one word for it
                extra = {**extra, "rename_attribute": attr, "to": meant[0].rsplit(".", 1)[1]}
        owner = full.rpartition(".")[0]
        op = OPERATOR_METHODS.get(attr)
        if suggest and op and not extra and _has_strictly(index, f"{owner}.{OPERATOR_DUNDERS[op]}"):
            extra = {"operator_attribute": attr, "operator": op}   # region.xor(other) -> region ^ other
        hint = f" Did you mean: {', '.join(sug)}?" if sug else ""
        if extra.get("operator"):
            hint = f" {owner.rpartition('.')[2]} has an operator for it: write (a {op} b), not a.{attr}(b)."
        if extra.get("wrap_with"):
            hint = f" A Region made of it has it: write {extra['wrap_with']}.{extra['attribute']}."
        findings.append({"kind": "api", "severity": "error", "line": line, "name": full, "suggestions": sug,
                         "message": f"line {line}: {msg}{hint}", **extra})

    # imports of names that do not exist
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            root = node.module.split(".")[0]
            if not is_covered(root):
                continue
            if not _has(index, node.module):
                report(node.module, node.lineno, f"module {node.module!r} does not exist in the installed version.")
                continue
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if a.name != "*" and not _has(index, full) and not _exists_at_runtime(node.module, a.name):
                    report(full, node.lineno, f"{a.name!r} cannot be imported from {node.module!r}: it does not exist.")

    # attribute chains on imported modules, and keyword arguments of known callables
    attr_nodes: list[ast.Attribute] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            attr_nodes.append(node)
    inner = {id(n.value) for n in attr_nodes if isinstance(n.value, ast.Attribute)}
    types = _infer_types(tree, aliases, shadowed, index)
    globals_typed = {n: t for n, t in BRIDGE_GLOBAL_TYPES.items() if n in predefined and n not in shadowed and n not in types}
    types.update(globals_typed)
    in_klayout = "pya" in predefined   # the script runs in the KLayout application the pya manual documents

    def exists(parent: str, attr: str) -> bool | str:
        """An index miss confirmed by importing; but a member missing from a documented pya class is
        missing: pip's newer klayout.db has more (``Region.xor`` is not in KLayout 0.28.5)."""
        if in_klayout and parent.startswith("pya.") and parent.count(".") == 1 and index.members(parent):
            return False
        return _exists_at_runtime(parent, attr)

    _returned_value_findings(tree, types, aliases, shadowed, index, report, exists)
    # a store to an attribute a KLayout class does not have keeps nothing KLayout reads (a real b08
    # script "drew" its pad with box.layer = ... and box.x_min = -50 and never inserted the box)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name)
                and node.value.id in types and not node.attr.startswith("_")):
            continue
        owner = types[node.value.id]
        if owner.startswith("pya.") and owner.count(".") == 1 and index.members(owner) \
                and node.attr not in index.members(owner):
            report(f"{owner}.{node.attr}", node.lineno, f"{node.value.id} ({owner}) has no attribute {node.attr!r}: "
                   "setting it stores nothing KLayout reads. Use the class's own methods or constructor "
                   "arguments (and insert a shape into cell.shapes(layer_index) to draw it).", suggest=False)
    for node in attr_nodes:
        if id(node) in inner:
            continue  # only the longest chain
        parts = _dotted(node)
        if not parts:
            continue
        if parts[0] in types and len(parts) >= 2:
            full_parts = types[parts[0]].split(".") + parts[1:]
        elif parts[0] not in aliases or parts[0] in shadowed:
            continue
        else:
            full_parts = aliases[parts[0]].split(".") + parts[1:]
        if not is_covered(full_parts[0]):
            continue
        for i in range(2, len(full_parts) + 1):
            name = ".".join(full_parts[:i])
            if _has(index, name):
                continue
            parent = ".".join(full_parts[:i - 1])
            found = exists(parent, full_parts[i - 1])
            if found is DELEGATES:   # kfactory's Component hands unknown names to its KLayout cell
                found = any(x.rsplit(".", 1)[-1] == full_parts[i - 1] for x in _suggest(index, name))
            if found:
                break  # e.g. module-level objects such as gdsfactory.gpdk.PDK are not in the index
            first_attr = parts[0] in globals_typed and i == len(globals_typed[parts[0]].split(".")) + 1
            holder = _global_that_has(index, globals_typed, parts[0], full_parts[i - 1]) if first_attr else None
            if holder:   # cell.layer_indexes(): the open layout has it, the active cell does not
                report(name, node.lineno, f"{parts[0]} ({parent}) has no attribute {full_parts[i - 1]!r}; "
                                          f"{holder} ({globals_typed[holder]}) has it: write {holder}.{full_parts[i - 1]}.",
                       suggest=False, receiver=parts[0], use=holder, attribute=full_parts[i - 1])
                break
            if first_attr and full_parts[i - 1] in predefined and full_parts[i - 1] not in shadowed:
                # layout.selection: the bridge gives the selection (dbu, cell...) as a global of its own
                report(name, node.lineno, f"{parts[0]} ({parent}) has no attribute {full_parts[i - 1]!r}; "
                                          f"{full_parts[i - 1]} is a global of the script: write {full_parts[i - 1]}.",
                       suggest=False, bare_global=full_parts[i - 1], global_of=parts[0])
                break
            wrap = (_region_wrap(index, parent, node, aliases, shadowed)
                    if parts[0] in types and len(parts) == 2 and i == len(full_parts) else {})
            uncalled = _uncalled_method(index, parent, full_parts[i - 1])
            if uncalled is not None:   # cell.shapes.clear(): the method was meant to be called first
                method = ".".join(parts[:i - 1 - len(full_parts) + len(parts)])
                report(name, node.lineno, f"{method} is a method, not a value: call it, {method}({uncalled}), "
                                          f"and ask its result for {full_parts[i - 1]!r}.", suggest=False,
                       **({"call_method": method} if uncalled == "" else {}))
                break
            report(name, node.lineno, f"{parent} has no attribute {full_parts[i - 1]!r} ({name} does not exist "
                                      f"in the installed version).", **wrap)
            break

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.keywords:
            continue
        parts = _dotted(node.func)
        if not parts:
            continue
        if parts[0] in types and len(parts) >= 2:
            full = ".".join(types[parts[0]].split(".") + parts[1:])
        elif parts[0] not in aliases or parts[0] in shadowed:
            continue
        else:
            full = ".".join(aliases[parts[0]].split(".") + parts[1:])
        if full in seen or not is_covered(full.split(".")[0]) or not _has(index, full):
            continue
        try:
            spec = _param_names(index.params(full))
        except Exception:  # noqa: BLE001
            spec = None
        if spec is None:
            continue
        names, var_kw = spec
        try:
            sig = index.signature(full) or ""
        except Exception:  # noqa: BLE001
            sig = ""
        if "**" in sig:
            var_kw = True
        if var_kw:   # rib(**kwargs) hands them to cross_section(): the keywords it accepts are both's
            forwarded = forwarded_parameters(full)
            if forwarded is None:
                continue
            names, var_kw = (set(names) | forwarded) - {"kwargs", "args"}, False
        if not names:
            continue
        for kw in _given_twice(index, full, node):
            findings.append({"kind": "api", "severity": "error", "line": node.lineno, "name": full, "suggestions": [],
                             "given_twice": kw, "call": ast.unparse(node),
                             "message": f"line {node.lineno}: {full}() gets {kw!r} twice, by position and as {kw}=: "
                                        f"give it once (KLayout answers \"Can't match arguments\")."})
        for kw in node.keywords:
            if kw.arg and kw.arg not in names:
                key = f"{full}({kw.arg}=)"
                if key in seen:
                    continue
                seen.add(key)
                permuted = [n for n in sorted(names) if same_words(n, kw.arg)]
                close = permuted + [c for c in difflib.get_close_matches(kw.arg, sorted(names), n=3, cutoff=0.6)
                                    if c not in permuted]
                hint = f" Did you mean: {', '.join(close[:3])}?" if close else ""
                findings.append({"kind": "api", "severity": "error", "line": node.lineno, "name": full,
                                 "suggestions": close[:3], "keyword": kw.arg, "same_words": permuted,
                                 "message": f"line {node.lineno}: {full}() has no parameter {kw.arg!r}; its parameters "
                                            f"are: {', '.join(sorted(names))}.{hint}"})
    if observations:
        findings += port_check(tree, aliases, shadowed, index, observations)
    return findings


#: one parameter of a pya-style signature: its type words, its name, its default
_PYA_PARAM = re.compile(r"^(?:[\w:<>\[\]]+(?:\s*[*&])?\s+)+(\w+)$")
#: the defaults of KLayout signatures that are Python literals
_KLAYOUT_DEFAULTS = {"false": "False", "true": "True", "nil": "None"}


def signature_params(signature: str) -> list[tuple[str, str | None]] | None:
    """(name, default as Python text or None) of a KLayout signature's parameters, in order, pya
    style ("[const] EdgePairs width_check (unsigned int d, bool whole_edges = false)" ->
    [("d", None), ("whole_edges", "False")]) or stub style ("(d: int, whole_edges: Optional[bool]=...)").

    A default that is no Python literal is "?". [] for a signature without parentheses (an
    attribute); None when a parameter cannot be read.
    """
    m = re.search(r"\((.*)\)", signature)
    if m is None:
        return [] if "(" not in signature else None
    if not m.group(1).strip():
        return []
    out = []
    for part in re.split(r",(?![^\[]*\])", m.group(1)):
        head, eq, default = (x.strip() for x in part.partition("="))
        stub = re.fullmatch(r"(\w+)\s*:(?!:).*", head)
        pya_param = None if stub else _PYA_PARAM.match(head)
        if stub is None and pya_param is None:
            return None
        if eq:
            default = _KLAYOUT_DEFAULTS.get(default, default)
            if not re.fullmatch(r"-?\d+(\.\d+)?|True|False|None|'[^']*'|\"[^\"]*\"", default):
                default = "?"
        out.append(((stub or pya_param).group(1), default if eq else None))
    return out


def _positional_names(signature: str) -> list[str]:
    """Parameter names in order from a KLayout signature ([] when it cannot be read)."""
    return [name for name, _ in signature_params(signature) or []]


def _given_twice(index, full: str, call: ast.Call) -> list[str]:
    """Keywords of a KLayout method call that name a parameter its positional arguments already give,
    in every overload that takes that many (``metal.enclosing_check(via, d_dbu, d=100)``, a real m07
    candidate); [] when any overload could take them."""
    if not full.startswith(("pya.", "klayout.db.")) or not call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return []
    try:
        rec = index.lookup(full) or {}
    except Exception:  # noqa: BLE001
        return []
    sigs = [_positional_names(x) for x in rec.get("signatures") or [rec.get("signature") or ""]]
    sigs = [x for x in sigs if len(x) >= len(call.args)]
    n = len(call.args)
    return [k.arg for k in call.keywords if k.arg and sigs and n and all(k.arg in x[:n] for x in sigs)]


# ---------------------------------------------------------------------- observed port names
def _factory_of(call: ast.AST, aliases: dict[str, str], shadowed: set[str], index, ports: dict) -> tuple[str, object] | None:
    """(canonical factory id, the call's arguments: a set of keyword names, or None when there are positional
    or ``**`` arguments) when ``call`` builds a component whose ports were observed."""
    if not isinstance(call, ast.Call):
        return None
    parts = _dotted(call.func)
    if not parts or parts[0] not in aliases or parts[0] in shadowed:
        return None
    full = ".".join(aliases[parts[0]].split(".") + parts[1:])
    args = call.args
    if full in ("gdsfactory.get_component", "gdsfactory.pdk.get_component"):
        if not (call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
            return None
        full, args = f"gdsfactory.components.{call.args[0].value}", call.args[1:]
    has_args = None if (args or any(k.arg is None for k in call.keywords)) else {k.arg for k in call.keywords}
    cands = [full]
    if full.startswith("gdsfactory.c."):
        cands.append("gdsfactory.components." + full[len("gdsfactory.c."):])
    for c in list(cands):
        try:
            rec = index.lookup(c) if index is not None else None
        except Exception:  # noqa: BLE001
            rec = None
        if rec:
            cands.append(rec.get("alias_of") or rec.get("name") or c)
    for c in cands:
        if c in ports:
            return c, has_args
    return None


def port_check(tree: ast.AST, aliases: dict[str, str], shadowed: set[str], index, ports: dict) -> list[dict]:
    """Port names used as ``x.ports["name"]``, ``x["name"]`` or ``ref.connect("name", ...)`` where ``x`` is a
    component (or a reference to one) built by a factory whose ports were observed, e.g. "`mmi1x2` has
    ports o1, o2, o3; the script uses 'out1'". Variables assigned more than once are not followed."""
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    var: dict[str, tuple[str, bool]] = {}

    def source(v: ast.AST):
        if isinstance(v, ast.Name):
            return var.get(v.id)
        if isinstance(v, ast.Call):
            f = _factory_of(v, aliases, shadowed, index, ports)
            if f:
                return f
            if isinstance(v.func, ast.Attribute) and v.func.attr in ("add_ref", "create_inst", "add_ref_off_grid") and v.args:
                return source(v.args[0])
        if isinstance(v, ast.BinOp) and isinstance(v.op, ast.LShift):
            return source(v.right)
        return None

    assigns = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name) and stores.get(n.targets[0].id) == 1]
    for _ in range(3):  # a few passes follow chains such as mmi = f(); ref = c << mmi
        for n in assigns:
            f = source(n.value)
            if f:
                var[n.targets[0].id] = f
    findings: list[dict] = []
    seen: set[tuple] = set()

    def use(node: ast.AST, holder: ast.AST, name: str) -> None:
        f = source(holder)
        if not f:
            return
        fid, call_args = f
        obs = ports[fid]
        known = list(obs.get("ports") or [])
        if name in known or (fid, name) in seen:
            return
        seen.add((fid, name))
        vary = bool(obs.get("vary"))
        # a call that sets a parameter which changed the port names in the probes (cross_section="metal_routing"
        # gives e1/e2, inputs=4 gives more ports), or positional / ** arguments, may give other names than the
        # probes saw: then it is only a warning
        if call_args is None:
            sure = not vary
        else:
            sure = not (set(call_args) & set(obs.get("port_params") or ()))
        leaf = fid.rsplit(".", 1)[-1]
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
        have = ", ".join(known) if known else "no ports"
        msg = (f"line {node.lineno}: `{leaf}` has {'ports ' if known else ''}{have} (observed in {obs.get('version', 'the installed version')}"
               + ("; other parameter values give other port names" if vary else "") + f"); the script uses {name!r}."
               + (f" Did you mean: {', '.join(close)}?" if close else (f" Use one of: {have}." if known else "")))
        findings.append({"kind": "api", "severity": "error" if sure else "warning", "line": node.lineno,
                         "name": fid, "suggestions": [], "port": name, "ports": known, "source": "observed",
                         "message": msg})

    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            v = node.value
            if isinstance(v, ast.Attribute) and v.attr == "ports":
                use(node, v.value, node.slice.value)
            elif isinstance(v, (ast.Name, ast.Call)):
                use(node, v, node.slice.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "connect":
            arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "port"), None)
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                use(node, node.func.value, arg.value)
    return sorted(findings, key=lambda f: f["line"] or 0)


@functools.lru_cache(maxsize=512)
def forwarded_parameters(full: str, depth: int = 3) -> frozenset[str] | None:
    """The keyword names an installed function's ``**kwargs`` can take, read from its source: the
    parameters of the function(s) it passes ``**kwargs`` on to (``gf.cross_section.rib`` ->
    ``cross_section``), followed ``depth`` levels. None when that is not traceable (no source, a
    callee that is not a plain name in the function's module, a chain that ends in ``**kwargs``
    again), so nothing is claimed.

    Args:
        full: dotted name in the engine's packages (``gdsfactory.cross_section.rib``).
        depth: how many forwarding steps to follow at most.
    """
    obj = resolve_object(full)
    return _forwarded(obj, depth) if obj is not None else None


def resolve_object(full: str):
    """The installed object at a dotted name (``sax.circuit``, ``gdsfactory.cross_section.rib``),
    or None when it cannot be imported here."""
    import importlib

    parts = full.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
            for p in parts[cut:]:
                obj = getattr(obj, p)
            return obj
        except Exception:  # noqa: BLE001 - not importable here: nothing is claimed
            continue
    return None


def _forwarded(fn, depth: int) -> frozenset[str] | None:
    import inspect
    import textwrap

    try:
        fn = inspect.unwrap(getattr(fn, "func", fn))   # functools.partial / decorated factories
        sig = inspect.signature(fn)
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except Exception:  # noqa: BLE001 - builtins, C extensions, no source
        return None
    var_kw = next((p.name for p in sig.parameters.values() if p.kind is p.VAR_KEYWORD), None)
    if var_kw is None:
        return frozenset()
    names: set[str] = set()
    found = False
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == var_kw
                                                   for k in node.keywords)):
            continue
        target = _dotted(node.func)
        callee = fn.__globals__.get(target[0]) if target else None
        for p in (target or [])[1:]:
            callee = getattr(callee, p, None)
        if callee is None or depth <= 0:
            return None
        try:
            params = inspect.signature(callee).parameters.values()
        except (TypeError, ValueError):
            return None
        names |= {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        if any(p.kind is p.VAR_KEYWORD for p in params):
            more = _forwarded(callee, depth - 1)
            if more is None:
                return None
            names |= more
        found = True
    return frozenset(names) if found else None


#: _exists_at_runtime's answer for a class whose own ``__getattr__`` hands unknown names on to an
#: object of another type: the name may exist there (the caller asks the index for that leaf name)
DELEGATES = "delegates"


def _exists_at_runtime(parent: str, attr: str) -> bool | str:
    """Confirm an index miss by importing the parent module (or module + class) in this process.

    Only for packages the index covers (installed libraries); any failure counts as "unknown", i.e.
    the finding stands only when the import worked and the attribute is really absent. A class
    counts its instances' fields too (pydantic ``model_fields``, dataclass fields, annotations:
    ``CrossSection.sections``), a property or other descriptor on the way is an object of unknown
    type (``Component.kcl.dbu``: not judged), and a submodule nobody imported yet (``klayout.rdb``)
    exists.
    """
    import importlib
    import inspect

    parts = parent.split(".")
    if parts[0] in ("pya",):
        parts = ["klayout", "db"] + parts[1:]  # the engine has pip klayout; pya mirrors klayout.db
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except Exception:  # noqa: BLE001
            continue
        try:
            for p in parts[cut:]:
                if inspect.isclass(obj) and _instance_field(obj, p):
                    return True          # the field's value has a type this check does not follow
                nxt = inspect.getattr_static(obj, p)
                if not (inspect.isclass(nxt) or inspect.ismodule(nxt) or callable(nxt)):
                    return True          # a property, descriptor or value: of unknown type
                obj = getattr(obj, p)
        except AttributeError:
            return False
        except Exception:  # noqa: BLE001
            return True
        try:
            if hasattr(obj, attr) or (inspect.isclass(obj) and _instance_field(obj, attr)):
                return True
        except Exception:  # noqa: BLE001
            return True
        if inspect.isclass(obj) and any("__getattr__" in k.__dict__ for k in obj.__mro__[:-1]):
            return DELEGATES
        if inspect.ismodule(obj):   # a submodule that is not imported yet (klayout.rdb) is no attribute until it is
            try:
                importlib.import_module(f"{obj.__name__}.{attr}")
                return True
            except Exception:  # noqa: BLE001
                pass
        return False
    return True  # cannot verify: do not accuse


def _instance_field(cls, name: str) -> bool:
    """True if instances of ``cls`` have a field ``name`` the class itself does not show as an
    attribute: pydantic model fields, dataclass fields, class-level annotations, slots."""
    for klass in getattr(cls, "__mro__", (cls,)):
        if name in (getattr(klass, "model_fields", None) or {}) or name in (getattr(klass, "__dataclass_fields__", None) or {}):
            return True
        if name in (klass.__dict__.get("__annotations__") or {}) or name in (klass.__dict__.get("__slots__") or ()):
            return True
    return False


def _infer_types(tree: ast.AST, aliases: dict[str, str], shadowed: set[str], index) -> dict[str, str]:
    """Variables assigned once from a known call whose return type the index knows (``c = gf.Component()``,
    ``c = gf.components.mmi1x2()`` -> gdsfactory.Component)."""
    assigned: dict[str, list] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With)):
            for t in ast.walk(node):
                if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store):
                    assigned.setdefault(t.id, []).append(None)
    out: dict[str, str] = {}
    for var, values in assigned.items():
        if len(values) != 1 or not isinstance(values[0], ast.Call) or var in aliases:
            continue
        parts = _dotted(values[0].func)
        if not parts or parts[0] not in aliases or parts[0] in shadowed:
            continue
        full = ".".join(aliases[parts[0]].split(".") + parts[1:])
        try:
            rec = index.lookup(full)
        except Exception:  # noqa: BLE001
            rec = None
        if not rec:
            continue
        root = full.split(".")[0]
        if rec.get("kind") == "class":
            out[var] = rec.get("name", full)
            continue
        ret = (rec.get("signature") or "").rpartition("->")[2].strip()
        if re.fullmatch(r"[A-Za-z_][\w.]*", ret or "-"):
            for cand in (ret, f"{root}.{ret}"):
                r2 = index.lookup(cand) if _has(index, cand) else None
                if r2 and r2.get("kind") == "class":
                    out[var] = r2.get("name", cand)
                    break
    return out


# ---------------------------------------------------------------------- custom check library
@dataclass
class Check:
    """One user-editable check (databases/checks/*.toml)."""

    name: str
    prompt: str
    pattern: str | None = None
    require: str | None = None
    forbid: str | None = None
    severity: str = "error"
    modes: list[str] = field(default_factory=list)
    source: str = ""

    def applies(self, code: str, mode: str) -> bool:
        if self.modes and mode not in self.modes:
            return False
        return not self.pattern or re.search(self.pattern, code) is not None

    @property
    def deterministic(self) -> bool:
        return bool(self.require or self.forbid)

    def violated(self, code: str) -> bool:
        if self.require and re.search(self.require, code) is None:
            return True
        return bool(self.forbid and re.search(self.forbid, code))


def check_dirs() -> list[Path]:
    """Where checks are loaded from: databases/checks, then each folder in PIC_COPILOT_CHECKS."""
    dirs = [project_root() / "databases" / "checks"]
    for p in (os.environ.get("PIC_COPILOT_CHECKS") or "").split(os.pathsep):
        if p:
            dirs.append(Path(p))
    return dirs


def load_checks(dirs: list[Path] | None = None) -> tuple[list[Check], list[str]]:
    """All checks, and a list of problems (bad files are reported, not fatal). Later names override earlier."""
    checks: dict[str, Check] = {}
    problems: list[str] = []
    for d in dirs or check_dirs():
        if not Path(d).is_dir():
            continue
        for f in sorted(Path(d).glob("*.toml")):
            try:
                data = tomllib.loads(f.read_text())
            except (OSError, tomllib.TOMLDecodeError) as e:
                problems.append(f"{f}: {e}")
                continue
            items = data.get("check") if isinstance(data.get("check"), list) else [data]
            for item in items:
                if not item.get("name") or not item.get("prompt"):
                    problems.append(f"{f}: a check needs 'name' and 'prompt'")
                    continue
                bad = [k for k in ("pattern", "require", "forbid") if item.get(k) and not _valid_re(item[k])]
                if bad:
                    problems.append(f"{f}: check {item['name']!r} has an invalid regular expression in {bad[0]}")
                    continue
                sev = item.get("severity") or ("error" if item.get("require") or item.get("forbid") else "warning")
                checks[item["name"]] = Check(name=item["name"], prompt=item["prompt"].strip(), pattern=item.get("pattern"),
                                             require=item.get("require"), forbid=item.get("forbid"), severity=sev,
                                             modes=list(item.get("modes") or []), source=str(f))
    return list(checks.values()), problems


def _valid_re(p: str) -> bool:
    try:
        re.compile(p)
        return True
    except re.error:
        return False


def custom_checks(code: str, mode: str, checks: list[Check]) -> tuple[list[dict], list[Check]]:
    """(findings of violated deterministic checks, checks the LLM evaluator must apply)."""
    findings, review = [], []
    for c in checks:
        if not c.applies(code, mode):
            continue
        if c.deterministic:
            if c.violated(code):
                findings.append({"kind": "check", "severity": c.severity, "line": None, "check": c.name,
                                 "prompt": c.prompt, "message": f"check {c.name}: {c.prompt}"})
        else:
            review.append(c)
    return findings, review


# method -> how many of its leading arguments are layer indexes (Cell, Layout)
_LAYER_TAKERS = {"shapes": 1, "clear": 1, "begin_shapes_rec": 1, "each_shape": 1, "bbox_per_layer": 1,
                 "dbbox_per_layer": 1, "delete_layer": 1, "clear_layer": 1, "copy_layer": 2, "move_layer": 2,
                 "swap_layers": 2}


def literal_int_names(tree: ast.Module) -> dict[str, tuple[int, str | None]]:
    """Module-level names bound once to an int literal, each with the name bound beside it in a
    pair (``LAYER, DATATYPE = 41, 0`` -> ``{"LAYER": (41, "DATATYPE"), "DATATYPE": (0, None)}``); a
    name assigned anything else anywhere in the script is left out."""
    names: dict[str, tuple[int, str | None]] = {}
    for st in tree.body:
        if not isinstance(st, ast.Assign):
            continue
        for t in st.targets:
            if isinstance(t, ast.Name) and isinstance(st.value, ast.Constant) and type(st.value.value) is int:
                names[t.id] = (st.value.value, None)
            elif (isinstance(t, ast.Tuple) and isinstance(st.value, ast.Tuple) and len(t.elts) == len(st.value.elts)
                  and all(isinstance(e, ast.Name) for e in t.elts)):
                for i, (e, v) in enumerate(zip(t.elts, st.value.elts)):
                    if isinstance(v, ast.Constant) and type(v.value) is int:
                        partner = t.elts[i + 1].id if i == 0 and len(t.elts) == 2 else None
                        names[e.id] = (v.value, partner)
    counts: dict[str, int] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            counts[n.id] = counts.get(n.id, 0) + 1
    return {k: v for k, v in names.items() if counts.get(k) == 1}


@dataclass(frozen=True)
class LayerNumberAsIndex:
    """Where a GDS layer number stands in a layer index's place: ``args`` are the argument nodes it
    takes up (one, or the two of a ``(layer, datatype)`` pair written as two arguments), ``number`` the
    layer number, ``datatype`` the source text of its datatype when the script gives one."""
    call: ast.Call
    args: tuple[ast.expr, ...]
    number: int
    datatype: str | None


def gds_numbers_given_as_layer_indexes(tree: ast.Module) -> list[LayerNumberAsIndex]:
    """Arguments of the ``.shapes(N)``-like calls (``_LAYER_TAKERS``) that are an int literal or a name
    from :func:`literal_int_names`; ``.shapes(1, 0)`` / ``.delete_layer(99, 0)``, a layer and datatype
    where one index goes, is one such place."""
    names = literal_int_names(tree)

    def number(arg: ast.expr) -> tuple[int, str | None] | None:
        if isinstance(arg, ast.Constant) and type(arg.value) is int:
            return arg.value, None
        return names.get(arg.id) if isinstance(arg, ast.Name) else None

    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords):
            continue
        taken = _LAYER_TAKERS.get(node.func.attr)
        if taken == 1 and len(node.args) == 2 and number(node.args[0]) and number(node.args[1]):
            out.append(LayerNumberAsIndex(node, tuple(node.args), number(node.args[0])[0], ast.unparse(node.args[1])))
        elif taken and len(node.args) == taken:
            given = {ast.unparse(a) for a in node.args}
            for arg in node.args:
                if found := number(arg):
                    # move_layer(SRC, DST) with SRC, DST = 1, 2: two layers, not a layer and its datatype
                    out.append(LayerNumberAsIndex(node, (arg,), found[0], None if found[1] in given else found[1]))
    return sorted(out, key=lambda p: (p.args[0].lineno, p.args[0].col_offset))


def _int_pair(node: ast.AST) -> tuple[int, int] | None:
    """``(1, 99)`` / ``[1, 99]``: a layer and datatype written as two int literals."""
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2 and all(
            isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts):
        return node.elts[0].value, node.elts[1].value
    return None


def layer_pairs_given_as_layer_indexes(tree: ast.Module) -> list[tuple[ast.Call, ast.expr, tuple[int, int]]]:
    """``cell.shapes(LAYER99)`` with ``LAYER99 = (1, 99)``, or ``cell.shapes((1, 99))``: a (layer,
    datatype) pair where pya takes one layer index; the call fails with "No overload with matching
    arguments" once it runs, and in a branch that did not run (a real a12 script moved no piece, so
    its ``target.shapes(LAYER99)`` never ran) the script looks fine. Not in gdsfactory scripts, whose
    layers are such pairs. Returns (call, argument, pair) for each."""
    if any(isinstance(n, (ast.Import, ast.ImportFrom)) and "gdsfactory" in ast.unparse(n) for n in tree.body):
        return []
    stores = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    pairs = {st.targets[0].id: pair for st in tree.body if isinstance(st, ast.Assign) and len(st.targets) == 1
             and isinstance(st.targets[0], ast.Name) and stores.count(st.targets[0].id) == 1
             and (pair := _int_pair(st.value)) is not None}
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords
                and _LAYER_TAKERS.get(node.func.attr) == 1 and len(node.args) == 1):
            arg = node.args[0]
            pair = pairs.get(arg.id) if isinstance(arg, ast.Name) else _int_pair(arg)
            if pair is not None:
                out.append((node, arg, pair))
    return out


def layer_number_check(code: str) -> list[dict]:
    """``cell.shapes(20)`` / ``layer = 2; cell.shapes(layer)``: pya's ``shapes()`` (and
    ``begin_shapes_rec``, ``clear``, ``delete_layer``...) take a layer *index* from ``layout.layer(L, D)``;
    a GDS layer number written there names some other layer or none. Only integer literals (directly
    or through a module-level name bound to one) are reported, so an index variable is never flagged."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    out = []
    # a loop over the layout's layer indexes: a 0 written beside it stands for that loop's index (a real
    # b10 answer counted cell.shapes(0) in a function called inside `for li in layout.layer_indexes()`)
    loops = [ast.unparse(n.target) for n in ast.walk(tree) if isinstance(n, (ast.For, ast.comprehension))
             and isinstance(n.target, ast.Name) and isinstance(n.iter, ast.Call)
             and isinstance(n.iter.func, ast.Attribute) and n.iter.func.attr == "layer_indexes"]
    for found in gds_numbers_given_as_layer_indexes(tree):
        node, written = found.call, ", ".join(ast.unparse(a) for a in found.args)
        if found.number == 0 and found.datatype is None and len(set(loops)) == 1:
            use = (f"the layer index of the loop `for {loops[0]} in layout.layer_indexes()`: .{node.func.attr}"
                   f"({loops[0]}), passing {loops[0]} as an argument where the call is in a function")
        else:
            use = (f"li = layout.layer({found.number}, {found.datatype or 0}) (layer, datatype) and "
                   f".{node.func.attr}(li)")
        out.append({"kind": "api", "severity": "error", "line": node.lineno,
                    "message": f"line {node.lineno}: .{node.func.attr}({written}) takes a layer index, not the "
                               f"GDS layer number {found.number}: use {use}"})
    for node, arg, pair in layer_pairs_given_as_layer_indexes(tree):
        written = ast.unparse(arg)
        use = f"layout.layer(*{written})" if isinstance(arg, ast.Name) else f"layout.layer({pair[0]}, {pair[1]})"
        out.append({"kind": "api", "severity": "error", "line": node.lineno,
                    "message": f"line {node.lineno}: .{node.func.attr}({written}) takes a layer index, not the "
                               f"(layer, datatype) pair {pair[0]}/{pair[1]}: use li = {use} and .{node.func.attr}(li)"})
    return sorted(out, key=lambda f: f["line"])


#: what an integer box measures: ``X.bbox().width()``, ``X.bbox().left``
_BOX_MEASURES = frozenset({"width", "height", "area", "perimeter", "left", "right", "top", "bottom"})


def _box_measure(node: ast.AST) -> bool:
    """``X.bbox().width()`` / ``X.bbox().left``: a length of KLayout's integer box, in database units
    (``bbox()`` of a Shape, Cell, Instance, Polygon, Region or gdsfactory Component; ``dbbox()`` is
    the micrometre one)."""
    if isinstance(node, ast.Call) and not node.args:
        node = node.func
    return (isinstance(node, ast.Attribute) and node.attr in _BOX_MEASURES and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "bbox")


#: Region methods that give a Region again (so its polygons are integer ones, in database units)
_REGION_TO_REGION = frozenset({"merged", "sized", "dup", "smoothed", "snapped", "and_", "or_", "not_", "xor",
                               "interacting", "not_interacting", "inside", "not_inside", "outside", "not_outside",
                               "overlapping", "not_overlapping", "with_area", "without_area", "hulls", "holes",
                               "extents", "flatten", "rounded_corners", "minkowski_sum"})
#: Region iterations that give its integer polygons
_REGION_POLYGONS = frozenset({"each", "each_merged"})


def _integer_region(node: ast.AST, regions: set[str]) -> bool:
    """``pya.Region(...)`` (also ``db.Region``/``kdb.Region``), a name set once to one, or either
    followed by Region-to-Region methods (``pya.Region(shapes).merged()``)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _REGION_TO_REGION:
        node = node.func.value
    if isinstance(node, ast.Name):
        return node.id in regions
    return isinstance(node, ast.Call) and (_dotted(node.func) or [""])[-1] == "Region"


#: a cell's shape container, ``cell.shapes(li)``, and how its shapes are iterated (``.each()``,
#: ``.each_overlapping(box)``): a Shape's area() and perimeter() are integers too (``darea`` is µm²)
_SHAPES_CONTAINER = "shapes"
_SHAPES_ITERATORS = frozenset({"each", "each_overlapping", "each_touching"})


def _shapes_container(node: ast.AST, containers: set[str]) -> bool:
    """``cell.shapes(li)`` (any owner), or a name set once to one."""
    if isinstance(node, ast.Name):
        return node.id in containers
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == _SHAPES_CONTAINER and len(node.args) == 1)


def _integer_polygon_names(tree: ast.AST, regions: set[str], containers: set[str] = frozenset()) -> set[str]:
    """Loop names that run over a Region's integer polygons (``for p in merged:``,
    ``for p in region.each_merged():``) or a cell's shapes (``for s in cell.shapes(li):``, a real a12
    script: ``shapes = target.shapes(...)``, then ``for shape in shapes: if shape.area() < 1e-6``)."""
    out = set()
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.comprehension)) or not isinstance(loop.target, ast.Name):
            continue
        it = loop.iter
        if (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in _REGION_POLYGONS
                and not it.args):
            it = it.func.value
        if _integer_region(it, regions):
            out.add(loop.target.id)
            continue
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in _SHAPES_ITERATORS:
            it = it.func.value
        if _shapes_container(it, containers):
            out.add(loop.target.id)
    return out


def dbu_micron_comparisons(code: str) -> list[dict]:
    """``shape.bbox().width() < 0.5``: an integer box's length (database units, usually nm) compared with
    a fractional number, which a request gives in µm; a real a08 script "widened" no rectangle that
    way, and the run looked fine. The number may be written or a name set once to it (``MIN_W = 0.5``),
    and the length too (``width = shape.bbox().width()`` in a loop, then ``if width < 0.5``).
    The area or perimeter of a Region or of its polygons is integer too (database units squared): a real
    a12 script moved no piece "below 1 µm²" with ``for shape in pya.Region(...).merged(): if
    shape.area() < 0.001``; so is a cell's shapes' (``for shape in cell.shapes(li): if shape.area() < 1e-6``)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    stores = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    once = [st for st in ast.walk(tree) if isinstance(st, ast.Assign) and len(st.targets) == 1
            and isinstance(st.targets[0], ast.Name) and stores.count(st.targets[0].id) == 1]
    floats = {st.targets[0].id: st.value.value for st in once if st in tree.body and isinstance(st.value, ast.Constant)}
    regions: set[str] = set()
    for st in once:   # in source order, so a region made from a region counts
        if _integer_region(st.value, regions):
            regions.add(st.targets[0].id)
    containers = {st.targets[0].id for st in once if _shapes_container(st.value, set())}
    polygons = _integer_polygon_names(tree, regions, containers) - set(floats)

    def integer_measure(node: ast.AST) -> bool:
        """A box measure, or ``.area()``/``.perimeter()`` of an integer Region or polygon."""
        if _box_measure(node):
            return True
        if not (isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("area", "perimeter")):
            return False
        owner = node.func.value
        return (isinstance(owner, ast.Name) and owner.id in polygons) or _integer_region(owner, regions)

    lengths = {st.targets[0].id: st.value for st in once if integer_measure(st.value)}

    def measure(node: ast.AST) -> ast.AST | None:
        """The integer measure a side is or names (a name set once to one), else None."""
        return node if integer_measure(node) else lengths.get(node.id) if isinstance(node, ast.Name) else None

    def micrometres(node: ast.AST) -> float | None:
        v = node.value if isinstance(node, ast.Constant) else floats.get(node.id) if isinstance(node, ast.Name) else None
        return v if type(v) is float and 0 < abs(v) < 1000 and v != int(v) else None

    out, seen = [], set()
    for cmp in ast.walk(tree):
        if not isinstance(cmp, ast.Compare):
            continue
        sides = [cmp.left, *cmp.comparators]
        for a, b in zip(sides, sides[1:]):
            side, num = (a, b) if measure(a) is not None else (b, a) if measure(b) is not None else (None, None)
            value = micrometres(num) if side is not None else None
            if value is None or cmp.lineno in seen:
                continue
            seen.add(cmp.lineno)
            box = measure(side)
            text = ast.unparse(box)
            said = f"{side.id} (= {text})" if isinstance(side, ast.Name) else text
            number = f"{ast.unparse(num) + ' = ' if isinstance(num, ast.Name) else ''}{value:g}"
            if _box_measure(box):
                message = (f"{said} is in database units (integers, usually nm) but {number} is in µm: compare the "
                           f"micrometre box, {text.replace('.bbox()', '.dbbox()', 1)}, or convert ({text} * layout.dbu)")
            elif box.func.attr == "area":
                message = (f"{said} is in database units squared (integers; 1 µm² is 1e6 of them at dbu 0.001) but "
                           f"{number} is in µm²: convert ({text} * layout.dbu ** 2) and compare it with the request's "
                           f"value in µm²")
            else:
                message = (f"{said} is in database units (integers, usually nm) but {number} is in µm: convert "
                           f"({text} * layout.dbu)")
            out.append({"kind": "units", "severity": "error", "line": cmp.lineno,
                        "message": f"line {cmp.lineno}: {message}"})
    return sorted(out, key=lambda f: f["line"])


#: the placements of a cell by index (``pya.CellInstArray(child_index, trans, ...)``)
_INSTANCE_ARRAYS = frozenset({"CellInstArray", "DCellInstArray"})


def cells_placed_in_themselves(code: str) -> list[dict]:
    """``cell.insert(pya.DCellInstArray(cell.cell_index(), ...))``: a cell placed inside itself. The
    hierarchy becomes recursive and KLayout aborts (a real a20 candidate crashed the trial run on a
    copy of the layout, and the feedback could only say it crashed). The index may be a name set
    once to ``cell.cell_index()``."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    stores = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]

    def index_of(node: ast.AST) -> str | None:
        """The cell name whose ``cell_index()`` a node is."""
        if (isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute)
                and node.func.attr == "cell_index" and isinstance(node.func.value, ast.Name)):
            return node.func.value.id
        return None

    indexes = {st.targets[0].id: index_of(st.value) for st in ast.walk(tree)
               if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
               and stores.count(st.targets[0].id) == 1 and index_of(st.value)}
    out = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "insert"
                and isinstance(call.func.value, ast.Name) and call.args and isinstance(call.args[0], ast.Call)
                and (_dotted(call.args[0].func) or [""])[-1] in _INSTANCE_ARRAYS and call.args[0].args):
            continue
        child = call.args[0].args[0]
        owner = index_of(child) or (indexes.get(child.id) if isinstance(child, ast.Name) else None)
        parent = call.func.value.id
        if owner == parent:
            out.append({"kind": "api", "severity": "error", "line": call.lineno,
                        "message": f"line {call.lineno}: {parent}.insert(...) places {parent} inside itself "
                                   f"({ast.unparse(child)} is {parent}'s own index): the hierarchy becomes recursive "
                                   f"and KLayout aborts. Place another cell's index in {parent}, or insert {parent} "
                                   f"into the cell that should hold it."})
    return sorted(out, key=lambda f: f["line"])


def endless_iterator_loops(code: str) -> list[dict]:
    """``while not it.at_end():`` whose body never calls ``it.next()``: KLayout's iterators (shapes,
    instances, cells) advance only with next(), so the loop never ends; a real m12 candidate ran into
    the 120 s limit in two rounds, each costing two minutes. The finding names the iterator
    (``advance``) for :func:`pic_copilot.agents.fixes.advance_iterator_loops`."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    out = []
    for loop in ast.walk(tree):
        if not (isinstance(loop, ast.While) and isinstance(loop.test, ast.UnaryOp) and isinstance(loop.test.op, ast.Not)
                and isinstance(loop.test.operand, ast.Call) and isinstance(loop.test.operand.func, ast.Attribute)
                and loop.test.operand.func.attr == "at_end"):
            continue
        it = ast.unparse(loop.test.operand.func.value)
        body = ast.Module(body=loop.body, type_ignores=[])
        advanced = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "next"
                       and ast.unparse(n.func.value) == it for n in ast.walk(body))
        reassigned = any(isinstance(n, (ast.Assign, ast.AugAssign)) and it in {ast.unparse(t) for t in (
            n.targets if isinstance(n, ast.Assign) else [n.target])} for n in ast.walk(body))
        left = any(isinstance(n, (ast.Break, ast.Return, ast.Raise)) for n in ast.walk(body))
        if advanced or reassigned or left:
            continue
        out.append({"kind": "loop", "severity": "error", "line": loop.lineno, "advance": it,
                    "message": f"line {loop.lineno}: `while not {it}.at_end():` never calls {it}.next(), so the loop "
                               f"never ends (KLayout's iterators advance only with next()): add {it}.next() as the "
                               f"loop's last statement, or loop with `for ... in {it}.each()`."})
    return out


def open_layout_globals_read(tree: ast.AST) -> set[str]:
    """The open layout's globals (:data:`BRIDGE_GLOBALS` but ``pya``: layout, cell, dbu...) that a
    script reads and never assigns or defines itself: a script that has any is an edit of the open
    layout. A name it imports still counts as read (``from gdsfactory import cell`` hides the open
    layout's cell; it does not make one)."""
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return (set(BRIDGE_GLOBALS) - {"pya"}) & loaded - bound


def engine_import_in_open_layout_edit(code: str, found: list[dict]) -> list[dict]:
    """An edit of the open layout (:func:`open_layout_globals_read`) that imports gdsfactory (or
    another engine-only package) runs in the engine's Python, where the open layout is no object:
    pyflakes then reports ``layout`` as undefined, and a 1.5B model answers that by making a new empty
    Layout or importing more gdsfactory (real a06, a07, a09, a17, a20 candidates). Those
    undefined-name findings become one that names the import and the cause.

    Args:
        code: the script (it parses; :func:`static_findings` checked).
        found: the findings so far, the pyflakes ones among them.
    """
    from ..execution.routing import ENGINE_ONLY_MODULES

    tree = ast.parse(code)
    read = open_layout_globals_read(tree)
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
               and any(m.split(".")[0] in ENGINE_ONLY_MODULES
                       for m in ([n.module or ""] if isinstance(n, ast.ImportFrom) else [a.name for a in n.names]))]
    if not (read and imports):
        return found
    undefined = re.compile(rf"line \d+: undefined name '({'|'.join(sorted(read))})'")
    maybe = re.compile(rf"line \d+: '({'|'.join(sorted(read))})' may be undefined")   # after a star import
    reported = sorted({m.group(1) for f in found for m in (undefined.match(f.get("message", "")),
                                                           maybe.match(f.get("message", ""))) if m})
    if not reported:
        return found
    kept = [f for f in found if not (f.get("code") == "UndefinedName" and undefined.match(f.get("message", "")))]
    first = imports[0]
    return kept + [{"kind": "api", "severity": "error", "line": first.lineno,
                    "message": f"line {first.lineno}: `{ast.unparse(first)}` makes this script run outside KLayout "
                               f"(that package is not available inside it), where the open layout's globals "
                               f"({', '.join(reported)}) are not defined: an edit of the open layout uses pya and those "
                               f"globals only; remove the import{'s' if len(imports) > 1 else ''} of "
                               + ", ".join(sorted({(n.module if isinstance(n, ast.ImportFrom) else n.names[0].name) or ""
                                                   for n in imports}))}]


def static_findings(code: str, mode: str, index=None, checks: list[Check] | None = None,
                    interactive_pya: bool = False, observations: dict | None = None) -> tuple[list[dict], list[Check]]:
    """All static findings for a script, and the review checks for the LLM evaluator.

    ``observations``: observed port names per factory (see :func:`api_check`); None leaves them out."""
    from ..execution import drc_deck

    if drc_deck.is_deck(code):   # a KLayout DRC deck (Ruby DSL): its own checks, no Python ones
        return drc_deck.static_findings(code), []
    predefined = BRIDGE_GLOBALS if interactive_pya else ()
    found = syntax_check(code)
    if found:
        return found, []
    found += pyflakes_check(code, predefined)
    if mode == "interactive" and not interactive_pya:
        found = engine_import_in_open_layout_edit(code, found)
    found += api_check(code, index, predefined, observations=observations)
    found += layer_number_check(code)
    found += dbu_micron_comparisons(code)
    found += endless_iterator_loops(code)
    found += cells_placed_in_themselves(code)
    cf, review = custom_checks(code, mode, checks or [])
    return found + cf, review


# ---------------------------------------------------------------------- constant data written out
#: calls that write their (first) argument to a file or a table
_WRITERS = frozenset({"dump", "dumps", "writerow", "writerows", "savetxt", "DataFrame", "to_csv"})


def number_literals(node: ast.AST) -> list[float]:
    """The numbers written literally in a syntax tree (``True`` is not one)."""
    return [float(n.value) for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, (int, float)) and not isinstance(n.value, bool)]


def _is_constant_display(node: ast.AST) -> bool:
    """A list/tuple/dict/set display built of constants only (no names or calls inside)."""
    if not isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set)):
        return False
    for n in ast.walk(node):
        if isinstance(n, (ast.Name, ast.Call, ast.Attribute, ast.Subscript, ast.ListComp, ast.DictComp,
                          ast.GeneratorExp, ast.SetComp, ast.BinOp, ast.JoinedStr)):
            return False
    return True


def unread_assignments(tree: ast.AST) -> list[ast.AST]:
    """The values assigned to names that nothing reads: ``slab_extension = 4.0`` in a script that
    never uses ``slab_extension`` (a real m01 script kept the requested 4 µm there and built a
    6.5 µm slab). A number written only there is stated, not used. Only values without a call:
    ``ref = c << f(width=2)`` places a device even when ``ref`` is never read."""
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}
    out = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
        if targets and all(isinstance(t, ast.Name) and t.id not in read for t in targets) \
                and not any(isinstance(n, ast.Call) or isinstance(n, ast.BinOp) and isinstance(n.op, ast.LShift)
                            for n in ast.walk(node.value)):
            out.append(node.value)
    return out


def written_constant_data(tree: ast.AST) -> list[tuple[ast.Call, ast.AST]]:
    """(writing call, the display of constants it writes) for each write of a constant table:
    ``json.dump({"in1": 20, "out1": 20}, f)``, or ``rows = [[1, 2.5]]`` once and never changed, then
    ``writer.writerows(rows)``. Numbers in such a display are results typed in, not values the
    script works with."""
    assigned: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    assigned.setdefault(t.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            assigned.setdefault(node.target.id, []).append(node.value if node.value is not None else node)
    mutated = {n.func.value.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and isinstance(n.func.value, ast.Name) and n.func.attr in ("append", "extend", "update", "insert")}
    mutated |= {t.value.id for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)}

    def constant_data(arg: ast.AST) -> ast.AST | None:
        if _is_constant_display(arg):
            return arg
        if isinstance(arg, ast.Name) and arg.id not in mutated and len(assigned.get(arg.id, [])) == 1 \
                and _is_constant_display(assigned[arg.id][0]):
            return assigned[arg.id][0]
        return None

    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if fn not in _WRITERS or not node.args:
            continue
        data = constant_data(node.args[1] if fn == "savetxt" and len(node.args) > 1 else node.args[0])
        if data is not None:
            out.append((node, data))
    return out
