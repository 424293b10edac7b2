"""Task Planner: single-domain or composite, ordered and rewritten subtasks, routed to generators."""
from __future__ import annotations

import json
import re

from ..execution import drc_deck
from .. import prompts
from ..llm.agent import Agent

SCHEMA = {
    "type": "object",
    "required": ["subtasks"],
    "properties": {
        "thoughts": {"type": "string"},
        "subtasks": {
            "type": "array", "minItems": 1, "maxItems": 4,
            "items": {
                "type": "object",
                "required": ["domain", "task"],
                "properties": {
                    "domain": {"type": "string", "enum": list(prompts.DOMAINS)},
                    "task": {"type": "string"},
                    "outputs": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}


def new_agent() -> Agent:
    return Agent("planner", prompts.text("planner"), prompts.fewshot("planner"))


def _num(x) -> str:
    """A coordinate or size as a designer writes it: 124, 0.5 (no trailing zeros)."""
    return f"{float(x):g}" if isinstance(x, (int, float)) else str(x)


def context_text(layout_context: dict | None, max_layers: int = 20) -> str:
    """The open layout described in words for the planner's and the programmer's prompts.

    In words rather than as a JSON object: a 1.5B model shown the summary as an object pasted it
    into its script (``layout = {"file": "unsaved", ...}``) and computed from that copy instead of
    the open layout. The sentence names the globals that hold the real objects.

    Args:
        layout_context: the open layout's summary (the bridge's ``layout_summary``), or None.
        max_layers: layers listed at most; the rest are counted.
    """
    if not layout_context:
        return ""
    c = layout_context
    parts = [f"file {c.get('file') or 'unsaved'}"]
    if c.get("dbu") is not None:
        parts.append(f"database unit {_num(c['dbu'])} um")
    if c.get("active_cell"):
        parts.append(f"active cell {c['active_cell']} (the global `cell`)")
    tops = [t for t in c.get("top_cells") or [] if t != c.get("active_cell")]
    if tops:
        parts.append("other top cells " + ", ".join(tops[:10]) + (" ..." if len(tops) > 10 else ""))
    layers = c.get("layers") or []
    if layers:
        def one(l: dict) -> str:
            name = f' "{l["name"]}"' if l.get("name") else ""
            n = l.get("shapes")
            return f"{l.get('layer')}/{l.get('datatype')}{name}" + ("" if n is None else f" ({n} shape{'' if n == 1 else 's'})")
        listed = ", ".join(one(l) for l in layers[:max_layers])
        more = f" and {len(layers) - max_layers} more" if len(layers) > max_layers else ""
        parts.append(f"layers {listed}{more}")
    else:
        parts.append("no layers yet")
    box = c.get("bbox_um") or []
    if len(box) == 4:
        parts.append(f"the active cell spans ({_num(box[0])}, {_num(box[1])}) to ({_num(box[2])}, {_num(box[3])}) um")
    text = ("Open layout (already loaded as the global `layout`, a pya.Layout; read and edit that object, "
            "do not write these facts into the script): " + "; ".join(parts) + ".")
    selection = layout_context.get("selection") or []
    if selection:  # "make the selected waveguide wider" needs the shape itself (the script gets `selection` too)
        sel = json.dumps(selection[:5], separators=(",", ":"))
        text += "\nSelected (also in the script's `selection` list): " + (sel[:900] + "..." if len(sel) > 900 else sel)
    return text


_FILE = re.compile(r"[\w\-./]+\.(?:gds|oas|csv|json|txt|png|lyrdb|rdb|npz|npy|html|lydrc|drc)\b")
# "... of in.gds", "read design.gds", "convert chip.gds to ...": the file is read, not written
_READ_BEFORE = re.compile(r"(\bof|\bfrom|\bon|\bread\w*|\bload\w*|\bopen\w*|\bconvert\w*|\bimport\w*)"
                          r"\s+(?:the\s+)?(?:(?:gds|oasis|layout|file|csv|json)\s+)*$", re.IGNORECASE)


_PLACEHOLDER = re.compile(r"<")


def requested_files(prompt: str, inputs=()) -> list[str]:
    """File names written literally in the request (e.g. mmi.gds) that the script must write.

    Args:
        prompt: the request.
        inputs: names of files the run starts with (Request.inputs); they are read, not written.
    A name written right after "of", "from", "on", "read", "load", "open", "convert" or "import" is read
    too ("a width check on layer 1/0 of in.gds"), unless it is also written somewhere else in the
    request as a plain mention. A name in angle brackets ("-rd input=<layout.gds>") is a placeholder.
    """
    names: dict[str, bool] = {}
    for m in _FILE.finditer(prompt):
        if _PLACEHOLDER.match(prompt, max(0, m.start() - 1)) or prompt[m.end():m.end() + 1] == ">":
            continue   # "-rd input=<layout.gds>": a placeholder for a file named later, not a file to write
        read = bool(_READ_BEFORE.search(prompt[max(0, m.start() - 40):m.start()]))
        names[m.group(0)] = names.get(m.group(0), True) and read
    skip = {str(i).rsplit("/", 1)[-1] for i in inputs or ()}
    return sorted(n for n, read in names.items() if not read and n.rsplit("/", 1)[-1] not in skip)


_LAYOUT_FILE = re.compile(r"\.(gds|gds2|oas|gds\.gz)$", re.IGNORECASE)


def reads_layout_file(prompt: str, inputs=()) -> bool:
    """True if the request works on a layout file it is given: a GDS/OASIS file among the run's
    inputs, or one the words read ("of in.gds", "convert chip.gds to ...") and do not also ask the
    script to write ("write it to mmi.gds, then check ... of mmi.gds" reads the script's own file)."""
    if any(_LAYOUT_FILE.search(str(i)) for i in inputs or ()):
        return True
    written = set(requested_files(prompt, inputs))
    for m in _FILE.finditer(prompt):
        if (_LAYOUT_FILE.search(m.group(0)) and m.group(0) not in written
                and _READ_BEFORE.search(prompt[max(0, m.start() - 40):m.start()])):
            return True
    return False


_PLACE = re.compile(r"\b(place|insert|put|add|import|load|instantiate)\b", re.IGNORECASE)


def is_placement_step(subtask: dict, earlier_outputs: set[str]) -> bool:
    """A layout step whose only job is to place a file an earlier step writes into the open layout.

    pic-copilot inserts every GDS/OAS a gdsfactory script writes into the open layout by itself
    (interactive mode), so such a step would only make the programmer mix pya into the script.
    """
    text = subtask.get("task", "")
    files = set(requested_files(text))
    return (subtask.get("domain") == "layout" and bool(_PLACE.search(text)) and bool(files)
            and files <= earlier_outputs and not subtask.get("outputs"))


def normalise(plan: dict, prompt: str, mode: str = "sandbox", inputs=()) -> dict:
    """Clean a planner answer: drop empty and (interactive) placement-only steps, give each file the
    designer asked for to the step that mentions it, and never list an input file as an output
    (a small planner writes "outputs: in.gds" for "check in.gds", and the programmer then overwrites it).

    Args:
        plan: the planner's JSON.
        prompt: the designer's request.
        mode: "interactive" or "sandbox".
        inputs: names of the files the run starts with (Request.inputs).
    """
    wanted = requested_files(prompt, inputs)
    read = {n for n in _FILE.findall(prompt) if n not in wanted} | {str(i).rsplit("/", 1)[-1] for i in inputs or ()}
    subtasks = [s for s in plan.get("subtasks", []) if s.get("task", "").strip()]
    for i, s in enumerate(subtasks):
        # a data file is an output only if the designer named it or a later step reads it: a small
        # planner copies "write the count to widened.json" from an example into a plan that never
        # asked for a file. Layout files stay ("save it" names none; a new component must be written).
        later = " ".join(t.get("task", "") for t in subtasks[i + 1:])
        s["outputs"] = [o for o in s.get("outputs") or [] if o.rsplit("/", 1)[-1] not in read
                        and (o in wanted or o.rsplit("/", 1)[-1] in later or o.lower().endswith((".gds", ".oas")))]
    if mode == "interactive":
        kept, written = [], set()
        for s in subtasks:
            if not is_placement_step(s, written):
                kept.append(s)
            written.update(s.get("outputs") or [])
        subtasks = kept
    if not subtasks:
        subtasks = [{"domain": "layout", "task": prompt, "outputs": []}]
    if drc_deck.wants_deck(prompt):
        subtasks = deck_plan(subtasks, prompt)
    for s in subtasks:
        s.setdefault("outputs", [])
    # a file the designer named belongs to the step whose text mentions it (small models often
    # write "print the count to drc.json" and leave outputs empty, and then the programmer forgets it)
    for name in wanted:
        if not any(name in st["outputs"] for st in subtasks):
            owner = next((st for st in reversed(subtasks) if name in st.get("task", "")), None)
            if owner is not None:
                owner["outputs"].append(name)
    return {"thoughts": plan.get("thoughts", ""), "composite": len(subtasks) > 1, "subtasks": subtasks,
            "requested_files": wanted}


def deck_plan(subtasks: list[dict], prompt: str) -> list[dict]:
    """A request for a KLayout DRC deck is one ``drc_deck`` step: its result is the deck itself, which
    cannot be merged with Python steps. A small planner calls it "drc" (a Python check) or splits the
    rules into steps; the deck step keeps the planner's wording when it wrote one deck/drc step."""
    own = [s for s in subtasks if s.get("domain") in ("drc_deck", "drc")]
    task = own[0]["task"] if len(own) == 1 and len(subtasks) == 1 else prompt
    outputs = [o for s in subtasks for o in s.get("outputs") or [] if o.lower().endswith((".lydrc", ".drc", ".lyrdb"))]
    return [{"domain": "drc_deck", "task": task, "outputs": list(dict.fromkeys(outputs))}]


def plan(agent: Agent, client, prompt: str, mode: str, layout_context: dict | None, cancel=None,
         extra: str = "", inputs=()) -> dict:
    """Ask the planner; returns {"thoughts", "composite", "subtasks": [{domain, task, outputs}], "requested_files"}."""
    user = prompts.render("planner_user", mode=mode, context=context_text(layout_context),
                          prompt=prompt + (f"\n{extra}" if extra else ""))
    return normalise(agent.ask_json(client, user, SCHEMA, cancel=cancel, max_tokens=400), prompt, mode, inputs)


def single_plan(prompt: str, domain: str = "layout", inputs=()) -> dict:
    """A one-step plan without the planner (zero-shot and other baselines)."""
    return normalise({"subtasks": [{"domain": guess_domain(prompt) or domain, "task": prompt}]}, prompt, inputs=inputs)


def words_plan(prompt: str, mode: str = "sandbox", inputs=()) -> dict:
    """One step in the designer's own words, for every request (no LLM): a request that spans
    domains (:func:`is_composite`) keeps its ``domains``, layout first when it writes a layout file,
    so its generator gets the documentation and examples of each. The LLM planner's steps for such
    requests invented work nobody asked for (a width check in a01 and a05 of the advanced tier) and
    lost asked-for outputs (a04's labels, areas and table), and the programmer then had two
    conflicting task texts."""
    found = [d for d in signalled_domains(prompt) if d != "layout"]
    writes_layout = any(f.lower().endswith((".gds", ".oas")) for f in requested_files(prompt, inputs))
    domains = (["layout"] if writes_layout or not found else []) + found
    plan = normalise({"subtasks": [{"domain": domains[0], "task": prompt}]}, prompt, mode, inputs)
    if len(domains) > 1 and plan["subtasks"][0]["domain"] != "drc_deck":
        plan["domains"] = domains
    return plan


# words that put a request in a domain, in the order they win when a request names several
_DOMAIN_WORDS = (
    ("simulation", re.compile(r"\bsax\b|s-param|spectr|transmission|simulat|\bfsr\b|extinction|insertion loss",
                              re.IGNORECASE)),
    ("drc", re.compile(r"\bdrc\b|design[- ]rules?\b|min(imum)?[- ](width|spacing|space|enclosure|area|overlap)|"
                       r"(spacing|width|space|enclosure|density) (check|rule|violation)|\bviolations?\b|rule deck",
                       re.IGNORECASE)),
    ("data", re.compile(r"\bcsv\b|\.csv\b|statistic|\bcount\b.*\bshapes\b|shapes per layer|export .*table|\bplot\b|"
                        r"\btabulate|\bhistogram|\.png\b", re.IGNORECASE)),
)


def signalled_domains(prompt: str) -> list[str]:
    """The domains whose words a request uses ("layout" when it uses none), most specific first;
    a request for a DRC deck (KLayout's rule language) is the drc_deck domain alone."""
    if drc_deck.wants_deck(prompt):
        return ["drc_deck"]
    found = [d for d, words in _DOMAIN_WORDS if words.search(prompt)]
    return found or ["layout"]


def is_composite(prompt: str) -> bool:
    """A request that spans domains: it writes a layout file and also checks, simulates or
    tabulates (build a device, save its GDS and simulate it), or it both simulates and checks
    rules. Writing a table of what a simulation or a check found is one domain, not two."""
    if drc_deck.wants_deck(prompt):
        return False
    found = {d for d, words in _DOMAIN_WORDS if words.search(prompt)}
    writes_layout = any(f.lower().endswith((".gds", ".oas")) for f in requested_files(prompt))
    return bool(found and writes_layout) or {"simulation", "drc"} <= found


def guess_domain(prompt: str) -> str:
    """The domain of a one-step request (see :func:`signalled_domains`)."""
    return signalled_domains(prompt)[0]
