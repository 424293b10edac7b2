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
from ..checks.static import number_literals, written_constant_data
from ..execution.report import ExecutionReport
from .evaluator import requested_cell_names, sentence_naming
from .fixes.source import assignments, is_int, is_number_text, values_set_once
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
        elif f in contract.json_key_forms:
            extra = " as a JSON object whose keys look like " + ", ".join(f'"{k}"' for k in contract.json_key_forms[f])
        elif contract.json_types.get(f) == "object":
            extra = " as one JSON object (not a list of rows)"
        if f in contract.rdb_categories:
            extra = " with the categories " + ", ".join(f'"{c}"' for c in contract.rdb_categories[f])
        if f in contract.json_record_keys:
            extra += (" with one record per name, each an object with the keys "
                      + ", ".join(contract.json_record_keys[f]))
        lines.append(f"- write {f}{extra}")
    lines += [f"- a cell named {c}" for c in contract.cells]
    lines += [f"- no cell {c} left (it is deleted)" for c in contract.absent_cells]
    lines += [f"- shapes on layer {l}" for l in contract.layers]
    lines += [f"- a shape on layer {l} spanning x {b[0]:g} to {b[2]:g} um and y {b[1]:g} to {b[3]:g} um"
              for l, b in contract.boxes.items()]
    lines += [f"- a placed cell with its origin at ({x:g}, {y:g}) µm" for x, y in contract.origins]
    for l, texts in contract.labels.items():
        lines.append(f"- text label{'s' if len(texts) > 1 else ''} {', '.join(texts)}" + (f" on layer {l}" if l else ""))
    if contract.grid:
        g = contract.grid
        pitch = " at " + " x ".join(f"{g[k]:g} µm" for k in ("pitch_x", "pitch_y") if g.get(k)) + " pitch" \
            if g.get("pitch_x") or g.get("pitch_y") else ""
        lines.append(f"- {g['columns']:g} column(s) x {g['rows']:g} row(s) of placements{pitch}")
    elif contract.placements:
        lines.append(f"- {contract.placements} cells placed side by side (a row, column or array)")
    for f, forms in contract.csv_forms.items():
        lines += [f"- the {col} column of {f} written like {ex}" for col, ex in forms.items()]
    for f, n in contract.csv_rows.items():
        lines.append(f"- {n} data rows in {f}")
    for f, col in contract.csv_sorted.items():
        lines.append(f"- the rows of {f} sorted by {col}")
    for f, spans in contract.csv_spans.items():
        lines += [f"- {col} in {f} runs from {lo:g} to {hi:g}" for col, (lo, hi) in spans.items()]
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


_RDB = re.compile(r"[\w\-./]+\.(?:lyrdb|rdb)\b", re.IGNORECASE)
# 'with categories "width" and "space"', 'the categories width, space and density', 'a category
# named space_0.3': the names that follow, quoted or not
_CAT_NAME = r'(?:"[^"\n]{1,40}"|[A-Za-z_][\w.]*[\w])'
_CATEGORIES = re.compile(rf"\bcategor(?:y|ies)\b(?:\s+(?:named|called))?\s*:?\s*"
                         rf"({_CAT_NAME}(?:\s*,\s*(?:and\s+)?{_CAT_NAME}|\s+and\s+{_CAT_NAME})*)", re.IGNORECASE)
#: words that follow "category" without being a name ("a category for each rule"), or end a list
#: of names ("categories width and space, and write ...")
_NOT_CATEGORY = {"for", "of", "per", "with", "each", "that", "which", "in", "on", "the", "a", "an", "to", "by",
                 "holding", "containing", "is", "are", "and", "or", "write", "save", "print", "also", "then"}


def rdb_categories(prompt: str, files: list[str]) -> dict[str, list[str]]:
    """Per report database (.lyrdb) the designer named, the category names they gave in the same
    sentence ('save drc.lyrdb with categories "width" and "space"', 'with the categories width,
    space and density', 'a category named space_0.3'); a sentence that names no report database
    speaks of the only one the request writes, if one."""
    out: dict[str, list[str]] = {}
    rdbs = [f for f in files if f.lower().endswith((".lyrdb", ".rdb"))]
    if not rdbs:
        return out
    for sent in _sentences(prompt.translate(_QUOTES)):
        named = [m.group(0) for m in _RDB.finditer(sent) if m.group(0) in rdbs]
        target = named[-1] if named else (rdbs[0] if len(rdbs) == 1 else None)
        m = _CATEGORIES.search(sent)
        if target is None or target in out or not m:
            continue
        found = [n for n in re.findall(_CAT_NAME, m.group(1)) if n.lower() != "and"]
        quoted = found[:1] and found[0].startswith('"')
        names = []
        for n in found:   # quoted names, or names up to the first word that is not one
            if (n.startswith('"') != bool(quoted)) or (not quoted and n.lower() in _NOT_CATEGORY):
                break
            names.append(n.strip('"'))
        if names:
            out[target] = list(dict.fromkeys(names))
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


def _json_objects(prompt: str, files: list[str]):
    """(JSON file, the object literals written out in the sentence that names it) per sentence, in
    order; a sentence that names no JSON file speaks of the only one the request writes, if one."""
    jsons = [f for f in files if f.lower().endswith(".json")]
    for sent in _sentences(prompt.translate(_QUOTES)):
        named = [m.group(0) for m in _JSON.finditer(sent) if m.group(0) in jsons]
        target = named[-1] if named else (jsons[0] if len(jsons) == 1 else None)
        if target is not None:
            yield target, _object_literals(sent)


def _first_keys(prompt: str, files: list[str], keep) -> dict[str, list[str]]:
    """Per JSON file, the top-level keys of the first object written out for it whose keys all
    pass ``keep``."""
    out: dict[str, list[str]] = {}
    for target, objects in _json_objects(prompt, files):
        keys = next((k for k in map(_top_keys, objects) if k and all(map(keep, k))), None)
        if target not in out and keys:
            out[target] = keys
    return out


def json_keys(prompt: str, files: list[str]) -> dict[str, list[str]]:
    """Per JSON file the designer named, the keys of the object they wrote out for it.

    Only keys that are names count: ``{"layer/datatype": count}`` or ``{"1/0": 3}`` describe a
    pattern of keys, not the keys themselves.
    """
    return _first_keys(prompt, files, lambda k: re.fullmatch(_IDENT, k))


# 'keyed "1/0" etc.', "keyed as '1/0'": the form of a JSON object's keys, said in words
_KEYED_AS = re.compile(r"\bkeyed\s+(?:as\s+|by\s+|like\s+)?[\"']([^\"'\s]*\d[^\"'\s]*)[\"']", re.IGNORECASE)


def json_key_forms(prompt: str, files: list[str]) -> dict[str, list[str]]:
    """Per JSON file, the example keys the request writes out that show a form rather than a name:
    ``{"1/0": 3}`` says every key is a layer/datatype pair of numbers, and so does 'keyed "1/0"' in
    the sentence that names the file. Keys with a digit that are not identifiers count (``x0`` is a
    name, kept by :func:`json_keys`)."""
    out = _first_keys(prompt, files, lambda k: re.search(r"\d", k) and not re.fullmatch(_IDENT, k))
    jsons = [f for f in files if f.lower().endswith(".json")]
    for sent in _sentences(prompt):
        named = [m.group(0) for m in _JSON.finditer(sent) if m.group(0) in jsons]
        keyed = [m.group(1) for m in _KEYED_AS.finditer(sent) if not re.fullmatch(_IDENT, m.group(1))]
        if len(named) == 1 and keyed and named[0] not in out:
            out[named[0]] = keyed
    return out


def _top_items(obj_text: str) -> list[tuple[str, str]]:
    """(key, value text) of an object literal's top-level items whose key is quoted:
    '{"count": N, "centers": [[x, y], ...]}' -> [("count", "N"), ("centers", "[[x, y], ...]")]."""
    return [(m.group(1), value) for key, value in _items_any_key(obj_text)
            if value and (m := re.search(r'"([^"]*)"$', key))]


def _shape_word(value: str) -> str | None:
    """What a request's placeholder value says a JSON value is: ``N`` -> number, ``[[x, y], ...]``
    -> pairs, ``[...]`` -> list; prose ("mean spacing of those peaks") says nothing."""
    if re.fullmatch(r"\[\s*\[\s*\w+\s*,\s*\w+\s*\]\s*(,\s*(\.\.\.|…)\s*)?\]", value):
        return "pairs"
    if value.startswith("["):
        return "list"
    if re.fullmatch(r"[A-Za-z_]\w{0,11}|-?\d+(\.\d+)?", value) and value.lower() not in ("true", "false", "null", "none"):
        return "number"
    return None


