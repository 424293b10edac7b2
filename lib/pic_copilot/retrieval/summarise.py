"""Entry summaries: extractive (default, deterministic) or by the configured LLM."""
from __future__ import annotations

import re

from . import observations
from .clean import first_paragraph
from .errors import RetrievalError

MAX_PARAMS = 12

#: one line of context per namespace (longest prefix wins); it tells the index what the
#: namespace is for in designers' words, which the API docstrings often leave implicit
MODULE_CONTEXT = {
    "gdsfactory.routing": "gdsfactory routing: connect component ports with waveguide or electrical routes made of straights and bends",
    "gdsfactory.components": "gdsfactory component factory: returns a parametric cell (Component) with ports for a photonic device",
    "gdsfactory.cross_section": "gdsfactory cross-section: waveguide layer, width, cladding and bend radius specification",
    "gdsfactory.Component": "method of gdsfactory.Component, the layout cell with polygons, ports and references (instances)",
    "gdsfactory.ComponentReference": "method of a component reference (instance placed in a parent component: move, rotate, mirror, connect)",
    "gdsfactory.Port": "gdsfactory Port: named optical or electrical port with center, width, orientation and layer",
    "gdsfactory.path": "gdsfactory path: curves and extrusion of a cross-section along a path",
    "gdsfactory.pdk": "gdsfactory PDK access: active PDK, layers, cross-sections and cells",
    "gdsfactory.gpdk": "gdsfactory generic PDK (gpdk): layers, cross-sections, activation",
    "gdsfactory.samples": "gdsfactory example script",
    "gdsfactory.functions": "gdsfactory component transformation functions",
    "gdsfactory.add_pins": "gdsfactory: add pins/markers on ports",
    "gdsfactory.export": "gdsfactory export to files",
    "gdsfactory.read": "gdsfactory import/read layout files",
    "gdsfactory": "gdsfactory top-level API",
    "sax.models": "SAX S-parameter model of a photonic component (function of wavelength returning an SDict)",
    "sax": "SAX photonic circuit simulation (S-parameters)",
    "klayout.db": "pip klayout.db (0.30) API used in engine sandbox scripts",
    "klayout.guide": "KLayout programming guide (pya scripting)",
    "pya": "KLayout pya API",
    "drc.guide": "KLayout DRC deck manual (writing .lydrc rule decks)",
    "drc": "KLayout DRC deck language (Ruby DSL of .lydrc rule decks)",
}


def module_context(entry_id: str) -> str:
    best = ""
    for k in MODULE_CONTEXT:
        if (entry_id == k or entry_id.startswith(k + ".")) and len(k) > len(best):
            best = k
    return MODULE_CONTEXT.get(best, "")


def _short_sig(entry: dict) -> str:
    md = entry.get("metadata", {})
    names = [p["name"] for p in md.get("parameters", [])]
    if entry["kind"] in ("guide", "sample"):
        return entry["id"]
    if entry["kind"] in ("property", "attribute"):
        return entry["id"]
    return f"{entry['id']}({', '.join(names)})"


def extractive_summary(entry: dict) -> str:
    """Signature, first paragraph of the doc, parameter names and meanings."""
    md = entry.get("metadata", {})
    kind = entry["kind"]
    doc = md.get("doc") or ""
    if kind == "guide":
        return f"KLayout guide: {md.get('title', '')} - {md.get('section', '')}. {first_paragraph(doc, 400)}"
    if kind == "sample":
        calls = sorted(set(re.findall(r"\b(?:gf|gdsfactory)\.[\w.]+", entry["content"])))[:15]
        methods = sorted(set(re.findall(r"\.(\w+)\(", entry["content"])) - {"__init__"})[:15]
        head = first_paragraph(doc, 250) if doc else ""
        return f"gdsfactory example script {entry['id']}. {head} Uses: {', '.join(calls)}. Calls: {', '.join(methods)}."
    leaf = entry["id"].rsplit(".", 1)[-1]
    words = " ".join(w for w in re.split(r"[_.]|(?<=[a-z])(?=[A-Z])", leaf) if w)
    brief = first_paragraph(doc, 300)
    parts = [f"{words}: {brief}" if brief else words, f"{kind} {_short_sig(entry)}"]
    ctx = md.get("context") or (f"member of {md['class']}: {md['class_purpose']}" if md.get("class_purpose") and md.get("class") else "") or module_context(entry["id"])
    if ctx:
        parts.append(ctx)
    if md.get("difference"):
        parts.append(md["difference"])
    if md.get("deprecated"):
        parts.append("(deprecated)")
    params = md.get("parameters", [])[:MAX_PARAMS]
    pd = [f"{p['name']}: {first_paragraph(p['description'], 60)}" if p.get("description") and i < 6 else p["name"] for i, p in enumerate(params)]
    if pd:
        parts.append("Parameters: " + "; ".join(pd))
    if kind == "class" and md.get("most_used"):
        parts.append("Most used: " + ", ".join(md["most_used"]))
    if kind == "class" and md.get("members"):
        rest = [m for m in md["members"] if not m.startswith("_") and m not in md.get("most_used", ())]
        parts.append("Members: " + ", ".join(rest[:40]))
    obs = observed_sentence(entry)
    text = ". ".join(p.rstrip(". ") for p in parts) + "."
    if obs:  # kept within the length limit: the observed ports/rejections are what designers search by
        text = text[: 1200 - len(obs) - 1].rstrip() + " " + obs
    return text[:1200]


def observed_sentence(entry: dict) -> str:
    """'Observed: ports o1, o2, o3; returns Component; rejects ...' from ``pic-copilot explore`` (or '')."""
    return observations.summary_sentence(entry["id"], version=(entry.get("metadata") or {}).get("version"))


#: an LLM summary is followed by the extractive one: the LLM's words lead (the embedding reads the
#: first 256 tokens), the manual's own words and parameter names stay for BM25
APPEND_EXTRACTIVE = True


def llm_summary(entry: dict, text: str) -> str:
    """The index text of an entry with an LLM-written summary ``text``."""
    head = f"{_short_sig(entry)}: {text.strip()}"
    return f"{head}\n{extractive_summary(entry)}" if APPEND_EXTRACTIVE else head
