"""Signature-bound calls: the numbers of a request bound to the real parameters of the component
or cross-section a script builds, by an LLM answer constrained to the installed signature.

A small model that builds the right device often leaves the designer's sizes at their defaults or
passes them to the wrong parameter (three of five numbers of an unseen request were replaced).
When the requested-values check finds numbers the script never uses and the script calls a
gdsfactory factory whose signature is in the symbol index, one short JSON call asks which
parameter gets which number, with a schema that admits only that function's numeric parameters;
the call in the script is then rewritten with those keywords (no new script is written).
"""
from __future__ import annotations

import ast

from .. import prompts
from . import retrieve
from ..llm.agent import Agent
from ..checks.static import _aliases, _dotted
import re

from .evaluator import _VALUE, decimals_at, numeric_literals, requested_values, uses_value
from .fixes.source import offset, parsed, replace_spans

#: factories whose numeric parameters are bound (module prefixes of the symbol index's names)
BINDABLE = ("gdsfactory.components.", "gdsfactory.cross_section.")
_NUMERIC = ("float", "int", "number")


#: words that make a number a placement, not a device parameter: "60 um pitch", "30 um apart",
#: "moved by 200 um", "a pitch of 127 um", "at x = 50 um"
_PLACEMENT_AFTER = re.compile(r"^\W{0,3}(?:\w+\W+){0,1}?(pitch|apart|spacing between|period between|offset|away|"
                              r"to the (?:right|left)|above|below|further)\b", re.IGNORECASE)
_MOVED_BEFORE = re.compile(r"\b(pitch|apart|spaced|moved?|shift(?:ed)?|offset|translated?|displaced?)\W+(?:\w+\W+){0,2}$",
                           re.IGNORECASE)
# "at x = 50 um", "positions 0, 20 um": a place, but "at least 0.2 um" and "at 1.55 um" (a wavelength) may be sizes
_AT_BEFORE = re.compile(r"\b(at(?!\W+(?:least|most)\b)|positions?|x\s*=|y\s*=)\W+(?:\w+\W+){0,2}$", re.IGNORECASE)


def _with_context(request: str):
    """Each requested length ("60 µm", 60.0) with the 30 characters after and before it."""
    for m, item in zip(_VALUE.finditer(request), requested_values(request)):   # the same matches, in order
        yield item, request[m.end():m.end() + 30], request[max(0, m.start() - 30):m.start()]


def device_values(request: str) -> list[tuple[str, float]]:
    """The request's lengths that may set a device's parameters: those that place things ("60 um
    pitch in x", "30 um apart", "moved by 200 um") are left out, so a binder cannot put a pitch
    into a ring's ``length_x`` (seen in a real run)."""
    return [item for item, after, before in _with_context(request)
            if not (_PLACEMENT_AFTER.search(after) or _MOVED_BEFORE.search(before) or _AT_BEFORE.search(before))]


def spacing_values(request: str) -> list[float]:
    """The request's lengths (um) that certainly space or move things ("60 um pitch", "30 um
    apart", "moved by 200 um"), not those only said to be "at" a place: a size never equals them
    by intent (see :func:`drop_invented_parameters`)."""
    return [value for (_, value), after, before in _with_context(request)
            if _PLACEMENT_AFTER.search(after) or _MOVED_BEFORE.search(before)]


