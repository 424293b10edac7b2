"""Fixes that read the request's words: the layer, cell and file it names, bound where the
script plainly meant them (a reopened layout, a requested layer written as another, a layout
written in the wrong format, shapes drawn outside the active cell, layer names swapped)."""
from __future__ import annotations

import ast
import re
from collections import Counter

from ...execution.routing import needs_engine_python
from .rules import fix_pya_import_in_klayout
from .source import assignments, drop_statements, is_int, offset, parsed, replace_ranges, replace_spans, stored_once


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
    out = drop_statements(code, drop)
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
    from ..evaluator import requested_layers

    wanted = requested_layers(request)
    if len(wanted) != 1 or "gdsfactory" in code:
        return code, None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, None
    # module-level names bound once to int literals (LAYER, DATATYPE = 20, 0 or LAYER = 20)
    once = stored_once(tree)
    bound = {name: val for name, val in assignments(tree) if is_int(val) and name in once}
    literals = []   # (the Constant nodes giving layer and datatype) per layer call
    for call in _layer_calls(tree):
        nodes = []
        for a in call.args:
            if is_int(a):
                nodes.append(a)
            elif isinstance(a, ast.Name) and a.id in bound:
                nodes.append(bound[a.id])
        if len(nodes) != 2:
            return code, None   # a layer from a variable or a loop: not ours to change
        literals.append(nodes)
    pairs = {(a.value, b.value) for a, b in literals}
    if len(pairs) != 1 or wanted[0] in pairs:
        return code, None
    (old,) = pairs
    edits = {(n.lineno, n.col_offset, n.end_col_offset, str(w)) for nodes in literals for n, w in zip(nodes, wanted[0])}
    return replace_spans(code, edits), f"layer {old[0]}/{old[1]} -> {wanted[0][0]}/{wanted[0][1]} (the layer the request names)"


def name_the_new_layer(code: str, request: str) -> tuple[str, str | None]:
    """``layout.layer()`` with no arguments makes a new layer with no number (-1/-1 in the file);
    when the request names exactly one layer, that is the one meant (a real run drew its square on
    -1/-1 for two rounds while told "no shapes on layer 10/0").

    Args:
        code: the script.
        request: the designer's words ("on layer 10/0").
    """
    from ..evaluator import requested_layers

    wanted = requested_layers(request)
    tree = parsed(code) if len(wanted) == 1 and "gdsfactory" not in code else None
    if tree is None:
        return code, None
    spans = [(n.lineno, n.func.end_col_offset, n.end_col_offset, f"({wanted[0][0]}, {wanted[0][1]})")
             for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "layer" and not n.args and not n.keywords and n.lineno == n.end_lineno]
    if not spans:
        return code, None
    return replace_spans(code, spans), f"layer() -> layer({wanted[0][0]}, {wanted[0][1]}) (a new layer without a number; the request names {wanted[0][0]}/{wanted[0][1]})"


def _int_value(node: ast.AST, ints: dict[str, ast.Constant]) -> int | None:
    """The integer a literal, a name set once to one, or their sum or difference gives (else None)."""
    if is_int(node):
        return node.value
    if isinstance(node, ast.Name) and node.id in ints:
        return ints[node.id].value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        a, b = _int_value(node.left, ints), _int_value(node.right, ints)
        if a is not None and b is not None:
            return a + b if isinstance(node.op, ast.Add) else a - b
    return None


def _int_node(arg: ast.AST, ints: dict[str, ast.Constant]) -> ast.AST | None:
    """The node that gives a layer() argument its integer: the literal itself, the literal a name
    was set to, or a one-line sum such as ``LAYER + 101`` (a real m11 script's 102 for 111)."""
    if is_int(arg):
        return arg
    if isinstance(arg, ast.Name):
        return ints.get(arg.id)
    if isinstance(arg, ast.BinOp) and arg.lineno == arg.end_lineno and _int_value(arg, ints) is not None:
        return arg
    return None


