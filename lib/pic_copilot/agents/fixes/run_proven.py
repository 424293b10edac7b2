"""Fixes a run proves: what the script produced (its execution report) shows one certain
mistake, e.g. a method used as a value, an output named other than asked, a stray default
layer, a CSV header copied from a recipe, a column off by a power of ten. Each fixed script
is run again by the caller."""
from __future__ import annotations

import ast
import re
from pathlib import PurePath

from ...execution.report import ExecutionReport
from .source import insert_after_imports, is_number_text, offset, parsed, replace_nodes, replace_spans, values_set_once


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
    tree = parsed(code) if failing is not None else None
    if tree is None:
        return code, []
    on_line = [n for n in ast.walk(tree) if getattr(n, "lineno", None) == failing]
    shown = _functions_shown(str(exc.get("message") or ""), on_line)
    single = values_set_once(tree)
    spans, called = set(), []
    for v in shown:
        if isinstance(v, ast.Name) and v.id in single:
            v = single[v.id]
        if isinstance(v, ast.Attribute) and v.end_lineno == v.lineno and (v.end_lineno, v.end_col_offset) not in spans:
            spans.add((v.end_lineno, v.end_col_offset))
            called.append(ast.unparse(v))
    if not spans:
        return code, []
    return (replace_spans(code, [(l, c, c, "()") for l, c in spans]),
            [f"called {', '.join(f'{c}()' for c in dict.fromkeys(called))} (the run showed "
             f"{'it is a method' if len(set(called)) == 1 else 'they are methods'}, not a value)"])


_MISSING_ATTR = re.compile(r"'(\w+)' object has no attribute '(\w+)'")
#: what older gdsfactory versions and other tools call a port's centre (gdsfactory 9: ``port.center``)
PORT_CENTER_NAMES = frozenset({"midpoint", "position", "location", "pos", "point"})


def use_the_ports_center(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``port.position`` / ``port.midpoint`` -> ``port.center``: the run failed with "'DPort' object has
    no attribute 'position'" (a real m04 run, round 3); gdsfactory 9 calls it ``center``. The failing
    line's reads of that name are renamed (a call of it without arguments too).

    Returns the script and what was changed.
    """
    m = _MISSING_ATTR.search(str((rep.exception or {}).get("message") or ""))
    failing = rep.failing_line()
    if not m or failing is None or m.group(1) not in ("Port", "DPort") or m.group(2) not in PORT_CENTER_NAMES:
        return code, []
    tree = parsed(code)
    if tree is None:
        return code, []
    called = {id(n.func): n for n in ast.walk(tree) if isinstance(n, ast.Call) and not n.args and not n.keywords}
    spans = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and n.attr == m.group(2) and n.lineno == failing and n.end_lineno == failing:
            call = called.get(id(n))
            end = call.end_col_offset if call is not None and call.end_lineno == failing else n.end_col_offset
            spans.add((failing, n.value.end_col_offset, end, ".center"))
    if not spans:
        return code, []
    return replace_spans(code, spans), [f"port.{m.group(2)} -> port.center (gdsfactory 9's name)"]


def _bounding_box_has(type_name: str, attr: str) -> bool:
    """KLayout's ``type_name`` (Polygon, Path, Shape, Region, Cell ...) has a ``bbox()`` whose Box has
    ``attr`` (center, width, left ...)."""
    import klayout.db as kdb

    owner = getattr(kdb, type_name, None)
    box = kdb.DBox if type_name.startswith("D") and type_name[1:2].isupper() else kdb.Box
    return owner is not None and hasattr(owner, "bbox") and hasattr(box, attr) and not attr.startswith("_")


def ask_the_bounding_box(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``polygon.center()`` -> ``polygon.bbox().center()``: the run failed with "'Polygon' object has no
    attribute 'center'" and the shape's bounding box has it (a real a12 run: "centre of each moved
    piece's bounding box"). Every read of that attribute on the failing line becomes a read of the
    receiver's ``bbox()``; the next run decides.

    Returns the script and what was changed.
    """
    m = _MISSING_ATTR.search(str((rep.exception or {}).get("message") or ""))
    failing = rep.failing_line()
    if not m or failing is None or not _bounding_box_has(m.group(1), m.group(2)):
        return code, []
    tree = parsed(code)
    if tree is None:
        return code, []
    reads = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == m.group(2)
             and isinstance(n.ctx, ast.Load) and n.lineno == failing and n.value.end_lineno == n.value.lineno]
    if not reads:
        return code, []
    fixed = replace_spans(code, {(n.value.end_lineno, n.value.end_col_offset, n.value.end_col_offset, ".bbox()") for n in reads})
    if parsed(fixed) is None:
        return code, []
    done = list(dict.fromkeys(f"{ast.unparse(n)} -> {ast.unparse(n.value)}.bbox().{n.attr}" for n in reads))
    return fixed, [f"{', '.join(done)} (a {m.group(1)} has no {m.group(2)}; its bounding box has)"]


#: the KLayout types a Region is made from (integer coordinates), whose Region has the methods they lack
_REGION_SOURCES = frozenset({"Polygon", "SimplePolygon", "Box", "Path", "Shapes", "RecursiveShapeIterator"})


def _region_module(tree: ast.Module, rep: ExecutionReport) -> str | None:
    """What the script's KLayout module is called where it ran: ``pya`` in KLayout, else the name
    it imported klayout.db as (None when it did not)."""
    from .rules import _klayout_aliases

    if rep.where == "klayout":
        return "pya"
    return next(iter(sorted(_klayout_aliases(tree, "sandbox"))), None)


_OPERAND_TYPES = re.compile(r"unsupported operand type\(s\) for ([-+&|^]): '(\w+)' and '(\w+)'")
_BOOLEAN_OPS = {"-": ast.Sub, "+": ast.Add, "&": ast.BitAnd, "|": ast.BitOr, "^": ast.BitXor}


def make_regions_of_shape_operands(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``shapes_a - shapes_b`` -> ``pya.Region(shapes_a) - pya.Region(shapes_b)``: the run failed with
    "unsupported operand type(s) for -: 'Shapes' and 'Shapes'" (20 times in real a07 runs): KLayout's
    booleans are Region operators. On the failing line, each operand of that operator whose type the
    message names as one a Region is made from is wrapped in a Region; the next run decides.

    Returns the script and what was changed.
    """
    m = _OPERAND_TYPES.search(str((rep.exception or {}).get("message") or ""))
    failing = rep.failing_line()
    if not m or failing is None or not ({m.group(2), m.group(3)} & _REGION_SOURCES):
        return code, []
    tree = parsed(code)
    module = _region_module(tree, rep) if tree is not None else None
    if module is None:
        return code, []
    edits = []
    for n in ast.walk(tree):
        if isinstance(n, ast.BinOp) and isinstance(n.op, _BOOLEAN_OPS[m.group(1)]) and n.lineno <= failing <= n.end_lineno:
            for side, kind in ((n.left, m.group(2)), (n.right, m.group(3))):
                if kind in _REGION_SOURCES and not isinstance(side, ast.BinOp) and \
                        not (isinstance(side, ast.Call) and ast.unparse(side.func).endswith("Region")):
                    edits.append((side, f"{module}.Region({ast.get_source_segment(code, side)})"))
    edits = [(node, text) for node, text in edits if not any(o is not node and _inside(node, o) for o, _ in edits)]
    fixed = replace_nodes(code, edits) if edits else None
    if fixed is None:
        return code, []
    done = list(dict.fromkeys(f"{ast.unparse(node)} -> {text}" for node, text in edits))
    return fixed, [f"{', '.join(done)} (a {' and a '.join(dict.fromkeys(t for t in m.groups()[1:] if t in _REGION_SOURCES))} "
                   f"has no {m.group(1)}; a Region does)"]


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    return any(n is node for n in ast.walk(outer))


def make_a_region_for_the_region_method(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``poly.space_check(200)`` -> ``pya.Region(poly).space_check(200)``: the run failed with
    "'Polygon' object has no attribute 'space_check'" and a Region made of it has the method (real
    a21 runs: enclosing_check and space_check asked of a Polygon, seven times). Every use of that
    method on the failing line gets its receiver wrapped; the module is the one the script's
    KLayout goes by (``pya`` in KLayout). The next run decides.

    Returns the script and what was changed.
    """
    import klayout.db as kdb

    m = _MISSING_ATTR.search(str((rep.exception or {}).get("message") or ""))
    failing = rep.failing_line()
    if not m or failing is None or m.group(1) not in _REGION_SOURCES or not hasattr(kdb.Region, m.group(2)) \
            or m.group(2).startswith("_"):
        return code, []
    tree = parsed(code)
    if tree is None:
        return code, []
    module = _region_module(tree, rep)
    uses = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == m.group(2)
            and n.lineno == failing and n.value.lineno == n.value.end_lineno]
    if module is None or not uses:
        return code, []
    fixed = replace_nodes(code, [(n.value, f"{module}.Region({ast.get_source_segment(code, n.value)})") for n in uses])
    if fixed is None:   # nothing replaced, or the result does not parse
        return code, []
    done = list(dict.fromkeys(f"{ast.unparse(n)} -> {module}.Region({ast.unparse(n.value)}).{n.attr}" for n in uses))
    return fixed, [f"{', '.join(done)} (a {m.group(1)} has no {m.group(2)}; a Region made of it has)"]


