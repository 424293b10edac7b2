"""Evidence for a DRC deck: every rule the designer named must flag a shape built to break it and
must not flag one built to keep it.

A deck that runs and reports every requested category can still check the wrong thing (a wrong
value, the wrong layer, projection instead of Euclidean distance, unmerged shapes). The request's
words say what each rule means; for the common rule kinds (width, space, separation, enclosure,
overlap, area, hole area, notch, "A on top of B", "I not covered by O") this module

1. reads each named rule from the request (:func:`rules_of`: kind, layers, value),
2. draws a test layout with, per rule, structures that break it and structures that keep it, each
   in its own slot far from the others (:func:`test_layout`),
3. and, from the markers the deck reports on that layout (bounding boxes per category, read in the
   sandbox by :func:`pic_copilot.sandbox.summary.summarize_rdb`), says which rule missed a
   violation or flagged a shape that keeps it (:func:`problems`).

A rule whose words are not understood gets no test: this check can only reject a deck for what
the words say outright. Values: lengths in µm, areas in µm².
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..execution import drc_deck

#: a violating structure is built at VIOLATE x the rule's value, a keeping one at KEEP x
VIOLATE, KEEP = 0.85, 1.15
#: the same for areas (µm²)
AREA_VIOLATE, AREA_KEEP = 0.8, 1.2
#: problems sent back at most (the first ones, in rule order)
MAX_PROBLEMS = 4
_LAYER = re.compile(r"(?<![\d.])(\d{1,5})\s*/\s*(\d{1,5})(?![\d.]*\s*(?:µm|um|nm))")
_NUMBER = r"(\d+(?:\.\d+)?|\.\d+)"
_LENGTH = re.compile(_NUMBER + r"\s*(µm|um|micron|microns|nm)(?![²2\^])", re.IGNORECASE)
_AREA = re.compile(_NUMBER + r"\s*(?:µm²|um²|µm2|um2|µm\^2|um\^2|square microns?|sq\.? ?um)", re.IGNORECASE)
_LOWER_BOUND = re.compile(r"\bat least\b|\bminimum\b|\bmin\.?\b|>=|≥|\b(?:no|not(?: be)?)\s+(?:less|smaller|narrower|closer|nearer)\s+than\b",
                          re.IGNORECASE)
_UPPER_BOUND = re.compile(r"\bat most\b|\bmaximum\b|\bno more than\b|<=|≤|\bnot (?:be )?(?:more|larger|wider|greater) than\b",
                          re.IGNORECASE)
_STOP = {"and", "the", "a", "an", "our", "its", "their", "of", "on", "in", "for", "with", "by", "every", "each",
         "all", "any", "layer", "layers", "is", "are", "at", "to", "from", "while", "we", "my", "have", "has"}
_PROJECTION = re.compile(r"\bprojection\b|\bprojected\b|\bfacing edges only\b", re.IGNORECASE)
_MERGED = re.compile(r"\btouching\b|\bcount(?:s|ed)? as one\b|\bmerged?\b|\btogether\b", re.IGNORECASE)


@dataclass(frozen=True)
class Rule:
    """One named rule as the request's words state it.

    Args:
        name: the report category the designer named (``HTR.W``).
        kind: width, space, separation, enclosure, overlap, area, hole, notch, and, not.
        layers: the layers it reads, in the order the kind needs (separation: from, to;
            enclosure: outer, inner; not: the layer, then the covering layers).
        value: the bound in µm (µm² for area and hole), None for and/not.
        euclidean: distances are measured in every direction, corner to corner too (the geometric
            distance, and KLayout's default metric); False only when the words ask for projection.
        merged: the words say touching shapes count as one.
        words: the rule's text.
    """

    name: str
    kind: str
    layers: tuple[tuple[int, int], ...]
    value: float | None
    euclidean: bool = True
    merged: bool = False
    words: str = ""


@dataclass
class Slot:
    """A test structure: where it is, whether the rule must flag it, and what it is in words."""

    rule: str
    box: tuple[float, float, float, float]      # the slot's area (l, b, r, t) in µm
    violates: bool
    what: str
    shapes: list = field(default_factory=list)   # (layer, (l, b, r, t)) boxes, or (layer, "polygon", points)


# ------------------------------------------------------------------------------------------- words
def _stem(word: str) -> str:
    """A word lower-cased with its plural ending removed (vias -> via, boxes -> box)."""
    w = re.sub(r"[^a-z0-9]", "", word.lower())
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "xes", "sses")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def _words(text: str) -> list[str]:
    return [_stem(w) for w in re.findall(r"[A-Za-zµ][\w-]*", text)]


def layer_names(prompt: str) -> list[tuple[tuple[str, ...], tuple[int, int]]]:
    """The layers a request defines, each with the words that name it ("TiN heaters on 11/0" ->
    (("tin", "heater"), (11, 0))), in order of appearance; a layer given twice keeps its first name."""
    out: list[tuple[tuple[str, ...], tuple[int, int]]] = []
    seen: set[tuple[int, int]] = set()
    for m in _LAYER.finditer(prompt):
        layer = (int(m.group(1)), int(m.group(2)))
        before = prompt[max(0, m.start() - 80):m.start()]
        before = re.sub(r"\(?\s*(?:on|in)?\s*(?:the\s+)?(?:layer|datatype)?\s*$", "", before, flags=re.IGNORECASE)
        before = re.split(r"[,;:.()\n]|\band\b|\bon\b|\bin\b", before)[-1] if before.strip() else ""
        name = tuple(w for w in _words(before) if w not in _STOP)[-3:]
        after = re.match(r"\s*\(([^()]{1,40})\)", prompt[m.end():])   # "1/0 (waveguide core)"
        if after and not re.search(r"\d", after.group(1)):
            name = tuple(w for w in _words(after.group(1)) if w not in _STOP)[-3:] or name
        if layer in seen:
            continue
        seen.add(layer)
        out.append((name, layer))
    return out


def _rule_texts(prompt: str) -> list[tuple[str, str]]:
    names = drc_deck.requested_rule_names(prompt)
    starts = []
    for n in names:
        m = re.search(r"(?<![\w./])" + re.escape(n) + r"(?![\w/])", prompt)
        if m:
            starts.append((m.start(), m.end(), n))
    starts.sort()
    out = []
    for i, (_, end, n) in enumerate(starts):
        stop = starts[i + 1][0] if i + 1 < len(starts) else len(prompt)
        text = prompt[end:stop].split("\n")[0]
        text = re.split(r"(?<!\d)\.(?:\s|$)", text)[0]
        text = re.sub(r"\s*\b(?:and\s+)?(?:rule|the rule|check)\s*$", "", text.strip(" :-—–,"), flags=re.IGNORECASE)
        text = re.sub(r"^(?:says|means|is|:|-|—)\s*", "", text.strip(), flags=re.IGNORECASE)
        out.append((n, text.strip()))
    return out


def _layers_in(text: str, defined) -> list[tuple[int, int]]:
    """The defined layers the rule's text mentions, in the order it mentions them (a head noun two
    layers share, "metals", names both unless a qualifier picks one)."""
    given = [(int(m.group(1)), int(m.group(2))) for m in _LAYER.finditer(text)]
    if given:
        return list(dict.fromkeys(given))
    words = _words(text)
    hits: list[tuple[int, int, tuple[int, int]]] = []   # (position, -score, layer)
    by_head: dict[str, list] = {}
    for name, layer in defined:
        if name:
            by_head.setdefault(name[-1], []).append((name, layer))
    for i, w in enumerate(words):
        group = by_head.get(w)
        if not group:
            continue
        scored = []
        for name, layer in group:
            quals = set(name[:-1])
            score = sum(1 for q in words[max(0, i - 3):i] if q in quals)
            scored.append((score, layer))
        top = max(s for s, _ in scored)
        picked = [layer for s, layer in scored if s == top]
        hits.extend((i, -top, layer) for layer in picked)
    return list(dict.fromkeys(layer for _, _, layer in sorted(hits)))


def _kind(text: str, n_layers: int) -> str | None:
    t = text.lower()
    if re.search(r"\bholes?\b", t):
        return "hole"
    if re.search(r"\bslots?\b|\bnotch", t):
        return "notch"
    if re.search(r"\benclos", t) or (re.search(r"\boverlap|\bextends?\b|\bsurround", t)
                                      and re.search(r"\b(?:all|every|each|four)\s+sides?\b|\ball around\b", t)):
        return "enclosure"
    if _AREA.search(text) and re.search(r"\barea\b|\bcovers?\b", t):
        return "area"
    if re.search(r"\boverlap\w*\b[^.]{0,40}\bby\b", t) and _LENGTH.search(text):
        return "overlap"
    if re.search(r"\bwide\b|\bwidth\b|\bnarrow", t) and _LENGTH.search(text):
        return "width"
    if re.search(r"\bapart\b|\baway\b|\bspac\w*|\bdistance\b|\bclearance\b|\bseparat\w*|\bgap\b|\bcloser\b|\bnearer\b", t) and _LENGTH.search(text):
        return "separation" if n_layers >= 2 else "space"
    if re.search(r"\bnot covered\b|\buncovered\b|\boutside\b", t) and n_layers >= 2:
        return "not"
    if re.search(r"\bon top of\b|\boverlap|\blies? (?:on|over)\b|\bintersect", t) and n_layers == 2:
        return "and"
    return None


def rules_of(prompt: str) -> list[Rule]:
    """The named rules of a deck request whose meaning the words state outright (see module doc)."""
    defined = layer_names(prompt)
    only = [defined[0][1]] if len({layer for _, layer in defined}) == 1 else None
    out = []
    for name, text in _rule_texts(prompt):
        if not text or _UPPER_BOUND.search(text):
            continue
        layers = _layers_in(text, defined) or (only or [])
        kind = _kind(text, len(layers))
        if kind is None:
            continue
        value = None
        if kind in ("area", "hole"):
            m = _AREA.search(text)
            value = float(m.group(1)) if m else None
        elif kind not in ("and", "not"):
            m = _LENGTH.search(text)
            if m:
                value = float(m.group(1)) * (1e-3 if m.group(2).lower() == "nm" else 1.0)
            if not _LOWER_BOUND.search(text):
                continue
        if kind not in ("and", "not") and not value:
            continue
        need = {"separation": 2, "enclosure": 2, "overlap": 2, "and": 2, "not": 2}.get(kind, 1)
        if len(layers) < need or (need == 1 and len(layers) != 1 and kind != "width"):
            if not (need == 1 and only):
                continue
            layers = only
        if kind == "enclosure":
            # "M encloses V" names the outer layer first; "V is enclosed by M" the inner one
            passive = re.search(r"\benclosed\b|\bis\s+(?:overlapped|surrounded)\b|\bsurrounded by\b|\boverlapped by\b",
                                text, re.IGNORECASE)
            layers = layers[1::-1] if passive else layers[:2]
        elif kind in ("separation", "overlap", "and"):
            layers = layers[:2]
        elif kind in ("width", "space", "area", "hole", "notch"):
            layers = layers[:1]
        out.append(Rule(name, kind, tuple(layers), value, euclidean=not _PROJECTION.search(text),
                        merged=bool(_MERGED.search(text)), words=text))
    return out


# ------------------------------------------------------------------------------------------- layout
def _r(x: float) -> float:
    return round(x, 3)


def _structures(rule: Rule) -> list[tuple[bool, str, list]]:
    """(violates, what, shapes) of a rule's test structures, each drawn at the origin."""
    s = rule.value or 1.0
    a = rule.layers[0]
    b = rule.layers[1] if len(rule.layers) > 1 else None
    L = max(5.0, 10 * s)
    W = max(1.0, 2 * s)
    ly = f"{a[0]}/{a[1]}"
    out: list[tuple[bool, str, list]] = []
    if rule.kind == "width":
        for f in (VIOLATE, KEEP):
            out.append((f < 1, f"a {_r(f * s)} µm wide shape on {ly}", [(a, (0, 0, _r(f * s), L))]))
    elif rule.kind in ("space", "separation"):
        other = b if rule.kind == "separation" else a
        lo = f"{other[0]}/{other[1]}"
        for f in (VIOLATE, KEEP):
            g = _r(f * s)
            out.append((f < 1, f"a shape on {ly} {g} µm from a shape on {lo} (facing edges)",
                        [(a, (0, 0, W, L)), (other, (W + g, 0, 2 * W + g, L))]))
        if rule.euclidean:
            d = _r(VIOLATE * s / math.sqrt(2))
            out.append((True, f"a shape on {ly} whose corner is {_r(VIOLATE * s)} µm from the corner of a shape on {lo} "
                              f"(diagonal, corner to corner)", [(a, (0, 0, W, W)), (other, (W + d, W + d, 2 * W + d, 2 * W + d))]))
    elif rule.kind == "enclosure":
        outer, inner = a, b
        lo, li = f"{outer[0]}/{outer[1]}", f"{inner[0]}/{inner[1]}"
        S = W
        for f in (VIOLATE, KEEP):
            m, k = _r(f * s), _r(KEEP * s)
            out.append((f < 1, f"a {S} µm shape on {li} inside a shape on {lo} with a {m} µm margin on one side "
                               f"({k} µm on the others)", [(outer, (-m, -k, S + k, S + k)), (inner, (0, 0, S, S))]))
        if rule.euclidean:
            # an L-shaped outer shape whose inner corner is VIOLATE * s from the inner shape's corner,
            # diagonally: edge-to-edge projections see margins >= KEEP * s only
            d, k = _r(VIOLATE * s / math.sqrt(2)), _r(KEEP * s)
            big = _r(S + 2 * k + 2 * W)
            pts = [(-k, -k), (-k, _r(S + big)), (_r(S + d), _r(S + big)), (_r(S + d), _r(S + d)),
                   (_r(S + big), _r(S + d)), (_r(S + big), -k)]
            out.append((True, f"a {S} µm shape on {li} whose corner is {_r(VIOLATE * s)} µm (diagonally) from an "
                              f"inner corner of an L-shaped shape on {lo} around it (margins {k} µm or more along "
                              f"the edges)", [(outer, "polygon", pts, None), (inner, (0, 0, S, S))]))
    elif rule.kind == "overlap":
        lb = f"{b[0]}/{b[1]}"
        H = max(4.0, 4 * s)
        for f in (VIOLATE, KEEP):
            o = _r(f * s)
            out.append((f < 1, f"a shape on {ly} overlapping a shape on {lb} by {o} µm",
                        [(b, (0, 0, H, H)), (a, (H - o, -1.0, 2 * H - o, H + 1.0))]))
    elif rule.kind == "area":
        for f in (AREA_VIOLATE, AREA_KEEP):
            side = _r(math.sqrt(f * s))
            out.append((f < 1, f"a {side} x {side} µm shape ({_r(side * side)} µm²) on {ly}", [(a, (0, 0, side, side))]))
        # long and thin: a small area with a long perimeter (area, not perimeter or width, decides)
        w = _r(math.sqrt(AREA_VIOLATE * s / 10))
        out.append((True, f"a {w} x {_r(10 * w)} µm shape ({_r(10 * w * w)} µm²) on {ly}", [(a, (0, 0, w, _r(10 * w)))]))
        if rule.merged:
            w = _r(math.sqrt(0.6 * s))
            out.append((False, f"two touching {w} x {w} µm shapes on {ly} ({_r(2 * w * w)} µm² together; touching "
                               f"shapes count as one)", [(a, (0, 0, w, w)), (a, (w, 0, 2 * w, w))]))
    elif rule.kind == "hole":
        for f in (AREA_VIOLATE, AREA_KEEP):
            h = _r(math.sqrt(f * s))
            O = _r(h + 2 * W)
            out.append((f < 1, f"a shape on {ly} with a {h} x {h} µm hole ({_r(h * h)} µm²)",
                        [(a, "polygon", [(0, 0), (0, O), (O, O), (O, 0)], [(W, W), (W, W + h), (W + h, W + h), (W + h, W)])]))
    elif rule.kind == "notch":
        for f in (VIOLATE, KEEP):
            g = _r(f * s)
            arm = max(1.0, 2 * s)
            Wd, H = _r(2 * arm + g), max(4.0, 6 * s)
            pts = [(0, 0), (0, H), (arm, H), (arm, H / 2), (_r(arm + g), H / 2), (_r(arm + g), H), (Wd, H), (Wd, 0)]
            out.append((f < 1, f"one shape on {ly} with a {g} µm wide slot cut into it", [(a, "polygon", pts, None)]))
    elif rule.kind == "and":
        lb = f"{b[0]}/{b[1]}"
        out.append((True, f"a shape on {ly} overlapping a shape on {lb}", [(a, (0, 0, 2, 2)), (b, (1, 1, 3, 3))]))
        out.append((False, f"a shape on {ly} 2 µm away from a shape on {lb}", [(a, (0, 0, 2, 2)), (b, (4, 0, 6, 2))]))
    elif rule.kind == "not":
        covers = rule.layers[1:]
        names = " and ".join(f"{c[0]}/{c[1]}" for c in covers)
        out.append((True, f"a shape on {ly} partly outside the shapes on {names}",
                    [(a, (0, 0, 2, 2))] + [(c, (1, -1, 4, 3)) for c in covers]))
        out.append((False, f"a shape on {ly} fully covered by shapes on {names}",
                    [(a, (0, 0, 2, 2))] + [(c, (-1, -1, 3, 3)) for c in covers]))
    return out


