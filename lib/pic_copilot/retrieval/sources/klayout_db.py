"""klayout_db database: pip ``klayout.db`` (0.30.x, used by gdsfactory/kfactory in sandbox
scripts) where it differs from the KLayout application's ``pya`` (0.28.5).

Reads the type stubs shipped in the pip package (``klayout/dbcore.pyi``: signatures with
types and the GSI docstrings) and keeps: classes that the app does not have, members the
app does not have, and members whose parameters changed. The app's member list comes from
the same ``klayout -b`` introspection the pya source uses; without the app every member is
kept (marked "comparison unavailable").
"""
from __future__ import annotations

import ast
import json
import re
from importlib.metadata import version as dist_version
from pathlib import Path

from ..clean import klayout_doc_to_text
from ..errors import RetrievalError
from . import SourceResult
from .pya_help import run_dump

STUBS = ["dbcore.pyi"]


def installed_version() -> str:
    return dist_version("klayout")


def _param_names(doc: str) -> set[str]:
    return set(re.findall(r"@param (\w+)", doc))


def _fn_sig(fn: ast.FunctionDef) -> tuple[str, list[str]]:
    args = fn.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg not in ("self", "cls")]
    sig = f"({ast.unparse(args)})" + (f" -> {ast.unparse(fn.returns)}" if fn.returns else "")
    sig = sig.replace("self, ", "").replace("(self)", "()").replace("cls, ", "").replace("(cls)", "()")
    return sig, names


def parse_stub(text: str) -> dict[str, dict]:
    """class -> {"doc", "members": {name: [{"sig", "params", "doc", "kind"}]}} from a .pyi file."""
    tree = ast.parse(text)
    out: dict[str, dict] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        members: dict[str, list[dict]] = {}
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                if item.name.startswith("_") and item.name not in ("__init__",):
                    continue
                sig, params = _fn_sig(item)
                kind = "property" if any(isinstance(d, ast.Name) and d.id == "property" or isinstance(d, ast.Attribute) and d.attr == "setter" for d in item.decorator_list) else "method"
                members.setdefault(item.name, []).append({"sig": sig, "params": params, "doc": ast.get_docstring(item) or "", "kind": kind})
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and not item.target.id.startswith("_"):
                members.setdefault(item.target.id, []).append({"sig": ": " + ast.unparse(item.annotation), "params": [], "doc": "", "kind": "attribute"})
        # attribute docstrings follow as bare string expressions in the stubs
        for i, item in enumerate(node.body[:-1]):
            nxt = node.body[i + 1]
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and isinstance(nxt, ast.Expr) and isinstance(getattr(nxt, "value", None), ast.Constant) and isinstance(nxt.value.value, str):
                if item.target.id in members:
                    members[item.target.id][0]["doc"] = nxt.value.value
        out[node.name] = {"doc": ast.get_docstring(node) or "", "members": members}
    return out


def collect(workdir: Path) -> SourceResult:
    import klayout  # the pip package, in the engine's Python (never inside the app)

    version = installed_version()
    root = Path(klayout.__file__).parent
    app_intro: dict | None = None
    app_version = "unavailable"
    try:
        dump = run_dump(workdir, "intro")
        app_intro = dump["intro"]
        app_version = dump.get("klayout_version", "")
    except RetrievalError:
        app_intro = None
    entries: list[dict] = []
    for stub in STUBS:
        classes = parse_stub((root / stub).read_text())
        for cname, c in sorted(classes.items()):
            app_cls = app_intro.get(cname) if app_intro is not None else None
            new_class = app_intro is not None and app_cls is None
            kept = []
            for mname, ovs in sorted(c["members"].items()):
                why = None
                if app_intro is None:
                    why = "comparison with the KLayout application unavailable"
                elif new_class:
                    why = f"class {cname} is new in klayout {version} (not in the KLayout application)"
                elif mname not in app_cls["members"]:
                    why = f"new in klayout {version}: not available in the KLayout application's pya"
                else:
                    pip_params = set().union(*[_param_names(o["doc"]) for o in ovs]) or set().union(*[set(o["params"]) for o in ovs])
                    app_params = _param_names(app_cls["members"][mname])
                    added = pip_params - app_params
                    if app_params and added:
                        why = f"changed in klayout {version}: parameter(s) {', '.join(sorted(added))} not in the KLayout application's version"
                if not why:
                    continue
                kept.append(mname)
                fq = f"klayout.db.{cname}.{mname}"
                doc = klayout_doc_to_text("\n\n".join(o["doc"] for o in ovs if o["doc"]))
                params, seen = [], set()
                for o in ovs:
                    for p in o["params"]:
                        if p not in seen:
                            seen.add(p)
                            params.append({"name": p, "description": (re.search(rf"@param {p} ([^\n@]*)", o["doc"]) or [None, ""])[1].strip()})
                sigs = [f"{fq}{o['sig']}" for o in ovs]
                entries.append({
                    "id": fq,
                    "kind": ovs[0]["kind"],
                    "content": f"{ovs[0]['kind']} {fq} (pip klayout {version})\n" + "\n".join(sigs) + f"\n\nNote: {why}.\n\n{doc}",
                    "metadata": {"module": "klayout.db", "class": f"klayout.db.{cname}", "signature": sigs[0], "signatures": sigs, "parameters": params, "source": f"pip klayout {version} klayout/{stub}", "version": version, "doc": doc[:400], "difference": why, "context": f"method of klayout.db.{cname}: {klayout_doc_to_text(c['doc']).split(chr(10))[0][:120]}"},
                })
            if new_class or kept:
                cid = f"klayout.db.{cname}"
                cdoc = klayout_doc_to_text(c["doc"])
                status = "new class (not in the KLayout application)" if new_class else "members that differ from the KLayout application: " + ", ".join(kept)
                entries.append({
                    "id": cid,
                    "kind": "class",
                    "content": f"class {cid} (pip klayout {version})\n{status}\n\n{cdoc}\n\nMembers: " + ", ".join(sorted(c["members"])),
                    "metadata": {"module": "klayout.db", "signature": f"{cid}(...)", "parameters": [], "source": f"pip klayout {version} klayout/{stub}", "version": version, "doc": cdoc[:400], "members": sorted(c["members"]), "difference": status},
                })
    return SourceResult(tool="klayout-pip", tool_version=version, source=f"pip klayout {version} type stubs (dbcore.pyi) compared with the KLayout application ({app_version})", entries=entries)