def json_shapes(prompt: str, files: list[str]) -> dict[str, dict[str, str]]:
    """Per JSON file, what the object the request writes out says each value is (see :func:`_shape_word`).
    An object whose keys are all patterns or examples rather than names (``{"layer/datatype": count}``,
    ``{"1/0": 3}``) says it of every value: the key ``"*"``."""
    out: dict[str, dict[str, str]] = {}
    for target, objects in _json_objects(prompt, files):
        if target in out:
            continue
        for obj in objects:
            items = _top_items(obj)
            shapes = {k: w for k, v in items if re.fullmatch(_IDENT, k) and (w := _shape_word(v))}
            words = {_shape_word(v) for k, v in items}
            if items and not any(re.fullmatch(_IDENT, k) for k, _ in items) and len(words) == 1 and None not in words:
                shapes = {"*": words.pop()}
            if shapes:
                out[target] = shapes
                break
    return out


def _items_any_key(obj_text: str) -> list[tuple[str, str]]:
    """(key text, value text) of an object literal's top level, the key quoted or not:
    '{cell name: {"children": ...}, ...}' -> [("cell name", '{"children": ...}'), ("...", "")]."""
    items, depth, start = [], 0, 1
    for i, ch in enumerate(obj_text):
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
        if (ch == "," and depth == 1) or (depth == 0 and ch in "}])"):
            key, colon, value = obj_text[start:i].partition(":")
            items.append((key.strip(), value.strip()) if colon else (key.strip(), ""))
            start = i + 1
    return items


def json_record_keys(prompt: str, files: list[str]) -> dict[str, list[str]]:
    """Per JSON file, the keys every value of its top-level object must have, when the request
    writes that object as a table of records keyed by names: ``{cell name: {"children": ...,
    "own_shapes": ..., "bbox_um": ...}}`` (a placeholder key) or ``{"W400": {"core_area_um2": ...},
    ...}`` (an example key and "..." for the others). A small model kept a worked example's keys
    inside each record ("shapes" for "own_shapes") and its own outer layout, and nothing checked it."""
    out: dict[str, list[str]] = {}
    for target, objects in _json_objects(prompt, files):
        for obj in objects:
            items = [(k, v) for k, v in _items_any_key(obj) if k]
            repeated = any(k in ("...", "…") for k, _ in items) or (items and not items[0][0].startswith('"'))
            record = next((v for _, v in items if v.startswith("{")), None)
            keys = [k for k in _top_keys(record)] if repeated and record else []
            if target not in out and keys and all(re.fullmatch(_IDENT, k) for k in keys):
                out[target] = keys
    return out


# "ports.json mapping each port name to its length", "stats.json keyed by layer",
# "areas.json as a dictionary from ..." : words right after the file's name that make it one object
_MAPPING_WORDS = re.compile(r"\s+(?:as\s+|that\s+is\s+|with\s+)?(?:an?\s+|one\s+)?(?:JSON\s+)?"
                            r"(?:(?:object|dict|dictionary|map)\s+(?:from|keyed|mapping|of\s+\w+\s+to)\b"
                            r"|(?:mapping|keyed\s+by|that\s+maps|which\s+maps)\b)", re.IGNORECASE)


def json_types(prompt: str, files: list[str]) -> dict[str, str]:
    """Per JSON file the designer named, "object" when the sentence naming it writes out an object
    for it (``as {"layer/datatype": count}``) or says it maps names to values (``ports.json mapping
    each port name to its length``, ``keyed by layer``): keys that only describe a pattern still say
    the file is one object, not a list of rows."""
    out: dict[str, str] = {}
    for target, objects in _json_objects(prompt, files):
        if target not in out and objects:
            out[target] = "object"
    text = prompt.translate(_QUOTES)
    for name in files:
        if name.lower().endswith(".json") and name not in out and \
                re.search(re.escape(name) + _MAPPING_WORDS.pattern, text, re.IGNORECASE):
            out[name] = "object"
    return out


_GOES_AWAY = re.compile(r"\b(delet|remov|flatten|renam|replac|dissolv|explod|prun|drop)\w*", re.IGNORECASE)


def result_cells(prompt: str) -> list[str]:
    """Cell names the designer gave that must exist in the result: not those of a sentence that
    deletes, flattens or renames something ("flatten the cell VIA into its parents")."""
    gone = {n for sent in _sentences(prompt) if _GOES_AWAY.search(sent) for n in requested_cell_names(sent)}
    return [n for n in requested_cell_names(prompt) if n not in gone]


_NAME = r"(?:'([^']+)'|\"([^\"]+)\"|([A-Z][A-Z0-9_]+)\b)"
# "delete the cell VIA", "remove cell 'pad'", "the VIA cell is deleted", "cell DUMMY must be removed"
_DELETED = (re.compile(rf"\b(?:[Dd]elete|[Rr]emove)\s+(?:the\s+)?(?:cell\s+)?{_NAME}(?!'s|\s+(?:shapes?|layers?|texts?|from)\b)"),
            re.compile(rf"\b(?:cell\s+)?{_NAME}\s+(?:cell\s+)?(?:is|gets|must\s+be|should\s+be|will\s+be)\s+"
                       r"(?:then\s+)?(?:deleted|removed)\b"))


def deleted_cells(prompt: str) -> list[str]:
    """Cell names the designer says are deleted: "and the VIA cell is deleted", "delete the cell
    DUMMY" (a real a10 answer flattened a copy of the vias and left VIA in place, and only the
    task's own check saw it). Not the shapes or layers of a cell ("remove cell PAD's shapes")."""
    out = []
    for rx in _DELETED:
        for m in rx.finditer(prompt.translate(_QUOTES)):
            name = next(g for g in m.groups() if g)
            if name not in out:
                out.append(name)
    return out


_N = r"(-?\d+(?:\.\d+)?)"
_BOX_SIZE = re.compile(rf"\b{_N}\s*(?:µm|um)?\s*[x×]\s*{_N}\s*(?:µm|um)\b(?:\s+(?:wide\s+)?)?"
                       r"[^.]{0,30}?\b(?:rectangles?|box(?:es)?|squares?)\b", re.IGNORECASE)
_WIDE_TALL = re.compile(rf"\b(?:rectangle|box|square)\s+{_N}\s*(?:µm|um)\s+wide\s+and\s+{_N}\s*(?:µm|um)\s+(?:tall|high)\b",
                        re.IGNORECASE)
_POINT = rf"\(\s*{_N}\s*,\s*{_N}\s*\)\s*(?:µm|um)?"
_FROM_TO = re.compile(rf"\b(?:rectangle|box)\s+from\s+{_POINT}\s+to\s+{_POINT}", re.IGNORECASE)
_CENTRED = re.compile(rf"\bcent(?:red|ered|re|er)\s+(?:on|at|around)\s+(?:(?:the\s+)?(?:cell's\s+|its\s+)?origin\b|{_POINT})",
                      re.IGNORECASE)
_LOWER_LEFT = re.compile(rf"\blower[- ]left\s+corner\s+(?:at|on)\s+(?:(?:the\s+)?origin\b|{_POINT})", re.IGNORECASE)
_BOX_LAYER = re.compile(r"\bon\s+(?:layer\s+)?(\d{1,5})\s*/\s*(\d{1,5})\b", re.IGNORECASE)
_FOR_CELL = re.compile(r"\bcell\s+(?:named\s+|called\s+)?([A-Z][A-Z0-9_]*)\b")


