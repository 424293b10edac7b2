"""Run KLayout DRC decks (the Ruby DSL of KLayout's DRC engine) inside KLayout, on the open layout.

stdlib + pya only. The engine's ``pic_copilot.execution.drc_deck`` decides that a script is a deck and asks
the bridge for ``run_deck``; this module does it:

- the active cell (with its sub-cells) is written to ``_drc_input.gds`` in the work folder and the
  deck's ``$input`` names that copy, so a deck never edits the open layout (``source($input)``);
  ``$report`` names the report database in the work folder;
- the deck runs in KLayout's own DRC engine (``pya.Macro`` with the ``drc-dsl`` interpreter), in
  one guarded transaction like every script (a deck without ``source`` that writes into the open
  layout can be undone);
- in the GUI the DRC engine opens the report in the marker browser itself; the deck is saved as
  ``.lydrc`` in the work folder (and in the DRC macro folder on request, :func:`save_deck`).
"""
from __future__ import annotations

import os
import re
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.sax.saxutils import escape

import pya

INPUT_COPY = "_drc_input.gds"

# --- the same recognition as pic_copilot.execution.drc_deck.is_deck (tests/test_drc_deck.py checks they agree)
_XML_MACRO = re.compile(r"^\s*(?:<\?xml[^>]*\?>\s*)?<klayout-macro>", re.S)
_PYTHON_LINE = re.compile(r"^\s*(?:import\s+\w|from\s+[\w.]+\s+import\s)|\bpya\.\w|^\s*def\s+\w+\(.*\)\s*:", re.M)
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
_AT_LINE = re.compile(r"(?:^|\s)[^\s:]*\.(?:lydrc|drc):(\d+)(?::in|: )", re.M)
_RUBY_OBJECT = re.compile(r"#<((?:DRC|RBA)::\w+):0x[0-9a-f]+(?:[^<>]|<[^<>]*>)*>")


def is_deck(text: str) -> bool:
    """True for a KLayout DRC deck (plain DSL or .lydrc XML), False for Python (see drc_deck.is_deck)."""
    if not text or not text.strip():
        return False
    if _XML_MACRO.match(text):
        return "<dsl-interpreter-name>drc" in text or "<category>drc</category>" in text
    if _PYTHON_LINE.search(text):
        return False
    return sum(bool(m.search(text)) for m in _DECK_MARKERS) >= 2


def deck_text(text: str) -> str:
    """The DSL text of a deck (the ``<text>`` of a .lydrc XML macro). Raises ValueError on broken XML."""
    if not _XML_MACRO.match(text):
        return text
    try:
        root = ET.fromstring(text.strip().encode("utf-8"))
    except ET.ParseError as e:
        raise ValueError(f"the .lydrc file is not valid XML: {e}") from e
    body = root.find("text")
    return (body.text or "") if body is not None else ""


def to_lydrc(text: str, description: str = "pic-copilot DRC deck") -> str:
    """The deck in KLayout's .lydrc XML macro format (DSL interpreter drc-dsl-xml)."""
    if _XML_MACRO.match(text):
        return text
    desc = " ".join(description.split())[:200]
    return ('<?xml version="1.0" encoding="utf-8"?>\n<klayout-macro>\n'
            f" <description>{escape(desc)}</description>\n <version/>\n <category>drc</category>\n"
            " <prolog/>\n <epilog/>\n <doc/>\n <autorun>false</autorun>\n <autorun-early>false</autorun-early>\n"
            " <shortcut/>\n <show-in-menu>true</show-in-menu>\n <group-name>drc_scripts</group-name>\n"
            " <menu-path>tools_menu.drc.end</menu-path>\n <interpreter>dsl</interpreter>\n"
            " <dsl-interpreter-name>drc-dsl-xml</dsl-interpreter-name>\n"
            f" <text>{escape(text)}</text>\n</klayout-macro>\n")


def summarize_rdb(path: str) -> dict:
    """Categories and item counts of a report database (the engine's sandbox.summary shape)."""
    root = ET.parse(path).getroot()
    cats: list[str] = []

    def walk(el, prefix=""):
        for c in el.findall("category"):
            full = f"{prefix}.{(c.findtext('name') or '').strip()}" if prefix else (c.findtext("name") or "").strip()
            cats.append(full)
            sub = c.find("categories")
            if sub is not None:
                walk(sub, full)

    top = root.find("categories")
    if top is not None:
        walk(top)
    counts: dict[str, int] = {}
    n = 0
    items = root.find("items")
    for it in (items.findall("item") if items is not None else []):
        cat = (it.findtext("category") or "").strip().strip("'")
        counts[cat] = counts.get(cat, 0) + 1
        n += 1
    return {"categories": cats[:200], "items": n, "items_per_category": counts}


def drc_macro_dir() -> Path:
    """<KLayout home>/drc: the folder of the DRC macros the Macro IDE and Tools > DRC show."""
    from .paths import klayout_folder  # here, not at the top: tests/test_drc_deck.py runs this module's head alone

    return klayout_folder("drc")


def save_deck(deck: str, name: str, folder: str | Path | None = None, description: str = "") -> Path:
    """Save a deck as ``<folder or the DRC macro folder>/<name>.lydrc`` (never overwrites: _2, _3 ...)."""
    folder = Path(folder) if folder else drc_macro_dir()
    stem = re.sub(r"[^A-Za-z0-9_]+", "_", Path(name).stem).strip("_") or "deck"
    path, n = folder / f"{stem}.lydrc", 2
    while path.exists():
        path, n = folder / f"{stem}_{n}.lydrc", n + 1
    path.write_text(to_lydrc(deck_text(deck), description or "pic-copilot DRC deck"))
    return path