def use_the_word_the_class_has(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``rdb.read("drc.lyrdb")`` -> ``rdb.load("drc.lyrdb")``: the run failed with "'ReportDatabase'
    object has no attribute 'read'" (a real a03 run), and the KLayout class the message names has
    exactly one word for the same thing (a synonym verb, or the name without its ``get_`` prefix:
    :func:`~pic_copilot.checks.static.same_meaning`). The failing line's reads of that attribute
    are renamed; the next run decides.

    Returns the script and what was changed.
    """
    from ... import retrieval
    from ...checks.static import same_meaning

    m = _MISSING_ATTR.search(str((rep.exception or {}).get("message") or ""))
    failing = rep.failing_line()
    if not m or failing is None:
        return code, []
    try:
        index = retrieval.symbol_index()
    except retrieval.RetrievalError:
        return code, []
    words = same_meaning(index, f"pya.{m.group(1)}.{m.group(2)}") if index.has(f"pya.{m.group(1)}") else []
    tree = parsed(code) if len(words) == 1 else None
    if tree is None:
        return code, []
    word = words[0].rsplit(".", 1)[1]
    reads = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == m.group(2) and n.lineno == failing
             and n.end_lineno == n.lineno and isinstance(n.ctx, ast.Load)]
    if not reads:
        return code, []
    spans = {(n.lineno, n.end_col_offset - len(n.attr.encode()), n.end_col_offset, word) for n in reads}
    return replace_spans(code, spans), [f"{m.group(2)} -> {word} (a {m.group(1)} calls it {word})"]


_SCALAR_NOT_ITERABLE = re.compile(r"'(?:numpy\.)?(?:float|int|bool_?|complex)\d*' object is not iterable")


def write_one_row_of_scalars(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``w.writerows(zip(k, res, fwhm))`` -> ``w.writerow([k, res, fwhm])``: the run failed with
    "'numpy.float64' object is not iterable" on that line (11 times in real a15 runs): the values
    zipped into rows are one row's numbers. Only a ``writerows`` call of one ``zip`` on the failing
    line is rewritten; the next run decides.

    Returns the script and what was changed.
    """
    failing = rep.failing_line()
    if failing is None or not _SCALAR_NOT_ITERABLE.search(str((rep.exception or {}).get("message") or "")):
        return code, []
    tree = parsed(code)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "writerows" and n.lineno <= failing <= n.end_lineno and len(n.args) == 1
             and isinstance(n.args[0], ast.Call) and getattr(n.args[0].func, "id", None) == "zip"
             and n.args[0].args and not n.args[0].keywords] if tree is not None else []
    if len(calls) != 1:
        return code, []
    call = calls[0]
    values = ", ".join(ast.get_source_segment(code, a) for a in call.args[0].args)
    fixed = replace_nodes(code, [(call, f"{ast.get_source_segment(code, call.func.value)}.writerow([{values}])")])
    if fixed is None:
        return code, []
    return fixed, ["writerows(zip(...)) -> writerow([...]) (the zipped values are one row's numbers)"]


_LOCKED = re.compile(r"is locked and likely stored in cache")


def copy_the_locked_component(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``c = gf.components.grating_coupler_array(...)`` then ``c.add_label(...)``: the run failed with
    gdsfactory 9's LockedError (a component a cached factory made cannot be changed; real m04 and
    a23 runs). The name changed on the failing line (``c.add_label``, ``c.add_port``, ``c << x``)
    that was set once from a call gets ``.copy()`` on that call, the change gdsfactory's message
    asks for; the next run decides.

    Returns the script and what was changed.
    """
    failing = rep.failing_line()
    tree = parsed(code) if failing is not None and _LOCKED.search(str((rep.exception or {}).get("message") or "")) else None
    if tree is None:
        return code, []
    changed = set()
    for n in ast.walk(tree):
        if getattr(n, "lineno", None) != failing:
            continue
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
            changed.add(n.value.id)
        elif isinstance(n, ast.BinOp) and isinstance(n.op, ast.LShift) and isinstance(n.left, ast.Name):
            changed.add(n.left.id)
    stores: dict[str, list[ast.AST]] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            stores.setdefault(n.id, []).append(n)
    made = [st for st in ast.walk(tree) if isinstance(st, ast.Assign) and len(st.targets) == 1
            and isinstance(st.targets[0], ast.Name) and st.targets[0].id in changed and len(stores[st.targets[0].id]) == 1
            and isinstance(st.value, ast.Call) and st.value.end_lineno == st.value.lineno
            and not (isinstance(st.value.func, ast.Attribute) and st.value.func.attr in ("Component", "copy"))]
    if not made:
        return code, []
    fixed = replace_spans(code, {(st.value.end_lineno, st.value.end_col_offset, st.value.end_col_offset, ".copy()") for st in made})
    names = ", ".join(st.targets[0].id for st in made)
    return fixed, [f"{names} = ....copy() (gdsfactory locks the component a cached factory makes; its copy can be changed)"]


_NAME_TAKEN = re.compile(r"Cellname (\S+) already exists")


def name_each_loop_component(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``for dl in lengths: c = gf.Component("MZI")``: the run failed the second time round with
    gdsfactory 9's "Cellname MZI already exists" (a real a02 run). The failing line's
    ``Component(name)`` inside a ``for`` loop gets the loop variable in its name,
    ``Component(f"{name}_{dl}")``, one cell per pass; the next run decides.

    Returns the script and what was changed.
    """
    failing = rep.failing_line()
    tree = parsed(code) if failing is not None and _NAME_TAKEN.search(str((rep.exception or {}).get("message") or "")) else None
    if tree is None:
        return code, []
    loops = [n for n in ast.walk(tree) if isinstance(n, ast.For) and n.body[0].lineno <= failing <= n.end_lineno]
    if not loops:
        return code, []
    loop = max(loops, key=lambda n: n.lineno)   # the innermost
    target = loop.target.elts[0] if isinstance(loop.target, ast.Tuple) and loop.target.elts else loop.target
    if not isinstance(target, ast.Name):
        return code, []
    calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call) and n.lineno == failing and n.end_lineno == failing
             and (n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")) == "Component"
             and len(n.args) + len(n.keywords) == 1 and (n.args or n.keywords[0].arg == "name")]
    if not calls:
        return code, []
    spans = set()
    for n in calls:
        arg = n.args[0] if n.args else n.keywords[0].value
        text = ast.get_source_segment(code, arg)
        name = (repr(arg.value)[1:-1] if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and
                not re.search(r"[{}'\"\\]", arg.value) else "{" + text + "}")
        spans.add((arg.lineno, arg.col_offset, arg.end_col_offset, f'f"{name}_{{{target.id}}}"'))
    return replace_spans(code, spans), [f"Component(... + _{{{target.id}}}) (gdsfactory 9 refuses a second cell of one name; "
                                        "each pass of the loop makes its own)"]