_ANY_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def drop_invented_parameters(script: str, request: str, index) -> tuple[str, str | None]:
    """Keyword arguments of a gdsfactory component call set to a number the designer never wrote
    are removed, so the component keeps its real default: a small model copies a recipe's sizes
    (``mmi1x2(length_mmi=12, width_mmi=4)`` for "the generic PDK's 1x2 MMIs" in a real run, which
    moved the ports the request routes). A number counts as written in um, nm or mm, or halved;
    a length the request ties to placing things ("60 um pitch", "30 um apart") does not count for
    a component's size (a real run built ring_single(length_x=60, length_y=40) for an array at a
    60 x 40 um pitch); names bound once to a number are read through; computed values are kept.

    Returns the script and what was removed (None when nothing was).
    """
    if index is None:
        return script, None
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return script, None
    device = [v for _, v in device_values(request)]
    placing = [v for v in spacing_values(request) if v not in device]   # "60 um pitch": where, not how big
    given = [g for g in (float(x) for x in _ANY_NUMBER.findall(request)) if g not in placing]

    def written(v: float) -> bool:   # 0 is "none of it" ("a purely circular ring": length_x=0), never invented
        return v == 0 or any(abs(v - c) <= 1e-9 * max(1.0, abs(c)) for g in given for h in (g, g / 2) for c in (h, h * 1e3, h * 1e-3))

    consts: dict[str, list] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    consts.setdefault(t.id, []).append(node.value)

    def number(v: ast.AST) -> float | None:
        values = consts.get(v.id, []) if isinstance(v, ast.Name) else []
        if values and all(ast.dump(x) == ast.dump(values[0]) for x in values):   # once, or the same line repeated
            v = values[0]
        if isinstance(v, ast.Constant) and type(v.value) in (int, float):
            return float(v.value)
        return None

    edits, removed = [], []
    for call, name in factory_calls(script, index):
        if not name.startswith("gdsfactory.components."):
            continue
        keep = [k for k in call.keywords if k.arg is None or (v := number(k.value)) is None or written(v)]
        if len(keep) == len(call.keywords):
            continue
        removed += [f"{k.arg}={ast.unparse(k.value)}" for k in call.keywords if k not in keep]
        seg = ast.get_source_segment
        parts = [seg(script, a) for a in call.args] + [seg(script, k) for k in keep]
        edits.append((call, f"{seg(script, call.func)}({', '.join(parts)})"))
    if not edits:
        return script, None
    lines = script.splitlines(keepends=True)
    for call, text in sorted(edits, key=lambda e: (e[0].lineno, e[0].col_offset), reverse=True):
        start, end = offset(lines, call.lineno, call.col_offset), offset(lines, call.end_lineno, call.end_col_offset)
        script = script[:start] + text + script[end:]
        lines = script.splitlines(keepends=True)
    script = _drop_unused_constants(script, {k.split("=", 1)[1] for k in removed})
    return script, f"removed {', '.join(dict.fromkeys(removed))} (numbers the designer never gave; the component's defaults stay)"


def _drop_unused_constants(script: str, names: set[str]) -> str:
    """The module-level ``name = <number>`` lines of ``names`` that nothing reads any more (the
    unused-parameter hint would otherwise send the script back for them)."""
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return script
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    drop = {st.lineno for st in tree.body if isinstance(st, ast.Assign) and len(st.targets) == 1
            and isinstance(st.targets[0], ast.Name) and st.targets[0].id in names - read
            and isinstance(st.value, ast.Constant) and st.lineno == st.end_lineno}
    return "".join(l for i, l in enumerate(script.splitlines(keepends=True), 1) if i not in drop)


def new_agent() -> Agent:
    return Agent("binder", prompts.text("binder"))


def numeric_parameters(signature: str) -> list[tuple[str, str, str]]:
    """(name, annotation, default) of the numeric parameters in a signature string such as
    ``f(gap: float = 0.2, radius: float | None = None, bend: ComponentSpec = bend_euler)``."""
    head, _, rest = signature.partition("(")
    params = rest.rsplit(")", 1)[0] if ")" in rest else rest
    try:
        fn = ast.parse(f"def f({params}): pass").body[0]
    except SyntaxError:
        return []
    args = fn.args.args + fn.args.kwonlyargs
    defaults = [None] * (len(fn.args.args) - len(fn.args.defaults)) + list(fn.args.defaults) + list(fn.args.kw_defaults)
    out = []
    for a, d in zip(args, defaults):
        ann = ast.unparse(a.annotation) if a.annotation is not None else ""
        default = ast.unparse(d) if d is not None else ""
        is_num = any(t in ann for t in _NUMERIC) or (d is not None and isinstance(d, ast.Constant)
                                                        and isinstance(d.value, (int, float)) and not isinstance(d.value, bool))
        if is_num and "Function" not in ann:
            out.append((a.arg, ann, default))
    return out


