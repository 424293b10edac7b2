"""Certain fixes: mistakes a small model makes whose correction leaves no doubt, made on the
script itself instead of costing a revision round (a 1.5B model asked to fix one of them often
breaks something else, or repeats the mistake for three rounds).

Each fix is a function ``(code, mode) -> (code, description or None)``; :func:`apply_fixes`
runs them all; :func:`add_missing_imports`, :func:`rename_reordered_keywords`, :func:`init_counters`,
:func:`drop_undefined_unpacking` and :func:`quote_pdk_layer_names` act on the static checks' findings
(undefined conventional aliases, keywords with their words reordered, counters never started,
``**kwargs`` copied from a signature, PDK layer names written as variables);
:func:`request_free_fixes` is the one sequence of them all that the pipeline and the Fix macro
flow apply.
"""
from __future__ import annotations

import ast
import functools
import re
from typing import Callable

from ..checks.static import IMPORTS, needs_pdk_activation
from ..execution.routing import needs_engine_python
from ..execution.report import ExecutionReport

_UNDEFINED = re.compile(r"undefined name '(\w+)'")
# `from gdsfactory import gf`: the alias of a module imported as if it were a member of it
_FROM_ALIAS = re.compile(r"^(?P<indent>[ \t]*)from\s+(?P<mod>[\w.]+)\s+import\s+(?P<name>\w+)\s*$", re.MULTILINE)
_PYA_IMPORT = re.compile(r"^[ \t]*(?:import\s+klayout\.db\s+as\s+(?P<a>\w+)|from\s+klayout\s+import\s+db\s+as\s+(?P<b>\w+)"
                         r"|import\s+pya|from\s+klayout\s+import\s+db|import\s+klayout\.db|import\s+klayout)[ \t]*(?:#.*)?$", re.MULTILINE)
_WRITE_GDS = re.compile(r"\.write_gds\((?P<args>[^()]*)\)")


def _insert_at_top(code: str, lines: list[str]) -> str:
    """``lines`` after a module docstring and __future__ imports."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return "".join(l + "\n" for l in lines) + code
    at = 0
    for node in tree.body:
        is_doc = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        if (is_doc and node is tree.body[0]) or (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            at = node.end_lineno
        else:
            break
    src = code.splitlines(keepends=True)
    return "".join(src[:at] + [l + "\n" for l in lines] + src[at:])


#: conventional aliases of a plain Python script only (KLayout's own Python has pya for them)
SANDBOX_IMPORTS = {"rdb": "from klayout import rdb", "lay": "from klayout import lay", "tl": "from klayout import tl"}


def add_missing_imports(code: str, findings: list[dict], mode: str = "interactive") -> tuple[str, list[str]]:
    """Add the imports that pyflakes' undefined-name findings call for, when the name is a
    conventional module alias (np, gf, csv, ...; in a sandbox script also rdb, the report
    database module the recipes import). Returns the script and the import lines added."""
    known = {**IMPORTS, **(SANDBOX_IMPORTS if mode == "sandbox" else {})}
    wanted = []
    for f in findings:
        m = _UNDEFINED.search(f.get("message", "")) if f.get("kind") == "pyflakes" else None
        if m and m.group(1) in known and known[m.group(1)] not in wanted:
            wanted.append(known[m.group(1)])
    if not wanted:
        return code, []
    return _insert_at_top(code, wanted), wanted


def init_counters(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``failing += 1`` with ``failing`` never assigned: a counter the script forgot to start. It
    is started at 0 before the top-level statement that first counts (a small model told "undefined
    name 'failing'" rewrote the same line for three rounds in a real run). Only names that are
    never assigned otherwise, only ``+=``/``-=`` by a number, only at module level or in loops.

    Returns the script and the names started.
    """
    undefined = _undefined_names(findings)
    tree = _parsed(code) if undefined else None
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


def _offset(lines: list[str], lineno: int, col_bytes: int) -> int:
    """The character offset in the script of an AST position (line, UTF-8 byte column)."""
    return sum(len(l) for l in lines[:lineno - 1]) + len(lines[lineno - 1].encode()[:col_bytes].decode(errors="ignore"))


