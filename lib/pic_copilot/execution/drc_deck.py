"""KLayout DRC decks: recognise them, wrap them as ``.lydrc`` macros, run them with KLayout's own
DRC engine and summarise their report databases.

A deck is a script in the Ruby DSL of KLayout's DRC engine (docs/DRC_DECKS.md)::

    source($input)
    report("waveguide rules", $report)
    wg = input(1, 0)
    wg.width(0.5.um).output("WG.W.1", "waveguide width < 0.5 um")

KLayout 0.28.5 runs it as ``klayout -b -r deck.lydrc -rd input=in.gds -rd report=out.lyrdb``;
a ``.lydrc`` file must be the XML macro format (:func:`to_lydrc`), a ``.drc`` file is plain text.

- sandbox mode (:func:`run_deck_in_sandbox`): the deck is written as ``deck.lydrc`` into a sandbox
  job and a small driver there runs the KLayout binary on the job's layout (the first GDS/OAS of
  the inputs, else an empty layout), so the deck is confined like any generated script;
- interactive mode (:func:`execute_deck`): the bridge runs the deck inside KLayout on a copy of the
  open layout's active cell and opens the report in the marker browser
  (klayout_plugin/pic_copilot_plugin/drc.py).

The execution report (:class:`pic_copilot.execution.report.ExecutionReport`) is
:func:`pic_copilot.execution.routing.execute`'s, with ``deck``:
``{"file", "input", "report", "categories": {name: items}, "items"}``. A deck error comes back as
exception ``DRCError`` whose message names the deck line and KLayout's own error text.
stdlib only: the plugin side keeps a copy of :func:`is_deck` (a test checks they agree).
"""
from __future__ import annotations

import json
import re
from pathlib import PurePath
from xml.sax.saxutils import escape

from .report import ExecutionReport, failed_run

DECK_SUFFIXES = (".lydrc", ".drc")
DEFAULT_DECK = "deck.lydrc"
DEFAULT_REPORT = "drc_report.lyrdb"
LAYOUT_SUFFIXES = (".gds", ".gds2", ".oas", ".oasis", ".gds.gz", ".oas.gz")

_XML_MACRO = re.compile(r"^\s*(?:<\?xml[^>]*\?>\s*)?<klayout-macro>", re.S)
_PYTHON_LINE = re.compile(r"^\s*(?:import\s+\w|from\s+[\w.]+\s+import\s)|\bpya\.\w|^\s*def\s+\w+\(.*\)\s*:", re.M)
#: lines only a DRC deck has (at least two must be there)
_DECK_MARKERS = (
    re.compile(r"\$input\b"),
    re.compile(r"\$report\b"),
    re.compile(r"^\s*source\s*[( ]", re.M),
    re.compile(r"^\s*report\s*[( ]", re.M),
    re.compile(r"\.output\s*\(\s*[\"']"),
    re.compile(r"\binput\s*\(\s*\d+"),
    re.compile(r"\d\.(?:um|micron|nm)\b"),
    re.compile(r"\.(?:width|space|separation|notch|isolated|enclosing|enclosed|overlap|sized)\s*\("),
    re.compile(r"^\s*(?:deep|flat|tiles|threads|verbose)\b", re.M),
)


_DECK_NOUN = re.compile(
    r"\b(?:drc|rule|design[- ]rule|klayout|checking)\s+(?:deck|runset|run[- ]set)s?\b"
    r"|\bdecks?\s+(?:for|that|which|with|to)\b.{0,60}?\b(?:rules?|drc|width|spacing|space|enclos\w*|overlap|density)\b"
    r"|\.lydrc\b|\blydrc\b|\bdrc\s+(?:dsl|runset)\b"
    r"|\bdrc\s+script\s+(?:for|in)\s+klayout\b|\bklayout(?:'s)?\s+drc\s+(?:script|language|dsl)\b",
    re.IGNORECASE)
_RUN_A_DECK = re.compile(r"\b(?:run|runs|running|execute|apply)\s+(?:a|an|the|my|this|our)?\s*(?:\w+\s+){0,2}?"
                         r"(?:drc|rule|klayout)\s+(?:deck|runset)", re.IGNORECASE)


