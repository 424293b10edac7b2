"""Script Evaluator: gathers evidence (static checks, custom checks, execution, designer feedback),
decides accept or revise, and writes targeted revision instructions for the agent that must change."""
from __future__ import annotations

import ast
import inspect
import re
from pathlib import PurePath

from .. import prompts
from ..llm.agent import Agent, extract_code
from .fixes.source import parsed
from ..llm.client import RUNAWAY
from ..checks import static
from ..checks.static import IMPORTS, _aliases, _dotted, resolve_object
from ..execution.report import ExecutionReport, execution_text, tail

TARGETS = ["programmer", "query_generator", "planner"]
SCHEMA = {
    "type": "object",
    "required": ["decision", "instructions"],
    "properties": {
        "thoughts": {"type": "string"},
        "decision": {"type": "string", "enum": ["accept", "revise"]},
        "target": {"type": "string", "enum": TARGETS},
        "instructions": {"type": "string"},
    },
}
TB_CHARS = 1500
IMPORT_HINTS = IMPORTS   # the pipeline adds these itself; the hint remains for other callers
# how to write a missing output, for the revision instructions (small models forget the format)
WRITE_HINTS = {
    ".json": "import json; json.dump({{...the numbers...}}, open(\"{name}\", \"w\"))",
    ".csv": "import csv; csv.writer(open(\"{name}\", \"w\", newline=\"\")).writerows(rows)",
    ".gds": "c.write_gds(\"{name}\", with_metadata=False)",
    ".oas": "layout.write(\"{name}\")",
    ".png": "matplotlib: plt.savefig(\"{name}\")",
    # pip klayout has no klayout.db.ReportDatabase: it lives in klayout.rdb (pya.ReportDatabase inside KLayout)
    ".lyrdb": "import klayout.rdb as rdb_api; rdb = rdb_api.ReportDatabase(\"checks\") (pya.ReportDatabase inside "
              "KLayout); cat = rdb.create_category(\"<name>\"); ...; rdb.save(\"{name}\")",
}


def new_agent() -> Agent:
    return Agent("evaluator", prompts.text("evaluator"), prompts.fewshot("evaluator"))


def decision(kind: str, target: str, instructions: str, source: str, **extra) -> dict:
    return {"decision": kind, "target": target, "instructions": instructions, "source": source, **extra}


def from_static(findings: list[dict], script: str = "") -> dict | None:
    """Revise without running when a static error was found (syntax, undefined name, unknown API, failed check)."""
    errors = [f for f in findings if f["severity"] == "error"]
    if not errors:
        return None
    api = [f for f in errors if f["kind"] == "api"]
    lines = "\n".join(f"- {f['message']}" for f in errors[:8])
    text = f"The script was not run: static checks found these errors:\n{lines}"
    # name the offending source lines: small models otherwise keep an invented call round after round
    src = script.splitlines()
    bad = sorted({f["line"] for f in api if isinstance(f.get("line"), int) and 0 < f["line"] <= len(src)})
    for n in bad[:4]:
        text += (f"\nLine {n} `{src[n - 1].strip()}` uses an API that does not exist in the installed version: "
                 "replace it with one from the suggestions, or delete the line if the script does not need it.")
    fixes = []
    for f in errors:
        m = re.search(r"undefined name '(\w+)'", f["message"])
        if m and m.group(1) in IMPORT_HINTS and IMPORT_HINTS[m.group(1)] not in fixes:
            fixes.append(IMPORT_HINTS[m.group(1)])
    if fixes:
        text += "\nAdd the missing import(s) at the top: " + "; ".join(fixes) + "."
    undefined = [f for f in errors if "undefined name" in f["message"]
                 and re.search(r"undefined name '(\w+)'", f["message"]).group(1) not in IMPORT_HINTS]
    if undefined:
        text += "\nDefine every other undefined name before use, or leave that argument out to use its default."
    return decision("revise", "query_generator" if api else "programmer", text, "static",
                    lookup=[s for f in api for s in (f.get("suggestions") or [f.get("name")]) if s][:4])