def drop_undefined_unpacking(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """``f(width=0.5, **kwargs)`` at a place where no ``kwargs`` exists: a library function's own
    signature copied into a call (in a real run all three candidates of a round failed only on
    it). The unpacking argument is removed; the call keeps every argument it names. Only names
    that are assigned nowhere in the script.

    Returns the script and the arguments removed.
    """
    undefined = _undefined_names(findings)
    tree = _parsed(code) if undefined else None
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
            start, end = _offset(lines, a.lineno, a.col_offset), _offset(lines, a.end_lineno, a.end_col_offset)
            if i > 0:   # from the comma after the previous argument
                prev_end = _offset(lines, args[i - 1].end_lineno, args[i - 1].end_col_offset)
                start = prev_end + code[prev_end:start].index(",")
            elif i + 1 < len(args):   # the first argument: up to the next one
                end = _offset(lines, args[i + 1].lineno, args[i + 1].col_offset)
            cuts.append((start, end, ("*" if isinstance(a, ast.Starred) else "**") + value.id))
    if not cuts:
        return code, []
    for start, end, _ in sorted(cuts, reverse=True):
        code = code[:start] + code[end:]
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
    tree = _parsed(code) if undefined and "gdsfactory" in code else None
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
    return _replace_spans(code, spans), [f'wrote {n} as the PDK layer name "{n.upper()}"' for n in dict.fromkeys(quoted)]


_FUNCTION_TYPES = ("function", "method", "builtin_function_or_method", "method-wrapper")
_FN = "(?:" + "|".join(_FUNCTION_TYPES) + ")"
# the messages that prove a value is a function the script forgot to call, and which node shows it
_UNCALLED_ATTR = re.compile(rf"'{_FN}' object has no attribute '(\w+)'")             # f.width: f is the function
_UNCALLED_USE = re.compile(rf"'{_FN}' object is not (?:subscriptable|iterable)")        # f[0], for x in f
_UNCALLED_OPERAND = re.compile(r"unsupported operand type\(s\) for [^:]+: '([\w-]+)' and '([\w-]+)'")
_UNCALLED_FORMAT = re.compile(rf"unsupported format string passed to {_FN}\.__format__")


def _functions_shown(message: str, on_line: list[ast.AST]) -> list[ast.AST]:
    """The expressions on the failing line that the error message proves are function objects."""
    m = _UNCALLED_ATTR.search(message)
    if m:
        return [n.value for n in on_line if isinstance(n, ast.Attribute) and n.attr == m.group(1)]
    if _UNCALLED_USE.search(message):
        return ([n.value for n in on_line if isinstance(n, ast.Subscript)]
                + [n.iter for n in on_line if isinstance(n, (ast.For, ast.comprehension))])
    m = _UNCALLED_OPERAND.search(message)
    if m:
        sides = [m.group(1) in _FUNCTION_TYPES, m.group(2) in _FUNCTION_TYPES]
        return [x for n in on_line if isinstance(n, ast.BinOp) for x, fn in zip((n.left, n.right), sides) if fn]
    if _UNCALLED_FORMAT.search(message):
        return [n.value for n in on_line if isinstance(n, ast.FormattedValue) and n.format_spec is not None]
    return []


def call_uncalled_methods(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``bbox = c.bbox`` then ``bbox.width``: the run failed with "'function' object has no attribute
    'width'", which proves the value is a method the script forgot to call (a real run kept it for
    three rounds, then met the same with KLayout's ``DBox.width``, a method too). The attribute
    read behind the function object the message and the failing line show becomes a call with no
    arguments: ``bbox = c.bbox()`` where the name was set, or ``box.width() * box.height()`` in
    place. Also for "not subscriptable / iterable", "unsupported operand type(s) ... 'method'" and
    a format spec applied to a method. Only attribute reads, never a bare name; the next run
    decides whether the call is right.

    Returns the script and what was called.
    """
    exc = rep.exception or {}
    failing = rep.failing_line()
    tree = _parsed(code) if failing is not None else None
    if tree is None:
        return code, []
    on_line = [n for n in ast.walk(tree) if getattr(n, "lineno", None) == failing]
    shown = _functions_shown(str(exc.get("message") or ""), on_line)
    assigned = {t.id: st.value for st in ast.walk(tree) if isinstance(st, ast.Assign) and len(st.targets) == 1
                for t in st.targets if isinstance(t, ast.Name)}
    stores = [t.id for st in ast.walk(tree) if isinstance(st, (ast.Assign, ast.AugAssign, ast.For))
              for t in ast.walk(st.targets[0] if isinstance(st, ast.Assign) else st.target) if isinstance(t, ast.Name)]
    spans, called = set(), []
    for v in shown:
        if isinstance(v, ast.Name) and v.id in assigned and stores.count(v.id) == 1:
            v = assigned[v.id]
        if isinstance(v, ast.Attribute) and v.end_lineno == v.lineno and (v.end_lineno, v.end_col_offset) not in spans:
            spans.add((v.end_lineno, v.end_col_offset))
            called.append(ast.unparse(v))
    if not spans:
        return code, []
    return (_replace_spans(code, [(l, c, c, "()") for l, c in spans]),
            [f"called {', '.join(f'{c}()' for c in dict.fromkeys(called))} (the run showed "
             f"{'it is a method' if len(set(called)) == 1 else 'they are methods'}, not a value)"])


def _parsed(code: str) -> ast.Module | None:
    """The script's syntax tree, or None when it does not parse (then no fix applies)."""
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def rename_reordered_keywords(code: str, findings: list[dict]) -> tuple[str, list[str]]:
    """Rename a keyword argument the called function does not have when exactly one of its real
    parameters is made of the same words in another order (``mmi1x2(mmi_length=12)`` ->
    ``length_mmi=12``): the designer's value stays where it was meant to go, where a revision by
    the model tends to drop the argument. Uses the API check's findings (``same_words``).

    Returns the script and what was renamed.
    """
    renames = {(f["line"], f["keyword"]): f["same_words"][0] for f in findings
               if f.get("kind") == "api" and f.get("keyword") and len(f.get("same_words") or ()) == 1}
    tree = _parsed(code) if renames else None
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
    lines = code.splitlines(keepends=True)
    for line, col, old, new in sorted(edits, reverse=True):
        raw = lines[line - 1].encode()
        if raw[col:col + len(old.encode())] == old.encode():
            lines[line - 1] = (raw[:col] + new.encode() + raw[col + len(old.encode()):]).decode()
    return "".join(lines), [f"renamed {old}= to {new}=" for _, _, old, new in sorted(edits)]


def fix_alias_import(code: str, mode: str) -> tuple[str, str | None]:
    """`from gdsfactory import gf` -> `import gdsfactory as gf` (and the same for np, plt, ...)."""
    done = []

    def sub(m: re.Match) -> str:
        right = IMPORTS.get(m.group("name"))
        if right and right == f"import {m.group('mod')} as {m.group('name')}":
            done.append(m.group(0).strip())
            return m.group("indent") + right
        return m.group(0)

    out = _FROM_ALIAS.sub(sub, code)
    return out, (f"replaced `{done[0]}` by `{IMPORTS[done[0].split()[-1]]}`" if done else None)


def fix_pdk_activation(code: str, mode: str) -> tuple[str, str | None]:
    """gdsfactory 9 builds nothing without an active PDK: add `gf.gpdk.PDK.activate()` after the import."""
    if not needs_pdk_activation(code):
        return code, None
    m = re.search(r"^[ \t]*import\s+gdsfactory\s+as\s+(\w+)[ \t]*$", code, re.MULTILINE)
    if m:
        line = f"{m.group(1)}.gpdk.PDK.activate()"
    elif re.search(r"^[ \t]*import\s+gdsfactory[ \t]*$", code, re.MULTILINE):
        m = re.search(r"^[ \t]*import\s+gdsfactory[ \t]*$", code, re.MULTILINE)
        line = "gdsfactory.gpdk.PDK.activate()"
    else:
        return code, None
    if m.group(0).startswith((" ", "\t")):
        return code, None   # an import inside a function: leave it to the checks
    out = code[:m.end()] + "\n" + line + code[m.end():]
    return out, f"added `{line}` after the gdsfactory import"


def fix_pya_import_in_klayout(code: str, mode: str) -> tuple[str, str | None]:
    """An interactive pya-only script that imports `klayout.db` would be sent to the sandbox,
    where the open layout does not exist: inside KLayout `pya` is predefined, so the import goes
    (an alias such as `kdb` becomes `kdb = pya`)."""
    if mode != "interactive" or "gdsfactory" in code or not re.search(r"\b(layout|cell)\b", code):
        return code, None
    if not re.search(r"klayout", code):
        return code, None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, None
    assigned = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    if {"layout", "cell"} & assigned and re.search(r"\b(Layout\(\)|\.read\()", code):
        return code, None   # it builds or reads its own layout: a standalone script
    changed = []

    def sub(m: re.Match) -> str:
        alias = m.group("a") or m.group("b")
        changed.append(m.group(0).strip())
        return f"{alias} = pya" if alias and alias != "pya" else ""

    out = re.sub(r"\bklayout\.db\.", "pya.", _PYA_IMPORT.sub(sub, code))
    if not changed or "klayout" in out:
        return code, None
    return out, f"removed `{changed[0]}` (pya is predefined in KLayout)"


def fix_write_gds_metadata(code: str, mode: str) -> tuple[str, str | None]:
    """KLayout 0.28.5 cannot read gdsfactory 9's default GDS: interactive scripts write it with
    `with_metadata=False`."""
    if mode != "interactive" or "gdsfactory" not in code:
        return code, None
    n = 0

    def sub(m: re.Match) -> str:
        nonlocal n
        args = m.group("args").strip()
        if "with_metadata" in args or not args:
            return m.group(0)
        n += 1
        return f".write_gds({args}, with_metadata=False)"

    out = _WRITE_GDS.sub(sub, code)
    return out, ("added with_metadata=False to write_gds" if n else None)


def fix_gdsfactory_int_layers(code: str, mode: str) -> tuple[str, str | None]:
    """gdsfactory 9 reads ``layer=10`` as an index into its layout's layer list, not GDS layer 10/0
    (``add_label(..., layer=10)`` drew on 111/0 in a test): a whole-number ``layer=`` keyword in a
    gdsfactory script becomes the ``(10, 0)`` the designer meant, and the designer's notation
    written as Python, ``layer=10/0`` (a division by zero: all three candidates of a round of a real
    run), becomes ``(10, 0)`` too. KLayout's own keyword forms
    (``LayerInfo(layer=10, datatype=0)``, ``layout.layer(...)``) are left alone."""
    if "gdsfactory" not in code:
        return code, None
    tree = _parsed(code)
    if tree is None:
        return code, None
    spans = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if func in ("LayerInfo", "layer", "find_layer") or any(k.arg == "datatype" for k in node.keywords):
            continue
        for k in node.keywords:
            v = k.value
            if not (k.arg or "").startswith("layer") or k.arg == "layers" or v.lineno != v.end_lineno:
                continue   # layer=, layer_slab=, layer_trench=: each a layer spec
            if isinstance(v, ast.Constant) and type(v.value) is int:
                spans.append((v.lineno, v.col_offset, v.end_col_offset, f"({v.value}, 0)", f"{k.arg}={v.value}"))
            elif (isinstance(v, ast.BinOp) and isinstance(v.op, ast.Div)   # layer=10/0: the designer's "10/0"
                  and all(isinstance(x, ast.Constant) and type(x.value) is int for x in (v.left, v.right))):
                spans.append((v.lineno, v.col_offset, v.end_col_offset, f"({v.left.value}, {v.right.value})",
                              f"{k.arg}={v.left.value}/{v.right.value}"))
    if not spans:
        return code, None
    _, _, _, new, old = spans[0]
    return (_replace_spans(code, [s[:4] for s in spans]),
            f"wrote {old} as {old.split('=')[0]}={new}" + (f" and {len(spans) - 1} more" if len(spans) > 1 else "")
            + " (gdsfactory reads a bare number as a layer index; 10/0 is a division)")


_KLAYOUT_SIBLINGS = ("rdb", "tl", "lay")   # pip klayout splits pya into klayout.db and these


def fix_klayout_submodule_names(code: str, mode: str) -> tuple[str, str | None]:
    """``import klayout.db as pya`` then ``pya.ReportDatabase(...)``: inside KLayout pya has every
    class, but pip klayout keeps the report database in ``klayout.rdb`` (and the timer etc. in
    ``klayout.tl``), so the script fails ("module 'klayout.db' has no attribute 'ReportDatabase'"
    for two rounds of a real run). Such names are written ``klayout.rdb.ReportDatabase`` and the
    module is imported. Only names the installed klayout.db lacks and a sibling module has."""
    if "klayout" not in code:
        return code, None
    tree = _parsed(code)
    if tree is None:
        return code, None
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name == "klayout.db" and a.asname}
        elif isinstance(node, ast.ImportFrom) and node.module == "klayout":
            aliases |= {a.asname or a.name for a in node.names if a.name == "db"}
    if not aliases:
        return code, None
    import importlib

    try:
        kdb = importlib.import_module("klayout.db")
        siblings = {m: importlib.import_module(f"klayout.{m}") for m in _KLAYOUT_SIBLINGS}
    except ImportError:
        return code, None
    spans, mods = [], []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and not hasattr(kdb, node.attr)):
            mod = next((m for m, sib in siblings.items() if hasattr(sib, node.attr)), None)
            if mod and node.lineno == node.end_lineno:
                spans.append((node.lineno, node.col_offset, node.end_col_offset, f"klayout.{mod}.{node.attr}"))
                mods += [mod] if mod not in mods else []
    if not spans:
        return code, None
    lines = code.splitlines(keepends=True)
    for line, start, end, text in sorted(spans, reverse=True):   # AST columns are UTF-8 byte offsets
        raw = lines[line - 1].encode()
        lines[line - 1] = (raw[:start] + text.encode() + raw[end:]).decode()
    out = _insert_at_top("".join(lines), [f"import klayout.{m}" for m in mods])
    return out, f"wrote {spans[0][3]} (pip klayout keeps it outside klayout.db)"