def wants_deck(text: str) -> bool:
    """True when a request asks for a KLayout DRC deck itself ("write a DRC deck for these rules",
    "a rule deck for metal 1", "a .lydrc that checks ...", "a DRC script for KLayout"), not for
    running checks: "run a small DRC deck on chip.gds and write the counts" asks for results (a
    Python script with the checks), unless it also asks to write the deck."""
    text = text or ""
    if not _DECK_NOUN.search(text):
        return False
    if re.search(r"\.lydrc\b", text, re.IGNORECASE):
        return True
    if _RUN_A_DECK.search(text) and not re.search(r"\b(?:write|create|make|generate|give|produce|draft|build)\b[^.]{0,40}"
                                                  r"\b(?:deck|runset)", text, re.IGNORECASE):
        return False
    return True


class DeckError(ValueError):
    """A deck that cannot be read (e.g. a broken .lydrc XML file)."""


def is_deck(text: str) -> bool:
    """True for a KLayout DRC deck (plain DSL text or a ``.lydrc`` XML macro), False for Python.

    Python never passes: any import, ``pya.`` or ``def f(...):`` line makes it Python. A plain
    deck needs two deck-only markers ($input, $report, source(...), report(...), input(1, 0),
    .output("..."), 0.5.um, a check method call, deep/flat mode).
    """
    if not text or not text.strip():
        return False
    if _XML_MACRO.match(text):
        return "<dsl-interpreter-name>drc" in text or "<category>drc</category>" in text
    if _PYTHON_LINE.search(text):
        return False
    return sum(bool(m.search(text)) for m in _DECK_MARKERS) >= 2


def deck_text(text: str) -> str:
    """The DSL text of a deck: the ``<text>`` of a ``.lydrc`` XML macro, else the text itself.

    Raises:
        DeckError: the XML macro cannot be parsed.
    """
    if not _XML_MACRO.match(text):
        return text
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text.strip().encode("utf-8"))
    except ET.ParseError as e:
        raise DeckError(f"the .lydrc file is not valid XML: {e}") from e
    body = root.find("text")
    return (body.text or "") if body is not None else ""


def to_lydrc(text: str, description: str = "") -> str:
    """The deck as a ``.lydrc`` file (KLayout's XML macro format, DSL interpreter ``drc-dsl-xml``).

    Args:
        text: the deck (plain DSL text, or already a .lydrc file, which is returned unchanged).
        description: the macro's description (shown in the macro IDE and the DRC menu).
    """
    if _XML_MACRO.match(text):
        return text
    desc = " ".join((description or "pic-copilot DRC deck").split())[:200]
    return ('<?xml version="1.0" encoding="utf-8"?>\n<klayout-macro>\n'
            f" <description>{escape(desc)}</description>\n <version/>\n <category>drc</category>\n"
            " <prolog/>\n <epilog/>\n <doc/>\n <autorun>false</autorun>\n <autorun-early>false</autorun-early>\n"
            " <shortcut/>\n <show-in-menu>true</show-in-menu>\n <group-name>drc_scripts</group-name>\n"
            " <menu-path>tools_menu.drc.end</menu-path>\n <interpreter>dsl</interpreter>\n"
            " <dsl-interpreter-name>drc-dsl-xml</dsl-interpreter-name>\n"
            f" <text>{escape(text)}</text>\n</klayout-macro>\n")


def file_text(text: str, path: str) -> str:
    """What to write into ``path`` for a script: a deck saved as ``.lydrc`` becomes the XML macro,
    a ``.drc`` file gets the plain DSL text; everything else is written as it is."""
    low = str(path).lower()
    if low.endswith(".lydrc") and is_deck(text):
        return to_lydrc(text)
    if low.endswith(".drc") and is_deck(text):
        return deck_text(text)
    return text


def description_of(text: str) -> str:
    """The report description a deck gives in ``report("...", ...)`` (for the .lydrc header)."""
    m = re.search(r"^\s*report\s*\(?\s*[\"']([^\"']+)[\"']", deck_text(text), re.M)
    return m.group(1) if m else ""