def factory_calls(script: str, index) -> list[tuple[ast.Call, str]]:
    """The calls of a script to a bindable factory, with the factory's full name, in source order."""
    try:
        tree = ast.parse(script)
    except SyntaxError:
        return []
    aliases = _aliases(tree)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        parts = _dotted(node.func)
        if not parts:
            continue
        full = ".".join([aliases.get(parts[0], parts[0]), *parts[1:]])
        full = full.replace("gdsfactory.c.", "gdsfactory.components.")
        rec = index.lookup(full) if index is not None else None
        name = (rec.get("alias_of") or rec["name"]) if rec else None
        if name and name.startswith(BINDABLE) and rec.get("signature"):
            out.append((node, name))
    return sorted(out, key=lambda x: (x[0].lineno, x[0].col_offset))


def _describe(name: str, params: list[tuple[str, str, str]]) -> str:
    try:
        meta = (retrieve.retrieval.get_api_details(name, observed=False).get("metadata") or {})
    except Exception:  # noqa: BLE001 - descriptions are a help, not a need
        meta = {}
    desc = {p.get("name"): p.get("description", "") for p in meta.get("parameters") or [] if isinstance(p, dict)}
    return "\n".join(f"- {p} ({ann or 'number'}, default {default or 'none'}): {desc.get(p, '')[:160]}"
                     for p, ann, default in params)


def rewrite_call(script: str, call: ast.Call, values: dict[str, float]) -> str:
    """The script with ``call``'s keywords set to ``values`` (others and positional args kept)."""
    seg = ast.get_source_segment
    func = seg(script, call.func)
    args = [seg(script, a) for a in call.args]
    kws = []
    done = set()
    for k in call.keywords:
        if k.arg in values:
            kws.append(f"{k.arg}={values[k.arg]!r}")
            done.add(k.arg)
        else:
            kws.append(seg(script, k))
    kws += [f"{k}={v!r}" for k, v in values.items() if k not in done]
    new = f"{func}({', '.join([*args, *kws])})"
    lines = script.splitlines(keepends=True)
    return script[:offset(lines, call.lineno, call.col_offset)] + new + script[offset(lines, call.end_lineno, call.end_col_offset):]


def bind(agent: Agent, client, request: str, script: str, index, cancel=None) -> tuple[str, dict] | None:
    """Bind the request's numbers to the first factory call that has numeric parameters.

    Returns:
        (the rewritten script, {"function", "values"}), or None when nothing could be bound (no
        factory call, no numbers, an answer that binds none of the requested numbers).
    """
    wanted = device_values(request)
    if not wanted:
        return None
    numbers = sorted({round(v, 9) for _, v in wanted})
    for call, name in factory_calls(script, index):
        params = numeric_parameters(index.lookup(name)["signature"])
        if not params:
            continue
        names = [p for p, _, _ in params]
        schema = {"type": "object", "properties": {p: {"type": "number"} for p in names}}
        user = prompts.render("binder_user", request=request, numbers=", ".join(f"{n:g}" for n in numbers),
                              call=ast.get_source_segment(script, call), function=name,
                              parameters=_describe(name, params))
        ans = agent.ask_json(client, user, schema, cancel=cancel, with_memory=False, max_tokens=120)
        # only numbers the designer wrote (in um, or as given) may be bound
        ok = {p: float(v) for p, v in ans.items() if p in names and isinstance(v, (int, float))
              and not isinstance(v, bool) and any(abs(float(v) - n) <= 1e-9 * max(1.0, abs(n)) for n in numbers)}
        if not ok:
            return None
        values = {p: (int(v) if v.is_integer() and dict(zip(names, [a for _, a, _ in params]))[p].startswith("int") else v)
                  for p, v in ok.items()}
        return rewrite_call(script, call, values), {"function": name, "values": values}
    return None