def _at_end_loops(tree: ast.AST):
    """(loop, iterator name) for every ``while not it.at_end():`` loop of KLayout's iterators."""
    for n in ast.walk(tree):
        t = n.test if isinstance(n, ast.While) else None
        if (isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not) and isinstance(t.operand, ast.Call)
                and isinstance(t.operand.func, ast.Attribute) and t.operand.func.attr == "at_end"
                and isinstance(t.operand.func.value, ast.Name)):
            yield n, t.operand.func.value.id


def _is_next_call(st: ast.AST, name: str) -> bool:
    return (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute)
            and st.value.func.attr == "next" and isinstance(st.value.func.value, ast.Name) and st.value.func.value.id == name)


def fix_iterator_next_outside_loop(code: str, mode: str) -> tuple[str, str | None]:
    """``while not it.at_end(): ...`` with ``it.next()`` written one indent too far left, right after
    the loop: the loop never advances and runs until the time limit (three rounds of a real
    interactive run, 30 s each). When the loop's body never calls ``it.next()`` and the statement
    right after the loop is that call, it is indented into the loop's body."""
    tree = _parsed(code) if "at_end" in code else None
    if tree is None:
        return code, None
    parents = {id(c): p for p in ast.walk(tree) for f in ("body", "orelse", "finalbody")
               for c in (getattr(p, f, None) if isinstance(getattr(p, f, None), list) else [])}
    lines = code.splitlines(keepends=True)
    moved = []
    for loop, name in _at_end_loops(tree):
        if any(_is_next_call(st, name) for st in ast.walk(loop) if isinstance(st, ast.stmt)):
            continue
        parent = parents.get(id(loop))
        siblings = next((getattr(parent, f) for f in ("body", "orelse", "finalbody")
                         if loop in (getattr(parent, f, None) or [])), []) if parent else []
        after = siblings[siblings.index(loop) + 1] if loop in siblings[:-1] else None
        if after is None or not _is_next_call(after, name) or after.lineno != after.end_lineno:
            continue
        body_indent = lines[loop.body[0].lineno - 1][:loop.body[0].col_offset]
        lines[after.lineno - 1] = body_indent + lines[after.lineno - 1].lstrip()
        moved.append(name)
    if not moved:
        return code, None
    return "".join(lines), f"moved {moved[0]}.next() into its while loop (it never advanced and would run forever)"


FIXES = (fix_alias_import, fix_pdk_activation, fix_pya_import_in_klayout, fix_write_gds_metadata, fix_gdsfactory_int_layers,
         fix_klayout_submodule_names, fix_iterator_next_outside_loop)