def test_slots(rules: list[Rule]) -> list[Slot]:
    """Every rule's test structures, each placed in its own square slot; slots are far enough apart
    that no rule's distance reaches from one to the next."""
    biggest = max([math.sqrt(r.value) if r.kind in ("area", "hole") else (r.value or 1.0) for r in rules] or [1.0])
    pitch = _r(max(40.0, 30 * biggest))
    slots = []
    for i, rule in enumerate(rules):
        for j, (violates, what, shapes) in enumerate(_structures(rule)):
            ox, oy = _r(j * pitch), _r(i * pitch)
            moved = []
            for sh in shapes:
                if sh[1] == "polygon":
                    moved.append((sh[0], "polygon", [(_r(x + ox + pitch / 4), _r(y + oy + pitch / 4)) for x, y in sh[2]],
                                  [(_r(x + ox + pitch / 4), _r(y + oy + pitch / 4)) for x, y in sh[3]] if sh[3] else None))
                else:
                    l, b, r_, t = sh[1]
                    q = pitch / 4
                    moved.append((sh[0], (_r(l + ox + q), _r(b + oy + q), _r(r_ + ox + q), _r(t + oy + q))))
            slots.append(Slot(rule.name, (ox, oy, _r(ox + pitch), _r(oy + pitch)), violates, what, moved))
    return slots