def _layer_literals(tree: ast.Module) -> dict[tuple[int, int], list[tuple[ast.AST, int]]] | None:
    """Every layer a pya / klayout.db script addresses by numbers, with the literal nodes that give
    them (and whether each gives the layer, 0, or the datatype, 1): ``layout.layer(3, 0)``, ``VIA = (3, 0)`` read by ``layout.layer(VIA)`` or ``(*VIA)``, and
    ``L, D = 3, 0`` read by ``layout.layer(L, D)``. None when a layer comes from anything else (a
    loop, a computed value): then the script's layers are not all known."""
    once = stored_once(tree)
    pairs: dict[str, list[ast.Constant]] = {}   # NAME = (3, 0) at module level
    ints: dict[str, ast.Constant] = {}          # NAME = 3 (or L, D = 3, 0)
    for name, val in assignments(tree):
        if name not in once:
            continue
        if isinstance(val, ast.Tuple) and len(val.elts) == 2 and all(is_int(e) for e in val.elts):
            pairs[name] = list(val.elts)
        elif is_int(val):
            ints[name] = val
    out: dict[tuple[int, int], list[tuple[ast.Constant, int]]] = {}
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr in ("layer", "find_layer") and not n.keywords):
        args = call.args
        if len(args) == 1 and isinstance(args[0], (ast.Name, ast.Starred)):
            name = args[0].value if isinstance(args[0], ast.Starred) else args[0]
            nodes = pairs.get(name.id) if isinstance(name, ast.Name) else None
        elif len(args) == 2:
            nodes = [_int_node(a, ints) for a in args]
            nodes = nodes if all(nodes) else None
        else:
            nodes = None
        if nodes is None:
            return None
        spec = (_int_value(nodes[0], ints), _int_value(nodes[1], ints))
        out.setdefault(spec, []).extend((n, i) for i, n in enumerate(nodes) if all(n is not m for m, _ in out[spec]))
    return out


def rebind_one_wrong_layer(code: str, request: str) -> tuple[str, str | None]:
    """A pya / klayout.db script that reads or writes the layers the request names but one, which
    it replaces by a layer the request never names: ``VIA = (4, 0)`` for "every via (layer 3/0)
    must be enclosed by metal (layer 2/0)" read an empty layer and reported no violation in a real
    run. With exactly one such layer on each side, the script's becomes the requested one; also
    when the request names one layer only (a real b08 script drew the square "on layer 10/0" on
    ``LABELS = (12, 0)``, a constant of the worked example that went back into the script)."""
    from ..evaluator import requested_layers

    wanted = requested_layers(request)
    tree = parsed(code) if len(wanted) >= 1 and "gdsfactory" not in code else None
    used = _layer_literals(tree) if tree is not None else None
    if not used:
        return code, None
    extra = [l for l in used if l not in wanted]
    missing = [l for l in wanted if l not in used]
    if len(extra) != 1 or len(missing) != 1:
        return code, None
    (old,), (new,) = extra, missing
    change = [(n, i) for n, i in used[old] if old[i] != new[i]]
    shared = {id(n) for spec, nodes in used.items() if spec != old for n, _ in nodes}
    if any(id(n) in shared for n, _ in change):   # a name another layer reads too: changing it moves both
        return code, None
    spans = {(n.lineno, n.col_offset, n.end_col_offset, str(new[i])) for n, i in change}
    return replace_spans(code, spans), f"layer {old[0]}/{old[1]} -> {new[0]}/{new[1]} (the one layer of the request the script did not use)"


def save_the_report_database(code: str, request: str, inputs=()) -> tuple[str, str | None]:
    """``rdb = pya.ReportDatabase("DRC")`` filled with items and never saved, where the designer asked
    for one report database file ("save a KLayout report database drc.lyrdb"): 16 real a03/a06
    candidates made the database and never wrote it. The script's one ReportDatabase is saved
    under the requested name at its end (in the work folder, where the script's files go).

    Args:
        code: the script.
        request: the designer's words, naming exactly one ``.lyrdb`` file to write.
        inputs: files the request starts from (not written).
    """
    from ..planner import requested_files

    wanted = [f for f in requested_files(request, inputs) if f.lower().endswith(".lyrdb")]
    tree = parsed(code) if len(wanted) == 1 and "ReportDatabase" in code else None
    if tree is None:
        return code, None
    made = [name for name, value in assignments(tree, top_level=True) if isinstance(value, ast.Call)
            and (getattr(value.func, "attr", None) or getattr(value.func, "id", None)) == "ReportDatabase"]
    if len(made) != 1 or made[0] not in stored_once(tree):
        return code, None
    saved = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("save", "write")
                and isinstance(n.func.value, ast.Name) and n.func.value.id == made[0] for n in ast.walk(tree))
    if saved:
        return code, None
    return code.rstrip("\n") + f"\n{made[0]}.save({wanted[0]!r})\n", f"{made[0]}.save({wanted[0]!r}) (the report database the designer asked for)"


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
    tree = parsed(code) if "write" in code else None
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
    fixed = replace_spans(code, [(n.lineno, n.col_offset, n.end_col_offset, text) for n, text in edits])
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
    from ..evaluator import requested_cell_names

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