def _code_lines(code: str) -> list[str]:
    return [ln.split("#", 1)[0].strip() for ln in code.splitlines() if ln.split("#", 1)[0].strip()]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def copied_example(script: str, examples: tuple | list, task: str = "") -> dict | None:
    """Revise without running when the script is one of the programmer's worked examples, copied.

    A small model given a task it cannot map to an API returns the nearest example verbatim (an
    interactive "delete the shapes on 5/0" answered with the example's coupler). A script counts as
    copied when it has 3+ code lines and at most one in five differs from an example's.

    Args:
        script: the candidate.
        examples: the programmer's few-shot messages (user/assistant pairs).
        task: what the script should do; an example for much the same task may be copied.
    """
    from ..llm.agent import extract_code

    lines = _code_lines(script)
    if len(lines) < 3:
        return None
    for i in range(0, len(examples) - 1, 2):
        ex_lines = set(_code_lines(extract_code(examples[i + 1]["content"])))
        same = sum(1 for ln in lines if ln in ex_lines)
        if same >= 0.8 * len(lines):
            m = re.search(r"^Task: (.+)$", examples[i]["content"], re.MULTILINE)
            what = m.group(1).strip() if m else "another task"
            a, b = _words(what), _words(task)
            if task and len(a & b) >= 0.5 * len(a | b):
                continue   # the designer asked for (nearly) the example's task
            return decision("revise", "programmer",
                            f"The script is the worked example for a different task (\"{what[:160]}\"), copied "
                            "almost unchanged, so it does not do the designer's task. Write a new script for the "
                            "task you were given; use the API documentation for the calls it needs.", "copied")
    return None


CUT_OFF = ("length", "max_tokens", RUNAWAY)   # OpenAI-compatible / Anthropic finish reasons of a cut-off answer, and the client's runaway stop


#: the share of a cut-off script's lines that must be left once its unfinished last statement goes
COMPLETE_PART = 0.7
_BLOCK_CONTINUES = re.compile(r"(else|elif|except|finally|case)\b|[)\]}]")


def complete_part(text: str) -> tuple[str, str] | None:
    """The complete part of an answer cut off at the length limit, and what was done to get it.

    Advanced scripts of 50-90 lines fill the 1024-token limit (31 of the cut-off candidates in
    sessions 17-18 were real scripts stopped in their last print or dict, not loops). A closed code
    block with prose cut off after it is whole; otherwise the last top-level statement, the one
    the limit cut, is dropped when the rest parses and keeps most of the script
    (:data:`COMPLETE_PART`). Its run and the output contract then decide, like any candidate's.

    Args:
        text: the whole answer (the code block in it, closed or not).

    Returns:
        None when no complete part is left (the cut was early, or inside one long statement).
    """
    if re.search(r"```(?:python|py)?[ \t]*\n.*?```", text, re.S):
        script = extract_code(text)
        return (script, "the answer's code block was complete (the length limit cut the text after it)") \
            if parsed(script) is not None else None
    lines = extract_code(text).splitlines()
    starts = [i for i, ln in enumerate(lines) if i and ln[:1].strip() and not ln.startswith("#")
              and not _BLOCK_CONTINUES.match(ln)]
    for i in reversed(starts):
        kept = "\n".join(lines[:i]).rstrip() + "\n"
        if parsed(kept) is not None:
            body = [ln for ln in lines if ln.strip()]
            if len([ln for ln in lines[:i] if ln.strip()]) < COMPLETE_PART * len(body):
                return None
            dropped = lines[i].strip()
            return kept, f"dropped the last statement ({dropped[:60]!r}...), {CUT_PART}"
    return None


def cut_off(agent: str) -> dict:
    """Revise without checking: the script ended at the answer length limit, so it is incomplete.
    (A small model that starts repeating a line fills the whole limit with it.)"""
    return decision("revise", "programmer",
                    f"The {agent}'s script was cut off at the answer length limit, so it is incomplete. {SHORTER}",
                    "cut-off")


#: how to stay inside the answer length limit (said after a cut-off answer)
SHORTER = ("Write a shorter complete script: use a loop instead of repeating lines, leave out anything the task "
           "does not ask for, and keep comments short.")
#: the words that mark the fix :func:`complete_part` made
CUT_PART = "which the answer length limit cut off"


def returned_types(script: str, rep: ExecutionReport) -> list[str]:
    """What the library calls behind the failing line's names return, from their installed
    signatures: ``s = sax.circuit(...)`` then ``s["in0", "out0"]`` fails with "tuple indices must be
    integers", and the fix is in the return type (``tuple[sax.Model, sax.CircuitInfo]``), which
    the traceback does not say. Only for type, attribute, key and index errors on a script line."""
    exc = rep.exception or {}
    if exc.get("type") not in ("TypeError", "AttributeError", "KeyError", "IndexError"):
        return []
    failing = rep.failing_line()
    tree = _parsed(script)
    if failing is None or tree is None:
        return []
    aliases = _aliases(tree)
    used = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and getattr(n, "lineno", 0) == failing]
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id in used and isinstance(node.value, ast.Call)):
            continue
        parts = _dotted(node.value.func)
        if not parts or parts[0] not in aliases:
            continue
        full = ".".join(aliases[parts[0]].split(".") + parts[1:])
        obj = resolve_object(full)
        try:
            ret = inspect.signature(obj).return_annotation if callable(obj) else inspect.Signature.empty
        except (TypeError, ValueError):
            continue
        if ret is inspect.Signature.empty:
            continue
        ret_text = ret if isinstance(ret, str) else inspect.formatannotation(ret)
        line = f"`{node.targets[0].id}` (line {node.lineno}) is what {full}() returns: {ret_text}"
        if line not in out:
            out.append(line)
    return out