def apply_fixes(code: str, mode: str) -> tuple[str, list[str]]:
    """Every certain fix that applies; returns the script and what was changed."""
    done = []
    for fix in FIXES:
        code, what = fix(code, mode)
        if what:
            done.append(what)
    return code, done


def request_free_fixes(code: str, mode: str, findings_of: Callable[[str], list[dict]]) -> tuple[str, list[str]]:
    """The certain fixes that need no request words, in their one order: :func:`apply_fixes`,
    then, from the static findings of that script, :func:`add_missing_imports` and
    :func:`rename_reordered_keywords`. The pipeline runs them after its request-based fixes; the
    Fix macro flow runs them on a broken macro before any revision.

    Args:
        code: the script.
        mode: "interactive" or "sandbox".
        findings_of: the caller's static check of a script (it decides the symbol index, the
            check library...); called once, on the script after :func:`apply_fixes`.

    Returns:
        The script and what was changed, in the order it was done.
    """
    code, done = apply_fixes(code, mode)
    findings = findings_of(code)
    code, added = add_missing_imports(code, findings, mode)
    code, renamed = rename_reordered_keywords(code, findings)
    code, started = init_counters(code, findings)
    code, unpacked = drop_undefined_unpacking(code, findings)
    code, layer_names = quote_pdk_layer_names(code, findings)
    return code, (done + [f"added {a}" for a in added] + renamed + [f"started the counter {n} = 0" for n in started]
                  + unpacked + layer_names)


_ACTIVE_CELL_CALLS = {"top_cell", "top_cells", "active_cell"}


def _is_layout_source(node: ast.AST) -> tuple[bool, list[str]]:
    """Whether ``node`` builds or reads a Layout (``pya.Layout()``, ``klayout.db.Layout.read("f")``,
    ``pya.Layout().read("f")``), and the file names it reads."""
    if not isinstance(node, ast.Call):
        return False, []
    f = node.func
    files = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if isinstance(f, ast.Attribute) and f.attr == "Layout" or isinstance(f, ast.Name) and f.id == "Layout":
        return True, []
    if isinstance(f, ast.Attribute) and f.attr == "read":
        inner = f.value
        if isinstance(inner, ast.Attribute) and inner.attr == "Layout" or _is_layout_source(inner)[0]:
            return True, files
    return False, []


def _active_cell_of_layout(node: ast.AST) -> bool:
    """``layout.top_cell()``, ``layout.top_cells()[0]``, ``layout.active_cell``: the script looking for
    the cell of a layout it opened itself."""
    while isinstance(node, (ast.Subscript, ast.Call)):
        node = node.value if isinstance(node, ast.Subscript) else node.func
    return (isinstance(node, ast.Attribute) and node.attr in _ACTIVE_CELL_CALLS
            and isinstance(node.value, ast.Name) and node.value.id == "layout")


def _replace_spans(code: str, spans) -> str:
    """``code`` with each one-line span ``(line, start column, end column, text)`` replaced by its
    text; columns are the AST's UTF-8 byte offsets (a 'µm' comment earlier on the line counts twice)."""
    lines = code.splitlines(keepends=True)
    for line, start, end, text in sorted(spans, reverse=True):
        raw = lines[line - 1].encode()
        lines[line - 1] = (raw[:start] + text.encode() + raw[end:]).decode()
    return "".join(lines)


def _runs_in_klayout(code: str, mode: str) -> bool:
    """True if ``code`` (after the certain pya-import fix) runs on the open layout in KLayout, where
    the globals ``layout`` and ``cell`` exist; a script that imports an engine-only module (gdsfactory,
    the pip ``klayout`` package that the fix cannot remove, ...) runs in the sandbox, where they do not."""
    return mode == "interactive" and not needs_engine_python(fix_pya_import_in_klayout(code, mode)[0])


def _writes_requested_file(tree: ast.AST, request: str) -> bool:
    """True if the script writes its layout (``layout.write("x.gds")``) to a file the request names:
    then the layout it builds is the deliverable, not a copy nobody sees."""
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "write" \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "layout":
            for a in n.args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.rsplit("/", 1)[-1] in request:
                    return True
    return False


def drop_reopened_layout(code: str, mode: str, request: str, inputs=()) -> tuple[str, str | None]:
    """An interactive pya script that makes its own ``layout`` (``layout = pya.Layout()``, or reads a
    file the request never names) would edit a copy nobody sees instead of the designer's open
    layout, which already is the global ``layout`` (and its active cell ``cell``). Those module-level
    statements go, with the ``layout.read(...)`` and ``cell = layout.top_cell()`` that belong to them.

    Args:
        code: the script.
        mode: the request's mode; only "interactive" scripts are changed.
        request: the designer's words; a file named there is a real input and is left alone.
        inputs: files the run starts with (also real inputs).
    """
    if mode != "interactive" or "gdsfactory" in code:
        return code, None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, None
    named = {str(i).rsplit("/", 1)[-1] for i in inputs or ()}
    drop: list[ast.stmt] = []
    reopened = False
    for st in tree.body:
        value = st.value if isinstance(st, (ast.Assign, ast.Expr)) else None
        targets = [t.id for t in st.targets if isinstance(t, ast.Name)] if isinstance(st, ast.Assign) else []
        if value is None:
            continue
        is_src, files = _is_layout_source(value)
        if isinstance(st, ast.Expr) and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr == "read" and isinstance(value.func.value, ast.Name) \
                and value.func.value.id == "layout":
            is_src, files = reopened, [a.value for a in value.args if isinstance(a, ast.Constant)
                                       and isinstance(a.value, str)]
        if any(f in request or f.rsplit("/", 1)[-1] in named for f in files if isinstance(f, str)):
            return code, None   # it reads a file the designer named: a real input
        if is_src and (targets == ["layout"] or isinstance(st, ast.Expr)):
            drop.append(st)
            reopened = True
        elif reopened and targets == ["cell"] and _active_cell_of_layout(value):
            drop.append(st)
    if not drop or _writes_requested_file(tree, request):
        return code, None
    lines = code.splitlines(keepends=True)
    for st in sorted(drop, key=lambda s: s.lineno, reverse=True):
        del lines[st.lineno - 1:st.end_lineno]
    out = "".join(lines)
    if not _runs_in_klayout(out, mode):
        return code, None   # it would still run in the sandbox, where no open layout exists
    first = ast.get_source_segment(code, drop[0]) or "layout = ..."
    return out, f"removed `{first.strip()}` (the open layout is `layout`, its active cell `cell`)"


def _layer_calls(tree: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("layer", "find_layer") and len(n.args) == 2 and not n.keywords]