_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?:\.(um|micron|nm|mm))?(?![\w])")
_STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'")


def literals(text: str) -> list:
    """The numbers and strings a deck writes (for the checks of requested values and names):
    ``0.5.um`` is 0.5, ``200.nm`` is 200 (the value checks try um, nm and mm), comments left out."""
    try:
        body = deck_text(text)
    except DeckError:
        return []
    out: list = []
    for line in body.splitlines():
        code = re.sub(r"#.*$", "", _STRING.sub(lambda m: '""', line))   # a '#' inside a string is no comment
        out += [float(n) if "." in n else int(n) for n, _unit in _NUMBER.findall(code)]
        out += [a if a else b for a, b in _STRING.findall(line.split("#", 1)[0] if '"' not in line else line)]
    return out


_RULE_NAME = re.compile(r"(?<![\w./])([A-Z][A-Z0-9]*(?:[._][A-Z0-9]+)+)(?![\w/])")
_OUTPUT_NAME = re.compile(r"\.output\s*\(\s*[\"']([^\"']+)[\"']")


def requested_rule_names(prompt: str) -> list[str]:
    """Rule names the designer wrote (``WG.W.1``, ``HTR_WG``, ``V.M1.ENC``): capitals and digits
    joined by dots or underscores. They become the deck's report categories."""
    return list(dict.fromkeys(_RULE_NAME.findall(prompt or "")))


def missing_rule_names(prompt: str, deck: str) -> list[str]:
    """The designer's rule names that no ``.output("<name>", ...)`` of the deck uses."""
    try:
        names = set(_OUTPUT_NAME.findall(deck_text(deck)))
    except DeckError:
        return []
    return [n for n in requested_rule_names(prompt) if n not in names]


def missing_categories(prompt: str, report: ExecutionReport) -> list[str]:
    """The designer's rule names that the report of a deck's run has no category for (a category
    without markers counts: KLayout writes every ``.output`` category, with or without items).
    Empty when the run's categories are unknown (no report was read)."""
    got = report.deck_categories()
    if not isinstance(got, dict):
        return []
    return [n for n in requested_rule_names(prompt) if n not in got]


# ---------------------------------------------------------------------------------- names
def deck_file_name(expected_files=()) -> str:
    """The deck's file name: the first ``.lydrc``/``.drc`` the designer named, else deck.lydrc."""
    for f in expected_files or ():
        if str(f).lower().endswith(DECK_SUFFIXES):
            return PurePath(str(f)).name
    return DEFAULT_DECK


def report_file_name(expected_files=()) -> str:
    """The report's file name: the first ``.lyrdb``/``.rdb`` the designer named, else drc_report.lyrdb."""
    for f in expected_files or ():
        if str(f).lower().endswith((".lyrdb", ".rdb")):
            return PurePath(str(f)).name
    return DEFAULT_REPORT


def input_layout_name(inputs) -> str | None:
    """The layout the deck reads in the sandbox: in.gds when it is an input, else the first GDS/OAS among
    the run's input files."""
    if "in.gds" in (inputs or ()):
        return "in.gds"
    for name in inputs or ():
        if str(name).lower().endswith(LAYOUT_SUFFIXES):
            return str(name)
    return None


# ---------------------------------------------------------------------------------- errors
_ERR_LINE = re.compile(r"^ERROR: (?:In [^:\n]*: )?(.*)$", re.M)
_AT_LINE = re.compile(r"(?:^|\s)([^\s:]*\.(?:lydrc|drc)):(\d+):in", re.M)
_SYNTAX_AT = re.compile(r"([^\s:]*\.(?:lydrc|drc)):(\d+): (.*)")
# Ruby's dump of the object a method was called on: "#<DRC::DRCLayer:0x7f.. @engine=..., @data=#<RBA::Region:0x..>>"
_RUBY_OBJECT = re.compile(r"#<((?:DRC|RBA)::\w+):0x[0-9a-f]+(?:[^<>]|<[^<>]*>)*>")