# KLayout's own message for an argument of the wrong class:
# "Unexpected object type (expected argument of class Region, got int) for argument #1 ('other') in Region.separation_check"
_KLAYOUT_ARG = re.compile(r"expected argument of class (\w+), got (\w+)\) for argument #(\d+) \('(\w+)'\) in (\w+)\.(\w+)")


def short_signature(sig: str) -> str:
    """A signature with its defaulted parameters left out (``space_check(d: int, ...) -> EdgePairs``):
    what a small model needs to pick the right call, in a few words."""
    head, _, rest = sig.partition("(")
    body, _, tail_ = rest.rpartition(")")
    parts, depth, cur = [], 0, ""
    for ch in body:
        depth += ch in "[(<{"
        depth -= ch in "])>}"
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    kept = [p for p in parts if "=" not in p]
    name = head.split()[-1].rsplit(".", 1)[-1] if head.split() else head
    ret = tail_.strip()
    if not ret and head.split()[:-1]:   # KLayout's form: "[const] EdgePairs space_check (unsigned int d, ...)"
        ret = "-> " + [w for w in head.split()[:-1] if not w.startswith("[")][-1]
    return f"{name}({', '.join(kept + (['...'] if len(kept) < len(parts) else []))}) {ret}".strip()


def argument_mismatch(rep: ExecutionReport, index=None) -> list[str]:
    """For KLayout's "expected argument of class Region, got int ... in Region.separation_check":
    the installed signature of the method, and its siblings (same class, same last word, such as
    the other ``*_check`` methods) that do not take that argument: the model meant
    ``space_check(d)`` and was told only the type, and kept calling ``separation_check(d)`` for
    three rounds in a real run. Empty without a symbol index or a message of that form."""
    m = _KLAYOUT_ARG.search(str((rep.exception or {}).get("message") or ""))
    if m is None or index is None:
        return []
    want, got, _, arg, cls, meth = m.groups()
    for prefix in ("klayout.db.", "pya."):
        full = f"{prefix}{cls}.{meth}"
        sig = index.signature(full) if index.has(full) else ""
        if sig:
            break
    else:
        return []
    out = [f"{cls}.{short_signature(sig)}: its parameter {arg!r} takes a {want}, the script gave {'an' if got[:1].lower() in 'aeiou' else 'a'} {got}"]
    last = meth.rsplit("_", 1)[-1]
    siblings = []
    for name in index.members(f"{prefix}{cls}") or []:
        params = index.params(f"{prefix}{cls}.{name}") or []
        if name != meth and name.endswith("_" + last) and params and params[0] != arg:
            siblings.append(f"{cls}.{short_signature(index.signature(f'{prefix}{cls}.{name}'))}")
    if siblings:
        out.append(f"methods of {cls} like it that take no {arg!r}: " + "; ".join(siblings[:6]))
    return out


# KLayout's messages for a call whose arguments fit none of the method's forms:
# "No overload with matching arguments in Layout.clip"
# "Invalid number of arguments (got 12, expected 0/1/2/3) in Layout.layer"
_KLAYOUT_NO_FORM = re.compile(r"(?:No overload with matching arguments|Invalid number of arguments \(got \d+[^)]*\)) "
                              r"in (\w+)\.(\w+)")
#: words of KLayout's C++-style signatures that say nothing to a Python caller
_CPP_WORDS = re.compile(r"\[const\]\s*|\bconst\s+|\s+ptr\b|\bunsigned\s+")


def installed_forms(rep: ExecutionReport, index=None, limit: int = 6) -> list[str]:
    """For KLayout's "No overload with matching arguments in Layout.clip" (or "Invalid number of
    arguments ... in Layout.layer"): every form of that method the installed KLayout has. The
    message names the method only, and a small model then tries other invented forms: a real a20
    run called ``layout.clip`` with a Region, then with a keyword ``box=``, in three rounds, where
    ``clip(cell index, DBox)`` was the form. Empty without a symbol index or a message of that form.
    The bare message is KLayout 0.28's (the open layout's interpreter), so its own manual (``pya.``)
    gives the forms; pip klayout's message lists them itself ("Variants are: ...") and gets none.

    Args:
        rep: the failed run.
        index: the symbol index (its records carry every overload's signature).
        limit: most forms to list.
    """
    m = _KLAYOUT_NO_FORM.search(str((rep.exception or {}).get("message") or ""))
    if m is None or index is None:
        return []
    cls, meth = m.groups()
    meth = "new" if meth == "__init__" else meth   # "in Region.__init__": the manual calls constructors new
    rec = next((r for r in (index.lookup(f"{p}{cls}.{meth}") for p in ("pya.", "klayout.db.")) if r), None)
    sigs = (rec or {}).get("signatures") or ([rec["signature"]] if rec and rec.get("signature") else [])
    forms: list[str] = []
    for sig in sigs:
        form = short_signature(_CPP_WORDS.sub(" ", sig).strip())
        form = f"pya.{cls}{form[len('new'):]}" if meth == "new" and form.startswith("new(") else f"{cls}.{form}"
        if form not in forms:
            forms.append(form)
    if not forms:
        return []
    return [f"{cls}.{meth} has these forms in the installed KLayout (call it with one of them): "
            + "; ".join(forms[:limit])]