def bind_requested_layer(code: str, request: str) -> tuple[str, str | None]:
    """A pya script that addresses exactly one layer, by literal numbers, when the request names
    exactly one other layer: the numbers are the worked example's (a small model keeps
    `LAYER, DATATYPE = 20, 0` from a recipe when asked for layer 2/0, measured in real runs),
    so they are replaced by the requested ones.

    Args:
        code: the script.
        request: the designer's words ("on layer 2/0").
    """
    from .evaluator import requested_layers

    wanted = requested_layers(request)
    if len(wanted) != 1 or "gdsfactory" in code:
        return code, None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, None
    # module-level names bound to int literals (LAYER, DATATYPE = 20, 0 or LAYER = 20)
    bound: dict[str, ast.Constant] = {}
    for st in tree.body:
        if not isinstance(st, ast.Assign) or len(st.targets) != 1:
            continue
        t, v = st.targets[0], st.value
        pairs = (zip(t.elts, v.elts) if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple)
                 and len(t.elts) == len(v.elts) else [(t, v)])
        for name, val in pairs:
            if isinstance(name, ast.Name) and isinstance(val, ast.Constant) and type(val.value) is int:
                bound[name.id] = val
    reassigned = [t.id for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AugAssign))
                  for target in (n.targets if isinstance(n, ast.Assign) else [n.target])
                  for t in (target.elts if isinstance(target, ast.Tuple) else [target]) if isinstance(t, ast.Name)]
    literals = []   # (the Constant nodes giving layer and datatype) per layer call
    for call in _layer_calls(tree):
        nodes = []
        for a in call.args:
            if isinstance(a, ast.Constant) and type(a.value) is int:
                nodes.append(a)
            elif isinstance(a, ast.Name) and a.id in bound and reassigned.count(a.id) == 1:
                nodes.append(bound[a.id])
        if len(nodes) != 2:
            return code, None   # a layer from a variable or a loop: not ours to change
        literals.append(nodes)
    pairs = {(a.value, b.value) for a, b in literals}
    if len(pairs) != 1 or wanted[0] in pairs:
        return code, None
    (old,) = pairs
    edits = {(n.lineno, n.col_offset, n.end_col_offset, str(w)) for nodes in literals for n, w in zip(nodes, wanted[0])}
    return _replace_spans(code, edits), f"layer {old[0]}/{old[1]} -> {wanted[0][0]}/{wanted[0][1]} (the layer the request names)"


def _layer_literals(tree: ast.Module) -> dict[tuple[int, int], list[tuple[ast.Constant, int]]] | None:
    """Every layer a pya / klayout.db script addresses by numbers, with the literal nodes that give
    them (and whether each gives the layer, 0, or the datatype, 1): ``layout.layer(3, 0)``, ``VIA = (3, 0)`` read by ``layout.layer(VIA)`` or ``(*VIA)``, and
    ``L, D = 3, 0`` read by ``layout.layer(L, D)``. None when a layer comes from anything else (a
    loop, a computed value): then the script's layers are not all known."""
    pairs: dict[str, list[ast.Constant]] = {}   # NAME = (3, 0) at module level
    ints: dict[str, ast.Constant] = {}          # NAME = 3 (or L, D = 3, 0)
    for st in tree.body:
        if not isinstance(st, ast.Assign) or len(st.targets) != 1:
            continue
        t, v = st.targets[0], st.value
        if isinstance(t, ast.Name) and isinstance(v, ast.Tuple) and len(v.elts) == 2 \
                and all(isinstance(e, ast.Constant) and type(e.value) is int for e in v.elts):
            pairs[t.id] = list(v.elts)
        for name, val in (zip(t.elts, v.elts) if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple)
                          and len(t.elts) == len(v.elts) else [(t, v)]):
            if isinstance(name, ast.Name) and isinstance(val, ast.Constant) and type(val.value) is int:
                ints[name.id] = val
    stored = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    out: dict[tuple[int, int], list[tuple[ast.Constant, int]]] = {}
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr in ("layer", "find_layer") and not n.keywords):
        args = call.args
        if len(args) == 1 and isinstance(args[0], (ast.Name, ast.Starred)):
            name = args[0].value if isinstance(args[0], ast.Starred) else args[0]
            nodes = pairs.get(name.id) if isinstance(name, ast.Name) and stored.count(name.id) == 1 else None
        elif len(args) == 2:
            nodes = [a if isinstance(a, ast.Constant) and type(a.value) is int else
                     ints.get(a.id) if isinstance(a, ast.Name) and stored.count(a.id) == 1 else None for a in args]
            nodes = nodes if all(nodes) else None
        else:
            nodes = None
        if nodes is None:
            return None
        spec = (nodes[0].value, nodes[1].value)
        out.setdefault(spec, []).extend((n, i) for i, n in enumerate(nodes) if all(n is not m for m, _ in out[spec]))
    return out


def rebind_one_wrong_layer(code: str, request: str) -> tuple[str, str | None]:
    """A pya / klayout.db script that reads or writes the layers the request names but one, which
    it replaces by a layer the request never names: ``VIA = (4, 0)`` for "every via (layer 3/0)
    must be enclosed by metal (layer 2/0)" read an empty layer and reported no violation in a real
    run. With exactly one such layer on each side, the script's becomes the requested one."""
    from .evaluator import requested_layers

    wanted = requested_layers(request)
    tree = _parsed(code) if len(wanted) >= 2 and "gdsfactory" not in code else None
    used = _layer_literals(tree) if tree is not None else None
    if not used:
        return code, None
    extra = [l for l in used if l not in wanted]
    missing = [l for l in wanted if l not in used]
    if len(extra) != 1 or len(missing) != 1:
        return code, None
    (old,), (new,) = extra, missing
    spans = {(n.lineno, n.col_offset, n.end_col_offset, str(new[i])) for n, i in used[old]}
    return _replace_spans(code, spans), f"layer {old[0]}/{old[1]} -> {new[0]}/{new[1]} (the one layer of the request the script did not use)"


_COMPRESSION_WORDS = re.compile(r"gzip|gz\b|compress|zipped", re.IGNORECASE)