def write_test_layout(slots: list[Slot], path: str) -> None:
    """Draw the slots' shapes into a GDS file (top cell TOP, dbu 0.001) with pip klayout."""
    import klayout.db as kdb

    ly = kdb.Layout()
    ly.dbu = 0.001
    top = ly.create_cell("TOP")
    for slot in slots:
        for sh in slot.shapes:
            li = ly.layer(*sh[0])
            if sh[1] == "polygon":
                poly = kdb.DPolygon([kdb.DPoint(x, y) for x, y in sh[2]])
                if sh[3]:
                    poly.insert_hole([kdb.DPoint(x, y) for x, y in sh[3]])
                top.shapes(li).insert(poly)
            else:
                top.shapes(li).insert(kdb.DBox(*sh[1]))
    opts = kdb.SaveLayoutOptions()
    opts.write_context_info = False
    ly.write(path, opts)


# ------------------------------------------------------------------------------------------- verdict
def problems(rules: list[Rule], slots: list[Slot], boxes: dict[str, list]) -> list[str]:
    """What each rule got wrong on the test layout: a violation it did not flag, or a shape that keeps
    it that it flagged.

    Args:
        rules: the request's rules.
        slots: their test structures (:func:`test_slots`).
        boxes: the markers of the deck's run on that layout, per category: [l, b, r, t] in µm.
    """
    by_rule = {r.name: r for r in rules}
    out = []
    for slot in slots:
        rule = by_rule[slot.rule]
        l, b, r_, t = slot.box
        inside = [bx for bx in boxes.get(slot.rule) or []
                  if l <= (bx[0] + bx[2]) / 2 <= r_ and b <= (bx[1] + bx[3]) / 2 <= t]
        bound = _bound(rule)
        if slot.violates and not inside:
            out.append(f"{rule.name} did not flag {slot.what}, which breaks it ({bound})")
        elif not slot.violates and inside:
            out.append(f"{rule.name} flagged {slot.what}, which keeps it ({bound})")
    return out