def placed_boxes(prompt: str) -> dict[str, list[float]]:
    """Boxes a request draws at a stated place, "L/D" -> [left, bottom, right, top] µm: "a 10 um x 5 um
    rectangle on layer 1/0 with its lower-left corner at the origin" -> {"1/0": [0, 0, 10, 5]}, "a
    100 × 100 µm square on layer 10/0 centred on the cell's origin" -> {"10/0": [-50, -50, 50, 50]}.
    Only sentences that make one box, with its size, its layer and its anchor in them."""
    out: dict[str, list[float]] = {}
    for sent in _sentences(prompt):
        sizes = _BOX_SIZE.findall(sent) + _WIDE_TALL.findall(sent)
        layers = _BOX_LAYER.findall(sent)
        if len(layers) != 1 or not _MAKES.search(sent) or _CONDITIONAL.search(sent):
            continue
        corners = _FROM_TO.findall(sent)
        if len(corners) == 1 and not sizes:
            x0, y0, x1, y1 = (float(v) for v in corners[0])
            out[f"{int(layers[0][0])}/{int(layers[0][1])}"] = [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]
            continue
        if len(sizes) != 1:
            continue
        w, h = (float(v) for v in sizes[0])
        c, ll = _CENTRED.search(sent), _LOWER_LEFT.search(sent)
        if (c is None) == (ll is None):
            continue
        m = c or ll
        x, y = (float(m.group(1)), float(m.group(2))) if m.group(1) is not None else (0.0, 0.0)
        box = [x - w / 2, y - h / 2, x + w / 2, y + h / 2] if c else [x, y, x + w, y + h]
        out[f"{int(layers[0][0])}/{int(layers[0][1])}"] = [round(v, 6) for v in box]
    return out


# a sentence that makes something on a layer ("put a text label ... on layer 10/0", "draw a box on 2/0")
_MAKES = re.compile(r"\b(?:(add|draw|put|place|insert|create|make(?!\s+sure)|paint|mark|label|copy|fill|build)(s|ed|ing)?"
                    r"|built|defin(?:e|es|ed|ing))\b", re.IGNORECASE)   # "define a cross-section: a core on layer 1/0"
# ... unless what it makes depends on a condition or a check ("mark each tile with density below 0.2",
# "mark the violations on 99/0"): there may rightly be nothing to draw
_CONDITIONAL = re.compile(r"\b(if|when|whenever|unless|where|wherever|below|above|under|over|less|more|fewer|smaller|"
                          r"larger|narrower|wider|shorter|longer|exceed\w*|violat\w*|fail\w*|break\w*|error\w*|"
                          r"markers?|only)\b|[<>≤≥]", re.IGNORECASE)
_MOVES_AWAY = re.compile(r"\b(mov|shift|transfer|migrat)\w*", re.IGNORECASE)


def produced_layers(prompt: str) -> list[str]:
    """Layers a request makes something on, "L/D": each must hold shapes (or texts) afterwards.

    Read from sentences with a making verb and no condition, deletion or move (those may rightly
    leave a layer empty); a layer the request reads ("layer 1/0 of in.gds") is in none of them.
    """
    from .evaluator import requested_layers

    out: list[str] = []
    for sent in _sentences(prompt):
        if not _MAKES.search(sent) or _CONDITIONAL.search(sent) or _GOES_AWAY.search(sent) or _MOVES_AWAY.search(sent):
            continue
        out += [f"{l}/{d}" for l, d in requested_layers(sent) if f"{l}/{d}" not in out]
    return out


# "the second moved by (200, 50) µm": a placement whose origin the words state
_MOVED_BY = re.compile(rf"\b(?:moved|shifted|translated|displaced)\s+by\s+{_POINT}", re.IGNORECASE)
# "place one instance of PAD in the current cell at (200, 0) µm", "a reference of RING at (0, 50) um":
# an instance/reference of a named cell, then "at" and its points within the clause
_INSTANCE_AT = re.compile(rf"\b(?:instance|reference)s?\s+of\s+[^.;:]{{0,60}}?\bat\s+((?:{_POINT}\s*(?:,|and|,\s*and)?\s*)+)",
                          re.IGNORECASE)
# "Place DEVICE at (0, 0) and DEVICE_M at (100, 0) µm": a cell named in capitals, placed at a point
_PLACE_VERB = re.compile(r"\b(?:place|put|instantiate)\w*\b", re.IGNORECASE)
_NAMED_AT = re.compile(rf"\b[A-Z][A-Z0-9_]+\s+at\s+{_POINT}")
_LABEL_BEFORE = re.compile(r"\b(?:texts?|labels?|strings?|reading|saying)\s+(?:[\w\"']+\s+){0,1}$", re.IGNORECASE)


def moved_origins(prompt: str) -> list[list[float]]:
    """Where a request places a cell, [x, y] µm: "an all-pass ring moved by (100, 0) µm" ->
    [[100.0, 0.0]]; "place one instance of PAD in the current cell at (200, 0) µm" -> [[200.0, 0.0]].

    Only "moved/shifted/translated/displaced by (x, y)" (a cell made at the origin and moved lands
    there), "instance(s)/reference(s) of ... at (x, y)[, (x, y) and (x, y)]" and "place NAME at (x, y)"
    with a cell name in capitals; a box's corner or a label's position is not a placement."""
    out: list[list[float]] = []
    points = [[float(m.group(1)), float(m.group(2))] for m in _MOVED_BY.finditer(prompt)]
    for m in _INSTANCE_AT.finditer(prompt):
        points += [[float(x), float(y)] for x, y in re.findall(_POINT, m.group(1))]
    for sentence in _sentences(prompt):
        for clause in re.split(r"[;:]", sentence):
            if _PLACE_VERB.search(clause):
                points += [[float(m.group(1)), float(m.group(2))] for m in _NAMED_AT.finditer(clause)
                           if not _LABEL_BEFORE.search(clause[:m.start()])]
    for p in points:
        if p not in out:
            out.append(p)
    return out


# text labels a request asks for: "put a text label GC0, GC1, GC2, GC3 on layer 10/0", 'a text "TOP"'
_LABEL_NOUN = re.compile(r"\b(?:labels?|texts?|annotations?)\b", re.IGNORECASE)
_CODE_TOKEN = r"[A-Za-z][A-Za-z_]*\d+[A-Za-z0-9_]*"       # GC0, PAD_12, R5: letters then a number
_TOKEN_LIST = re.compile(rf"(?<![\w/.]){_CODE_TOKEN}(?:\s*,\s*{_CODE_TOKEN})+(?:,?\s+and\s+{_CODE_TOKEN})?(?![\w/.])")
_QUOTED = re.compile(r'"([^"\n]{1,60})"|\'([^\'\n]{1,60})\'')
_NAMED_TEXT = re.compile(r"\b(?:labels?|texts?)\s+(?:reading\s+|saying\s+|with\s+the\s+(?:text|string)\s+)?"
                         r"([A-Z][A-Z0-9_]*[A-Z0-9])\b(?!\s*(?:/|\.\w))")


def requested_labels(prompt: str) -> dict[str, list[str]]:
    """Text labels a request asks to make, "L/D" (or "" when its sentence names no single layer) ->
    strings: 'put a text label GC0, GC1, GC2, GC3 (left to right) on layer 10/0' -> {"10/0": ["GC0",
    "GC1", "GC2", "GC3"]}, 'add a text "TOP" on 66/0' -> {"66/0": ["TOP"]}. Read from sentences that
    make something and name labels or texts, without a condition (a label on each violation may
    rightly be none); the strings are quoted, a list of names with a number (GC0, GC1), or one
    upper-case name right after "label"/"text". Cell and file names the request gives are not labels."""
    from .evaluator import requested_layers

    names = set(requested_cell_names(prompt)) | set(requested_files(prompt, ()))
    out: dict[str, list[str]] = {}
    for sent in _sentences(prompt.translate(_QUOTES)):
        if not (_MAKES.search(sent) and _LABEL_NOUN.search(sent)) or _CONDITIONAL.search(sent):
            continue
        quoted = [a or b for a, b in _QUOTED.findall(sent)]
        if quoted:
            found = quoted
        else:
            found = [t for m in _TOKEN_LIST.finditer(sent) for t in re.split(r"\s*,\s*|,?\s+and\s+", m.group(0))]
            found += [m.group(1) for m in _NAMED_TEXT.finditer(sent)]
        found = [t for t in dict.fromkeys(t.strip() for t in found) if t and t not in names and not _FILE_LIKE.search(t)]
        if not found:
            continue
        layers = requested_layers(sent)
        key = f"{layers[0][0]}/{layers[0][1]}" if len(layers) == 1 else ""
        out.setdefault(key, [])
        out[key] += [t for t in found if t not in out[key]]
    return out


_FILE_LIKE = re.compile(r"\.\w{2,4}$|^\d+/\d+$")