def write_layout_by_suffix(code: str, request: str) -> tuple[str, str | None]:
    """``layout.write(name, True, options)``, ``write(name, gzip=True)``, ``write(name, SaveLayoutOptions())``:
    the first signature of ``Layout.write`` in KLayout's reference is the deprecated
    ``write(filename, gzip, options)``, and a small model copies its flag, so the file is gzip data
    (a real b06 run: "out.oas is not an OASIS file"); and a fresh ``SaveLayoutOptions()`` has the
    format GDS2, so ``out.oas`` gets GDS bytes (measured with pip klayout 0.30). Unless the request asks
    for compression, the flag goes, and a default options object goes too: ``write(filename)`` picks
    the format from the file's suffix.

    Args:
        code: the script.
        request: the designer's words; "gzip", ".gz", "compressed" keep the flag.
    """
    tree = _parsed(code) if "write" in code else None
    if tree is None:
        return code, None
    keep_gzip = bool(_COMPRESSION_WORDS.search(request))

    def default_options(a: ast.AST) -> bool:
        f = a.func if isinstance(a, ast.Call) else None
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        return name == "SaveLayoutOptions" and not a.args and not a.keywords

    edits, what = [], set()
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "write"
                and n.args and len(n.args) <= 3):
            continue
        args, kws = list(n.args), list(n.keywords)
        if not keep_gzip and len(args) in (2, 3) and isinstance(args[1], ast.Constant) and args[1].value is True:
            args.pop(1)
            what.add("gzip")
        if not keep_gzip and any(k.arg == "gzip" and isinstance(k.value, ast.Constant) and k.value.value is True for k in kws):
            kws = [k for k in kws if k.arg != "gzip"]
            what.add("gzip")
        if len(args) == 2 and default_options(args[1]):
            args.pop(1)
            what.add("options")
        if any(k.arg == "options" and default_options(k.value) for k in kws):
            kws = [k for k in kws if k.arg != "options"]
            what.add("options")
        if (args, kws) != (n.args, n.keywords):
            edits.append((n, ast.unparse(ast.Call(func=n.func, args=args, keywords=kws))))
    if not edits or any(n.lineno != n.end_lineno for n, _ in edits):
        return code, None   # nothing to do, or a call over several lines: left to the checks
    why = {"gzip": "gzip=True writes gzip data, and the request does not ask for compression",
           "options": "a default SaveLayoutOptions() writes GDS2 whatever the suffix"}
    fixed = _replace_spans(code, [(n.lineno, n.col_offset, n.end_col_offset, text) for n, text in edits])
    return fixed, "layout written in the format of its file name (" + "; ".join(why[w] for w in sorted(what)) + ")"


def draw_in_the_active_cell(code: str, mode: str, request: str) -> tuple[str, str | None]:
    """An interactive pya script that makes a new cell the request never asks for and never places
    it (``new = layout.create_cell("NEW_LAYER")`` ... ``new.shapes(li).insert(box)``) draws into a
    top cell the designer does not see: measured in the GUI with "draw a 10 um x 5 um rectangle on
    layer 1/0". The cell it meant is the active one, the global ``cell``.

    Args:
        code: the script.
        mode: only "interactive" scripts are changed.
        request: the designer's words; a cell they name or ask for ("a new cell") is left alone.
    """
    from .evaluator import requested_cell_names

    if mode != "interactive" or "gdsfactory" in code or requested_cell_names(request) \
            or re.search(r"\b(new|sub-?|child|another)\s*cells?\b|\bcells?\s+(named|called)\b", request, re.IGNORECASE):
        return code, None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, None
    placed = {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in ("cell_index", "name")
              and isinstance(n.value, ast.Name)}
    changed, lines = [], code.splitlines(keepends=True)
    for st in reversed(tree.body):
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
                and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute)
                and st.value.func.attr == "create_cell" and isinstance(st.value.func.value, ast.Name)
                and st.value.func.value.id == "layout" and st.lineno == st.end_lineno):
            continue
        name = st.targets[0].id
        if name in placed and name != "cell":
            continue   # it is instantiated or named somewhere: a real new cell
        indent = lines[st.lineno - 1][:st.col_offset]
        lines[st.lineno - 1] = "" if name == "cell" else f"{indent}{name} = cell\n"
        changed.append(name)
    if not changed or not _runs_in_klayout("".join(lines), mode):
        return code, None   # in the sandbox there is no active cell to draw into
    return "".join(lines), f"drew into the active cell instead of a new, unplaced cell ({', '.join(changed)})"


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > name.rfind("/") else ""


def _top_cells(report: ExecutionReport) -> list[str]:
    """Top cells of the layouts a run wrote, and the cells it added to the open layout."""
    out: list[str] = []
    for f in report.files or []:
        s = f.get("summary") if isinstance(f, dict) else None
        if f.get("kind") == "layout" and isinstance(s, dict):
            out += [t["name"] for t in s.get("top_cells") or [] if t.get("name") and t["name"] not in out]
    out += [c for c in (report.changes or {}).get("cells_added") or [] if c not in out]
    return out


def output_renames(contract, report: ExecutionReport) -> dict[str, str]:
    """Produced name -> requested name, where a run wrote a file or made a top cell the designer did
    not ask for instead of the one they named: exactly one requested name of that kind (file type,
    or cell) is missing and exactly one unrequested one was produced.

    Args:
        contract: the request's OutputContract (files and cells named by the designer).
        report: the run's execution report.
    """
    renames: dict[str, str] = {}
    wanted = contract.required_files()
    written = [f["path"] for f in report.files or [] if isinstance(f, dict) and f.get("path")]
    for ext in {_suffix(n) for n in wanted if _suffix(n)}:
        missing = [n for n in wanted if _suffix(n) == ext and n not in written]
        others = [w for w in written if _suffix(w) == ext and w not in wanted]
        if len(missing) == 1 and len(others) == 1:
            renames[others[0]] = missing[0]
    tops = _top_cells(report)
    missing = [c for c in contract.cells if c not in tops]
    others = [c for c in tops if c not in contract.cells]
    if len(missing) == 1 and len(others) == 1:
        renames[others[0]] = missing[0]
    return renames


def _name_unnamed_component(code: str, tree: ast.Module, renames: dict[str, str]) -> tuple[str, list[str]]:
    """``gf.Component()`` without a name made the top cell "Unnamed_0": when that is the cell to
    rename and the script makes exactly one nameless Component, it gets the requested name."""
    cell = next((new for old, new in renames.items() if old.startswith("Unnamed")), None)
    nameless = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and not n.args and not n.keywords
                and (n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")) == "Component"]
    if cell is None or len(nameless) != 1 or nameless[0].lineno != nameless[0].end_lineno:
        return code, []
    n = nameless[0]
    lines = code.splitlines(keepends=True)
    raw = lines[n.lineno - 1].encode()
    end = n.end_col_offset - 1            # the closing parenthesis
    lines[n.lineno - 1] = (raw[:end] + repr(cell).encode() + raw[end:]).decode()
    return "".join(lines), [f"named the nameless Component {cell!r} (the top cell the designer asked for)"]


def rename_outputs(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """The script with the string literals that named a wrong output (see :func:`output_renames`)
    replaced by the names the designer asked for: a small model keeps a worked example's file and
    cell names ("rib2.gds", "RIB2") through every revision round, while the run shows exactly which
    literal produced what. Only whole literals are replaced (never f-strings or parts of strings).

    Returns the script and what was renamed.
    """
    renames = output_renames(contract, report)
    tree = _parsed(code) if renames else None
    if tree is None:
        return code, []
    in_fstring = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    hits = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in in_fstring and (n.value in renames or n.value.removeprefix("./") in renames)]
    if not hits:
        return _name_unnamed_component(code, tree, renames)
    lines = code.splitlines(keepends=True)
    done: list[str] = []
    for n in sorted(hits, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        if n.lineno != n.end_lineno:
            continue
        old = n.value.removeprefix("./")
        raw = lines[n.lineno - 1].encode()
        lines[n.lineno - 1] = (raw[:n.col_offset] + repr(renames[old]).encode() + raw[n.end_col_offset:]).decode()
        if f"{old!r} -> {renames[old]!r}" not in done:
            done.append(f"{old!r} -> {renames[old]!r}")
    return "".join(lines), [f"renamed the output {d} (the name the designer asked for)" for d in reversed(done)]



def _drawn_layers(report: ExecutionReport) -> list[str]:
    """Layers ("L/D") with shapes in the layouts a run wrote."""
    out: list[str] = []
    for f in report.files or []:
        s = f.get("summary") if isinstance(f, dict) else None
        if isinstance(f, dict) and f.get("kind") == "layout" and isinstance(s, dict):
            out += [f"{l['layer']}/{l['datatype']}" for l in s.get("layers") or []
                    if l.get("shapes") and f"{l['layer']}/{l['datatype']}" not in out]
    return out


def _default_layer(value) -> str | None:
    """A gdsfactory layer default ("SLAB90", LAYER.SLAB90, (3, 0)) as "L/D" in the generic PDK, or None."""
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]}/{value[1]}"
    name = value if isinstance(value, str) else getattr(value, "name", None)
    if not name:
        return None
    try:
        from gdsfactory.gpdk import LAYER

        layer = getattr(LAYER, name)
        return f"{layer.layer}/{layer.datatype}"
    except Exception:  # noqa: BLE001 - not a generic-PDK layer: nothing is claimed
        return None