def concat_instead_of_append(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``df = df.append(row, ignore_index=True)`` -> ``df = pd.concat([df, pd.DataFrame([row])],
    ignore_index=True)``: the run failed with "'DataFrame' object has no attribute 'append'" (pandas 2
    removed it; a real m08 run kept it for two rounds). The failing line's ``.append`` calls are
    rewritten; a row given as a DataFrame is concatenated as it is.

    Returns the script and what was changed.
    """
    msg = str((rep.exception or {}).get("message") or "")
    failing = rep.failing_line()
    if "'DataFrame' object has no attribute 'append'" not in msg or failing is None:
        return code, []
    tree = parsed(code)
    if tree is None:
        return code, []
    from ...checks.static import _aliases

    pd = next((a for a, full in _aliases(tree).items() if full == "pandas"), None)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "append" and n.lineno == failing and n.end_lineno == failing and len(n.args) == 1]
    if not calls:
        return code, []
    name = pd or "pd"
    spans = set()
    for n in calls:
        frame, row = ast.unparse(n.func.value), n.args[0]
        is_frame = isinstance(row, ast.Call) and ast.unparse(row.func).endswith("DataFrame")
        rows = ast.unparse(row) if is_frame else f"{name}.DataFrame([{ast.unparse(row)}])"
        keep = "".join(f", {ast.unparse(k)}" for k in n.keywords if k.arg == "ignore_index") or ", ignore_index=True"
        spans.add((n.lineno, n.col_offset, n.end_col_offset, f"{name}.concat([{frame}, {rows}]{keep})"))
    fixed = replace_spans(code, spans)
    if pd is None:
        fixed = insert_after_imports(fixed, "import pandas as pd\n")
    if parsed(fixed) is None:
        return code, []
    return fixed, ["DataFrame.append -> pd.concat (pandas 2 has no DataFrame.append)"]


_UNPACK_POINT = re.compile(r"cannot unpack non-iterable (D?(?:Point|Vector)) object")


def unpack_points_by_coordinates(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``x, y = box.center()`` -> ``x, y = (_p := box.center()).x, _p.y``, and ``for x, y in pts:`` ->
    ``for x, y in ((_p.x, _p.y) for _p in pts):``: the run failed with "cannot unpack non-iterable
    DPoint object" (a real a16 run); KLayout's points and vectors are not tuples. Only two-name
    targets on the failing line.

    Returns the script and what was changed.
    """
    m = _UNPACK_POINT.search(str((rep.exception or {}).get("message") or ""))
    failing = rep.failing_line()
    tree = parsed(code) if m and failing is not None else None
    if tree is None:
        return code, []

    def pair(t: ast.AST) -> bool:
        return isinstance(t, ast.Tuple) and len(t.elts) == 2 and all(isinstance(e, ast.Name) for e in t.elts)

    spans = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and n.lineno == failing and len(n.targets) == 1 and pair(n.targets[0]) \
                and n.value.lineno == n.value.end_lineno:
            v = n.value
            spans.add((v.lineno, v.col_offset, v.end_col_offset, f"(_p := {ast.unparse(v)}).x, _p.y"))
        elif isinstance(n, ast.For) and n.lineno == failing and pair(n.target) and n.iter.lineno == n.iter.end_lineno:
            it = n.iter
            spans.add((it.lineno, it.col_offset, it.end_col_offset, f"((_p.x, _p.y) for _p in {ast.unparse(it)})"))
    if not spans:
        return code, []
    fixed = replace_spans(code, spans)
    if parsed(fixed) is None:
        return code, []
    return fixed, [f"unpacked the {m.group(1)} by its coordinates (.x, .y): KLayout's points are not tuples"]


_NOT_SUBSCRIPTABLE = re.compile(r"'(D?(?:Box|Point|Vector))' object is not subscriptable")
#: calls that give a KLayout box (gdsfactory 9's Component.bbox() is a DBox, not gdsfactory 7's
#: [[xmin, ymin], [xmax, ymax]] array)
_BOX_CALLS = frozenset({"bbox", "dbbox", "bbox_per_layer", "dbbox_per_layer"})
#: box[i] -> the box's corner, point[j] -> its coordinate
_PARTS = {"box": (".p1", ".p2"), "point": (".x", ".y")}


def _geometry_kind(node: ast.AST, single: dict[str, ast.AST], depth: int = 0) -> str | None:
    """"box" or "point" when ``node`` is a KLayout box or point/vector by how it was made: a bbox()
    call, a box's corner (``.p1``, ``.p2``, ``box[i]``), a difference of points, or a name set once
    from one of those; None when it cannot be told."""
    if depth > 4:
        return None
    if isinstance(node, ast.Name) and node.id in single:
        return _geometry_kind(single[node.id], single, depth + 1)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _BOX_CALLS:
        return "box"
    if isinstance(node, ast.Attribute) and node.attr in ("p1", "p2"):
        return "point"
    if isinstance(node, ast.Subscript) and _geometry_kind(node.value, single, depth + 1) == "box":
        return "point"
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        kinds = {_geometry_kind(node.left, single, depth + 1), _geometry_kind(node.right, single, depth + 1)}
        return "point" if kinds == {"point"} else None
    return None


def _index_of(node: ast.Subscript) -> int | None:
    """0 or 1 when the subscript's index is that constant, else None."""
    i = node.slice
    return i.value if isinstance(i, ast.Constant) and type(i.value) is int and i.value in (0, 1) else None


def name_box_and_point_parts(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``c.bbox()[1][0] - c.bbox()[0][0]`` -> ``c.bbox().p2.x - c.bbox().p1.x``: the run failed with
    "'DBox' object is not subscriptable" (or DPoint, DVector). gdsfactory 7's bbox was an array of
    two corners and small models still index it; gdsfactory 9 returns KLayout's DBox, whose corners
    are ``p1``/``p2`` and a point's coordinates ``x``/``y``. Only
    subscripts by 0 or 1, on the failing line, of a value the script made as a box or point (see
    :func:`_geometry_kind`); the next run decides.

    Returns the script and what was changed.
    """
    m = _NOT_SUBSCRIPTABLE.search(str((rep.exception or {}).get("message") or ""))
    failing = rep.failing_line()
    tree = parsed(code) if m and failing is not None else None
    if tree is None:
        return code, []
    fixed, done = code, []
    for _ in range(4):   # innermost first: box[1][0] -> box.p2[0] -> box.p2.x
        edits = _part_edits(fixed, tree, failing)
        if not edits:
            break
        done += [f"{ast.get_source_segment(fixed, n)} -> {text}" for n, text in edits]
        fixed = replace_nodes(fixed, edits)
        tree = parsed(fixed) if fixed is not None else None
        if tree is None:
            return code, []
    if not done:
        return code, []
    return fixed, [f"{', '.join(dict.fromkeys(done))} (a {m.group(1)} is not indexed: KLayout names a box's "
                   "corners p1/p2 and a point's coordinates x/y)"]


def _part_edits(code: str, tree: ast.Module, line: int) -> list[tuple[ast.Subscript, str]]:
    """The innermost subscripts by 0 or 1 on ``line`` of a box or point the script made, each with
    the attribute it means (``box[1]`` -> ``box.p2``)."""
    single = values_set_once(tree)
    found = [(n, kind) for n in ast.walk(tree) if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load)
             and n.lineno == line and n.end_lineno == line and _index_of(n) is not None
             and (kind := _geometry_kind(n.value, single))]
    inside = {id(x) for n, _ in found for x in ast.walk(n.value)}
    edits = []
    for n, kind in found:
        src = ast.get_source_segment(code, n.value)
        if id(n) in inside or src is None:
            continue
        base = src if isinstance(n.value, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) else f"({src})"
        edits.append((n, base + _PARTS[kind][_index_of(n)]))
    return edits


_POINT_LISTS = re.compile(r"(?:expected argument of class (D?Point), got tuple\)|No overload with matching arguments)"
                          r" in (D?(?:Polygon|SimplePolygon|Path))\.__init__")


#: KLayout shape classes whose constructors take a list of points, and the point class each takes
POINT_OF = {"DPath": "DPoint", "DPolygon": "DPoint", "DSimplePolygon": "DPoint",
            "Path": "Point", "Polygon": "Point", "SimplePolygon": "Point"}


def point_spans(code: str, call: ast.Call, lists: dict[str, ast.expr], any_list: bool) -> set[tuple]:
    """The edits that give a shape constructor ``call`` (``pya.DPath(...)``, see :data:`POINT_OF`)
    points for its (x, y) tuples: each tuple of a list written in the call, or bound to a name in
    ``lists``, becomes ``pya.DPoint(x, y)``; with ``any_list``, another one-line list expression
    (a name, a comprehension) is converted item by item. Empty when nothing is certain."""
    point = f"{call.func.value.id}.{POINT_OF[call.func.attr]}"
    arg = call.args[0]
    points = lists.get(arg.id, arg) if isinstance(arg, ast.Name) else arg
    if isinstance(points, (ast.List, ast.Tuple)) and points.elts \
            and all(isinstance(e, ast.Tuple) and len(e.elts) == 2 and e.lineno == e.end_lineno for e in points.elts):
        spans = set()
        for e in points.elts:
            text = ast.get_source_segment(code, e)
            spans.add((e.lineno, e.col_offset, e.end_col_offset, f"{point}{text}" if text.startswith("(") else f"{point}({text})"))
        return spans
    if any_list and arg.lineno == arg.end_lineno and not isinstance(arg, (ast.List, ast.Tuple)):
        return {(arg.lineno, arg.col_offset, arg.end_col_offset, f"[{point}(*_q) for _q in {ast.unparse(arg)}]")}
    return set()


def is_shape_constructor(node: ast.AST, modules: set[str] | None = None) -> bool:
    """``<module>.DPath(points, ...)`` and the like (:data:`POINT_OF`), from one of ``modules`` if given."""
    return (isinstance(node, ast.Call) and bool(node.args) and isinstance(node.func, ast.Attribute)
            and node.func.attr in POINT_OF and isinstance(node.func.value, ast.Name)
            and (modules is None or node.func.value.id in modules))


def make_points_of_tuples(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """``pya.DPath([(0, 0), (10, 0)], 0.5)`` -> ``pya.DPath([pya.DPoint(0, 0), pya.DPoint(10, 0)], 0.5)``:
    the run failed in a polygon's or path's constructor on the failing line, which KLayout gives
    points, not tuples (a real a21 run: "expected argument of class DPoint, got tuple in
    DPath.__init__"). A list of tuples written out gets each tuple made a point; another list
    (a name, a comprehension) is converted item by item.

    Returns the script and what was changed.
    """
    m = _POINT_LISTS.search(str((rep.exception or {}).get("message") or ""))
    failing = rep.failing_line()
    tree = parsed(code) if m and failing is not None else None
    if tree is None:
        return code, []
    cls = m.group(2)
    spans = set()
    for n in ast.walk(tree):
        if is_shape_constructor(n) and n.func.attr == cls and n.lineno <= failing <= n.end_lineno:
            spans |= point_spans(code, n, {}, any_list=True)
    if not spans:
        return code, []
    fixed = replace_spans(code, spans)
    if parsed(fixed) is None:
        return code, []
    return fixed, [f"made the {cls}'s (x, y) tuples {POINT_OF[cls]}s (KLayout's shapes take points)"]


# the repr of a method a script wrote where its value belongs: "<built-in method width of DBox object
# at 0x...>", "<bound method Component.bbox of ...>"
_METHOD_REPR = re.compile(r"<(?:built-in |bound )?method (?:[\w.]+\.)?(\w+) of ")


#: values json cannot write that have one plain JSON form: numpy numbers and arrays, and KLayout's
#: micron geometry (a DBox as [left, bottom, right, top], a DPoint or DVector as [x, y])
_JSON_TYPES = re.compile(r"Object of type '?(ndarray|float\d*|int\d*|uint\d*|bool_|DBox|DPoint|DVector)'? is not JSON serializable")
JSON_HELPER = '''def _to_json(o):
    """numpy values and KLayout micron geometry as plain JSON."""
    if hasattr(o, "tolist"):
        return o.tolist()
    if all(hasattr(o, a) for a in ("left", "bottom", "right", "top")):
        return [o.left, o.bottom, o.right, o.top]
    if hasattr(o, "x") and hasattr(o, "y"):
        return [o.x, o.y]
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")
'''


def write_json_values_plainly(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """The run failed with "Object of type DBox is not JSON serializable" (a10: a cell's ``dbbox()``
    as its "bbox_um"; SAX and numpy scripts with float32/int64/ndarray values): every ``json.dump`` /
    ``json.dumps`` without an encoder of its own gets ``default=_to_json``, a small function put after
    the imports that writes numpy values as numbers and lists, a DBox as [left, bottom, right, top]
    and a DPoint/DVector as [x, y]. Integer Box/Point (database units) are left to the revision.

    Returns the script and what was changed.
    """
    m = _JSON_TYPES.search(str((rep.exception or {}).get("message") or ""))
    tree = parsed(code) if m and "_to_json" not in code else None
    if tree is None:
        return code, []
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr in ("dump", "dumps") and isinstance(n.func.value, ast.Name) and n.func.value.id == "json"
             and not any(k.arg in ("default", "cls") for k in n.keywords) and n.end_lineno == n.lineno]
    if not calls:
        return code, []
    fixed = replace_spans(code, {(n.end_lineno, n.end_col_offset - 1, n.end_col_offset - 1, ", default=_to_json") for n in calls})
    fixed = insert_after_imports(fixed, "\n" + JSON_HELPER + "\n")
    if parsed(fixed) is None:
        return code, []
    return fixed, [f"json writes {m.group(1)} values plainly (default=_to_json)"]


def call_methods_written_as_values(code: str, rep: ExecutionReport) -> tuple[str, list[str]]:
    """A file holds "<built-in method width of DBox ...>": the script wrote ``bbox.width`` where
    ``bbox.width()`` was meant (a real m08 answer kept it for three rounds while the same line's
    ``bbox.width() * bbox.height()`` was right). Every read of that attribute that is not called
    becomes a call; the next run decides (an attribute of the same name that is a value elsewhere
    then fails, and the caller keeps the unfixed script).

    Returns the script and what was called.
    """
    names = {m.group(1) for f in rep.files or [] if isinstance(f, dict) and isinstance(f.get("summary"), dict)
             for r in f["summary"].get("object_reprs") or [] for m in [_METHOD_REPR.match(str(r))] if m}
    tree = parsed(code) if names else None
    if tree is None:
        return code, []
    called_funcs = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    reads = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in names
             and isinstance(n.ctx, ast.Load) and id(n) not in called_funcs and n.lineno == n.end_lineno]
    if not reads:
        return code, []
    done = list(dict.fromkeys(ast.unparse(n) for n in reads))
    return (replace_spans(code, {(n.end_lineno, n.end_col_offset, n.end_col_offset, "()") for n in reads}),
            [f"called {', '.join(f'{d}()' for d in done)} (the file held the method itself, not its value)"])


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


def _name_the_written_component(code: str, tree: ast.Module, cell: str | None) -> tuple[str, list[str]]:
    """A gdsfactory factory's cell written as the top cell ("grating_coupler_array_gdsfactory...")
    where the designer named one: when the script writes exactly one component, by name, a copy of
    it gets the requested name just before it is written. A factory's cell is locked (renaming it
    raises LockedError); its copy is not. A real m04 script wrote the generic PDK's coupler row
    itself, with its labels, and lost it over the top cell's name alone.

    Args:
        code: the script.
        tree: its syntax tree.
        cell: the requested top cell's name, where the run made another top cell instead (else None).
    """
    writes = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr == "write_gds" and isinstance(n.func.value, ast.Name)]
    if cell is None or "gdsfactory" not in code or len(writes) != 1:
        return code, []
    call = writes[0]
    stmt = next((n for n in ast.walk(tree) if isinstance(n, ast.Expr) and n.value is call), None)
    if stmt is None:
        return code, []
    lines = code.splitlines(keepends=True)
    line = lines[stmt.lineno - 1]
    indent = line[:len(line) - len(line.lstrip())]
    name = call.func.value.id
    lines.insert(stmt.lineno - 1, f"{indent}{name} = {name}.copy()\n{indent}{name}.name = {cell!r}\n")
    return "".join(lines), [f"named a copy of the written component {cell!r} (the top cell the designer asked for)"]


def rename_outputs(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """The script with the string literals that named a wrong output (see :func:`output_renames`)
    replaced by the names the designer asked for: a small model keeps a worked example's file and
    cell names ("rib2.gds", "RIB2") through every revision round, while the run shows exactly which
    literal produced what. Only whole literals are replaced (never f-strings or parts of strings).

    Returns the script and what was renamed.
    """
    renames = output_renames(contract, report)
    tree = parsed(code) if renames else None
    if tree is None:
        return code, []
    in_fstring = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    hits = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in in_fstring and (n.value in renames or n.value.removeprefix("./") in renames)]
    if not hits:
        fixed, done = _name_unnamed_component(code, tree, renames)
        if done:
            return fixed, done
        tops = _top_cells(report)
        return _name_the_written_component(code, tree, next((new for old, new in renames.items() if old in tops), None))
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
    from ..binding import factory_calls
    from ...checks.static import resolve_object

    drawn = _drawn_layers(report)
    # a layer the request wants labels on is no component's layer (a real m04 run moved a grating
    # coupler's trench onto the label layer 10/0)
    missing = [l for l in contract.layers if l not in drawn and l not in contract.labels]
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
    edits = [(kw.value.lineno, kw.value.col_offset, kw.value.end_col_offset) if kw is not None
             else (call.end_lineno, call.end_col_offset - 1, None) for call, kw in calls]
    # the same layer name written elsewhere ("sec.layer == 'SLAB90'" in a printout, a real m01
    # candidate) names the same layer: it follows, or the fixed script fails there
    names = {kw.value.value for _, kw in calls if kw is not None and isinstance(kw.value, ast.Constant)
             and isinstance(kw.value.value, str)}
    tree = parsed(code) if names else None
    if tree is not None:
        in_fstring = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        taken = {(l, c) for l, c, _ in edits}
        edits += [(n.lineno, n.col_offset, n.end_col_offset) for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and n.value in names and id(n) not in in_fstring
                  and n.lineno == n.end_lineno and (n.lineno, n.col_offset) not in taken]
    edits = sorted(edits, reverse=True)
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


def _texts_by_layer(report: ExecutionReport) -> dict[str, set[str]]:
    """The text strings per layer ("L/D") of the layouts a run wrote or left open."""
    out: dict[str, set[str]] = {}
    sources = [f.get("summary") for f in report.files or [] if isinstance(f, dict) and f.get("kind") == "layout"]
    sources.append(report.summary)
    for s in sources:
        for layer, strings in ((s or {}).get("texts") or {}).items() if isinstance(s, dict) else ():
            out.setdefault(layer, set()).update(strings)
    return out


def bind_label_layer(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """``c.add_label("GC0", position=...)`` put the requested labels on gdsfactory's default text
    layer (66/0) where the designer asked for 10/0 (a real m04 candidate): when every requested label
    of a layer is on exactly one other layer, each ``add_label`` call that sets no layer, or sets
    that other one, gets the requested layer. The next run decides.

    Returns the script and what was bound.
    """
    texts = _texts_by_layer(report)
    for want, strings in contract.labels.items():
        if not want or all(t in texts.get(want, set()) for t in strings):
            continue
        holders = [l for l, have in texts.items() if l != want and all(t in have for t in strings)]
        if len(holders) != 1:
            continue
        tree = parsed(code)
        if tree is None:
            return code, []
        lo, hi = (int(v) for v in want.split("/"))
        value = f"({lo}, {hi})"
        lines = code.splitlines(keepends=True)
        edits = []
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "add_label"):
                continue
            text = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == "text"), None)
            if isinstance(text, ast.Constant) and text.value not in strings:
                continue    # a label the request did not ask for keeps its layer
            kw = next((k for k in n.keywords if k.arg == "layer"), None)
            if kw is None and len(n.args) < 3:      # add_label(text, position, layer)
                edits.append((offset(lines, n.end_lineno, n.end_col_offset) - 1, None))
            elif kw is not None and kw.value.lineno == kw.value.end_lineno and _default_layer(_layer_name_of(kw.value)) == holders[0]:
                edits.append((offset(lines, kw.value.lineno, kw.value.col_offset),
                              offset(lines, kw.value.end_lineno, kw.value.end_col_offset)))
        if not edits:
            continue
        for start, end in sorted(edits, reverse=True):
            if end is not None:
                code = code[:start] + value + code[end:]
            else:
                before = code[:start].rstrip()
                code = before + ("" if before.endswith(("(", ",")) else ", ") + f"layer={value}" + code[start:]
            lines = code.splitlines(keepends=True)
        return code, [f"add_label(..., layer={value}): the labels {', '.join(strings)} were on {holders[0]} where the "
                      f"designer asked for {want}"]
    return code, []


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
    tree = parsed(code) if renames else None
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
    return replace_spans(code, spans), [f"renamed the CSV column(s) {', '.join(done)} (the header the designer asked for)"]


def drop_extra_csv_columns(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """The script without the columns it wrote beyond the requested header: the written header is
    the requested columns, in order, with others among them ("name, x, y, orientation, width,
    layer, port_type" for "the header name,x,y,orientation,width": a real b02 script kept a recipe's
    two extra columns through three rounds of being told the header). The header literal and the
    row literals of its width that the script appends or writes lose the same positions; nothing
    is changed unless there is one such header and at least one such row.

    Returns the script and what was dropped.
    """
    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    tree = None
    edits: list[tuple[ast.AST, str]] = []
    done: list[str] = []
    for name, want in contract.csv_columns.items():
        got = [str(c).strip() for c in ((files.get(name) or {}).get("summary") or {}).get("first_row") or []]
        keep = _subsequence(list(want), got)
        if keep is None or len(keep) == len(got):
            continue
        tree = tree or parsed(code)
        if tree is None:
            return code, []
        headers = [n for n in ast.walk(tree) if isinstance(n, (ast.List, ast.Tuple))
                   and [e.value.strip() if isinstance(e, ast.Constant) and isinstance(e.value, str) else None
                        for e in n.elts] == got]
        rows = [a for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr in ("append", "writerow") for a in n.args
                if isinstance(a, (ast.List, ast.Tuple)) and len(a.elts) == len(got) and a not in headers]
        if len(headers) != 1 or not rows:
            continue
        for n in headers + rows:
            kept = ", ".join(ast.get_source_segment(code, n.elts[i]) for i in keep)
            text = f"[{kept}]" if isinstance(n, ast.List) else f"({kept},)" if len(keep) == 1 else f"({kept})"
            edits.append((n, text))
        done.append(f"{name}: {', '.join(repr(c) for i, c in enumerate(got) if i not in keep)}")
    fixed = replace_nodes(code, edits) if edits else None
    if fixed is None:
        return code, []
    return fixed, [f"dropped the CSV column(s) {'; '.join(done)} (not in the header the "
                                        "designer asked for)"]


def _subsequence(want: list[str], got: list[str]) -> list[int] | None:
    """The positions in ``got`` of ``want``'s names, in order, when ``got`` holds them so (else None)."""
    out, i = [], 0
    for w in want:
        while i < len(got) and got[i] != w:
            i += 1
        if i == len(got):
            return None
        out.append(i)
        i += 1
    return out


def json_key_renames(contract, report: ExecutionReport) -> dict[str, str]:
    """Written key -> requested key, for JSON objects the run wrote without requested keys where each
    missing key shares a word with exactly one written key that is not requested, and that key with
    no other missing one (``width_0.4`` / ``space_0.3`` for ``{"width": n, "space": n}``: a real a06
    candidate put the rule's value into its key names). Not when the written value has another shape
    than the request gives the key: a real a01 run renamed ``num_drop_peaks`` (a count) to
    ``peaks_um`` (a list of wavelengths), and three rounds then revised a count under that key."""
    from ...checks.output_contract import shape_fits

    out: dict[str, str] = {}
    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    for name, want in contract.json_keys.items():
        s = (files.get(name) or {}).get("summary") or {}
        shapes, values = contract.json_shapes.get(name) or {}, s.get("values") or {}
        renames = _word_renames(want, [str(k) for k in s.get("keys") or []] if s.get("type") == "dict" else [])
        out.update({old: new for old, new in renames.items()
                    if new not in shapes or values.get(old) is None or shape_fits(values[old], shapes[new])})
    return out


def _word_renames(want: list[str], have: list[str]) -> dict[str, str]:
    """Written name -> requested name, where each requested name that is missing shares a word with
    exactly one written name that is not requested, and that name with no other missing one."""
    out: dict[str, str] = {}
    missing = [k for k in want if k not in have]
    extra = [k for k in have if k not in want]
    for k in missing:
        sharing = [g for g in extra if _name_words(g) & _name_words(k)]
        if len(sharing) == 1 and [m for m in missing if _name_words(sharing[0]) & _name_words(m)] == [k]:
            out[sharing[0]] = k
    return out


def rdb_category_renames(contract, report: ExecutionReport) -> dict[str, str]:
    """Written category -> requested category, for report databases the run wrote without requested
    categories, matched by shared words as JSON keys are (``width_0.4`` for the category "width": a
    real a06 candidate named its categories after the rule and its value)."""
    out: dict[str, str] = {}
    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    for name, want in contract.rdb_categories.items():
        s = (files.get(name) or {}).get("summary") or {}
        out.update(_word_renames(want, [str(c) for c in s.get("categories") or []]))
    return out


def rename_rdb_categories(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """The script with the report-database categories it wrote instead of the requested ones (see
    :func:`rdb_category_renames`) named as requested where it spells them: the string or f-string
    given to ``create_category``. Returns the script and what was renamed."""
    renames = rdb_category_renames(contract, report)
    tree = parsed(code) if renames else None
    if tree is None:
        return code, []
    names = [call.args[-1] for call in ast.walk(tree)   # create_category(name) or create_category(parent, name)
             if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
             and call.func.attr == "create_category" and call.args]
    return _rename_spelled(code, names, renames, "the report categor(ies) {} (the categories the designer asked for)")


def _rename_spelled(code: str, spellings: list[ast.AST], renames: dict[str, str], what: str) -> tuple[str, list[str]]:
    """``code`` with each of ``spellings`` (string or f-string expressions on one line) that can make
    exactly one old name of ``renames`` replaced by its new name; and what was renamed (``what``
    with the renames filled in), or nothing."""
    spans, done = set(), {}
    for k in spellings:
        pattern = _key_pattern(k)
        hits = [g for g in renames if pattern is not None and pattern.fullmatch(g)] if k.lineno == k.end_lineno else []
        if len(hits) == 1:
            spans.add((k.lineno, k.col_offset, k.end_col_offset, repr(renames[hits[0]])))
            done[hits[0]] = renames[hits[0]]
    if not spans:
        return code, []
    return replace_spans(code, spans), ["renamed " + what.format(", ".join(f"{old!r} -> {new!r}" for old, new in done.items()))]


def _key_pattern(node: ast.AST) -> re.Pattern | None:
    """What a string key expression can produce: its own text, or an f-string's text with any value
    in each placeholder; None for other expressions."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.compile(re.escape(node.value))
    if isinstance(node, ast.JoinedStr):
        return re.compile("".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".+?" for v in node.values))
    return None


def rename_json_keys(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """The script with the JSON keys it wrote instead of the requested ones (see
    :func:`json_key_renames`) replaced by the requested names where it spells them: a dict
    display's key or a subscript it stores to, a string or an f-string that makes exactly that key.

    Returns the script and what was renamed.
    """
    renames = json_key_renames(contract, report)
    tree = parsed(code) if renames else None
    if tree is None:
        return code, []
    keys = [k for n in ast.walk(tree) if isinstance(n, ast.Dict) for k in n.keys if k is not None]
    keys += [n.slice for n in ast.walk(tree) if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store)]
    return _rename_spelled(code, keys, renames, "the JSON key(s) {} (the keys the designer asked for)")


def _dump_instead(code: str, name: str, template: str) -> tuple[str, str] | None:
    """``code`` with the object its one ``json.dump(obj, f)`` writes replaced by ``template`` with
    ``{obj}`` filled in (``{obj}['1/0']``), and the new object's text; None unless the script has
    one such call, on one line, and ``name`` is the only JSON file name it spells."""
    tree = parsed(code)
    if tree is None:
        return None
    dumps = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "dump" and isinstance(n.func.value, ast.Name) and n.func.value.id == "json" and n.args]
    spelt = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and n.value.endswith(".json")}
    if len(dumps) != 1 or not spelt <= {name} or dumps[0].args[0].lineno != dumps[0].args[0].end_lineno:
        return None
    arg = dumps[0].args[0]
    obj = ast.get_source_segment(code, arg)
    text = template.format(obj=obj if isinstance(arg, ast.Name) else f"({obj})")
    fixed = replace_spans(code, [(arg.lineno, arg.col_offset, arg.end_col_offset, text)])
    return (fixed, text) if parsed(fixed) is not None else None


def write_the_named_entry(code: str, contract, report: ExecutionReport, request: str) -> tuple[str, list[str]]:
    """A JSON object asked for as ``{"area_um2": value}`` about one thing the request names, written
    as a map keyed by such things: ``{"1/0": 323.0, "2/0": 10000.0}`` (a real b11 answer copied a
    per-layer statistics recipe, and kept it two rounds) or ``{"1/0": {"area_um2": 323.0, ...}}``.
    When exactly one written key is named in the request (a layer "1/0", a cell "PAD") and the
    requested keys are all in its record, or it holds the one requested value, the script writes
    that entry: ``json.dump(layers["1/0"], f)`` or ``json.dump({"area_um2": layers["1/0"]}, f)``.
    Only for a script with one ``json.dump`` and one JSON file name.

    Args:
        code: the script.
        contract: the request's output contract (its JSON keys).
        report: the run's report (the summary of the JSON it wrote).
        request: the designer's words.

    Returns the script and what was changed.
    """
    from ...checks.output_contract import shape_fits

    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    for name, want in contract.json_keys.items():
        s = (files.get(name) or {}).get("summary") or {}
        have = [str(k) for k in s.get("keys") or []] if s.get("type") == "dict" else []
        if not want or not have or any(k in have for k in want):
            continue
        named = [k for k in have if re.search(rf"(?<![\w/]){re.escape(k)}(?![\w/])", request)]
        if len(named) != 1:
            continue
        key, values = named[0], s.get("values") or {}
        record = (s.get("value_keys") or {}).get(key)
        shape = (contract.json_shapes.get(name) or {}).get(want[0])
        if isinstance(record, list) and all(k in record for k in want):
            new = "{obj}[%r]" % key
        elif len(want) == 1 and isinstance(values.get(key), (int, float)) and not isinstance(values.get(key), bool) \
                and (shape is None or shape_fits(values[key], shape)):
            new = "{{%r: {obj}[%r]}}" % (want[0], key)
        else:
            continue
        done = _dump_instead(code, name, new)
        if done is not None:
            return done[0], [f"wrote the entry {key!r} to {name} ({done[1]}): the request names {key} and asks for "
                             f"{', '.join(map(repr, want))}"]
    return code, []


def write_the_nested_map(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """A JSON object whose keys the request shows by example (``{"1/0": 3}``) written one level down,
    beside other facts: ``{"cell": "TOP", "layers": {"1/0": 7, ...}}`` (a real b10 answer kept its
    statistics recipe's wrapper for three rounds). When no top-level key has the example's form and
    exactly one top-level value is an object all of whose keys have it, the script's single
    ``json.dump`` writes that object: ``json.dump(stats["layers"], f)``.

    Args:
        code: the script.
        contract: the request's output contract (its example key forms).
        report: the run's report (the summary of the JSON it wrote).

    Returns the script and what was changed.
    """
    from ...checks.output_contract import _key_form

    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    for name, examples in contract.json_key_forms.items():
        s = (files.get(name) or {}).get("summary") or {}
        if s.get("type") != "dict":
            continue
        forms = [re.compile(_key_form(k)) for k in examples]
        fits = lambda keys: bool(keys) and all(any(f.fullmatch(str(k)) for f in forms) for k in keys)   # noqa: E731
        top = [str(k) for k in s.get("keys") or []]
        inner = {k: v for k, v in (s.get("value_keys") or {}).items() if isinstance(v, list)}
        nested = [k for k, keys in inner.items() if fits(keys)]
        if not top or any(fits([k]) for k in top) or len(nested) != 1:
            continue
        done = _dump_instead(code, name, "{obj}[%r]" % nested[0])
        if done is not None:
            return done[0], [f"wrote {done[1]} to {name}: its keys have the form of the request's example "
                             f"{', '.join(map(repr, examples))}, the object around it does not"]
    return code, []


def _is_csv_writer_of(node: ast.AST, handle: str) -> bool:
    """``csv.writer(handle, ...)`` (the module's writer, not a DictWriter)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "writer"
            and bool(node.args) and isinstance(node.args[0], ast.Name) and node.args[0].id == handle)


def _csv_writer_written(st: ast.stmt, handle: str, writers: tuple[str, ...]) -> str | None:
    """The csv writer a statement writes rows with, as text (``w`` or ``csv.writer(f)``): a
    ``writerow``/``writerows`` call in it (in a loop too) on a writer of ``handle`` or on one of the
    names ``writers`` made from it; None when it writes none."""
    for call in ast.walk(st):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in ("writerow", "writerows"):
            target = call.func.value
            if _is_csv_writer_of(target, handle):
                return ast.unparse(target)
            if isinstance(target, ast.Name) and target.id in writers:
                return target.id
    return None


def write_the_missing_header(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """``with open("t.csv", "w") as f: w = csv.writer(f); w.writerows(rows)``: the run wrote a
    requested CSV whose first row is numbers, one per requested column, so the header was never
    written (real a02, a12, m08 and a15 runs). The requested header is written with the same csv
    writer just before the first statement that writes rows, where the file is opened for writing
    once (not in a loop, not appended to).

    Returns the script and what was changed.
    """
    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    headless = {name: want for name, want in contract.csv_columns.items()
                for got in [((files.get(name) or {}).get("summary") or {}).get("first_row") or []]
                if len(got) == len(want) and all(is_number_text(str(g)) for g in got)}
    tree = parsed(code) if headless else None
    if tree is None:
        return code, []
    in_loop = {id(n) for loop in ast.walk(tree) if isinstance(loop, (ast.For, ast.While)) for n in ast.walk(loop)}
    inserts, done = [], []
    for w in ast.walk(tree):
        if not isinstance(w, ast.With) or id(w) in in_loop:
            continue
        for item in w.items:
            call, handle = item.context_expr, item.optional_vars
            if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "open" and isinstance(handle, ast.Name)
                    and call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
                continue
            name = PurePath(call.args[0].value).name
            mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
            if name not in headless or not (isinstance(mode, ast.Constant) and str(mode.value).startswith("w")):
                continue
            writers = tuple(st.targets[0].id for st in w.body if isinstance(st, ast.Assign) and len(st.targets) == 1
                            and isinstance(st.targets[0], ast.Name) and _is_csv_writer_of(st.value, handle.id))
            first = next((st for st in w.body if _csv_writer_written(st, handle.id, writers)), None)
            if first is not None:
                writer = _csv_writer_written(first, handle.id, writers)
                inserts.append((first.lineno - 1, " " * first.col_offset + f"{writer}.writerow({headless[name]!r})\n"))
                done.append(name)
    if not inserts:
        return code, []
    lines = code.splitlines(keepends=True)
    for line, text in sorted(inserts, reverse=True):
        lines.insert(line, text)
    return "".join(lines), [f"wrote the requested header first in {', '.join(done)} (the first row was numbers)"]


def drop_dataframe_index(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """``df.to_csv("t.csv")`` -> ``df.to_csv("t.csv", index=False)``: the run wrote a requested CSV
    whose header is the requested one behind an unnamed first column, pandas' row index (a real
    m08 run kept ``['', 'radius_um', ...]`` for two rounds). Every ``to_csv`` call without an
    ``index`` argument gets ``index=False``.

    Returns the script and what was changed.
    """
    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    indexed = [name for name, want in contract.csv_columns.items()
               for got in [[str(c).strip() for c in ((files.get(name) or {}).get("summary") or {}).get("first_row") or []]]
               if len(got) == len(want) + 1 and got[0] in ("", "Unnamed: 0", "index") and got[1:] == list(want)]
    tree = parsed(code) if indexed else None
    if tree is None:
        return code, []
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "to_csv" and not any(k.arg == "index" for k in n.keywords) and n.end_lineno == n.lineno]
    if not calls:
        return code, []
    fixed = replace_spans(code, {(n.end_lineno, n.end_col_offset - 1, n.end_col_offset - 1,
                                  ", index=False" if n.args or n.keywords else "index=False") for n in calls})
    if parsed(fixed) is None:
        return code, []
    return fixed, [f"to_csv(..., index=False) (the row index was written as an unnamed first column of {', '.join(indexed)})"]


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
    from ...checks.output_contract import power_of_ten_off

    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    renamed = csv_column_renames(contract, report)   # a column written under another name is found by it
    tree = None
    spans, done = set(), []
    for name, spans_wanted in contract.csv_spans.items():
        s = (files.get(name) or {}).get("summary") or {}
        header = [str(c).strip() for c in s.get("first_row") or []]
        written_as = {want: got for got, want in (renamed.get(name) or {}).items()}
        for col, want in spans_wanted.items():
            col_written = written_as.get(col, col)
            got = (s.get("column_spans") or {}).get(col_written)
            f = power_of_ten_off(got, want) if got is not None else None
            if f is None or col_written not in header:
                continue
            tree = tree or parsed(code)
            if tree is None:
                return code, []
            i = header.index(col_written)
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
    return replace_spans(code, spans), done


def _axis_of(name: str) -> str | None:
    """"x" or "y" when a constant's name says which direction it is for (PX, PITCH_X, dx, y_pitch)."""
    words = set(re.findall(r"[a-z]+", name.lower().replace("_", " "))) | {name.lower()[-1:], name.lower()[:1]}
    x, y = "x" in words or name.lower() in ("px", "dx", "sx"), "y" in words or name.lower() in ("py", "dy", "sy")
    return "x" if x and not y else "y" if y and not x else None


def _pitch_constants(tree: ast.Module) -> list[tuple[str | None, ast.Constant]]:
    """(axis or None, number) of the numbers a script's top level binds to a name, singly or in a
    tuple (``PX, PY = 2.0, 2.0``); the axis read from the name."""
    out = []
    for st in tree.body:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1):
            continue
        t, v = st.targets[0], st.value
        pairs = list(zip(t.elts, v.elts)) if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) and \
            len(t.elts) == len(v.elts) else [(t, v)]
        for name, value in pairs:
            if isinstance(name, ast.Name) and isinstance(value, ast.Constant) and type(value.value) in (int, float):
                out.append((_axis_of(name.id), value))
    return out


def bind_the_requested_pitch(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """``PX, PY = 2.0, 2.0`` where the designer asked for "20 µm pitch in x and 15 µm pitch in y": the
    run placed the requested columns and rows, but at the script's own pitch (a real m09 run kept a
    recipe's 2 µm for three rounds). Where the placements show one step per axis that is not the
    requested pitch, the one top-level constant of that value whose name says its axis (or the one
    constant of that value when both axes share it and ask for one pitch) becomes the requested
    pitch. The next run decides.

    Returns the script and what was changed.
    """
    from ...checks.output_contract import GRID_TOL_UM, _layouts

    g = contract.grid or {}
    cols, rows, want = int(g.get("columns", 0)), int(g.get("rows", 0)), {"x": g.get("pitch_x", 0), "y": g.get("pitch_y", 0)}
    files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
    grids = [lay["placement_grid"] for lay in _layouts(report, files) if isinstance(lay.get("placement_grid"), dict)
             and lay["placement_grid"].get("count") == cols * rows and cols > 1 and rows > 1]
    tree = parsed(code) if grids and want["x"] and want["y"] else None
    if tree is None:
        return code, []
    got = {}
    for axis, n in (("x", cols), ("y", rows)):
        pos = grids[0].get(axis) or []
        steps = {round(b - a, 3) for a, b in zip(pos, pos[1:])}
        if len(pos) != n or len(steps) != 1:
            return code, []
        got[axis] = steps.pop()
    off = [a for a in ("x", "y") if abs(got[a] - want[a]) > GRID_TOL_UM]
    consts = _pitch_constants(tree)
    spans, done = set(), []
    for axis in off:
        same = [c for ax, c in consts if abs(float(c.value) - got[axis]) <= GRID_TOL_UM]
        named = [c for ax, c in consts if ax == axis and c in same]
        shared = len(same) == 1 and len(off) == 2 and got["x"] == got["y"] and want["x"] == want["y"]
        chosen = named if len(named) == 1 else same if shared else []
        if len(chosen) != 1:
            return code, []
        c = chosen[0]
        spans.add((c.lineno, c.col_offset, c.end_col_offset, f"{float(want[axis]):g}"))
        done.append(f"{axis} pitch {got[axis]:g} -> {float(want[axis]):g} µm")
    if not spans:
        return code, []
    return replace_spans(code, spans), [f"{', '.join(dict.fromkeys(done))} (the pitch the designer asked for)"]


_SHAPE_CLASSES = frozenset(POINT_OF) | {"Box", "DBox"}   # the shapes made of points, and boxes


def _builds_a_shape(node: ast.AST) -> bool:
    """``pya.DBox(...)``, ``kdb.Polygon(...)``, ``DPath(...)``: a KLayout shape object made."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return ((isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.attr in _SHAPE_CLASSES)
            or (isinstance(f, ast.Name) and f.id in _SHAPE_CLASSES))


def _cell_before(tree: ast.Module, line: int) -> str | None:
    """The cell a module-level statement at ``line`` draws into: the name given the last
    ``<layout>.create_cell(...)`` above it, else the open layout's ``cell`` where the script reads
    that name without setting it; None when neither."""
    made = [st.targets[0].id for st in tree.body if st.lineno < line and isinstance(st, ast.Assign)
            and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and isinstance(st.value, ast.Call)
            and isinstance(st.value.func, ast.Attribute) and st.value.func.attr == "create_cell"]
    if made:
        return made[-1]
    names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "cell"]
    return "cell" if names and all(isinstance(n.ctx, ast.Load) for n in names) else None


def insert_the_built_shape(code: str, contract, report: ExecutionReport) -> tuple[str, list[str]]:
    """A shape built and never used, ``pad_shape = pya.DBox(...)`` with no later read of
    ``pad_shape``, where the request draws a box the run did not draw (a real b08 answer built the
    PAD cell's square, placed the cell, and never inserted the square). When the requested boxes miss
    on exactly one layer and the script builds exactly one shape it never reads, the shape is
    inserted on that layer, in the cell the script made last above it (``create_cell``) or else in
    the open layout's ``cell``: ``pad.shapes(pad.layout().layer(10, 0)).insert(pad_shape)``.

    Args:
        code: the script.
        contract: the request's output contract (its boxes).
        report: the run's report (the shapes it left on each layer).

    Returns the script and what was changed.
    """
    missing = contract.missing_boxes(report) if contract.boxes else {}
    tree = parsed(code) if len(missing) == 1 else None
    if tree is None:
        return code, []
    loads = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    unread = [st for st in tree.body if isinstance(st, ast.Assign) and len(st.targets) == 1
              and isinstance(st.targets[0], ast.Name) and st.targets[0].id not in loads and _builds_a_shape(st.value)]
    layer = next(iter(missing))
    cell = _cell_before(tree, unread[0].lineno) if len(unread) == 1 else None
    if cell is None:
        return code, []
    st, name = unread[0], unread[0].targets[0].id
    l, d = (int(v) for v in layer.split("/"))
    lines = code.splitlines(keepends=True)
    tail = "" if lines[st.end_lineno - 1].endswith("\n") else "\n"
    lines.insert(st.end_lineno, f"{tail}{cell}.shapes({cell}.layout().layer({l}, {d})).insert({name})\n")
    return "".join(lines), [f"inserted {name} on layer {layer} of {cell}: the script built it and never used it, "
                            f"and the request draws a box on {layer}"]


def _is_print(st: ast.stmt) -> bool:
    return (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Name)
            and st.value.func.id == "print")


def drop_printouts_of_unasked_layers(code: str, report: ExecutionReport, request: str) -> tuple[str, list[str]]:
    """A printout that reads a layer nobody asked for, which the open layout did not have, so
    ``layout.layer(4, 0)`` created it empty (a real m09 answer placed the grid right, wrote the
    CSV, and ended with ``n = sum(1 for _ in cell.begin_shapes_rec(layout.layer(4, 0)).each())``
    printed "now sees {n} shapes on 4/0"; the model returned it unchanged). When every module-level
    statement that reads such a layer is a ``print(...)``, or sets a name that only ``print(...)``
    statements read, those statements go.

    Args:
        code: the script.
        report: the run's report (the layers it added to the open layout).
        request: the designer's words (a layer they name is never dropped).

    Returns the script and what was changed.
    """
    from ..contract_words import empty_layers_read, layers_read

    empty = empty_layers_read(report, request, code)
    tree = parsed(code) if empty else None
    if tree is None:
        return code, []
    lines_of = layers_read(code)
    reading = {n for l in empty for n in lines_of.get(l, ())}
    top = [st for st in tree.body if any(st.lineno <= n <= st.end_lineno for n in reading)]
    drop: list[ast.stmt] = []
    for st in top:
        if _is_print(st):
            drop.append(st)
            continue
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)):
            return code, []
        name = st.targets[0].id
        users = [u for u in tree.body if u is not st and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(u))]
        if not users or not all(_is_print(u) for u in users):
            return code, []
        drop += [st] + users
    if not drop:
        return code, []
    gone = {n for st in drop for n in range(st.lineno, st.end_lineno + 1)}
    fixed = "".join(line for i, line in enumerate(code.splitlines(keepends=True), 1) if i not in gone)
    return fixed, [f"dropped the printout that read layer {', '.join(empty)}: the open layout has no such layer "
                   f"(layout.layer made it, empty) and the request does not ask for it"]
