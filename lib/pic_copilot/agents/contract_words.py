"""The output contract a designer's words set, read deterministically from the request.

What a request says outright about its result is cheap, certain evidence that a small LLM judge
misses: the files it names and their formats, a CSV's header ("with the header name,x,y",
"columns wavelength_um, T_bar, T_cross"), a JSON object's keys (``{"violations": N}``), cell
names ("top cell named WG25"). After a run the contract is checked against what the script
produced (:meth:`pic_copilot.checks.output_contract.OutputContract.check`, the type the cookbook's recipes use too); a
script that breaks it is never accepted. So is one that writes
a table of literal numbers where the request asks for values computed by the script
(:func:`literal_outputs`).

Only words that leave no doubt are read; anything vaguer is left to the other checks.
"""
from __future__ import annotations

import ast
import re
from pathlib import PurePath

from ..checks.output_contract import OutputContract
from ..execution.report import ExecutionReport
from .evaluator import requested_cell_names
from .planner import requested_files

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])|\n\s*\n")
_CSV = re.compile(r"[\w\-./]+\.(?:csv|tsv)\b", re.IGNORECASE)
_JSON = re.compile(r"[\w\-./]+\.json\b", re.IGNORECASE)
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
# "name,x,y,orientation,width": a header written without spaces
_TIGHT_LIST = re.compile(rf"(?<![\w,/]){_IDENT}(?:,{_IDENT})+(?![\w/])")
# "columns radius_um, width_um and area" / "the header: a, b, c" / "fields a, b"
_LIST_KEY = re.compile(r"\b(?:columns?|headers?|header row|fields|column names)\b(?:\s+(?:named|called|of))?\s*:?\s*",
                       re.IGNORECASE)
_PARENS = re.compile(r"\([^()]*\)")
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})


def describe(contract: OutputContract) -> str:
    """A request's contract as lines for the programmer's prompt (what the result must have)."""
    lines = []
    for f in contract.files:
        extra = ""
        if f in contract.csv_columns:
            extra = " with the header " + ",".join(contract.csv_columns[f])
        elif f in contract.json_keys:
            extra = " as a JSON object with the keys " + ", ".join(contract.json_keys[f])
        lines.append(f"- write {f}{extra}")
    lines += [f"- a cell named {c}" for c in contract.cells]
    return "\n".join(lines)


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def _spaced_list(text: str) -> list[str]:
    """Column names listed after a keyword: "a, b and c", stopping at the first item that is not
    a name ("one row per radius"). Text in parentheses is an explanation, not a name."""
    text = _PARENS.sub(" ", text)
    out: list[str] = []
    for item in re.split(r",|;|\band\b", text):
        words = item.strip().strip(".:").split()
        if not words:
            break
        first = words[0].strip("`'\"")
        if not re.fullmatch(_IDENT, first):
            break
        if len(words) > 1 and not ("_" in first or any(ch.isdigit() for ch in first)):
            break   # "one row per radius": prose, the list has ended
        out.append(first)
        if len(words) > 1:   # "y_um giving each label's position": the list ends here
            break
    return out


def csv_headers(prompt: str, files: list[str]) -> dict[str, list[str]]:
    """Per CSV file the designer named, the header they wrote out (if any), from the same sentence."""
    out: dict[str, list[str]] = {}
    csvs = [f for f in files if f.lower().endswith((".csv", ".tsv"))]
    if not csvs:
        return out
    for sent in _sentences(prompt):
        named = [m.group(0) for m in _CSV.finditer(sent) if m.group(0) in csvs]
        target = named[-1] if named else (csvs[0] if len(csvs) == 1 else None)
        if target is None or target in out:
            continue
        cols: list[str] = []
        m = _LIST_KEY.search(sent)
        if m:
            cols = _spaced_list(sent[m.end():])
        tight = [t.group(0) for t in _TIGHT_LIST.finditer(_PARENS.sub(" ", sent))
                 if not re.search(r"\.(csv|tsv|json|gds|oas)$", t.group(0), re.IGNORECASE)]
        if tight and len(tight[0].split(",")) >= len(cols):
            cols = tight[0].split(",")
        if len(cols) >= 2:
            out[target] = cols
    return out


def _object_literals(text: str) -> list[str]:
    """The ``{...}`` spans of a text (outermost braces)."""
    spans, depth, start = [], 0, None
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0 and start is not None:
                spans.append(text[start:i + 1])
    return spans


def _top_keys(obj_text: str) -> list[str]:
    keys, depth = [], 0
    for m in re.finditer(r'[{}\[\]]|"([^"]*)"\s*:', obj_text):
        tok = m.group(0)
        if tok in "{[":
            depth += 1
        elif tok in "}]":
            depth -= 1
        elif depth == 1 and m.group(1) is not None:
            keys.append(m.group(1))
    return keys