def bind_default_layer(code: str, contract, report: ExecutionReport, index) -> tuple[str, list[str]]:
    """A gdsfactory component or cross-section whose ``layer...`` parameter the script left at its
    default (or set to a PDK layer name) drew the one layer the run shows instead of the requested one: "a 4 µm slab on layer
    2/0" built with ``rib2(width_slab=4)`` drew the slab on SLAB90 (3/0) in a real run, and three
    revision rounds told "no shapes on layer 2/0" did not find the parameter. When exactly one
    requested layer is missing from the written layout and exactly one parameter of the script's
    calls defaults to a layer that was drawn but never requested, that parameter gets the requested
    layer. Only a parameter the call does not set; only generic-PDK layer names.

    Args:
        code: the script.
        contract: the request's OutputContract (``layers``: what the request draws on).
        report: the run's execution report (the layers the written layouts hold).
        index: the symbol index (which calls are gdsfactory factories).

    Returns the script and what was bound.
    """
    from .binding import factory_calls
    from ..checks.static import resolve_object

    drawn = _drawn_layers(report)
    missing = [l for l in contract.layers if l not in drawn]
    stray = [l for l in drawn if l not in contract.layers]
    if len(missing) != 1 or not stray or "gdsfactory" not in code or index is None:
        return code, []
    import inspect

    found: dict[tuple[str, str], list[tuple[ast.Call, ast.keyword | None]]] = {}
    for call, name in factory_calls(code, index):
        try:
            params = inspect.signature(resolve_object(name)).parameters
        except (TypeError, ValueError):
            continue
        given = {k.arg: k for k in call.keywords}
        for p in params.values():
            if not p.name.startswith("layer"):
                continue
            kw = given.get(p.name)
            if kw is None and _default_layer(p.default) in stray:
                found.setdefault((name, p.name), []).append((call, None))
            elif kw is not None and _default_layer(_layer_name_of(kw.value)) in stray:
                found.setdefault((name, p.name), []).append((call, kw))   # layer_slab="SLAB90" written out
    if len(found) != 1:
        return code, []
    ((name, param), calls), = found.items()
    if any(kw is not None and kw.value.lineno != kw.value.end_lineno for _, kw in calls):
        return code, []
    lo, hi = (int(v) for v in missing[0].split("/"))
    value = f"({lo}, {hi})"
    lines = code.splitlines(keepends=True)
    edits = sorted(((kw.value.lineno, kw.value.col_offset, kw.value.end_col_offset) if kw is not None
                    else (call.end_lineno, call.end_col_offset - 1, None) for call, kw in calls), reverse=True)
    for lineno, start, end in edits:
        raw = lines[lineno - 1].encode()
        if end is not None:                                # replace the value written out
            lines[lineno - 1] = (raw[:start] + value.encode() + raw[end:]).decode()
            continue
        before = raw[:start].rstrip()                      # add the keyword before the closing parenthesis
        sep = b"" if before.endswith((b"(", b",")) else b", "
        lines[lineno - 1] = (before + sep + f"{param}={value}".encode() + raw[start:]).decode()
    short = name.rsplit(".", 1)[-1]
    how = "its default" if all(kw is None for _, kw in calls) else "its layer"
    return "".join(lines), [f"{short}({param}={value}): {how} drew {', '.join(stray)} where the designer "
                            f"asked for {missing[0]}"]


def _layer_name_of(node: ast.AST):
    """A layer written in a call: "SLAB90" or LAYER.SLAB90 as its name, (3, 0) as a tuple; else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Tuple) and len(node.elts) == 2 and all(
            isinstance(e, ast.Constant) and isinstance(e.value, int) for e in node.elts):
        return tuple(e.value for e in node.elts)
    return None


def _name_words(name: str) -> set[str]:
    """The words of a column name ("T_bar" -> {"t", "bar"}, "wavelengthNm" -> {"wavelengthnm"})."""
    return {w for w in re.split(r"[^a-z0-9]+", name.lower()) if w}


def csv_column_renames(contract, report: ExecutionReport) -> dict[str, dict[str, str]]:
    """Per CSV file, written column name -> requested name, where the run wrote the requested number
    of columns under other names and each written name shares a word with exactly one requested
    name, one to one, in the same order ("wavelength_nm, bar, cross" for "wavelength_um, T_bar,
    T_cross": a recipe's header kept through every round in a real m05 run)."""
    out: dict[str, dict[str, str]] = {}
    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    for name, want in contract.csv_columns.items():
        s = (files.get(name) or {}).get("summary") or {}
        got = [str(c).strip() for c in s.get("first_row") or []]
        if len(got) != len(want) or got == list(want):
            continue
        pairs = {}
        for i, g in enumerate(got):
            if g == want[i]:
                continue
            sharing = [w for w in want if _name_words(g) & _name_words(w)]
            if sharing != [want[i]] or g in want:
                pairs = {}
                break
            pairs[g] = want[i]
        if pairs:
            out[name] = pairs
    return out


def rename_csv_columns(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """The script with the column names it wrote instead of the requested ones (see
    :func:`csv_column_renames`) replaced where they are whole string literals, or the names of a
    header literal "a,b,c". Values are not touched: a column whose unit changed (nm -> um) is then
    checked by its range.

    Returns the script and what was renamed.
    """
    renames: dict[str, str] = {}
    widths: set[int] = set()
    for name, pairs in csv_column_renames(contract, report).items():
        renames.update(pairs)
        widths.add(len(contract.csv_columns[name]))
    tree = _parsed(code) if renames else None
    if tree is None:
        return code, []
    in_fstring = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    # a name is renamed where it is a header: an element of a list/tuple, or a key of a dict, as long
    # as the header (a port name "bar" elsewhere in the script is left alone)
    in_header = set()
    for n in ast.walk(tree):
        items = n.keys if isinstance(n, ast.Dict) else n.elts if isinstance(n, (ast.List, ast.Tuple)) else None
        if items is not None and len(items) in widths and any(
                isinstance(i, ast.Constant) and i.value in renames for i in items):
            in_header |= {id(i) for i in items}
    spans = set()
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Constant) and isinstance(n.value, str)) or id(n) in in_fstring or n.lineno != n.end_lineno:
            continue
        if n.value in renames:
            if id(n) in in_header:
                spans.add((n.lineno, n.col_offset, n.end_col_offset, repr(renames[n.value])))
        else:
            parts = re.split(r"([,;\t])", n.value.rstrip("\n"))
            names = parts[::2]
            if len(names) > 1 and any(p.strip() in renames for p in names):
                new = "".join(renames.get(p.strip(), p.strip()) if i % 2 == 0 else p for i, p in enumerate(parts))
                spans.add((n.lineno, n.col_offset, n.end_col_offset, repr(new + n.value[len(n.value.rstrip("\n")):])))
    if not spans:
        return code, []
    done = [f"{old!r} -> {new!r}" for old, new in renames.items()]
    return _replace_spans(code, spans), [f"renamed the CSV column(s) {', '.join(done)} (the header the designer asked for)"]