def _bound(rule: Rule) -> str:
    if rule.kind in ("and", "not"):
        return f"the rule: {rule.words}"
    unit = "µm²" if rule.kind in ("area", "hole") else "µm"
    return f"the rule: {rule.words}; at least {rule.value:g} {unit}"


def self_test(deck: str, prompt: str, workdir: str | None = None, sandbox=None) -> list[str]:
    """Run ``deck`` on a test layout built from the request's rules and return what it got wrong
    ([] when every rule it could test behaved, or when no rule's words were understood).

    Args:
        deck: the deck text.
        prompt: the designer's request (the rules and their layers).
        workdir: where to build the test layout (a temporary folder when None).
        sandbox: the sandbox to run the deck in (the default one when None).
    """
    import tempfile
    from pathlib import Path

    rules = rules_of(prompt)
    if not rules:
        return []
    slots = test_slots(rules)
    with tempfile.TemporaryDirectory(prefix="deck-selftest-") as tmp:
        gds = str(Path(workdir or tmp) / "rule_test.gds")
        write_test_layout(slots, gds)
        rep = drc_deck.run_deck_in_sandbox(deck, inputs={"rule_test.gds": Path(gds).read_bytes()}, input_file="rule_test.gds",
                                           expected_files=("selftest.lyrdb",), sandbox=sandbox)
    if not rep.ok:
        return []   # the deck's own run already says why it fails
    rdb = rep.file("selftest.lyrdb") or {}
    boxes = (rdb.get("summary") or {}).get("boxes_per_category")
    if boxes is None:
        return []
    return problems(rules, slots, boxes)