#: words before a number that say nothing about what it is ("group index of 3.4", "a coupling is 0.5")
_FILLER = {"a", "an", "the", "of", "is", "are", "be", "to", "with", "and", "or", "at", "set", "use", "using",
           "its", "their", "each", "all", "both", "equal", "equals", "value", "values", "should", "must", "=", "~"}
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*|[=~]")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def quantity_words(request: str, start: int, reach: int = 3) -> list[str]:
    """What a number at ``start`` of ``request`` quantifies: up to ``reach`` words right before it
    in the same clause, fillers dropped ("Waveguides: effective index 2.34 and group index 3.4"
    gives ["effective", "index"] for 2.34 and ["group", "index"] for 3.4)."""
    clause = re.split(r"[,;:()\[\]]|\d|\band\b|\bor\b|\bwith\b", request[:start])[-1]
    words = [w.lower() for w in _WORD.findall(clause)][-reach:]
    return [w for w in words if w not in _FILLER]


def _name_words(name: str) -> set[str]:
    """The words of an identifier (``group_index``, ``groupIndex`` -> {group, index})."""
    return {w.lower() for w in re.split(r"[_\W]+", _CAMEL.sub("_", name)) if w}


def _parameter_docs(index, name: str) -> list[tuple[str, str]]:
    """(parameter, description) pairs the manual gives for the function ``name``."""
    try:
        meta = retrieve.retrieval.get_api_details(name, observed=False).get("metadata") or {}
    except Exception:  # noqa: BLE001 - a description is a help, not a need
        return []
    return [(str(p["name"]), str(p["description"])) for p in meta.get("parameters") or []
            if isinstance(p, dict) and p.get("name") and p.get("description")]


def documented_parameters(tree: ast.Module, index, most: int = 5) -> dict[str, list[str]]:
    """Parameter name -> the descriptions the manuals give it: of every documented function the
    script calls or names (``ng`` of ``sax.models.straight``: "The Group refractive index at the
    center wavelength"), and for a parameter name of the script's own functions, of up to ``most``
    functions of the tools it imports that take a parameter of that name (a hand-written
    ``def straight(wl, length, neff=2.34, ng=4.2)`` model means what sax's ``ng`` means)."""
    aliases = _aliases(tree)
    out: dict[str, list[str]] = {}
    seen = set()
    for node in ast.walk(tree):
        parts = _dotted(node) if isinstance(node, ast.Attribute) or isinstance(node, ast.Name) and node.id in aliases else None
        if not parts:
            continue
        rec = index.lookup(".".join([aliases.get(parts[0], parts[0]), *parts[1:]]))
        name = (rec.get("alias_of") or rec["name"]) if rec else None
        if name and name not in seen:
            seen.add(name)
            for param, desc in _parameter_docs(index, name):
                out.setdefault(param, []).append(desc)
    own = {a.arg for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.Lambda)) for a in ast.walk(f.args)
           if isinstance(a, ast.arg)} - set(out)
    tools = {full.split(".")[0] for full in aliases.values()}
    if own and tools:
        found = 0
        for name in index.names():
            if found >= most:
                break
            if name.split(".")[0] in tools and own & set(index.params(name) or []):
                found += 1
                for param, desc in _parameter_docs(index, name):
                    if param in own:
                        out.setdefault(param, []).append(desc)
    return out