def error_of(exc: BaseException, text: str) -> dict:
    """KLayout's error text with the deck line it names: {"type", "message", "line", "traceback"}."""
    full = str(exc)
    first = full.split(" in Executable::execute")[0].split("\n  ")[0]
    first = _RUBY_OBJECT.sub(lambda m: {"DRC::DRCLayer": "a layer"}.get(m.group(1), m.group(1)), first)
    first = " ".join(first.replace(" in Macro.run", "").split())
    m = _AT_LINE.search(full)
    line = int(m.group(1)) if m else None
    src = text.splitlines()
    source = src[line - 1].strip() if line and 0 < line <= len(src) else ""
    where = f"line {line}" + (f" `{source}`" if source else "") + ": " if line else ""
    return {"type": "DRCError", "message": (where + first)[:1000], "line": line, "traceback": full[-3000:]}


def run_deck(session, deck: str, workdir: str | None = None, report: str = "drc_report.lyrdb",
             deck_file: str = "deck.lydrc") -> dict:
    """Run a DRC deck on the session's active cell with KLayout's DRC engine.

    Args:
        session: a bridge.Session (the GUI's current view, or a headless layout).
        deck: the deck (plain DSL text or a .lydrc XML macro).
        workdir: where the deck file, the layout copy and the report go (a temp folder when None).
        report: the report database's file name (``$report``).
        deck_file: the name the deck is saved under in ``workdir``.

    Returns:
        the bridge's result dict (ok, exception, changes, summary, ...) plus stdout (the report's
        counts), files (the report with its categories, the deck), deck {file, input, report,
        categories, items}, report_path, deck_path, report_shown (the GUI's marker browser has it).
    """
    from . import bridge

    workdir = workdir or tempfile.mkdtemp(prefix="pic-copilot-drc-")
    os.makedirs(workdir, exist_ok=True)
    base = {"stdout": "", "stderr": "", "workdir": workdir, "files": [], "report_shown": False}
    try:
        text = deck_text(deck)
    except ValueError as e:
        return {**base, "ok": False, "changes": {}, "summary": bridge.layout_summary(session),
                "exception": {"type": "DRCError", "message": str(e), "traceback": ""}}
    deck_path = os.path.join(workdir, os.path.basename(deck_file))
    Path(deck_path).write_text(to_lydrc(text) if deck_path.endswith(".lydrc") else text)
    report_path = os.path.join(workdir, os.path.basename(report))
    input_path = os.path.join(workdir, INPUT_COPY)
    for p in (report_path, input_path):
        if os.path.exists(p):
            os.remove(p)
    cell = session.cell
    opts = pya.SaveLayoutOptions()
    opts.write_context_info = False
    opts.select_cell(cell.cell_index())   # the active cell and its sub-cells
    session.layout.write(input_path, opts)
    ruby = pya.Interpreter.ruby_interpreter()
    ruby.define_variable("input", input_path)
    ruby.define_variable("report", report_path)
    failure: list = []

    def action():
        macro = pya.Macro()
        macro.interpreter = pya.Macro.DSLInterpreter
        macro.dsl_interpreter = "drc-dsl"
        macro.text = text
        try:
            macro.run()
        except Exception as e:  # noqa: BLE001 - the deck's error is the result, not a bridge failure
            failure.append(error_of(e, text))
            raise

    t0 = time.monotonic()
    result = bridge._run_guarded(session, "pic-copilot DRC deck", action)
    ruby.define_variable("input", None)
    ruby.define_variable("report", None)
    result.update(base)
    result["duration_s"] = round(time.monotonic() - t0, 4)
    if failure:
        result["exception"] = failure[0]
    info = {"file": os.path.basename(deck_path), "input": f"the open layout, cell {cell.name}",
            "report": os.path.basename(report_path)}
    files = [{"path": info["file"], "kind": "deck", "size": os.path.getsize(deck_path)}]
    if os.path.exists(report_path):
        try:
            s = summarize_rdb(report_path)
            info.update(categories={c: s["items_per_category"].get(c, 0) for c in s["categories"]}, items=s["items"])
            files.insert(0, {"path": info["report"], "kind": "rdb", "size": os.path.getsize(report_path), "summary": s})
            result["stdout"] = f"{info['report']}: {s['items']} marker(s)" + (
                ": " + ", ".join(f"{c} = {n}" for c, n in info["categories"].items()) if info["categories"] else "")
        except (ET.ParseError, OSError) as e:
            result["stderr"] = f"cannot read the report {report_path}: {e}"
    elif result.get("ok"):
        result["ok"] = False
        result["exception"] = {"type": "DRCError", "traceback": "", "line": None,
                               "message": "the deck ran but wrote no report database: start it with source($input) "
                                          "and report(\"<description>\", $report), then send every check to the "
                                          "report with .output(\"<rule name>\", \"<description>\")"}
    result["files"] = files
    result["deck"] = info
    result["deck_path"] = deck_path
    result["report_path"] = report_path if os.path.exists(report_path) else None
    result["report_shown"] = bool(session.view is not None and result["report_path"])
    return result