def made_in_a_loop(script: str, rep: ExecutionReport) -> list[str]:
    """"Cellname GC_ROW already exists": the failing line makes the named top cell inside a loop,
    so its second pass makes it again (a real run created gf.Component("GC_ROW") per coupler). Says
    which loop, so the cell is made once before it and the loop only adds to it."""
    exc = rep.exception or {}
    if "already exists" not in str(exc.get("message") or ""):
        return []
    failing = rep.failing_line()
    tree = _parsed(script)
    if failing is None or tree is None:
        return []
    loops = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))
             and n.lineno < failing <= (n.end_lineno or n.lineno)]
    if not loops:
        return []
    loop = max(loops, key=lambda n: n.lineno)
    return [f"line {failing} runs in every pass of the loop at line {loop.lineno}, so the second pass makes the "
            f"same cell again: make the top cell once before the loop, add each element to it inside the loop, "
            f"and write the file once after it"]


def from_execution(rep: ExecutionReport, script: str = "", index=None) -> dict | None:
    """Revise when the run failed: the traceback goes to the programmer, with what the library
    calls behind the failing line return (:func:`returned_types`) and, for an argument of the wrong
    class, the method's signature and its siblings (:func:`argument_mismatch`, with ``index``, the
    symbol index), and for a call that fits none of a method's forms, those forms
    (:func:`installed_forms`)."""
    if rep.ok:
        return None
    exc = rep.exception or {}
    if rep.timed_out:
        head = "Running the script timed out; make it faster or remove endless loops."
    else:
        head = f"Running the script failed with {exc.get('type', 'an error')}: {exc.get('message', '')}".strip()
    tb = tail(exc.get("traceback") or rep.stderr, TB_CHARS)
    text = head + (f"\nTraceback:\n{tb}" if tb else "")
    out = tail(rep.stdout, 400)
    if out:
        text += f"\nPrinted before the error:\n{out}"
    types = (((returned_types(script, rep) + made_in_a_loop(script, rep)) if script else [])
             + argument_mismatch(rep, index) + installed_forms(rep, index))
    if types:
        text += "\nFrom the installed signatures:\n" + "\n".join(f"- {t}" for t in types)
    return decision("revise", "programmer", text, "execution")


def missing_outputs(rep: ExecutionReport, wanted: list[str]) -> dict | None:
    """Files the designer named that the script did not write (only when the runner lists files)."""
    if not wanted or rep.files is None or rep.where == "klayout":
        return None
    written = rep.written_names()
    missing = [w for w in wanted if PurePath(w).name not in written]
    if not missing:
        return None
    hints = [WRITE_HINTS[PurePath(m).suffix.lower()].format(name=m) for m in missing
             if PurePath(m).suffix.lower() in WRITE_HINTS]
    return decision("revise", "programmer",
                    f"The script ran but did not write {', '.join(missing)}; the designer asked for exactly "
                    f"{'this file' if len(missing) == 1 else 'these files'}. Files written: {', '.join(sorted(written)) or 'none'}."
                    " Keep the parts that work and add the missing output at the end"
                    + (": " + "; ".join(hints) if hints else "") + ".",
                    "outputs")


_VALUE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(um|µm|μm|nm|mm|micron|microns|micrometers?|nanometers?)\b",
                    re.IGNORECASE)
_TO_UM = {"nm": 1e-3, "mm": 1e3}


def requested_values(prompt: str) -> list[tuple[str, float]]:
    """Lengths the designer wrote with a unit, as (text, value in um), e.g. ("20 um", 20.0)."""
    out = []
    for num, unit in _VALUE.findall(prompt):
        u = unit.lower()
        scale = _TO_UM.get("nm" if u.startswith("nano") else u, 1.0)
        out.append((f"{num} {unit}", float(num) * scale))
    return out


def stated_values(prompt: str) -> list[tuple[str, float]]:
    """:func:`requested_values` without the last item of an enumeration ("widths 0.30, 0.35, ...,
    0.60 µm", "y = 0, 5, ..., 30 µm"): a script computes the series and need not write its end."""
    return [item for m, item in zip(_VALUE.finditer(prompt), requested_values(prompt))
            if not re.search(r"(?:\.\.\.|…)\s*,?\s*$", prompt[max(0, m.start() - 8):m.start()])]