_NUMBER_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_COUNT = r"(\d+|" + "|".join(_NUMBER_WORDS) + r")"
_GRID = re.compile(rf"\b{_COUNT}\s+columns?\s*(?:,|and|by|x|×)\s*{_COUNT}\s+rows?\b|"
                   rf"\b{_COUNT}\s+rows?\s*(?:,|and|by|x|×)\s*{_COUNT}\s+columns?\b", re.IGNORECASE)
# "four of the grating couplers in a row", "3 copies of UNIT": N things placed side by side
_ROW_OF = re.compile(rf"\b{_COUNT}\s+(?!µm|um|nm|mm\b)(?:[\w'-]+\s+){{0,10}}?in\s+a\s+(?:row|column|line)\b|"
                     rf"\b{_COUNT}\s+(?:copies|instances|placements)\b", re.IGNORECASE)
# "Place two of the PDK's MMIs", "add 3 pads": the verb names the count directly
_VERB_COUNT = re.compile(rf"\b(?:place|put|add|insert|instantiate|arrange)\s+{_COUNT}\b(?!\s*(?:µm|um|nm|mm|%|°|deg))",
                         re.IGNORECASE)
_PLACES = re.compile(r"\b(place|array|arrange|put|make|create|add|instantiate|repeat|tile|step)\w*\b", re.IGNORECASE)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS[word.lower()]


# what a router places: a count of these is a count of route pieces, not of devices
_ROUTE_PIECE_WORDS = re.compile(r"\b(?:straights?|bends?|tapers?|waveguides?|wires?|routes?|routing)\b", re.IGNORECASE)


def placed_devices(prompt: str) -> bool:
    """The placements a request counts are devices ("Place two of the PDK's MMIs"): no sentence
    that gives the count names straights, bends, tapers, waveguides or routes, so route pieces
    between the devices are not what was counted."""
    counting = [sent for sent in _sentences(prompt) if _PLACES.search(sent)
                and any(p.search(sent) for p in (_GRID, _ROW_OF, _VERB_COUNT))]
    return bool(counting) and not any(_ROUTE_PIECE_WORDS.search(sent) for sent in counting)


def placements(prompt: str) -> int:
    """How many cells a request places together in one cell ("4 columns and 3 rows" -> 12, "four
    ... couplers in a row" -> 4), 0 when its words say no such number. Only sentences that place
    something count (a table "with 4 columns" places nothing). The cells may differ (four
    variants of a sweep), so the count is of placements, not of copies of one cell."""
    best = 0
    for sent in _sentences(prompt):
        if not _PLACES.search(sent):
            continue
        for m in _GRID.finditer(sent):
            a, b = [g for g in m.groups() if g is not None]
            best = max(best, _count(a) * _count(b))
        for m in [*_ROW_OF.finditer(sent), *_VERB_COUNT.finditer(sent)]:
            best = max(best, _count(next(g for g in m.groups() if g is not None)))
    return best if best >= 2 else 0


_LEN = r"(\d+(?:\.\d+)?)\s*(?:µm|um|microns?)"
# "60 µm pitch in x", "a pitch of 60 µm in x", "x pitch of 60 µm", "pitches of 60 and 40 µm", "127 µm pitch"
_PITCH_AXIS = re.compile(rf"\b{_LEN}\s+pitch\s+(?:in|along)\s+(?:the\s+)?([xy])\b|"
                         rf"\bpitch\s+(?:of\s+)?{_LEN}\s+(?:in|along)\s+(?:the\s+)?([xy])\b|"
                         rf"\b([xy])[- ]pitch\s+(?:of\s+)?{_LEN}", re.IGNORECASE)
_PITCH_PAIR = re.compile(r"\bpitch(?:es)?\s+(?:of\s+)?(\d+(?:\.\d+)?)\s*(?:µm|um)?\s*(?:x|×|by|and)\s*"
                         + _LEN, re.IGNORECASE)
_PITCH_ONE = re.compile(rf"\b{_LEN}\s+pitch\b|\bpitch\s+(?:of\s+)?{_LEN}", re.IGNORECASE)
_IN_A_ROW = re.compile(rf"\b{_COUNT}\s+(?!µm|um|nm|mm\b)(?:[\w'-]+\s+){{0,10}}?in\s+a\s+(row|column|line)\b"
                       r"(?:\s+along\s+(?:the\s+)?([xy])\b)?", re.IGNORECASE)


def grid(prompt: str) -> dict[str, float]:
    """How a request arranges its placements, when its words say it outright: "4 columns and 3
    rows, 60 µm pitch in x and 40 µm pitch in y" -> {columns: 4, rows: 3, pitch_x: 60, pitch_y: 40};
    "four couplers in a row along x with a 127 µm pitch" -> {columns: 4, rows: 1, pitch_x: 127}.
    {} when no sentence that places something gives the counts."""
    for sent in _sentences(prompt):
        if not _PLACES.search(sent):
            continue
        out: dict[str, float] = {}
        m = _GRID.search(sent)
        if m:
            a, b, c, d = m.groups()
            out = {"columns": _count(a), "rows": _count(b)} if a else {"columns": _count(d), "rows": _count(c)}
        else:
            r = _IN_A_ROW.search(sent)
            if not r:
                continue
            n, shape, axis = _count(r.group(1)), r.group(2).lower(), (r.group(3) or "").lower()
            along_y = axis == "y" or (shape == "column" and axis != "x")
            out = {"columns": 1, "rows": n} if along_y else {"columns": n, "rows": 1}
        for p in _PITCH_AXIS.finditer(sent):
            g = p.groups()
            value, axis = (g[0], g[1]) if g[0] else (g[2], g[3]) if g[2] else (g[5], g[4])
            out[f"pitch_{axis.lower()}"] = float(value)
        pair = _PITCH_PAIR.search(sent)
        if pair and "pitch_x" not in out and "pitch_y" not in out:
            out["pitch_x"], out["pitch_y"] = float(pair.group(1)), float(pair.group(2))
        one = _PITCH_ONE.search(sent)
        if one and "pitch_x" not in out and "pitch_y" not in out and 1 in (out["columns"], out["rows"]):
            out["pitch_y" if out["columns"] == 1 else "pitch_x"] = float(one.group(1) or one.group(2))
        return out if out["columns"] * out["rows"] >= 2 else {}
    return {}


_ROW_PER = re.compile(r"\b(?:one|a|1)\s+(?:data\s+)?(?:row|line)\s+(?:per|for\s+each|for\s+every)\s+(?:placed\s+|listed\s+|given\s+)?"
                      r"([A-Za-z][\w-]*)",
                      re.IGNORECASE)
_POINTS = re.compile(r"\b(\d+)\s+(?:points|samples|wavelengths|frequencies)\b", re.IGNORECASE)
_NUM = r"-?\d+(?:\.\d+)?"


def _enumerated(prompt: str, noun: str, words_between: int = 0) -> int:
    """How many values the request lists for ``noun`` ("radius 5, 10, 15 and 20 µm" -> 4), 0 if none;
    ``words_between``: words that may stand between the noun and its values ("length differences of
    20, 40 ... µm" for "length" with 1)."""
    stem = re.escape(noun.lower().rstrip("s")[:5])
    between = rf"(?:\s+[A-Za-z]+){{0,{words_between}}}?" if words_between else ""
    for m in re.finditer(rf"\b{stem}\w*\b{between}(?:\s+(?:of|=|:|values?|in))?\s*((?:{_NUM}\s*(?:µm|um|nm|mm)?\s*(?:,|\bor\b|\band\b)\s*)+"
                         rf"(?:and\s+|or\s+)?{_NUM})", prompt, re.IGNORECASE):
        n = len(re.findall(_NUM, m.group(1)))
        if n >= 2:
            return n
    return 0


_NUM = r"-?\d+(?:\.\d+)?"
# what follows a column's name to give its values' form: 'layer (as "layer/datatype")', 'layer (e.g. 1/0)',
# 'layer as "L/D"'; the words layer/datatype stand for their usual example, 1/0
_FORM_AFTER = (r"\s*(?:\(\s*(?:as|like|e\.\s*g\.|i\.\s*e\.|written as|in the form)?|,?\s*(?:is\s+)?(?:written\s+)?(?:as|like))"
               rf"\s*[\"']?(?:(?P<words>layer\s*/\s*datatype|L\s*/\s*D)|(?P<example>{_NUM}/{_NUM}))[\"']?")


