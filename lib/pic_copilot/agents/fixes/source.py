"""Editing helpers the fixes share: parse a script, read its constants, turn (line, byte column)
into a character offset, replace spans, insert lines after the imports."""
from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator


def insert_at_top(code: str, lines: list[str]) -> str:
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


def insert_after_imports(code: str, text: str) -> str:
    """``text`` (whole lines) after the script's last top-level import, or where
    :func:`insert_at_top` puts lines when it imports nothing."""
    tree = parsed(code)
    last = max((st.end_lineno for st in tree.body if isinstance(st, (ast.Import, ast.ImportFrom))), default=0) if tree else 0
    if not last:
        return insert_at_top(code, text.splitlines())
    src = code.splitlines(keepends=True)
    return "".join(src[:last] + [text] + src[last:])


def offset(lines: list[str], lineno: int, col_bytes: int) -> int:
    """The character offset in the script of an AST position (line, UTF-8 byte column)."""
    return sum(len(l) for l in lines[:lineno - 1]) + len(lines[lineno - 1].encode()[:col_bytes].decode(errors="ignore"))


def parsed(code: str) -> ast.Module | None:
    """The script's syntax tree, or None when it does not parse (then no fix applies)."""
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def replace_spans(code: str, spans) -> str:
    """``code`` with each one-line span ``(line, start column, end column, text)`` replaced by its
    text; columns are the AST's UTF-8 byte offsets (a 'µm' comment earlier on the line counts twice)."""
    lines = code.splitlines(keepends=True)
    for line, start, end, text in sorted(spans, reverse=True):
        raw = lines[line - 1].encode()
        lines[line - 1] = (raw[:start] + text.encode() + raw[end:]).decode()
    return "".join(lines)


def assignments(tree: ast.Module, top_level: bool = True) -> Iterator[tuple[str, ast.expr]]:
    """``(name, value node)`` of every one-target assignment to a plain name: ``NAME = value``, and
    ``A, B = 1, 2`` as one pair per name. ``top_level``: the module's own statements only (a
    script's constants); else every assignment in the tree."""
    for st in tree.body if top_level else ast.walk(tree):
        if not isinstance(st, ast.Assign) or len(st.targets) != 1:
            continue
        t, v = st.targets[0], st.value
        pairs = zip(t.elts, v.elts) if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) \
            and len(t.elts) == len(v.elts) else [(t, v)]
        for name, val in pairs:
            if isinstance(name, ast.Name):
                yield name.id, val


def stored_once(tree: ast.Module) -> set[str]:
    """Names the script stores exactly once (assignment, loop variable, ``with ... as``, augmented
    assignment all count): only such a name's one value can stand for it everywhere."""
    counts = Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return {name for name, k in counts.items() if k == 1}


def values_set_once(tree: ast.Module) -> dict[str, ast.expr]:
    """Name -> its one value, for the names the script stores exactly once, by a plain assignment
    anywhere in the tree (``bb = c.bbox()``): where the name is read, that value is what it holds."""
    once = stored_once(tree)
    return {name: value for name, value in assignments(tree, top_level=False) if name in once}


def is_number_text(text: str) -> bool:
    """A table cell that reads as a number ("1.5", "-3", "1e-3")."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def is_int(node: ast.AST) -> bool:
    """An integer literal (``True`` is not one)."""
    return isinstance(node, ast.Constant) and type(node.value) is int


def replace_ranges(code: str, edits) -> str:
    """``code`` with each ``(start, end, text)`` character range replaced by its text, made back to
    front; a range inside or across one replaced already is skipped (a call within a replaced
    call's arguments)."""
    last = len(code) + 1
    for start, end, text in sorted(edits, reverse=True):
        if end > last:
            continue
        code, last = code[:start] + text + code[end:], start
    return code


def replace_nodes(code: str, replacements) -> str | None:
    """``code`` with each ``(node, text)`` of ``replacements`` (nodes of ``ast.parse(code)``) replaced
    by its text; None when there is nothing to replace or the result does not parse."""
    lines = code.splitlines(keepends=True)
    edits = [(offset(lines, n.lineno, n.col_offset), offset(lines, n.end_lineno, n.end_col_offset), text)
             for n, text in replacements]
    fixed = replace_ranges(code, edits)
    return fixed if edits and parsed(fixed) is not None else None


def drop_statements(code: str, statements) -> str:
    """``code`` without the whole lines of each of ``statements`` (nodes of ``ast.parse(code)``)."""
    lines = code.splitlines(keepends=True)
    for st in sorted(statements, key=lambda s: s.lineno, reverse=True):
        del lines[st.lineno - 1:st.end_lineno]
    return "".join(lines)