_DECIMAL = re.compile(r"(?<![\w./])(\d+\.\d+)(?![\w/]|\.\d)")
_ELLIPSIS = re.compile(r"\.\.\.|…")


def requested_decimals(prompt: str) -> list[tuple[str, float]]:
    """Numbers with a fraction the designer wrote without a length unit ("effective index 2.34 and
    group index 3.4", "density below 0.2"), as (text, value): a decimal is rarely incidental, so it
    should reach the script. Not those of an enumeration the script may compute ("0.30, 0.35, ...,
    0.60 µm"); numbers with a length unit are :func:`requested_values`'."""
    return [(text, value) for text, value, _ in decimals_at(prompt)]


def decimals_at(prompt: str) -> list[tuple[str, float, int]]:
    """:func:`requested_decimals` with where each starts in ``prompt`` (its words before say what it is)."""
    with_unit = {m.start(1) for m in _VALUE.finditer(prompt)}
    out = []
    for sent in re.split(r"(?<=[.;:!?])\s+", prompt):
        if _ELLIPSIS.search(sent):
            continue
        offset = prompt.find(sent)
        out += [(m.group(1), float(m.group(1)), offset + m.start(1)) for m in _DECIMAL.finditer(sent)
                if offset + m.start(1) not in with_unit]
    return out


def _constants(script: str) -> list | None:
    """The literal values of a script (numbers, strings, ...), or None when it does not parse
    (syntax errors are the static check's job)."""
    from ..execution import drc_deck

    if drc_deck.is_deck(script):   # a KLayout DRC deck: its numbers and strings, read without Python's parser
        return drc_deck.literals(script)
    tree = _parsed(script)
    return None if tree is None else _tree_constants(tree)


def _parsed(script: str) -> ast.Module | None:
    """The script's syntax tree, or None when it does not parse."""
    try:
        return ast.parse(script)
    except SyntaxError:
        return None


def _tree_constants(tree: ast.AST) -> list:
    """The literal values in a syntax tree."""
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]


def numeric_literals(consts: list) -> set[float]:
    """The numbers among a script's literal values (``True`` is not one)."""
    return {float(v) for v in consts if isinstance(v, (int, float)) and not isinstance(v, bool)}


def uses_value(numbers: set[float], v: float, signed: set[float] | None = None) -> bool:
    """Whether a requested number is among a script's ``numbers``: in um, nm or mm, or halved (a
    centred box spans -v/2..v/2). With the script's ``signed`` literals (``-10`` as -10.0), a half
    counts only when it is written both ways: a real a05 script passed "20 µm straight" with an
    unrelated ``length_taper=10.0``."""
    def among(values, c: float) -> bool:
        return any(abs(x - c) <= 1e-9 * max(1.0, abs(c)) for x in values)

    for c in (v, v * 1e3, v * 1e-3):
        if among(numbers, c):
            return True
        half = c / 2
        if among(numbers, half) and (signed is None or (among(signed, half) and among(signed, -half))):
            return True
    return False


def signed_literals(tree: ast.AST) -> set[float]:
    """A script's numbers with their sign (``-10`` is -10.0, not 10.0)."""
    negated = {id(n.operand) for n in ast.walk(tree) if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub)
               and isinstance(n.operand, ast.Constant)}
    return {(-1.0 if id(n) in negated else 1.0) * float(n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, (int, float)) and not isinstance(n.value, bool)}


def missing_values(prompt: str, script: str) -> dict | None:
    """Revise when a length the designer asked for appears nowhere in the script (in um, nm or dbu),
    or a number with a fraction they wrote does not (see :func:`requested_decimals`).

    A small evaluator model accepts a script that builds the right kind of device with default
    sizes; the numbers in the request are cheap evidence against that. A number typed only into a
    constant table the script writes out is no use of it: a real a05 answer built one default
    straight instead of two 20 µm ones and wrote ``{"in1": 20, "out1": 20, "out2": 20}``. Nor is a
    number assigned to a name nothing reads (:func:`static.unread_assignments`).
    """
    from ..execution import drc_deck

    wanted = stated_values(prompt) + requested_decimals(prompt)
    if not wanted:
        return None
    tree = _parsed(script)
    if tree is not None:
        typed_in = {id(n) for data in [d for _, d in static.written_constant_data(tree)] + static.unread_assignments(tree)
                    for n in ast.walk(data)}
        numbers = numeric_literals([n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in typed_in])
        signed = signed_literals(tree)
    elif drc_deck.is_deck(script):   # a KLayout DRC deck: its numbers, read without Python's parser
        numbers, signed = numeric_literals(drc_deck.literals(script)), None
    else:   # syntax errors are the static check's job
        return None
    missing = list(dict.fromkeys(text for text, v in wanted if not uses_value(numbers, v, signed)))
    if not missing:
        return None
    return decision("revise", "programmer",
                    f"The designer asked for {', '.join(missing)}, but the script never uses "
                    f"{'this value' if len(missing) == 1 else 'these values'}: pass it to the parameter it "
                    "belongs to (see the API documentation) instead of leaving the default.", "values")