def csv_forms(prompt: str, columns: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    """Per CSV file, the columns whose values the request shows a form for, with an example value:
    'columns layer (as "layer/datatype"), shapes, area' -> {"layer": "1/0"}.

    Args:
        prompt: the request.
        columns: the header read for each CSV file (:func:`csv_headers`); only those columns count.
    """
    text = prompt.translate(_QUOTES)
    out: dict[str, dict[str, str]] = {}
    for name, cols in columns.items():
        for col in cols:
            m = re.search(rf"(?<![\w/]){re.escape(col)}" + _FORM_AFTER, text, re.IGNORECASE)
            if m:
                out.setdefault(name, {})[col] = m.group("example") or "1/0"
    return out


def csv_row_counts(prompt: str, files: list[str]) -> dict[str, int]:
    """Per CSV file, the number of data rows the words fix, when they leave no doubt: "one row per
    radius" with the radii listed, "one row per placed copy" with a grid of copies, a sweep "in 501
    points" written as a spectrum (its header starts with the wavelength), when the request writes
    one CSV file."""
    csvs = [f for f in files if f.lower().endswith((".csv", ".tsv"))]
    if len(csvs) != 1:
        return {}
    m = _ROW_PER.search(prompt)
    if m:
        noun = m.group(1).lower()
        n = _enumerated(prompt, noun)
        if not n and re.match(r"(copy|copies|instance|placement|cell|unit|tile|ring|device)", noun):
            n = placements(prompt)
        return {csvs[0]: n} if n else {}
    # a sampled spectrum: one row per point, when the table's first column is the swept variable
    header = csv_headers(prompt, files).get(csvs[0]) or [""]
    per_value = _rows_per_listed_value(prompt, header)
    if per_value:
        return {csvs[0]: per_value}
    points = {int(p) for p in _POINTS.findall(prompt)}
    if len(points) == 1 and re.match(r"(wavelength|wl|lambda|freq)", header[0], re.IGNORECASE):
        return {csvs[0]: points.pop()}
    return {}


_SWEPT_COLUMN = re.compile(r"(wavelength|wl|lambda|freq)", re.IGNORECASE)
_UNIT_WORDS = frozenset({"um", "nm", "mm", "db", "deg", "rad", "ghz", "thz", "per", "the", "and"})


def _listed_quantity(prompt: str, column: str) -> int:
    """How many values the request lists for the quantity a column is named for ("delta_length_um"
    and "arm length differences of 20, 40, 80 and 160 µm" -> 4), 0 if none."""
    words = [w for w in re.split(r"[_\W]+", column.lower()) if len(w) >= 3 and w not in _UNIT_WORDS]
    return next((n for w in words if (n := _enumerated(prompt, w, words_between=2))), 0)


def _rows_per_listed_value(prompt: str, header: list[str]) -> int:
    """The rows of a table of results per listed value: its first column is named for the one
    quantity the request lists values of ("For arm length differences of 20, 40, 80 and 160 µm ...
    write fsr.csv with columns delta_length_um, fsr_nm" -> 4). 0 when another column is listed too
    (a table over two lists has a row per pair) or the table is a sampled spectrum."""
    if len(header) < 2 or any(_SWEPT_COLUMN.match(c) for c in header):
        return 0
    if any(_listed_quantity(prompt, c) for c in header[1:]):
        return 0
    return _listed_quantity(prompt, header[0])


_SORTED_BY = re.compile(rf"\b(?:sorted|ordered|sort(?:ing)?\s+(?:it|them|the\s+rows)?)\s+(?:in\s+ascending\s+order\s+)?by\s+"
                        rf"(?:the\s+|its\s+|their\s+)?({_IDENT})", re.IGNORECASE)


def csv_sort_columns(prompt: str, files: list[str]) -> dict[str, str]:
    """Per CSV file with a known header, the column the request sorts the rows by ("sorted by text"):
    only a column of that header, only ascending ("descending" sets nothing)."""
    headers = csv_headers(prompt, files)
    out: dict[str, str] = {}
    for sent in _sentences(prompt):
        m = _SORTED_BY.search(sent)
        if not m or re.search(r"\b(descending|decreasing|reverse)\b", sent, re.IGNORECASE):
            continue
        for f, cols in headers.items():
            if m.group(1) in cols and f not in out:
                out[f] = m.group(1)
    return out


#: length units a range or a column name can carry, in um (micro written u, µ or μ)
_LENGTH_UM = {"um": 1.0, "nm": 1e-3, "mm": 1e3}


def _um_per(unit: str) -> float:
    return _LENGTH_UM[unit.lower().replace("µ", "u").replace("μ", "u")]
_RANGE = re.compile(rf"\bfrom\s+({_NUM})\s*(µm|μm|um|nm|mm)?\s+(?:to|until|up\s+to)\s+({_NUM})\s*(µm|μm|um|nm|mm)\b"
                    # "sweep 1.54-1.56 µm", "1.50–1.60 µm": decimals joined by a dash, a length unit after
                    rf"|(?<![\w.\-–])(\d+\.\d+)\s*(µm|μm|um|nm|mm)?\s*[-–]\s*(\d+\.\d+)\s*(µm|μm|um|nm|mm)\b",
                    re.IGNORECASE)
_UNIT_SUFFIX = re.compile(r"(?:^|_|\()(um|µm|nm|mm)\)?$", re.IGNORECASE)


def _swept_in(column: str, sentence: str) -> bool:
    """The column (its name without the unit) is what the sentence's range sweeps: a wavelength or
    frequency column, or one whose every word the sentence has ("radius" in "sweep the radius
    from 5 to 10 µm"; not delta_length_um for "sweep 1.50-1.60 µm")."""
    words = [w for w in re.split(r"[_\s]+", column.lower()) if w]
    return bool(_SWEPT_COLUMN.search(column)) or bool(words) and all(
        re.search(rf"\b{re.escape(w)}", sentence, re.IGNORECASE) for w in words)


def csv_spans(prompt: str, files: list[str]) -> dict[str, dict[str, list[float]]]:
    """The range a swept column must cover ("sweep the wavelength from 1.50 to 1.60 µm ... write
    mzi.csv with columns wavelength_um, ..."): when the request writes one CSV whose named header
    starts with a column carrying a length unit (wavelength_um, radius_nm), and gives exactly one
    range of lengths, that column runs from its start to its end, in the column's unit."""
    csvs = [f for f in files if f.lower().endswith((".csv", ".tsv"))]
    header = csv_headers(prompt, csvs).get(csvs[0]) if len(csvs) == 1 else None
    found = [(sent, m[:4] if m[0] else m[4:]) for sent in _sentences(prompt) for m in _RANGE.findall(sent)]
    unit = _UNIT_SUFFIX.search(header[0]) if header else None
    if unit is None or len(found) != 1 or not _swept_in(header[0][:unit.start()], found[0][0]):
        return {}
    lo, lo_unit, hi, hi_unit = found[0][1]
    to_col = 1.0 / _um_per(unit.group(1))
    lo_um, hi_um = float(lo) * _um_per(lo_unit or hi_unit), float(hi) * _um_per(hi_unit)
    return {csvs[0]: {header[0]: [round(lo_um * to_col, 9), round(hi_um * to_col, 9)]}}


def from_request(prompt: str, inputs=(), mode: str = "sandbox") -> OutputContract:
    """The output contract a request's words set (checked with :meth:`OutputContract.check`).

    Args:
        prompt: the designer's words.
        inputs: names of the files the run starts with (they are read, not written).
        mode: "sandbox" or "interactive" (an edit of the open layout); the layers and placements a
            request makes are checked only where a layout results: a written layout file or the
            open layout.
    """
    files = requested_files(prompt, inputs)
    makes_layout = mode == "interactive" or any(_LAYOUT_OUT.search(f) for f in files)
    columns = csv_headers(prompt, files)
    return OutputContract(files=files, csv_columns=columns, csv_forms=csv_forms(prompt, columns), json_keys=json_keys(prompt, files),
                          json_types=json_types(prompt, files), json_shapes=json_shapes(prompt, files),
                          json_key_forms=json_key_forms(prompt, files), json_record_keys=json_record_keys(prompt, files),
                          cells=result_cells(prompt), absent_cells=deleted_cells(prompt),
                          csv_rows=csv_row_counts(prompt, files), csv_sorted=csv_sort_columns(prompt, files),
                          csv_spans=csv_spans(prompt, files), rdb_categories=rdb_categories(prompt, files),
                          layers=produced_layers(prompt) if makes_layout else [],
                          placements=placements(prompt) if makes_layout else 0,
                          placed_devices=placed_devices(prompt) if makes_layout else False,
                          grid=grid(prompt) if makes_layout else {},
                          boxes=placed_boxes(prompt) if makes_layout else {},
                          labels=requested_labels(prompt) if makes_layout else {},
                          origins=moved_origins(prompt) if makes_layout else [])


_LAYOUT_OUT = re.compile(r"\.(gds|gds2|oas|gds\.gz)$", re.IGNORECASE)


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


#: words of a change beyond :data:`_CHANGES`: a request with none of either only reads the layout
_OTHER_EDITS = re.compile(r"\b(snap|scale|resize|widen|narrow|extend|fix|clip|offset|round|smooth|size|bias|trim|swap|"
                          r"join|split|convert|align|array|duplicate|stretch|translate|transform|set|change|update|"
                          r"assign|label|annotate|edit|modify|apply|build|generate)\w*\b", re.IGNORECASE)


def unasked_layout_change(rep: ExecutionReport, prompt: str, contract: OutputContract) -> list[str]:
    """A request that only reads the open layout and writes files (a question, a count, a report)
    whose run changed the layout's shapes or cells: a small model copies an edit recipe's in-place
    step (a real b11 answer, asked for a layer's merged area, merged the layer's shapes in the
    designer's layout with ``shapes.clear(); shapes.insert(merged)``). Only where the request has no
    word of a change at all, so an edit named in other words is never sent back.

    Args:
        rep: the run's report (``changes``: what the run did to the open layout).
        prompt: the designer's words.
        contract: the request's output contract (the files it asks for).
    """
    ch = rep.changes or {}
    if rep.where != "klayout" or not contract.files or _CHANGES.search(prompt) or _OTHER_EDITS.search(prompt):
        return []
    delta = ch.get("shapes_delta") or {}
    cells = list(ch.get("cells_added") or []) + list(ch.get("cells_removed") or [])
    if not delta and not cells and not (ch.get("changed") and not ch.get("layers_added")):
        return []
    what = ", ".join([f"{n:+d} shapes on {l}" for l, n in list(delta.items())[:4]]
                     + [f"cells {', '.join(cells[:4])} added or removed"] * bool(cells)) or "shapes edited in place"
    return [f"the script changed the open layout ({what}), but the designer only asked to read it and write "
            f"{', '.join(contract.files)}: compute from the shapes (e.g. a pya.Region made of them) without "
            "clearing, inserting or deleting anything in the layout"]


# ---------------------------------------------------------------------- what the script itself shows
_CONNECTS = re.compile(r"\b(route|routed|routing|connect|connected|connecting|wire|wired)\b", re.IGNORECASE)


def missing_route(script: str, prompt: str) -> list[str]:
    """A gdsfactory request that connects ports ("connect o2 of the first MMI to o1 of the
    second with a routed waveguide") needs a routing call or ``connect``; a script with neither
    only placed the parts (a real m03 answer placed one MMI and was accepted)."""
    if not _CONNECTS.search(prompt) or "gdsfactory" not in script:
        return []
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return []
    called = {(n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")) for n in ast.walk(tree)
              if isinstance(n, ast.Call)}
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    if any("route" in c or c in ("connect", "connect_ports") for c in called) or "routing" in used:
        return []
    return ["the designer asked to connect ports, but the script calls no routing function "
            "(e.g. gf.routing.route_single(component, port1, port2, cross_section=...)) and no connect()"]


_SUB = r"(?:sub-?cells?|child(?:ren| cells?)|cells? below(?: it)?|everything (?:placed )?below(?: it)?)"
# "in the current cell only (not its sub-cells)", "excluding sub-cells", "shapes directly in this cell"
_FLAT_SCOPE = re.compile(rf"\b(?:not|excluding|without|ignoring|ignore)\s+(?:in\s+|of\s+|from\s+)?(?:its\s+|the\s+|any\s+)?{_SUB}"
                         r"|\b(?:current|this|active|open|top)\s+cell\s+only\b|\bonly\s+(?:in\s+)?(?:the\s+)?(?:current|this|active)\s+cell\b"
                         r"(?!\s*(?:and|,|\(|including|with|plus))", re.IGNORECASE)
# "including its sub-cells", "current cell and sub-cells", "any cell below it", "whole hierarchy", "flattened"
_DEEP_SCOPE = re.compile(rf"\b(?:including|with|and|plus|or|in)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:its\s+|the\s+|their\s+)?{_SUB}"
                         rf"|\b(?:any|every)\s+cell\s+below\b|\bwhole hierarchy\b|\bflatten(?:ed|ing)?\b|\bseen flat\b"
                         rf"|\bmay also be in {_SUB}", re.IGNORECASE)
_RECURSIVE = re.compile(r"\bbegin_shapes_rec\w*|\bRecursiveShapeIterator\b|\.flatten\s*\(|\bflatten_cell\b|\beach_shape_rec\b"
                        r"|\bbegin_instances_rec\b|\bRecursiveInstanceIterator\b|\beach_child_cell\b|\beach_inst\b|\bcalled_cells\b")


_OWN_REGION = re.compile(r"\bRegion\(\s*[\w.]+\.shapes\s*\(")
_FLATTENS = re.compile(r"\.flatten\s*\(|\bflatten_cell\b")


def hierarchy_scope(script: str, prompt: str) -> list[str]:
    """A request about the open layout's shapes that says which cells count, against how the script
    reads them: "in the current cell only (not its sub-cells)" read with a recursive iterator (a real
    b10 answer counted the sub-cells' shapes three times running), or "including its sub-cells" read
    from the cell's own shapes only. Only when the request states one scope, never both (a request
    that walks the hierarchy and also asks for each cell's own shapes is left alone), and only for
    scripts that read shapes with KLayout."""
    scope = scope_mismatch(script, prompt)
    if scope == "flat":
        return ["the designer counts the current cell's own shapes only (not its sub-cells), but the script reads them "
                "recursively (begin_shapes_rec, a RecursiveShapeIterator or a flatten): read cell.shapes(layer_index) "
                "of the cell itself"]
    if scope == "deep":
        return ["the designer includes the shapes of the sub-cells, but the script reads only the cell's own shapes "
                "(cell.shapes(layer_index)): read them through the hierarchy, e.g. "
                "pya.Region(cell.begin_shapes_rec(layer_index))"]
    return []


def scope_mismatch(script: str, prompt: str) -> str | None:
    """The scope the request states where the script reads the other (see :func:`hierarchy_scope`):
    "flat" (own shapes asked for, read recursively), "deep" (sub-cells included, own shapes read),
    or None."""
    flat, deep = bool(_FLAT_SCOPE.search(prompt)), bool(_DEEP_SCOPE.search(prompt))
    if flat == deep or not re.search(r"\.shapes\s*\(|begin_shapes|RecursiveShapeIterator", script):
        return None
    recursive = bool(_RECURSIVE.search(script))
    # a Region of the cell's own shapes, unflattened, is own shapes whatever else reads recursively
    # (a real b11 answer counted shapes with begin_shapes_rec and took the area of Region(cell.shapes(li)))
    own_region = bool(_OWN_REGION.search(script)) and not _FLATTENS.search(script)
    if flat and recursive:
        return "flat"
    if deep and (not recursive or own_region):
        return "deep"
    return None


_DOMAIN_MODULES = ("gdsfactory", "klayout", "pya", "sax", "kfactory")
# a device, layout or SAX circuit the values must come from ("simulate" alone is not: an analytic model in
# numpy is a simulation too)
_DOMAIN_WORDS = re.compile(r"\b(?:pdk|component|gdsfactory|layout|cell|gds|oasis|sax|klayout)\b|\.(?:gds|oas)\b"
                           r"|\blayer\s+\d+\s*/\s*\d+", re.IGNORECASE)


def computes_nothing(script: str, prompt: str, contract: OutputContract) -> list[str]:
    """A data file written by a script that calls nothing of gdsfactory, KLayout or SAX (PDK activation
    aside): its numbers were made up. A real m08 answer tabulated a ring's footprint for four radii
    from invented lists without building one ring, and its revision rounds only asked about unused
    parameters. Only for requests that name a PDK component, a layout or cell, a layer L/D, a GDS/OASIS
    file or SAX."""
    data = [f for f in contract.required_files() if f.lower().endswith((".csv", ".json", ".txt", ".tsv"))]
    if not data or not _DOMAIN_WORDS.search(prompt):
        return []
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return []
    aliases = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            aliases |= {(a.asname or a.name).split(".")[0] for a in n.names if a.name.split(".")[0] in _DOMAIN_MODULES}
        elif isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in _DOMAIN_MODULES:
            aliases |= {a.asname or a.name for a in n.names}
    # KLayout's own Python has pya built in; an interactive script gets the open layout's objects
    aliases |= {"pya", "layout", "cell", "view", "cellview", "selection", "top", "ly"}
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        root, f = None, n.func
        while isinstance(f, ast.Attribute):
            f = f.value
        if isinstance(f, ast.Name):
            root = f.id
        name = n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
        if root in aliases and name != "activate":
            return []
    shadowed = sorted({t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, (ast.Dict, ast.List, ast.Constant))
                       for t in n.targets if isinstance(t, ast.Name) and t.id in ("layout", "cell")})
    hint = (f" (it replaces the open layout's {' and '.join(f'`{n}`' for n in shadowed)} with a copy of the layout's "
            "description: `layout` is the open pya.Layout and `cell` the current pya.Cell; read them directly, e.g. "
            "cell.shapes(layout.layer(L, D)) or pya.Region(cell.begin_shapes_rec(layout.layer(L, D))))") if shadowed else ""
    return [f"the script writes {', '.join(data)} without building, reading or simulating anything (it calls no "
            f"gdsfactory, KLayout or SAX function): the values must be computed from what the request names" + hint]


def script_problems(script: str, prompt: str, contract: OutputContract) -> list[str]:
    """What the script's own text shows against the request: a table of literal numbers where the
    request asks for computed values (:func:`literal_outputs`), ports it asks to connect that are
    never routed (:func:`missing_route`), shapes read from other cells than the request counts
    (:func:`hierarchy_scope`), data written without computing anything (:func:`computes_nothing`)."""
    return (literal_outputs(script, prompt) if contract.files else []) + missing_route(script, prompt) \
        + hierarchy_scope(script, prompt) + computes_nothing(script, prompt, contract) \
        + markers_of_the_checked_shapes(script, prompt)


#: Region checks whose result, not the region they were asked of, is what an error layer shows
_REGION_CHECKS = {"width_check", "space_check", "notch_check", "isolated_check", "separation_check",
                  "enclosing_check", "overlap_check", "inside_check", "outside_check"}
_MARKER_WORDS = re.compile(r"\b(?:errors?|violations?|violating|markers?|flag(?:s|ged)?)\b", re.IGNORECASE)


def _shapes_layer(target: ast.AST, once: dict[str, ast.expr]) -> str | None:
    """"99/0" for ``cell.shapes(layout.layer(99, 0))`` or ``cell.shapes(li)`` with ``li`` set once to
    such a layer; None for anything else."""
    if not (isinstance(target, ast.Call) and isinstance(target.func, ast.Attribute) and target.func.attr == "shapes"
            and len(target.args) == 1):
        return None
    li = target.args[0]
    li = once.get(li.id, li) if isinstance(li, ast.Name) else li
    if isinstance(li, ast.Call) and isinstance(li.func, ast.Attribute) and li.func.attr == "layer" \
            and len(li.args) == 2 and all(is_int(a) for a in li.args):
        return f"{li.args[0].value}/{li.args[1].value}"
    return None


def markers_of_the_checked_shapes(script: str, prompt: str) -> list[str]:
    """A region that a DRC check was asked of (``region.width_check(...)``) inserted on a layer the
    request names for errors or markers: the checked shapes, not the violations (two real a06
    continuations drew the whole input layer on 99/0 and 99/1 this way and were accepted)."""
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return []
    results: dict[str, list[str]] = {}   # checked region -> names its check results were stored in
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _REGION_CHECKS \
                and isinstance(node.func.value, ast.Name):
            results.setdefault(node.func.value.id, [])
    for name, value in assignments(tree, top_level=False):
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _REGION_CHECKS \
                and isinstance(value.func.value, ast.Name) and name not in results[value.func.value.id]:
            results[value.func.value.id].append(name)
    once = values_set_once(tree)
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "insert"
                and len(node.args) == 1):
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr in ("polygons", "merged"):
            arg = arg.func.value
        layer = _shapes_layer(node.func.value, once)
        if not (isinstance(arg, ast.Name) and arg.id in results and layer) \
                or not _MARKER_WORDS.search(sentence_naming(prompt, layer)):
            continue
        named = results[arg.id]
        out.append(f"line {node.lineno} puts {arg.id} on layer {layer}: the shapes that were checked, not the violations "
                   f"the designer asked to see there; insert the check's result"
                   + (f" ({' or '.join(f'{r}.polygons()' for r in named)})" if named else
                      f" (e.g. errors = {arg.id}.width_check(...), then errors.polygons())"))
    return out