def look_up_only_cells_that_exist(code: str, mode: str, request: str, layout_context: dict | None) -> tuple[str, str | None]:
    """``layout.cell("UNIT")`` in an interactive script, where the open layout has no cell UNIT and
    the request never names it: the name came from a worked example (a real a12 script copied a
    recipe's ``CELL_NAME = "UNIT"  # None = the active cell``, got None and failed on ``.shapes``).
    The lookup becomes the active cell: a constant the script tests against None is set to None (the
    example's own way of saying "the active cell"), else the call becomes ``cell``.

    Args:
        code: the script.
        mode: only "interactive" scripts are changed.
        request: the designer's words; a name written there is left alone (the script may make it).
        layout_context: the open layout's summary; its ``cells`` (when complete) must lack the name.
    """
    ctx = layout_context or {}
    cells = ctx.get("cells")
    if mode != "interactive" or cells is None or len(cells) < (ctx.get("cell_count") or 0) or ".cell(" not in code:
        return code, None
    tree = parsed(code)
    if tree is None:
        return code, None
    counts: dict[str, int] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            counts[n.id] = counts.get(n.id, 0) + 1
    consts = {st.targets[0].id: st for st in tree.body if isinstance(st, ast.Assign) and len(st.targets) == 1
              and isinstance(st.targets[0], ast.Name) and counts.get(st.targets[0].id) == 1
              and isinstance(st.value, ast.Constant) and isinstance(st.value.value, str)}
    tested = {n.left.id for n in ast.walk(tree) if isinstance(n, ast.Compare) and isinstance(n.left, ast.Name)
              and all(isinstance(o, (ast.Is, ast.IsNot)) for o in n.ops)
              and all(isinstance(c, ast.Constant) and c.value is None for c in n.comparators)}
    if counts.get("layout") or counts.get("cell"):
        return code, None   # the script has a layout or cell of its own

    def missing(name: str) -> bool:
        return name not in cells and not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", request, re.IGNORECASE)

    spans, names = [], []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "cell"
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "layout" and len(n.args) == 1
                and not n.keywords and n.lineno == n.end_lineno):
            continue
        a = n.args[0]
        if isinstance(a, ast.Constant) and isinstance(a.value, str) and missing(a.value):
            spans.append((n.lineno, n.col_offset, n.end_col_offset, "cell"))
            names.append(a.value)
        elif isinstance(a, ast.Name) and a.id in consts and missing(consts[a.id].value.value):
            st = consts[a.id]
            if a.id in tested:
                v = st.value
                spans.append((v.lineno, v.col_offset, v.end_col_offset, "None"))
            else:
                spans.append((n.lineno, n.col_offset, n.end_col_offset, "cell"))
            names.append(st.value.value)
    if not spans:
        return code, None
    return replace_spans(code, set(spans)), (f"used the active cell where the script looked up "
                                                     f"{', '.join(dict.fromkeys(names))} (no such cell in the open "
                                                     f"layout, and the request does not name it)")


def _name_stems(identifier: str) -> set[str]:
    from ...checks.deck_rules import _stem

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
    from ...checks.deck_rules import layer_names

    defined = [(name[-1], layer) for name, layer in layer_names(request) if name]
    heads = [h for h, _ in defined]
    named = {h: layer for h, layer in defined if heads.count(h) == 1}   # "first metal", "second metal": neither
    if len(named) < 2 or len(set(named.values())) != len(named):
        return code, None
    tree = parsed(code)
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
    return replace_spans(code, edits), f"{said} (the layers the request gives these names)"


_COMPONENTS = "gdsfactory.components."
_PORTS_FORM = re.compile(r"^(\D+?)_?(\d+x\d+)$")   # mmi1x2 -> ("mmi", "1x2")


def _stem_and_word(leaf: str) -> tuple[str, str] | None:
    """A factory name's family and the word that picks its variant: bend_euler -> ("bend", "euler"),
    mmi2x2 -> ("mmi", "2x2"); None for a name of one word (straight)."""
    m = _PORTS_FORM.match(leaf)
    if m:
        return m.group(1), m.group(2)
    stem, _, word = leaf.rpartition("_")
    return (stem, word) if stem and len(word) >= 2 else None