def _column_expressions(tree: ast.Module, width: int) -> list[list[ast.AST]]:
    """The expressions a script writes as the columns of a table ``width`` wide, one list per place
    that writes rows: ``writerows(zip(a, b, c))``, ``writerow([a, b, c])`` with something computed in
    it, an f-string line ``f"{a},{b},{c}\\n"``, a dict ``{"col": a, ...}`` (by its keys' order)."""
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            name = n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
            arg = n.args[0] if n.args else None
            if name == "writerows" and isinstance(arg, ast.Call) and getattr(arg.func, "id", "") == "zip" \
                    and len(arg.args) == width:
                out.append(list(arg.args))
            elif name == "writerow" and isinstance(arg, (ast.List, ast.Tuple)) and len(arg.elts) == width \
                    and not all(isinstance(e, ast.Constant) for e in arg.elts):
                out.append(list(arg.elts))
        elif isinstance(n, ast.JoinedStr):
            values = [v.value for v in n.values if isinstance(v, ast.FormattedValue)]
            if len(values) == width:
                out.append(values)
    return out


def unscale_column(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """A swept column written a power of ten off the requested range (``wl * 1e-3`` under
    "wavelength_um" for "from 1.50 to 1.60 µm", a real m05 run kept it three rounds) loses the one
    multiplication or division by that power in the expression that writes it. Only when the run
    proves the factor (every value off by exactly it) and exactly one such factor is in the
    expression of that column.

    Returns the script and what was removed.
    """
    from ..checks.output_contract import power_of_ten_off

    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    tree = None
    spans, done = set(), []
    for name, spans_wanted in contract.csv_spans.items():
        s = (files.get(name) or {}).get("summary") or {}
        header = [str(c).strip() for c in s.get("first_row") or []]
        for col, want in spans_wanted.items():
            got = (s.get("column_spans") or {}).get(col)
            f = power_of_ten_off(got, want) if got is not None else None
            if f is None or col not in header:
                continue
            tree = tree or _parsed(code)
            if tree is None:
                return code, []
            i = header.index(col)
            factors = []
            for exprs in _column_expressions(tree, len(header)):
                for b in ast.walk(exprs[i]):
                    if not isinstance(b, ast.BinOp) or b.lineno != b.end_lineno:
                        continue
                    for c, other, scale in ((b.right, b.left, None), (b.left, b.right, "left")):
                        if not (isinstance(c, ast.Constant) and type(c.value) in (int, float) and c.value):
                            continue
                        by = c.value if isinstance(b.op, ast.Mult) else 1 / c.value if isinstance(b.op, ast.Div) and scale is None else None
                        if by is not None and abs(by / f - 1) < 1e-9:
                            factors.append((b, other))
            if len(factors) != 1:
                continue
            b, keep = factors[0]
            text = ast.get_source_segment(code, keep)
            if text is None:
                continue
            spans.add((b.lineno, b.col_offset, b.end_col_offset, f"({text})" if isinstance(keep, ast.BinOp) else text))
            done.append(f"removed the factor {f:g} from the {col} column of {name} (its values were {f:g} times "
                        f"the requested range)")
    if not spans:
        return code, []
    return _replace_spans(code, spans), done


def _name_stems(identifier: str) -> set[str]:
    from ..checks.deck_rules import _stem

    return {_stem(w) for w in re.split(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])", identifier) if w}


def bind_named_layers(code: str, request: str) -> tuple[str, str | None]:
    """Layers bound to names that say what they are (``METAL = (3, 0)``, ``via_layer = 2, 0``,
    ``wg = layout.layer(1, 0)``) but swapped against the request's words ("every via (layer 3/0)
    must be enclosed by metal (layer 2/0)": a real m07 answer read metal from 3/0 and vias from 2/0
    for three rounds). When every name that matches one of the request's named layers holds another
    of the request's layers, the numbers are set to the ones the request gives that name.

    Args:
        code: the script.
        request: the designer's words (layers and their names, see checks.deck_rules.layer_names).
    """
    from ..checks.deck_rules import layer_names

    defined = [(name[-1], layer) for name, layer in layer_names(request) if name]
    heads = [h for h, _ in defined]
    named = {h: layer for h, layer in defined if heads.count(h) == 1}   # "first metal", "second metal": neither
    if len(named) < 2 or len(set(named.values())) != len(named):
        return code, None
    tree = _parsed(code)
    if tree is None:
        return code, None
    found = []   # (name, the two Constant nodes, requested layer)
    for st in ast.walk(tree):
        if not isinstance(st, ast.Assign) or len(st.targets) != 1 or not isinstance(st.targets[0], ast.Name):
            continue
        v = st.value
        args = v.args if isinstance(v, ast.Call) else v.elts if isinstance(v, ast.Tuple) else []
        nodes = [a for a in args if isinstance(a, ast.Constant) and type(a.value) is int]
        if len(args) != 2 or len(nodes) != 2:
            continue
        heads = [h for h in _name_stems(st.targets[0].id) if h in named]
        if len(heads) == 1:
            found.append((st.targets[0].id, nodes, named[heads[0]]))
    wrong = [(n, nodes, want) for n, nodes, want in found if (nodes[0].value, nodes[1].value) != want]
    requested = set(named.values())
    if not wrong or any((nodes[0].value, nodes[1].value) not in requested for _, nodes, _ in wrong):
        return code, None
    edits = {(c.lineno, c.col_offset, c.end_col_offset, str(w)) for _, nodes, want in wrong for c, w in zip(nodes, want)}
    said = ", ".join(f"{n} = {w[0]}/{w[1]}" for n, _, w in wrong)
    return _replace_spans(code, edits), f"{said} (the layers the request gives these names)"