_CLAUSES = re.compile(r",\s+(?:and|then)\s+|;\s+")


def empty_tables(rep: ExecutionReport, prompt: str, contract: OutputContract) -> list[str]:
    """A CSV the request names, written with its header and no data row, where the clause that
    names it sets no condition (a list of violations may rightly be empty; "for each tile ... write
    density.csv" may not: a real m10 answer looped over an empty area and was accepted)."""
    out = []
    files = {f.get("path"): f for f in rep.files or [] if isinstance(f, dict)}
    for name in contract.required_files():
        s = (files.get(name) or {}).get("summary")
        if not name.lower().endswith((".csv", ".tsv")) or not isinstance(s, dict) or s.get("rows") != 0:
            continue
        naming = [clause for sent in _sentences(prompt) for clause in _CLAUSES.split(sent) if name in clause]
        if naming and not any(_CONDITIONAL.search(clause) for clause in naming):
            out.append(f"{name} has its header but no data rows; the request asks for a row per item, computed from "
                       f"the layout or the model (check the loop that writes them runs at all)")
    return out


_READS_SHAPES = {"begin_shapes_rec", "begin_shapes_rec_touching", "begin_shapes_rec_overlapping", "Region", "Edges", "Texts"}


def layers_read(script: str) -> dict[str, set[int]]:
    """Layers ("L/D") a pya script reads shapes from, with the lines that read them: a
    ``layout.layer(...)`` inside ``begin_shapes_rec(...)`` or ``Region(...)``, written as two
    numbers, two names bound to numbers, or ``*NAME`` bound to a pair."""
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return {}
    consts: dict[str, list] = {}
    for name, val in assignments(tree, top_level=False):
        consts.setdefault(name, []).append(val)

    def value(a: ast.AST):
        if isinstance(a, ast.Name) and len(consts.get(a.id, [])) == 1:
            a = consts[a.id][0]
        if is_int(a):
            return a.value
        if isinstance(a, ast.Tuple) and len(a.elts) == 2:
            return tuple(value(e) for e in a.elts)
        return None

    out: dict[str, set[int]] = {}
    for n in ast.walk(tree):
        name = n.func.attr if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) else \
            getattr(getattr(n, "func", None), "id", None)
        if name not in _READS_SHAPES:
            continue
        for c in ast.walk(n):
            if not (isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "layer"):
                continue
            args = c.args
            pair = value(args[0].value) if len(args) == 1 and isinstance(args[0], ast.Starred) else \
                (value(args[0]), value(args[1])) if len(args) == 2 else None
            if isinstance(pair, tuple) and all(isinstance(v, int) for v in pair):
                out.setdefault(f"{pair[0]}/{pair[1]}", set()).add(c.lineno)
    return out