def _request_tokens(request: str) -> list[str]:
    text = re.sub(r"(\d)\s*[x×]\s*(\d)", r"\1x\2", request.lower())
    return re.findall(r"\d+x\d+|[a-z0-9]+", text)


def _says_variant(tokens: list[str], stem: str, word: str, reach: int = 2) -> bool:
    """``word`` stands in the request within ``reach`` words of a word of ``stem`` ("circular bend",
    "a 2x2 MMI", "rectangular grating coupler")."""
    stem_words = [w for w in stem.split("_") if len(w) >= 3]
    for i, t in enumerate(tokens):
        if t != word:
            continue
        near = tokens[max(0, i - reach - 1):i] + tokens[i + 1:i + reach + 2]
        if any(n.startswith(s) for n in near for s in stem_words):
            return True
    return False


def _alternatives(index, a: str, b: str, least: float = 0.3) -> bool:
    """Two factories of one family are variants of one device when they share most parameters
    (bend_euler / bend_circular 0.8, mmi1x2 / mmi2x2 1.0, the elliptical / rectangular grating
    couplers 0.38), not when one is built from the other (grating_coupler_array / grating_coupler_te
    0.04: a real m04 run would have lost its array)."""
    pa, pb = set(index.params(_COMPONENTS + a) or []), set(index.params(_COMPONENTS + b) or [])
    return bool(pa | pb) and len(pa & pb) / len(pa | pb) >= least


def use_the_named_variant(code: str, request: str, index) -> tuple[str, str | None]:
    """``gf.components.bend_euler`` where the request asks for "a 90° circular bend": the factory of
    the same family whose variant word the request puts next to the family's word (bend_circular)
    replaces the one the script calls (a recipe's bend_euler was kept for three rounds of a real
    m01 run; a small model copies the example's factory). Only when the request does not name the
    called variant too, exactly one sibling is named, that sibling exists in the installed
    gdsfactory and is an alternative to the called one (:func:`_alternatives`); keyword arguments
    the sibling does not take are dropped and said, unless they are most of the call's.

    Args:
        code: the script.
        request: the designer's words.
        index: the symbol index (which factories exist, their parameters); None does nothing.

    Returns the script and what was replaced (None when nothing was).
    """
    from ...checks.static import _aliases, _dotted

    tree = parsed(code) if index is not None else None
    if tree is None:
        return code, None
    aliases = _aliases(tree)
    tokens = _request_tokens(request)
    family = [m for m in index.members(_COMPONENTS[:-1])]
    calls = {id(n.func): n for n in ast.walk(tree) if isinstance(n, ast.Call)}
    lines = code.splitlines(keepends=True)
    edits, said = [], []   # (start, end, text) character offsets
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load) or node.lineno != node.end_lineno:
            continue
        parts = _dotted(node)
        if not parts:
            continue
        full = ".".join([aliases.get(parts[0], parts[0]), *parts[1:]]).replace("gdsfactory.c.", _COMPONENTS)
        if not full.startswith(_COMPONENTS) or full.count(".") != 2:
            continue
        leaf = full[len(_COMPONENTS):]
        split = _stem_and_word(leaf)
        if split is None or split[1] in tokens:
            continue
        stem = split[0]
        named = [m for m in family if m != leaf and (sw := _stem_and_word(m)) is not None and sw[0] == stem
                 and _says_variant(tokens, stem, sw[1])]
        if len(named) != 1 or not _alternatives(index, leaf, named[0]):
            continue
        new = named[0]
        func = ast.get_source_segment(code, node)
        func = func[:len(func) - len(node.attr)] + new
        call = calls.get(id(node))
        if call is None:
            target, text, dropped = node, func, []
        else:   # the call is written again with the keywords the variant takes
            takes = set(index.params(_COMPONENTS + new) or [])
            dropped = [k.arg for k in call.keywords if k.arg is not None and k.arg not in takes]
            if 2 * len(dropped) > len(call.keywords):   # most of what the call sets means nothing to it
                continue
            args = [ast.get_source_segment(code, a) for a in [*call.args, *call.keywords]
                    if not (isinstance(a, ast.keyword) and a.arg in dropped)]
            target, text = call, f"{func}({', '.join(args)})"
        edits.append((offset(lines, target.lineno, target.col_offset),
                      offset(lines, target.end_lineno, target.end_col_offset), text))
        said.append(f"{leaf} -> {new}" + (f" (dropped {', '.join(dropped)}, which {new} does not take)" if dropped else ""))
    fixed = replace_ranges(code, edits)
    if not edits or parsed(fixed) is None:
        return code, None
    return fixed, f"used {', '.join(dict.fromkeys(said))} (the variant the request names)"


