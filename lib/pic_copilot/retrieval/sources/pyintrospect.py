"""Walk a Python package's public API: functions, classes, class members, with signatures
and docstrings (Google/NumPy ``Args:`` sections parsed into parameter descriptions)."""
from __future__ import annotations

import functools
import importlib
import inspect
import re
import types
import warnings

_SECTION = re.compile(r"^\s*(Args|Arguments|Parameters|Keyword Args|Keyword Arguments|Attributes)\s*:?\s*$")
_OTHER_SECTION = re.compile(r"^\s*(Returns?|Yields?|Raises|Examples?|Notes?|See Also|Warning|References|Todo)\s*:?\s*$")
_PARAM_LINE = re.compile(r"^\s*\*{0,2}(\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")


def parse_params_doc(doc: str) -> dict[str, str]:
    """Parameter descriptions from a Google-style (or NumPy-style) docstring."""
    out: dict[str, str] = {}
    lines = doc.splitlines()
    in_sec = False
    current = None
    base_indent = None
    for i, line in enumerate(lines):
        if _SECTION.match(line):
            in_sec, current, base_indent = True, None, None
            continue
        if _OTHER_SECTION.match(line) or (line.strip() and set(line.strip()) <= set("-=") and i > 0):
            if _OTHER_SECTION.match(line):
                in_sec = False
            continue
        if not in_sec:
            continue
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        m = _PARAM_LINE.match(line)
        if m and (base_indent is None or indent <= base_indent):
            base_indent = indent
            current = m.group(1)
            out[current] = m.group(3).strip()
        elif current and base_indent is not None and indent > base_indent:
            out[current] = (out[current] + " " + line.strip()).strip()
        elif base_indent is not None and indent < base_indent:
            in_sec = False
    return out


def _signature(obj) -> tuple[str, list[str]]:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "", []
    params = [p for p in sig.parameters if p not in ("self", "cls")]
    text = str(sig)
    text = re.sub(r"<function (\w+) at 0x[0-9a-f]+>", r"\1", text)
    text = re.sub(r"functools\.partial\(<function (\w+) at 0x[0-9a-f]+>", r"partial(\1", text)
    text = re.sub(r" at 0x[0-9a-f]+", "", text)
    text = text.replace("'", "")
    return text, params


def _defining_module(obj) -> str:
    if isinstance(obj, functools.partial):
        obj = obj.func
    return getattr(obj, "__module__", "") or ""


def describe(fqname: str, obj, kind: str, module: str, source: str, version: str, owner_prefixes: tuple[str, ...]) -> dict | None:
    """One entry for a callable/class/member, or None when it has nothing to say."""
    target = obj.func if isinstance(obj, functools.partial) else obj
    doc = inspect.getdoc(target) or ""
    if isinstance(obj, property):
        doc = inspect.getdoc(obj.fget) or doc if obj.fget else doc
        sig, params = "", []
    else:
        sig, params = _signature(obj)
    pdoc = parse_params_doc(doc)
    if kind == "class":
        init_doc = parse_params_doc(inspect.getdoc(getattr(obj, "__init__", None)) or "")
        pdoc = {**init_doc, **pdoc}
    if isinstance(obj, functools.partial):
        kw = ", ".join(f"{k}={v!r}" for k, v in obj.keywords.items())
        doc = f"Partial of {getattr(obj.func, '__module__', '')}.{getattr(obj.func, '__name__', '')} with {kw}.\n\n{doc}"
    parameters = [{"name": p, "description": pdoc.get(p, "")} for p in params]
    header = f"{fqname}{sig}" if sig else fqname
    content = f"{kind} {header}\n\n{doc}".strip()
    return {
        "id": fqname,
        "kind": kind,
        "content": content,
        "metadata": {
            "module": module,
            "signature": header,
            "parameters": parameters,
            "source": source,
            "version": version,
            "doc": doc,
        },
    }


def walk(
    modules: list[str],
    expand_classes: bool,
    owner_prefixes: tuple[str, ...],
    source: str,
    version: str,
    skip_names: set[str] | None = None,
    member_skip_owners: tuple[str, ...] = ("pydantic", "builtins", "typing", "abc", "enum"),
) -> tuple[list[dict], dict[str, str]]:
    """Entries for every public callable of ``modules`` (in priority order) and aliases.

    The first module that exposes an object gives its canonical id; later ones become
    aliases in the symbol index. Classes defined in the package get one entry per public
    method/property (members inherited from ``member_skip_owners`` are left out).
    """
    entries: list[dict] = []
    aliases: dict[str, str] = {}
    seen: dict[int, str] = {}
    skip_names = skip_names or set()
    warnings.simplefilter("ignore")
    for modname in modules:
        try:
            mod = importlib.import_module(modname)
        except Exception:
            continue
        names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
        for name in sorted(set(names)):
            if name.startswith("_") or name in skip_names:
                continue
            try:
                obj = getattr(mod, name)
            except Exception:
                continue
            if isinstance(obj, types.ModuleType):
                continue
            fq = f"{modname}.{name}"
            if not (callable(obj) or isinstance(obj, functools.partial)):
                continue
            if not _defining_module(obj).startswith(owner_prefixes):
                continue
            if id(obj) in seen:
                aliases[fq] = seen[id(obj)]
                continue
            seen[id(obj)] = fq
            kind = "class" if inspect.isclass(obj) else ("partial" if isinstance(obj, functools.partial) else "function")
            e = describe(fq, obj, kind, modname, source, version, owner_prefixes)
            if e is None:
                continue
            entries.append(e)
            if kind == "class" and expand_classes:
                members = []
                for mname in sorted(dir(obj)):
                    if mname.startswith("_"):
                        continue
                    try:
                        static = inspect.getattr_static(obj, mname)
                    except AttributeError:
                        continue
                    owner = next((k for k in obj.__mro__ if mname in k.__dict__), None)
                    if owner is None or (owner.__module__ or "").startswith(member_skip_owners) or not (owner.__module__ or "").startswith(owner_prefixes):
                        continue
                    if isinstance(static, (staticmethod, classmethod)):
                        fn, mkind = static.__func__, "method"
                    elif isinstance(static, property):
                        fn, mkind = static, "property"
                    elif inspect.isfunction(static):
                        fn, mkind = static, "method"
                    elif type(static).__name__ in ("cached_property",):
                        fn, mkind = static.func, "property"
                    else:
                        continue
                    if id(static) in seen:
                        aliases[f"{fq}.{mname}"] = seen[id(static)]
                        members.append(mname)
                        continue
                    seen[id(static)] = f"{fq}.{mname}"
                    me = describe(f"{fq}.{mname}", fn if mkind == "method" else static if isinstance(static, property) else fn, mkind, modname, source, version, owner_prefixes)
                    if me:
                        me["metadata"]["class"] = fq
                        cbrief = (inspect.getdoc(obj) or "").strip().split("\n\n")[0].replace("\n", " ")[:120]
                        if cbrief and not fq.startswith(("gdsfactory.Component.", "gdsfactory.ComponentReference.", "gdsfactory.Port.")):
                            me["metadata"]["context"] = f"method of {fq}: {cbrief}"
                        entries.append(me)
                        members.append(mname)
                e["metadata"]["members"] = members
                if members:
                    e["content"] += "\n\nMembers: " + ", ".join(members)
    return entries, aliases