def _open_layers(rep: ExecutionReport) -> dict[str, int]:
    """The open layout's layers after a run, "L/D" -> shapes."""
    return {f"{l['layer']}/{l['datatype']}": int(l.get("shapes", 0))
            for l in ((rep.summary or {}).get("layers") or []) if isinstance(l, dict)}


def empty_layers_read(rep: ExecutionReport, prompt: str, script: str) -> list[str]:
    """The layers (see :func:`empty_new_layers`) an edit created and left empty, that the script
    reads shapes from and the request never names."""
    from .evaluator import requested_layers

    added = (rep.changes or {}).get("layers_added") or []
    if not added:
        return []
    layers = _open_layers(rep)
    named = {f"{l}/{d}" for l, d in requested_layers(prompt)}
    read = layers_read(script)
    return [l for l in added if layers.get(l, 0) == 0 and l not in named and l in read]


def empty_new_layers(rep: ExecutionReport, prompt: str, script: str) -> list[str]:
    """Layers an edit of the open layout created and left empty, that the script reads shapes from
    and the request never names: the layout does not have them (``layout.layer(99, 0)`` creates a
    missing layer; a real m10 answer took its tiles from an outline layer that was not there,
    computed nothing and passed). A marker layer left empty is not one (nothing was read from it)."""
    empty = empty_layers_read(rep, prompt, script)
    if not empty:
        return []
    layers = _open_layers(rep)
    have = ", ".join(l for l, n in layers.items() if n) or "none"
    return [f"the script created layer{'s' if len(empty) > 1 else ''} {', '.join(empty)} and left "
            f"{'them' if len(empty) > 1 else 'it'} empty: it read a layer the open layout does not have "
            f"(layout.layer(L, D) creates a missing layer; layout.find_layer(L, D) only finds one). "
            f"The layers with shapes are: {have}"]