# ------------------------------------------------------------------------------------------- writing
def _layer_var(layer: tuple[int, int]) -> str:
    return f"l{layer[0]}_{layer[1]}"


#: rule kind -> the DRC language's distance check that finds what breaks it
_DISTANCE_CHECKS = {"width": "width", "space": "space", "notch": "notch", "separation": "separation",
                    "enclosure": "enclosing", "overlap": "overlap"}
_TWO_LAYER = {"separation", "enclosure", "overlap"}


def _check_expression(rule: Rule) -> str | None:
    """The DRC-language expression that finds what breaks ``rule`` (None for a kind it cannot write)."""
    v = {layer: _layer_var(layer) for layer in rule.layers}
    a = v[rule.layers[0]]
    b = v[rule.layers[1]] if len(rule.layers) > 1 else None
    metric = "" if rule.euclidean else ", projection"
    x = f"{rule.value:g}" if rule.value is not None else ""
    area = repr(float(rule.value)) if rule.value is not None else ""   # an integer area would be dbu²
    if rule.kind in _DISTANCE_CHECKS:
        other = f"{b}, " if b is not None and rule.kind in _TWO_LAYER else ""
        return f"{a}.{_DISTANCE_CHECKS[rule.kind]}({other}{x}.um{metric})"
    if rule.kind == "area":
        return f"{a}.merged.with_area(nil, {area})" if rule.merged else f"{a}.with_area(nil, {area})"
    if rule.kind == "hole":
        return f"{a}.merged.holes.with_area(nil, {area})"
    if rule.kind == "and":
        return f"({a} & {b})"
    if rule.kind == "not":
        covers = [v[c] for c in rule.layers[1:]]
        either = re.search(r"\beither\b|\bone of\b", rule.words, re.IGNORECASE) and \
            not re.search(r"\bboth\b|\ball\b", rule.words, re.IGNORECASE)
        joined = (" | " if either else " & ").join(covers)
        return f"({a} - ({joined}))" if len(covers) > 1 else f"({a} - {covers[0]})"
    return None


def deck_from_rules(prompt: str) -> str | None:
    """A KLayout DRC deck written from the request's rules alone, when every rule name the designer
    gave was read (kind, layers, value: see :func:`rules_of`): one ``input`` per layer, one check per
    rule, each into its own category. None when any named rule is not understood (the LLM writes
    the deck then). Its run on the rule test layout is its evidence, like any candidate's."""
    names = drc_deck.requested_rule_names(prompt)
    rules = rules_of(prompt)
    if not names or sorted(r.name for r in rules) != sorted(names):
        return None
    lines = ["# rule deck written from the request's rules", "source($input)", 'report("design rules", $report)', ""]
    layers = list(dict.fromkeys(layer for r in rules for layer in r.layers))
    lines += [f"{_layer_var(layer)} = input({layer[0]}, {layer[1]})" for layer in layers] + [""]
    for r in rules:
        expr = _check_expression(r)
        if expr is None:
            return None
        words = r.words.replace("\\", "").replace('"', "'").replace("#{", "{")   # no Ruby interpolation
        lines.append(f'{expr}.output("{r.name}", "{r.name}: {words}")')
    return "\n".join(lines) + "\n"
