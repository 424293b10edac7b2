"""Editing helpers the fixes share: parse a script, turn (line, byte column) into a character
offset, replace spans, insert lines after the imports."""
from __future__ import annotations

import ast


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