_UM2_WORDS = re.compile(r"µm²|um²|µm2|um2|um\^2|µm\^2|square micro", re.IGNORECASE)
#: an area this many times the largest box the run shows cannot be in µm² (database units squared
#: are 10^6 times as many at a dbu of 1 nm; a layer's area within a box is at most the box's)
AREA_OVER_BOX = 1000.0
#: a position this many times farther out than any box the run shows cannot be in µm (database
#: units are 1000 times as many at a dbu of 1 nm)
POSITION_OVER_BOX = 10.0
#: names of a position or box side in µm (with or without "_um")
_POSITIONS = frozenset({"x", "y", "x0", "y0", "x1", "y1", "x2", "y2", "xc", "yc", "cx", "cy", "xmin", "ymin", "xmax",
                        "ymax", "x_min", "y_min", "x_max", "y_max", "center_x", "center_y", "left", "right", "top", "bottom"})


def _box_area(box) -> float:
    try:
        l, b, r, t = (float(v) for v in box)
    except (TypeError, ValueError):
        return 0.0
    return max(0.0, r - l) * max(0.0, t - b)


def _box_reach(box) -> float:
    try:
        return max(abs(float(v)) for v in box)
    except (TypeError, ValueError):
        return 0.0


def _written_numbers(files: list) -> list[tuple[str, str, float]]:
    """(file, key or column, number) of every number the run wrote in a JSON or CSV file."""
    out = []

    def walk(name: str, key: str, v) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                walk(name, str(k), x)
        elif isinstance(v, list):
            for x in v:
                walk(name, key, x)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append((name, key, float(v)))

    for f in files:
        s = f.get("summary") if isinstance(f, dict) else None
        if not isinstance(s, dict):
            continue
        if f.get("kind") == "json":
            walk(str(f.get("path")), "", s.get("values"))
        for col, samples in (s.get("column_samples") or {}).items():
            out += [(str(f.get("path")), str(col), float(v)) for v in samples or [] if is_number_text(str(v))]
    return out


def values_in_database_units(rep: ExecutionReport, prompt: str) -> list[str]:
    """Areas and positions written as µm that are in database units: an area over a thousand times
    the largest box the run shows (the open layout's active cell before and after, every top cell
    of a written layout), or a position ten times farther out than any of them. A Region's,
    polygon's or shape's ``area()``, ``bbox()`` and ``center()`` count database units: a real b11
    answer wrote 323000000 under "area_um2" for a 323 µm² layer and was accepted, and a real a12
    answer wrote bounding-box centres in nm under x_um, y_um. Areas only where the name or the
    request says µm²; positions only under a position's name (x_um, ymin, center_x ...).

    Args:
        rep: the run's report (its layout changes and the summaries of the files it wrote).
        prompt: the designer's words.
    """
    files = [f for f in rep.files or [] if isinstance(f, dict)]
    boxes = [b for b in [(rep.changes or {}).get(k) for k in ("bbox_before_um", "bbox_after_um")] if b]
    boxes += [t.get("bbox") for f in files if f.get("kind") == "layout"
              for t in ((f.get("summary") or {}).get("top_cells") or []) if isinstance(t, dict) and t.get("bbox")]
    largest = max([_box_area(b) for b in boxes] or [0.0])
    reach = max([_box_reach(b) for b in boxes] or [0.0])
    says_um2 = bool(_UM2_WORDS.search(prompt))
    out, said = [], set()
    for name, key, value in _written_numbers(files):
        low = key.lower()
        if "area" in low and largest > 0 and abs(value) > AREA_OVER_BOX * largest and (says_um2 or "um" in low):
            what = (f"more than {AREA_OVER_BOX:g} times the area of the layout's bounding box ({largest:g} µm²): "
                    "Region.area(), Polygon.area() and Shape.area() count database units squared; multiply by "
                    "layout.dbu ** 2 for µm²")
        elif re.sub(r"_?um$", "", low) in _POSITIONS and reach > 0 and abs(value) > POSITION_OVER_BOX * reach:
            what = (f"more than {POSITION_OVER_BOX:g} times farther out than anything in the layout (its boxes reach "
                    f"{reach:g} µm): bbox(), center() and the points of pya's integer shapes count database units; "
                    "use dbbox() / the D-objects (µm) or multiply by layout.dbu")
        else:
            continue
        if (name, key) not in said:
            said.add((name, key))
            out.append(f"{name}: {key!r} holds {value:g}, {what}")
    return out


_NAME_COLUMNS = ("name", "port", "port_name", "label", "text")
_X_COLUMNS, _Y_COLUMNS = ("x", "x_um", "x0", "xc"), ("y", "y_um", "y0", "yc")


def coincident_rows(rep: ExecutionReport, contract: OutputContract) -> list[str]:
    """A requested table of named things with positions (``name,x,y``) where two different names
    sit at one position and the rows differ in nothing else written as text: a real a05 answer
    wrote one port's position for in1, out1 and out2 and was accepted. Rows of different devices
    (``device,port,x,y``: o1 of each MMI at its own origin) differ in a text column and pass."""
    out = []
    files = {f.get("path"): f for f in rep.files or [] if isinstance(f, dict)}
    for name in contract.required_files():
        s = (files.get(name) or {}).get("summary")
        samples = s.get("column_samples") if isinstance(s, dict) else None
        if not name.lower().endswith((".csv", ".tsv")) or not isinstance(samples, dict):
            continue
        cols = {c.lower(): c for c in samples}
        key = next((cols[c] for c in _NAME_COLUMNS if c in cols), None)
        x = next((cols[c] for c in _X_COLUMNS if c in cols), None)
        y = next((cols[c] for c in _Y_COLUMNS if c in cols), None)
        if not (key and x and y):
            continue
        n = min(len(v) for v in samples.values())
        text = [c for c, v in samples.items() if c != key and not all(is_number_text(t) for t in v[:n])]
        seen: dict[tuple, str] = {}
        for i in range(n):
            where = (samples[x][i], samples[y][i], *(samples[c][i] for c in text))
            other = seen.setdefault(where, samples[key][i])
            if other != samples[key][i]:
                out.append(f"{name}: {other} and {samples[key][i]} are both at ({samples[x][i]}, {samples[y][i]}); each row "
                           f"must give the position of its own {key}, read from that object")
                break
    return out


def report_problems(rep: ExecutionReport, prompt: str, contract: OutputContract, script: str) -> list[str]:
    """What a run's report shows against the request beyond the contract's items: an empty requested
    table (:func:`empty_tables`), a layer read that the layout does not have (:func:`empty_new_layers`),
    two named things written at one position (:func:`coincident_rows`), areas and positions in
    database units written as µm (:func:`values_in_database_units`)."""
    return (empty_tables(rep, prompt, contract) + empty_new_layers(rep, prompt, script) + coincident_rows(rep, contract)
            + values_in_database_units(rep, prompt))


# ---------------------------------------------------------------------- literal tables
_TRIVIAL = {0.0, 1.0, -1.0}


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
    out = []
    for call, data in written_constant_data(tree):
        invented = [v for v in number_literals(data) if v not in given and v not in _TRIVIAL]
        if invented:
            out.append(f"line {call.lineno} writes a table of constant numbers ({', '.join(f'{v:g}' for v in invented[:4])}"
                       f"{', ...' if len(invented) > 4 else ''}) that the request does not give: compute them in the "
                       "script from the layout, component or simulation instead of writing them in")
    return out