def json_keys(prompt: str, files: list[str]) -> dict[str, list[str]]:
    """Per JSON file the designer named, the keys of the object they wrote out for it.

    Only keys that are names count: ``{"layer/datatype": count}`` or ``{"1/0": 3}`` describe a
    pattern of keys, not the keys themselves.
    """
    out: dict[str, list[str]] = {}
    jsons = [f for f in files if f.lower().endswith(".json")]
    text = prompt.translate(_QUOTES)
    for sent in _sentences(text):
        named = [m.group(0) for m in _JSON.finditer(sent) if m.group(0) in jsons]
        target = named[-1] if named else (jsons[0] if len(jsons) == 1 else None)
        if target is None or target in out:
            continue
        for obj in _object_literals(sent):
            keys = _top_keys(obj)
            if keys and all(re.fullmatch(_IDENT, k) for k in keys):
                out[target] = keys
                break
    return out


def json_types(prompt: str, files: list[str]) -> dict[str, str]:
    """Per JSON file the designer named, "object" when the sentence naming it writes out an object
    for it (``as {"layer/datatype": count}``): keys that only describe a pattern still say the
    file is one object, not a list of rows."""
    out: dict[str, str] = {}
    jsons = [f for f in files if f.lower().endswith(".json")]
    text = prompt.translate(_QUOTES)
    for sent in _sentences(text):
        named = [m.group(0) for m in _JSON.finditer(sent) if m.group(0) in jsons]
        target = named[-1] if named else (jsons[0] if len(jsons) == 1 else None)
        if target is not None and target not in out and _object_literals(sent):
            out[target] = "object"
    return out


_GOES_AWAY = re.compile(r"\b(delet|remov|flatten|renam|replac|dissolv|explod|prun|drop)\w*", re.IGNORECASE)


def result_cells(prompt: str) -> list[str]:
    """Cell names the designer gave that must exist in the result: not those of a sentence that
    deletes, flattens or renames something ("flatten the cell VIA into its parents")."""
    gone = {n for sent in _sentences(prompt) if _GOES_AWAY.search(sent) for n in requested_cell_names(sent)}
    return [n for n in requested_cell_names(prompt) if n not in gone]


def from_request(prompt: str, inputs=()) -> OutputContract:
    """The output contract a request's words set (checked with :meth:`OutputContract.check`).

    Args:
        prompt: the designer's words.
        inputs: names of the files the run starts with (they are read, not written).
    """
    files = requested_files(prompt, inputs)
    return OutputContract(files=files, csv_columns=csv_headers(prompt, files), json_keys=json_keys(prompt, files),
                          json_types=json_types(prompt, files), cells=result_cells(prompt))


def missing_files(names: list[str], rep: ExecutionReport) -> list[str]:
    """Which of ``names`` a run did not write (none when the report lists no files at all)."""
    if rep.files is None:
        return []
    written = rep.written_names()
    return [n for n in names if PurePath(n).name not in written]


# imperative forms only: "placed below it" or "the merged area" describe, they do not ask
_CHANGES = re.compile(r"\b(add|draw|put|place|insert|create|make(?!\s+sure)|delete|remove|erase|move|shift|copy|grow|"
                      r"shrink|merge|flatten|rename|mark|replace|paint|mirror|rotate|fill|cut)(s|ing)?\b", re.IGNORECASE)


def expects_layout_change(prompt: str) -> bool:
    """True if an interactive request asks to change the open layout (add, delete, move, grow ...
    something), so a run that leaves the layout as it was did not do the job."""
    return bool(_CHANGES.search(prompt))


# ---------------------------------------------------------------------- literal tables
_WRITERS = {"dump", "dumps", "writerow", "writerows", "savetxt", "DataFrame", "to_csv"}
_TRIVIAL = {0.0, 1.0, -1.0}


def _numbers(node: ast.AST) -> list[float]:
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


def literal_outputs(script: str, prompt: str) -> list[str]:
    """Data a script writes to a file that is a constant table of numbers the request does not give.

    A small model asked for a CSV of measured values writes ``rows = [[1, 2.5], [2, 3.1]]`` and its
    judge accepts it; computed values never come from a display of constants. Numbers the
    designer wrote (radii to sweep, points to pass) may be literals.

    Returns:
        one sentence per offending write (empty: none).
    """
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return []
    given = {float(x) for x in re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e-?\d+)?", prompt)}
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
        if data is None:
            continue
        invented = [v for v in _numbers(data) if v not in given and v not in _TRIVIAL]
        if invented:
            out.append(f"line {node.lineno} writes a table of constant numbers ({', '.join(f'{v:g}' for v in invented[:4])}"
                       f"{', ...' if len(invented) > 4 else ''}) that the request does not give: compute them in the "
                       "script from the layout, component or simulation instead of writing them in")
    return out