_LAYER_SPEC = re.compile(r"(?<![\w./])(\d{1,5})\s*/\s*(\d{1,5})(?![\w/]|\.\d)")   # "on layer 10/0." ends a sentence


# "layer 2/0", "layer (1/0)", "layer WG 1/0", "layers 1/0, 2/0 and 41/0" (not "layer/datatype ... 1/0")
_BEFORE_LAYER_SPEC = re.compile(r"\blayers?(?:\s+(?:(?:[A-Za-z_']+\s+){0,2}\(?|(?:\d+\s*/\s*\d+\s*(?:,|\band\b|\bor\b)\s*)+)"
                                r"|\s*:\s*)$", re.IGNORECASE)
# "3/0 = silicon AND mask": a layer the request defines
_DEFINED_LAYER = re.compile(r"\s*=(?!=)")


def requested_layers(prompt: str) -> list[tuple[int, int]]:
    """Layers the designer wrote as layer/datatype near the word "layer": "on layer 2/0",
    "layers 1/0 and 41/0", "the waveguide layer (1/0)", "result layers: 3/0"; or defined by an
    equals sign: "4/0 = silicon NOT mask"."""
    out = []
    for m in _LAYER_SPEC.finditer(prompt):
        if _BEFORE_LAYER_SPEC.search(prompt[max(0, m.start() - 40):m.start()]) or _DEFINED_LAYER.match(prompt, m.end()):
            spec = (int(m.group(1)), int(m.group(2)))
            if spec not in out:
                out.append(spec)
    return out


def missing_layers(prompt: str, script: str) -> dict | None:
    """Revise when a pya/klayout.db script never names a layer the designer asked for.

    A small model turns "layer 2/0" into layer 20 (seen in real runs) and the run succeeds on the
    wrong layer. Only scripts that address layers by number are read (gdsfactory scripts name them
    through cross-sections and layer maps): a layer is there if its two numbers stand together in
    the script (see :func:`_layer_pairs`), or its "L/D" text is, outside what it prints. Two
    integers anywhere are not a layer: a real b12 script wrote 1/0 back onto 1/0 and passed for
    "2/0" through ``dbu ** 2``. A printed label is not a layer either: a real b11 script summed the
    area of every layer, printed "Layer 1/0 area: ..." and was accepted.
    """
    from ..execution import drc_deck

    wanted = requested_layers(prompt)
    if not wanted or "gdsfactory" in script:
        return None
    if drc_deck.is_deck(script):   # a deck's numbers are read without Python's parser; any two may be a layer
        consts = drc_deck.literals(script)
        ints = {v for v in consts if type(v) is int}
        pairs = {(l, d) for l in ints for d in ints}
    else:
        tree = _parsed(script)   # parsed once for the literals and the pairs
        if tree is None:
            return None
        printed = {id(n) for call in ast.walk(tree) if isinstance(call, ast.Call)
                   and isinstance(call.func, ast.Name) and call.func.id == "print" for n in ast.walk(call)}
        consts = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in printed]
        pairs = _layer_pairs(tree)
    texts = " ".join(v for v in consts if isinstance(v, str))
    missing = [f"{l}/{d}" for l, d in wanted
               if not ((l, d) in pairs or re.search(rf"(?<!\d){l}\s*/\s*{d}(?!\d)", texts))]
    if not missing:
        return None
    first = missing[0].split("/")
    said = sentence_naming(prompt, missing[0])
    return decision("revise", "programmer",
                    f"The designer named layer {', '.join(missing)}" + (f' ("{said}")' if said else "")
                    + f", but the script never uses {'that layer' if len(missing) == 1 else 'those layers'}: "
                    f"a layer is its layer and datatype numbers, e.g. layout.layer({first[0]}, {first[1]}) for "
                    f"{missing[0]}, and cell.shapes(layout.layer({first[0]}, {first[1]})).insert(region) puts a "
                    "Region's shapes on it.", "layers")


def sentence_naming(prompt: str, layer: str, limit: int = 240) -> str:
    """The request's sentence (or clause after a colon) that names ``layer`` ("2/0"), so a revision
    is told what the designer wanted on it, not only its numbers; "" when none does."""
    for part in re.split(r"(?<=[.;:!?])\s+|\n+", prompt):
        if re.search(rf"(?<![\d/]){re.escape(layer)}(?![\d/])", part):
            part = part.strip(" -")
            return part if len(part) <= limit else part[:limit].rsplit(" ", 1)[0] + " ..."
    return ""