def klayout_error(stderr: str, deck: str = "") -> dict:
    """KLayout's error text for a failed deck run: {"message", "line", "source"}.

    ``message`` is KLayout's first ERROR line ("undefined method `widht' ... Did you mean? width"),
    ``line`` the deck line it names (or None), ``source`` that line's text.
    """
    text = stderr or ""
    first = _ERR_LINE.search(text)
    msg = first.group(1).strip() if first else (text.strip().splitlines() or ["KLayout failed"])[-1]
    line = None
    syn = _SYNTAX_AT.search(msg)
    if syn:
        line, msg = int(syn.group(2)), f"syntax error: {syn.group(3).strip()}"
    else:
        at = _AT_LINE.search(text)
        line = int(at.group(2)) if at else None
        # the first ERROR line is followed by "Did you mean?" lines of the same message
        if first:
            rest = text[first.end():].split("\nERROR:", 1)[0].strip()
            if rest and len(rest) < 200 and not rest.startswith(":/"):
                msg += " " + " ".join(rest.split())
    msg = _RUBY_OBJECT.sub(lambda m: {"DRC::DRCLayer": "a layer", "DRC::DRCEngine": "the deck"}.get(m.group(1), m.group(1)), msg)
    src_lines = deck_text(deck).splitlines() if deck and line else []
    source = src_lines[line - 1].strip() if 0 < (line or 0) <= len(src_lines) else ""
    return {"message": msg[:1000], "line": line, "source": source}


def error_message(err: dict) -> str:
    """One readable sentence for a deck error (for the programmer's revision)."""
    where = f"line {err['line']}" + (f" `{err['source']}`" if err.get("source") else "") if err.get("line") else ""
    return (f"{where}: " if where else "") + err["message"]


# ---------------------------------------------------------------------------------- reports
def summarize_report(path) -> dict:
    """Categories and item counts of a report database (same shape as sandbox.summary's)."""
    from ..sandbox.summary import summarize_rdb

    return summarize_rdb(str(path))


def report_line(name: str, summary: dict) -> str:
    """``drc_report.lyrdb: 3 marker(s): WG.W.1 = 2, WG.S.1 = 1, WG.A.1 = 0``."""
    counts = dict(summary.get("items_per_category") or {})
    cats = [c for c in summary.get("categories") or []]
    parts = [f"{c} = {counts.get(c, 0)}" for c in cats] + [f"{c} = {n}" for c, n in counts.items() if c not in cats]
    return f"{name}: {summary.get('items', 0)} marker(s)" + (": " + ", ".join(parts) if parts else ", no categories")


# ---------------------------------------------------------------------------------- sandbox
#: runs inside the sandbox job (engine venv Python): the KLayout binary on the deck
DRIVER = r'''
import json, os, subprocess, sys
ARGS = json.loads(%(args)r)

class DRCError(Exception):
    """The deck failed in KLayout's DRC engine."""

os.environ["KLAYOUT_HOME"] = os.path.join(os.environ.get("HOME") or os.getcwd(), ".klayout")
os.makedirs(os.environ["KLAYOUT_HOME"], exist_ok=True)
layout = ARGS["input"]
if not layout:
    import klayout.db as kdb
    ly = kdb.Layout()
    ly.create_cell("TOP")
    layout = "_empty_input.gds"
    ly.write(layout)
    print("no input layout was given: the deck ran on an empty layout (cell TOP)")
if os.path.exists(ARGS["report"]):
    os.remove(ARGS["report"])
cmd = ["klayout", "-b", "-r", ARGS["deck"], "-rd", "input=" + layout, "-rd", "report=" + ARGS["report"]]
try:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=ARGS["timeout_s"])
except subprocess.TimeoutExpired:
    raise DRCError("KLayout did not finish the deck within %%d s" %% ARGS["timeout_s"])
sys.stdout.write(p.stdout[-6000:])
sys.stderr.write(p.stderr[-6000:])
if layout == "_empty_input.gds":
    os.remove(layout)
if p.returncode != 0:
    raise DRCError("klayout exited with %%d" %% p.returncode)
if not os.path.exists(ARGS["report"]):
    raise DRCError("the deck ran but wrote no report database: start it with source($input) and "
                   "report(\"<description>\", $report), then send every check to the report with "
                   ".output(\"<rule name>\", \"<description>\")")
print("[deck] ran %%s on %%s, report %%s" %% (ARGS["deck"], ARGS["input"] or "an empty layout", ARGS["report"]))
'''