def _name_words(name: str) -> list[str]:
    """The words of an identifier (``PAD_SIZE`` -> pad, size; ``padSize`` -> pad, size), 3+ letters."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).replace("_", " ").lower()
    return [w for w in spaced.split() if len(w) >= 3 and w.isalpha()]


def drop_foreign_parameters(code: str, request: str) -> tuple[str, str | None]:
    """Drop a module-level parameter the script never reads when nothing of it comes from the
    request: neither a word of its name, nor one of its numbers, nor its text (unless the script
    writes that text where it is used anyway). A small model copies the parameter block of a
    retrieved example (``MARGIN = 2.0`` from a keep-out recipe into a shape count); the run is
    right, and the unused-parameter hint would cost a whole revision round to delete one line.
    A parameter that the request does speak of stays, and its hint says that part is not done.

    Args:
        code: the script.
        request: the designer's words (with any feedback), which the parameter is compared with.

    Returns the script and what was dropped (None when nothing was).
    """
    from ..evaluator import requested_values, unread_parameters

    tree = parsed(code)
    if tree is None:
        return code, None
    words = request.lower()
    numbers = {float(x) for x in re.findall(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", request)}
    numbers |= {value for _, value in requested_values(request)}
    used_texts = Counter(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str))

    def foreign(name: str, leaves: list[ast.Constant]) -> bool:
        if name.startswith("_") or any(re.search(rf"\b{w}", words) for w in _name_words(name)):
            return False
        for c in leaves:
            if isinstance(c.value, str):
                if c.value.strip() and c.value.lower() in words and used_texts[c.value] < 2:
                    return False
            elif any(abs(abs(float(c.value)) - x) <= 1e-9 * max(1.0, x) for x in numbers):
                return False
        return True

    dropped, names = [], []
    for name, st in unread_parameters(tree):   # a statement of one name only: `A, B = 1, 2` stays whole
        leaves = [c for c in ast.walk(st.value) if isinstance(c, ast.Constant)]
        if len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and foreign(name, leaves):
            dropped.append(st)
            names.append(name)
    if not dropped:
        return code, None
    fixed = drop_statements(code, dropped)
    if parsed(fixed) is None:
        return code, None
    return fixed, f"dropped {', '.join(names)} (set, never used, and not from the request)"


def read_through_the_hierarchy(code: str, request: str) -> tuple[str, str | None]:
    """``pya.Region(cell.shapes(li))`` -> ``pya.Region(cell.begin_shapes_rec(li))`` where the request
    includes the sub-cells' shapes and the script reads the cell's own shapes into a Region (see
    contract_words.scope_mismatch). A real a07 answer took every area from
    ``Region(cell.shapes(layer))`` for "(both may also be in sub-cells)", and a revision round
    returned it unchanged. A Region is the same whichever iterator fills it; loops over
    ``cell.shapes(li)`` are left alone (their shapes would need the iterator's transformation).

    Returns the script and what was changed (None when nothing was).
    """
    from ..contract_words import scope_mismatch

    if scope_mismatch(code, request) != "deep":
        return code, None
    tree = parsed(code)
    spans = []
    for n in ast.walk(tree) if tree is not None else ():
        f = n.func if isinstance(n, ast.Call) else None
        if not ((isinstance(f, ast.Attribute) and f.attr == "Region") or (isinstance(f, ast.Name) and f.id == "Region")):
            continue
        arg = n.args[0] if len(n.args) == 1 else None
        if (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "shapes"
                and arg.lineno == arg.end_lineno and len(arg.args) == 1):
            spans.append((arg.lineno, arg.col_offset, arg.end_col_offset,
                          f"{ast.get_source_segment(code, arg.func.value)}.begin_shapes_rec({ast.get_source_segment(code, arg.args[0])})"))
    if not spans:
        return code, None
    return replace_spans(code, spans), (f"read {len(spans)} Region(s) through the hierarchy, cell.shapes(layer) -> "
                                        f"cell.begin_shapes_rec(layer) (the designer includes the sub-cells' shapes)")
