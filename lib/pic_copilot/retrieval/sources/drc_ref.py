"""drc_ref database: the language of KLayout DRC decks, from the installed KLayout's own reference.

Runs ``klayout -b -r klayout_dump.py -rd what=drc``: the built-in help's DRC reference pages
(``/about/drc_ref_layer.xml``, ``_global``, ``_drc``, ``_source``, ``_netter``, linked from
``/about/drc_ref.xml``) and the DRC manual pages (``/manual/drc_basic.xml``, ``drc_runsets.xml``).
One entry per reference section (``<h2>``: one DSL method or global function, with its usage
lines, options and examples), one per manual section, one per DSL object (its introduction).

Ids: ``drc.Layer.width``, ``drc.global.source``, ``drc.DRC.space`` (universal DRC expressions),
``drc.Source.input``, ``drc.Netter.connect``; operators get names (``drc.Layer.op_and`` for ``&``);
manual sections ``drc.guide.drc_runsets#<section>``.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from ..clean import first_paragraph, html_to_text
from . import SourceResult
from .pya_help import guide_entries, installed_version, run_dump

#: page -> (object name in ids, what the object is, in designers' words)
OBJECTS = {
    "drc_ref_layer": ("Layer", "method of a DRC layer (input(...) result: polygons, edges or edge pairs) in a KLayout DRC deck"),
    "drc_ref_global": ("global", "global function of a KLayout DRC deck (input, source, report, checks in universal DRC)"),
    "drc_ref_drc": ("DRC", "universal DRC expression (layer.drc(width < 0.5.um) etc.) in a KLayout DRC deck"),
    "drc_ref_source": ("Source", "method of a DRC source (the layout a deck reads: source(...), layout(...))"),
    "drc_ref_netter": ("Netter", "connectivity (netter) function of a KLayout DRC deck (connect, antenna checks)"),
}
OPERATORS = {"&": "op_and", "|": "op_or", "-": "op_not", "^": "op_xor", "+": "op_join", "!": "op_not_logical",
             "==": "op_eq", "!=": "op_ne", "<": "op_lt", "<=": "op_le", ">": "op_gt", ">=": "op_ge", "%": "op_mod",
             "*": "op_mul", "/": "op_div"}
_SECTION = re.compile(r'<a name="([^"]+)"/><a name="h2-\d+"/><h2>(.*?)</h2>', re.S)


def _name_id(raw: str) -> str:
    return OPERATORS.get(raw, raw)


def _usages(frag: str) -> list[str]:
    m = re.search(r"<p>Usage:</p><ul>(.*?)</ul>", frag, re.S)
    if not m:
        return []
    return [" ".join(html_to_text(u).split()) for u in re.findall(r"<li>(.*?)</li>", m.group(1), re.S)]


def _options(frag: str) -> list[dict]:
    """The ``<li><b>name </b>: description</li>`` items of an Options list."""
    out, seen = [], set()
    m = re.search(r"<h3>\s*Options\s*</h3>(.*?)(?:<h3>|$)", frag, re.S)
    for name, desc in re.findall(r"<li><b>([^<]+?)\s*</b>\s*:(.*?)</li>", m.group(1) if m else "", re.S):
        name = " ".join(html.unescape(name).split())
        if name not in seen:
            seen.add(name)
            out.append({"name": name, "description": " ".join(html_to_text(desc).split())})
    return out


def parse_reference_page(page: str, xml: str, version: str) -> list[dict]:
    """Entries of one DRC reference page: the object (its introduction) and one per section."""
    stem = Path(page).stem
    obj, context = OBJECTS.get(stem, (stem.replace("drc_ref_", ""), "part of KLayout's DRC deck language"))
    src = f"KLayout {version} built-in help {page}"
    title_m = re.search(r"<title>(.*?)</title>", xml, re.S)
    title = html.unescape(title_m.group(1)).strip() if title_m else page
    body = xml.split("<body>", 1)[-1]
    found = list(_SECTION.finditer(body))
    intro = html_to_text(re.sub(r"<ul>(?:<li><a href=\"#h2-.*?</li>)+</ul>", "", body[: found[0].start()] if found else body))
    intro = re.sub(r"^(?:" + re.escape(title) + r"\s*)+", "", intro).strip()
    entries = []
    names = []
    for i, m in enumerate(found):
        raw = html.unescape(m.group(1))
        heading = " ".join(html_to_text(m.group(2)).split())
        frag = body[m.end(): found[i + 1].start() if i + 1 < len(found) else len(body)]
        usages = _usages(frag)
        text = html_to_text(frag).strip()
        brief = heading.split(" - ", 1)[1] if " - " in heading else heading
        name = _name_id(raw)
        names.append(raw)
        kind = "function" if obj == "global" else "method"
        lead = first_paragraph(re.sub(r"^Usage:.*?(?=\n\n|$)", "", text, flags=re.S), 300)
        eid = f"drc.{obj}.{name}"
        content = f"DRC deck {kind} {raw} ({title})\n{heading}\n\n{text}"
        entries.append({
            "id": eid,
            "kind": kind,
            "content": content,
            "metadata": {
                "module": "drc", "class": f"drc.{obj}", "signature": usages[0] if usages else raw,
                "signatures": usages, "parameters": _options(frag), "source": src, "version": version,
                "doc": f"{brief}. {lead}",
                "help_names": [raw], "context": context, "language": "KLayout DRC deck (Ruby DSL)",
            },
        })
    entries.insert(0, {
        "id": f"drc.{obj}",
        "kind": "class",
        "content": f"{title}\n\n{intro}\n\nMembers: {', '.join(names)}",
        "metadata": {"module": "drc", "signature": f"drc.{obj}", "parameters": [], "source": src, "version": version,
                     "doc": first_paragraph(intro, 400), "members": names, "context": context},
    })
    return entries


def parse_manual_page(page: str, xml: str, version: str) -> list[dict]:
    """One entry per ``<h2>`` section of a DRC manual page (ids ``drc.guide.<page>#<section>``)."""
    return guide_entries(xml, page, version, "drc.guide", Path(page).stem,
                         lambda text, title: re.sub(r"^(?:" + re.escape(title) + r"\s*)+", "", text).strip())


def collect(workdir: Path) -> SourceResult:
    dump = run_dump(workdir, "drc")
    m = re.search(r"(\d+\.\d+(?:\.\d+)?)", dump.get("klayout_version", ""))
    version = m.group(1) if m else (installed_version() or "unknown")
    entries: list[dict] = []
    for page, xml in dump["pages"].items():
        if not xml:
            continue
        if page.startswith("/about/drc_ref_"):
            entries += parse_reference_page(page, xml, version)
        else:
            entries += parse_manual_page(page, xml, version)
    aliases = {}
    for e in entries:   # the Ruby spelling of operator methods finds them too: drc.Layer.& -> drc.Layer.op_and
        raw = (e["metadata"].get("help_names") or [""])[0]
        if raw and raw in OPERATORS:
            aliases[f"{e['metadata']['class']}.{raw}"] = e["id"]
        for usage in e["metadata"].get("signatures") or []:   # short forms: layer.enc(...) is enclosing
            um = re.match(r"(?:layer|source|netter|expression)?\.?(\w+[?!]?)\s*\(", usage)
            if um and um.group(1) != raw and e["kind"] != "class":
                aliases.setdefault(f"{e['metadata']['class']}.{um.group(1)}", e["id"])
    return SourceResult(tool="klayout", tool_version=version, entries=entries, aliases=aliases,
                        source=f"KLayout {version} application: DRC reference (/about/drc_ref_*.xml) and DRC manual "
                               "pages from pya.HelpSource (klayout -b)")