def driver_code(deck_file: str, input_file: str | None, report_file: str, timeout_s: float) -> str:
    """The sandbox driver that runs ``deck_file`` on ``input_file`` with the KLayout binary."""
    args = {"deck": deck_file, "input": input_file, "report": report_file, "timeout_s": max(5, int(timeout_s) - 5)}
    return DRIVER % {"args": json.dumps(args)}


def run_deck_in_sandbox(deck: str, *, inputs: dict | None = None, workdir: str | None = None,
                        timeout_s: float = 120, expected_files=(), input_file: str | None = None,
                        sandbox=None) -> ExecutionReport:
    """Run a deck with KLayout's DRC engine inside the sandbox.

    Args:
        deck: the deck (plain DSL text or a .lydrc XML macro).
        inputs: files copied into the job's work directory first (name -> path or content); the
            first GDS/OAS among them (or ``input_file``) is the deck's ``$input``.
        workdir: the work directory (a fresh sandbox job when None); the deck file and the report
            are left there.
        timeout_s: wall-time limit of the whole run.
        expected_files: files the designer named: the first .lydrc/.drc names the deck file, the
            first .lyrdb the report.
        input_file: the layout in the work directory the deck reads (default: from ``inputs``).
        sandbox: a :class:`pic_copilot.sandbox.Sandbox` (the default one when None).

    Returns:
        the sandbox's execution report (``where`` "sandbox"), with ``deck`` (file, input, report,
        categories, items) and, when the deck failed in KLayout, exception ``DRCError`` whose
        message names the line and whose traceback is KLayout's error output.
    """
    from ..sandbox import default_sandbox

    try:
        text = deck_text(deck)
    except DeckError as e:
        return failed_run("DRCError", str(e), where="sandbox", stdout="", stderr="", files=[])
    deck_file = deck_file_name(expected_files)
    report_file = report_file_name(expected_files)
    layout = input_file or input_layout_name(inputs)
    files = dict(inputs or {})
    files[deck_file] = to_lydrc(text, description_of(text)) if deck_file.endswith(".lydrc") else text
    sb = sandbox or default_sandbox()
    res = sb.run(driver_code(deck_file, layout, report_file, timeout_s), inputs=files, workdir=workdir,
                 timeout_s=timeout_s, pid_namespace=False)
    rep = ExecutionReport.from_dict(res.to_dict())
    rep.where = "sandbox"
    info: dict = {"file": deck_file, "input": layout, "report": report_file}
    rdb = rep.file(report_file)
    if rdb and rdb.get("summary"):
        s = rdb["summary"]
        info.update(categories={c: (s.get("items_per_category") or {}).get(c, 0) for c in s.get("categories") or []},
                    items=s.get("items", 0))
        rep.stdout = (rep.stdout or "") + report_line(report_file, s) + "\n"
    rep.deck = info
    if rep.files is not None and rep.file(deck_file) is None:
        rep.files.insert(0, {"path": deck_file, "kind": "deck", "size": len(files[deck_file])})
    exc = rep.exception or {}
    if exc.get("type") == "DRCError":
        err = klayout_error(rep.stderr or "", text)
        if not exc.get("message", "").startswith(("the deck ran", "KLayout did not")):
            exc["message"] = error_message(err)
        exc["traceback"] = (rep.stderr or "")[-3000:]
        exc["line"] = err["line"]
        rep.exception = exc
    return rep