def _layer_pairs(tree: ast.AST) -> set[tuple[int, int]]:
    """Pairs of integers that stand together in a script's syntax tree: a 2-tuple or 2-list
    (``SRC = (1, 0)``), two neighbouring positional arguments of a call (``layout.layer(2, 0)``,
    ``LayerInfo(L, D)``) or its ``layer=``/``datatype=`` keywords, or a test of both in one
    condition (``info.layer == 1 and info.datatype == 0``); names are read through their one
    integer assignment (``L, D = 2, 0``)."""
    names: dict[str, list[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            tgt, val = node.targets[0], node.value
            items = (list(zip(tgt.elts, val.elts)) if isinstance(tgt, ast.Tuple) and isinstance(val, ast.Tuple)
                     and len(tgt.elts) == len(val.elts) else [(tgt, val)])
            for t, v in items:
                if isinstance(t, ast.Name) and isinstance(v, ast.Constant) and type(v.value) is int:
                    names.setdefault(t.id, []).append(v.value)

    def num(n: ast.AST) -> int | None:
        if isinstance(n, ast.Constant) and type(n.value) is int:
            return n.value
        if isinstance(n, ast.Name) and len(names.get(n.id, ())) == 1:
            return names[n.id][0]
        return None

    def tested(cond: ast.AST, attr: str) -> ast.AST | None:
        """The value ``cond`` tests ``<x>.attr`` to be equal to, else None."""
        if isinstance(cond, ast.Compare) and len(cond.ops) == 1 and isinstance(cond.ops[0], ast.Eq):
            for a, b in ((cond.left, cond.comparators[0]), (cond.comparators[0], cond.left)):
                if isinstance(a, ast.Attribute) and a.attr == attr:
                    return b
        return None

    out: set[tuple[int, int]] = set()
    for node in ast.walk(tree):
        seqs = []
        if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2:
            seqs.append(node.elts)
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            layers = [v for c in node.values if (v := tested(c, "layer")) is not None]
            datatypes = [v for c in node.values if (v := tested(c, "datatype")) is not None]
            seqs += [[l, d] for l in layers for d in datatypes]
        elif isinstance(node, ast.Call):
            seqs += [node.args[i:i + 2] for i in range(len(node.args) - 1)]
            kw = {k.arg: k.value for k in node.keywords}
            if "layer" in kw and "datatype" in kw:
                seqs.append([kw["layer"], kw["datatype"]])
        for a, b in seqs:
            l, d = num(a), num(b)
            if l is not None and d is not None:
                out.add((l, d))
    return out


def _literal(node: ast.AST) -> bool:
    """A number, string or tuple/list of them: what a script's parameter block assigns."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, str)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _literal(node.operand)
    return isinstance(node, (ast.Tuple, ast.List)) and bool(node.elts) and all(_literal(e) for e in node.elts)


def unread_parameters(tree: ast.Module) -> list[tuple[str, ast.Assign]]:
    """(name, statement) of each module-level name assigned a literal (a script's parameter block,
    ``PAD_SIZE = (100, 100)``) that the script never reads; private ``_names`` are left out."""
    assigned: list[tuple[str, ast.Assign]] = []
    for st in tree.body:
        if isinstance(st, ast.Assign) and _literal(st.value):
            for t in st.targets:
                names = [t] if isinstance(t, ast.Name) else list(t.elts) if isinstance(t, ast.Tuple) else []
                assigned += [(n.id, st) for n in names if isinstance(n, ast.Name)]
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return [(name, st) for name, st in assigned if name not in used and not name.startswith("_")]


def unused_parameters(prompt: str, script: str) -> dict | None:
    """Revise when the script sets parameters it never uses (``PAD_SIZE = (100, 100)`` and nothing
    draws the pad): a small model writes the parameter block of an example and then forgets part of
    the job, and the run still succeeds. Only module-level names assigned a literal count."""
    from ..execution import drc_deck

    if drc_deck.is_deck(script):
        return None
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return None
    unused = list(dict.fromkeys(name for name, _ in unread_parameters(tree)))
    if not unused:
        return None
    return decision("revise", "programmer",
                    f"The script sets {', '.join(unused)} but never uses "
                    f"{'it' if len(unused) == 1 else 'them'}: the part of the task "
                    f"{'it stands' if len(unused) == 1 else 'they stand'} for is not done. "
                    "Use every parameter where it belongs, or remove it if the task does not need it.",
                    "unused")


_CELL_NAME = re.compile(
    r"\bcells?\s+(named\s+|called\s+)?([\"'`])?([A-Za-z_][\w$]*)(?(2)[\"'`])", re.IGNORECASE)


def requested_cell_names(prompt: str) -> list[str]:
    """Cell names the designer wrote: "a top cell named WG25", "in a top cell SPLIT", "cell 'pad'".

    Without "named"/"called" or quotes, only an all-capitals word counts as a name, so that
    "the current cell is ..." or "cell origin" are not read as names.
    """
    out = []
    for named, quote, name in (m.groups() for m in _CELL_NAME.finditer(prompt)):
        explicit = bool(named or quote)
        if explicit or (len(name) >= 2 and name.upper() == name and any(ch.isalpha() for ch in name)):
            if name not in out and name.lower() not in ("a", "an", "the", "is", "of", "in", "to", "and"):
                out.append(name)
    return out


def missing_names(prompt: str, script: str) -> dict | None:
    """Revise when a cell name the designer asked for appears in no string of the script.

    A small model copies an example that names the cell after the device (straight_L25_...)
    and its evaluator accepts that; the name in the request is cheap evidence against it.
    """
    from ..execution import drc_deck

    if drc_deck.is_deck(script):   # a KLayout DRC deck: the designer's rule names are its report categories
        missing = drc_deck.missing_rule_names(prompt, script)
        if not missing:
            return None
        return decision("revise", "programmer",
                        f"The designer named the rule(s) {', '.join(missing)}, but no check of the deck is sent to the "
                        f"report under {'this name' if len(missing) == 1 else 'these names'}: write each rule as "
                        f'<check>.output("{missing[0]}", "{missing[0]}: <the rule in words>") with the exact name.',
                        "names")
    wanted = requested_cell_names(prompt)
    consts = _constants(script) if wanted else None
    if consts is None:
        return None
    strings = [v for v in consts if isinstance(v, str)]
    missing = [n for n in wanted if not any(n in s for s in strings)]
    if not missing:
        return None
    uses_gf = "gdsfactory" in script
    how = (f'with gdsfactory make the cell yourself, `c = gf.Component("{missing[0]}")`, place the device in it '
           "with `ref = c << device` and write or return `c`" if uses_gf else
           f'with pya create it with `layout.create_cell("{missing[0]}")` (or rename an existing cell with '
           f'`cell.name = "{missing[0]}"`)')
    return decision("revise", "programmer",
                    f"The designer asked for a cell named {', '.join(missing)}, but the script never uses "
                    f"{'this name' if len(missing) == 1 else 'these names'}: {how}. Use the exact name.", "names")


def judge(agent: Agent, client, prompt: str, script: str, rep: ExecutionReport, review_checks: list, cancel=None,
          expected_files: list[str] | None = None) -> dict:
    """Ask the LLM evaluator about a script that ran; an empty or vague 'revise' counts as accept,
    and so does an objection about files that the evidence refutes (see :func:`contradicted_by_run`)."""
    checks = "\n".join(f"- {c.name}: {c.prompt}" for c in review_checks) or "(none)"
    from ..execution import drc_deck

    lang = "ruby" if drc_deck.is_deck(script) else "python"   # a KLayout DRC deck is no Python script
    user = prompts.render("evaluator_user", prompt=prompt, script=script.rstrip()[:3000], execution=execution_text(rep),
                          checks=checks, lang=lang)
    ans = agent.ask_json(client, user, SCHEMA, cancel=cancel, max_tokens=250, with_memory=False)
    instr = (ans.get("instructions") or "").strip()
    if ans["decision"] == "revise" and len(instr) >= 12:
        if contradicted_by_run(instr, rep, expected_files or []):
            return decision("accept", "", "", "llm", thoughts=ans.get("thoughts", ""),
                            overruled=f"the evaluator asked: {instr!r}, but the run wrote every file it names "
                                      "or names files nobody asked for")
        return decision("revise", ans.get("target") or "programmer", instr, "llm", thoughts=ans.get("thoughts", ""))
    return decision("accept", "", "", "llm", thoughts=ans.get("thoughts", ""))


_FILE = re.compile(r"[\w./-]+\.(?:gds|oas|csv|json|lyrdb|png|txt|npy|npz)\b", re.IGNORECASE)


def contradicted_by_run(instructions: str, rep: ExecutionReport, expected: list[str] = ()) -> bool:
    """True when an LLM objection is only about output files and the evidence refutes it: the run
    wrote every file it names, or it names files that neither the request nor the plan asks for.

    Small models sometimes ask to "write X.gds" although the run did exactly that, or copy a file
    name from an example; the execution evidence and the request win over such a claim.
    """
    named = {PurePath(m).name for m in _FILE.findall(instructions)}
    if not named or not rep.ok:
        return False
    written = rep.written_names()
    wanted = {PurePath(w).name for w in expected}
    return named <= written or not (named & wanted)