def _names_meaning(words: list[str], tree: ast.Module, docs: dict[str, list[str]]) -> set[str]:
    """The lower-cased names in a script (variables, keywords, dict keys, parameters) that mean
    the quantity ``words`` says: a documented parameter whose description has every word, or an
    identifier made of those words."""
    if not words:
        return set()
    wanted = set(words)
    named = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    named |= {k.arg for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg}
    named |= {k.value for d in ast.walk(tree) if isinstance(d, ast.Dict) for k in d.keys
              if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    out = set()
    for name in named:
        described = any(wanted <= {w.lower() for w in _WORD.findall(d)} for d in docs.get(name, []))
        if described or _name_words(name) == wanted:
            out.add(name.lower())
    return out


def _number_sites(tree: ast.Module, names: set[str]) -> list[ast.Constant]:
    """The number literals a script gives the names ``names`` (lower-cased): ``ng=4.2``,
    ``NG = 4.2`` and ``NEFF, NG = 2.4, 4.2``, ``{"ng": 4.2}``, ``def f(ng=4.2)``, and through one
    variable (``ng=NG`` with ``NG = 4.2``)."""
    tied = set(names)
    for node in ast.walk(tree):   # ng=X, {"ng": X}: X means the same
        pairs = [(node.arg, node.value)] if isinstance(node, ast.keyword) and node.arg else []
        if isinstance(node, ast.Dict):
            pairs = [(k.value, v) for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        tied |= {v.id.lower() for k, v in pairs if k.lower() in names and isinstance(v, ast.Name)}

    def number(v: ast.AST) -> bool:
        return isinstance(v, ast.Constant) and type(v.value) in (int, float)

    sites = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg and node.arg.lower() in tied and number(node.value):
            sites.append(node.value)
        elif isinstance(node, ast.Dict):
            sites += [v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)
                      and isinstance(k.value, str) and k.value.lower() in tied and number(v)]
        elif isinstance(node, ast.arguments):
            args = node.posonlyargs + node.args
            pairs = list(zip(args[len(args) - len(node.defaults):], node.defaults)) + list(zip(node.kwonlyargs, node.kw_defaults))
            sites += [d for a, d in pairs if d is not None and a.arg.lower() in tied and number(d)]
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            t, v = node.targets[0], node.value
            pairs = [(t, v)] if isinstance(t, ast.Name) else (
                list(zip(t.elts, v.elts)) if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) and len(t.elts) == len(v.elts) else [])
            sites += [val for tgt, val in pairs if isinstance(tgt, ast.Name) and tgt.id.lower() in tied and number(val)]
    return sites


def bind_documented_decimals(script: str, request: str, index) -> tuple[str, str | None]:
    """A number with a fraction the designer gave for a named quantity ("group index 3.4") that the
    script never uses, written where the script sets that quantity to another number: a small model
    adapting a worked example keeps the example's values (a real m05 answer kept ``NG = 4.2`` under
    "group index 3.4" through a revision that was told so). The quantity is found by the words right
    before the number: a parameter of a function the script calls whose manual description has them
    all (``ng``: "The Group refractive index"), or a name made of them (``group_index``). Nothing
    changes when the script gives that quantity several different numbers, or one the request wrote.

    Returns the script and what was set (None when nothing was).
    """
    wanted = decimals_at(request)
    tree = parsed(script) if wanted else None
    if tree is None:
        return script, None
    numbers = numeric_literals([n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)])
    given = [float(x) for x in _ANY_NUMBER.findall(request)]
    docs = None
    spans, said = [], []
    for text, value, start in wanted:
        if uses_value(numbers, value):
            continue
        if docs is None:
            docs = documented_parameters(tree, index) if index is not None else {}
        words = quantity_words(request, start)
        names = _names_meaning(words, tree, docs)
        sites = _number_sites(tree, names) if names else []
        if not sites or len({float(s.value) for s in sites}) != 1 or uses_value(set(given), float(sites[0].value)):
            continue
        spans += [(s.lineno, s.col_offset, s.end_col_offset, text) for s in sites if s.lineno == s.end_lineno]
        said.append(f"{'/'.join(sorted(names))} = {text} (the designer's {' '.join(words)}; the script had {sites[0].value!r})")
    if not spans:
        return script, None
    return replace_spans(script, spans), "set " + ", ".join(said)