# ---------------------------------------------------------------------------------- where
def execute_deck(code: str, mode: str, bridge=None, timeout_s: float = 120, emit=None, inputs: dict | None = None,
                 expected_files=()) -> ExecutionReport:
    """Run a deck where it belongs: on the open layout through the bridge (interactive mode), or in
    the sandbox on the run's input layout. Returns one execution report (see module doc)."""
    say = emit or (lambda _msg: None)
    if mode == "interactive":
        if bridge is None:
            raise ValueError("interactive mode needs a KLayout bridge (open KLayout, or use --mode sandbox)")
        if not hasattr(bridge, "run_deck"):
            return failed_run("NoDeckSupport", "this KLayout connection cannot run DRC decks (update the plugin)",
                              where="klayout-drc", stdout="", stderr="")
        say("running the DRC deck on the open layout in KLayout")
        try:
            text = deck_text(code)
        except DeckError as e:
            return failed_run("DRCError", str(e), where="klayout-drc", stdout="", stderr="")
        rep = ExecutionReport.from_dict(bridge.run_deck(text, report_file_name(expected_files),
                                                        deck_file_name(expected_files)))
        rep.where = "klayout-drc"
        return rep
    say("running the DRC deck in the sandbox with KLayout's DRC engine")
    return run_deck_in_sandbox(code, inputs=inputs, timeout_s=timeout_s, expected_files=expected_files)


# ---------------------------------------------------------------------------------- static
_CHECK_CALL = re.compile(r"\.(width|space|separation|notch|isolated|enclosing|enclosed|overlap|sized|size|"
                         r"inside_part|outside_part)\s*\(")


def _top_level_args(code: str, start: int) -> list[str]:
    """The comma-separated arguments of the call whose "(" is at ``start`` (nested calls kept whole)."""
    depth, args, cur = 0, [], ""
    for ch in code[start:]:
        if ch == "(":
            depth += 1
            if depth == 1:
                continue
        elif ch == ")":
            depth -= 1
            if depth == 0:
                break
        if ch == "," and depth == 1:
            args.append(cur)
            cur = ""
        else:
            cur += ch
    return [a.strip() for a in args + [cur]]


def static_findings(text: str) -> list[dict]:
    """Cheap checks of a deck before it runs: Python written as a deck, no report, no source,
    and distances written as integers (KLayout reads an integer as database units: 1 = 1 nm)."""
    try:
        body = deck_text(text)
    except DeckError as e:
        return [{"kind": "deck", "severity": "error", "line": None, "message": str(e)}]
    out: list[dict] = []
    lines = body.splitlines()
    for i, ln in enumerate(lines, 1):
        code = ln.split("#", 1)[0]
        if re.search(r"\b(True|False|None)\b", code):
            out.append({"kind": "deck", "severity": "error", "line": i,
                        "message": f"line {i}: `{ln.strip()}` is Python; a DRC deck is Ruby: write true, false, nil"})
        for m in _CHECK_CALL.finditer(code):
            for arg in _top_level_args(code, m.end() - 1):
                if re.fullmatch(r"\d+", arg) and int(arg) > 0:
                    out.append({"kind": "deck", "severity": "error", "line": i,
                                "message": f"line {i}: `{ln.strip()}`: the integer {arg} in .{m.group(1)}(...) means "
                                           f"{arg} database unit(s), not micrometres; write {arg}.0.um (or {arg}.um) "
                                           f"for {arg} um"})
    active = "\n".join(l.split("#", 1)[0] for l in lines)
    if not re.search(r"^\s*report\s*[( ]", active, re.M):
        out.append({"kind": "deck", "severity": "error", "line": None,
                    "message": "the deck has no report(...): add report(\"<description>\", $report) after "
                               "source($input), so every .output(\"<rule>\", \"<description>\") goes to the report "
                               "database"})
    if not re.search(r"^\s*source\s*[( ]", active, re.M) and "$input" not in active:
        out.append({"kind": "deck", "severity": "warning", "line": None,
                    "message": "the deck has no source($input): it then checks the layout open in KLayout only"})
    return out


# ---------------------------------------------------------------------------------- certain fixes
_LITERAL_SOURCE = re.compile(r"""^(?P<head>[ \t]*source[ \t]*\(?[ \t]*)(?P<q>["'])[^"'\n]*(?P=q)""", re.M)
_LITERAL_REPORT = re.compile(r"""^(?P<head>[ \t]*report[ \t]*\(?[ \t]*(?P<q>["'])(?:(?!(?P=q)).)*(?P=q)[ \t]*,[ \t]*)"""
                             r"""(?P<q2>["'])[^"'\n]*(?P=q2)""", re.M)
_TWO_LAYER_SPACE = re.compile(r"\b(?P<a>[A-Za-z_]\w*)\.space[ \t]*\([ \t]*(?P<b>[A-Za-z_]\w*)[ \t]*,")


def _layer_names(body: str) -> set[str]:
    """Names the deck assigns (``core = input(1, 0)``, ``wide = core.sized(...)``): its layers."""
    return set(re.findall(r"^[ \t]*([A-Za-z_]\w*)[ \t]*=(?!=)", body, re.M))


def certain_fixes(text: str, request: str) -> tuple[str, list[str]]:
    """Mistakes in a deck whose correction leaves no doubt, made on the deck itself:

    - ``source("some.gds")`` / ``report("...", "some.lyrdb")`` with literal file names when the
      designer said the deck is run with ``-rd input=...`` / ``-rd report=...``: those names are
      the ``$input`` / ``$report`` variables (a small model copies the file the request mentions);
    - ``a.space(b, d)`` where ``b`` is one of the deck's layers: the two-layer distance check of
      KLayout's DRC language is ``a.separation(b, d)`` (``space`` takes a distance only);
    - a second ``source(...)`` or ``report(...)`` (a model that writes one block per rule): each
      starts over, so only the last block's rules would reach the report; the repeats are dropped.

    Args:
        text: the deck (plain or a .lydrc macro).
        request: the designer's words (only the ``-rd input`` / ``-rd report`` convention is read).

    Returns:
        the deck and what was changed.
    """
    done = []
    if re.search(r"-rd\s+input\b|\$input\b", request):
        text, n = _LITERAL_SOURCE.subn(lambda m: f"{m.group('head')}$input", text)
        if n:
            done.append("source($input) instead of a literal file name (the deck is run with -rd input=...)")
    if re.search(r"-rd\s+report\b|\$report\b", request):
        text, n = _LITERAL_REPORT.subn(lambda m: f"{m.group('head')}$report", text)
        if n:
            done.append("report(..., $report) instead of a literal file name (the deck is run with -rd report=...)")
    for what in ("source", "report"):   # a second source()/report() starts over: later rules lose the earlier ones
        lines, seen, dropped = text.splitlines(keepends=True), False, 0
        for i, ln in enumerate(lines):
            if re.match(rf"[ \t]*{what}[ \t]*[( ]", ln):
                if seen:
                    lines[i], dropped = "", dropped + 1
                seen = True
        if dropped:
            text = "".join(lines)
            done.append(f"one {what}(...) per deck (dropped {dropped} repeated call(s), so every rule reaches one report)")
    layers = _layer_names(text)
    renamed = []

    def two_layer(m: re.Match) -> str:
        if m.group("b") not in layers:   # a metric option (projection, euclidian, ...) or a value
            return m.group(0)
        renamed.append(m.group("b"))
        return f"{m.group('a')}.separation({m.group('b')},"

    text = _TWO_LAYER_SPACE.sub(two_layer, text)
    if renamed:
        done.append("a.separation(b, d) for the distance between two layers (a.space takes a distance only)")
    text, n = _QUOTED_OPTION.subn(lambda m: m.group(1) + m.group(3).replace("euclidean", "euclidian"), text)
    if n:
        done.append("check options (projection, euclidian, square, whole_edges, ...) written as the DRC language's "
                    "functions, not strings")
    return text, done


#: a check's metric or edge option written as a string inside a check call ("projection" -> projection):
#: KLayout's DRC language takes them as functions ("'separation': Parameter #3 does not have an expected type")
_QUOTED_OPTION = re.compile(r"""(\.(?:width|space|separation|notch|isolated|enclosing|enclosed|overlap|inside|outside)\s*\([^()\n]*?,\s*)"""
                            r"""(["'])(projection|euclidian|euclidean|square|whole_edges|shielded|transparent)\2""")


__all__ = ["is_deck", "deck_text", "to_lydrc", "file_text", "run_deck_in_sandbox", "execute_deck",
           "static_findings", "certain_fixes", "klayout_error", "summarize_report", "report_line", "DeckError"]
