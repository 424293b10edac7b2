"""LLM query expansion: the API names (and a one-line code guess) a model expects for a need.

A small model often knows the name of what it needs (``Region.sized``, ``add_ref``) while the
designer's words ("grow the shapes by 1 um") read nothing like that API's documentation. The
proposals go into the search as one more ranked list (``search_apis(..., names=, code=)``): each
name is resolved through the exact-name / suffix / fuzzy index of the databases searched, so a
name that does not exist matches nothing and costs nothing.

    from pic_copilot.llm import make_client
    from pic_copilot.retrieval.expand import expand_query
    exp = expand_query(make_client(), "grow every shape on layer 1/0 by 1 um", ["pya"])
    search_apis("grow every shape on layer 1/0 by 1 um", db="pya", names=exp.names, code=exp.code)

The pipeline can instead ask its query generator for ``names``/``code`` fields (same schema,
:data:`EXPANSION_PROPERTIES`) and pass them to ``search_apis`` itself.
"""
from __future__ import annotations

import ast
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..checks.static import attribute_chain

MAX_NAMES = 6

#: the JSON-schema properties of a proposal (reusable inside another agent's schema)
EXPANSION_PROPERTIES = {
    "names": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_NAMES},
    "code": {"type": "string"},
}
EXPANSION_SCHEMA = {"type": "object", "required": ["names", "code"], "properties": EXPANSION_PROPERTIES}

#: what a database's names look like, for the prompt
DB_HINTS = {
    "gdsfactory": "gdsfactory (import gdsfactory as gf): gf.components.<name>, gf.routing.<name>, gf.cross_section.<name>, Component.<method>, ComponentReference.<method>, Port.<attribute>",
    "pya": "KLayout application API (import pya): pya.<Class>, pya.<Class>.<method>, e.g. Layout, Cell, Shapes, Region, Box/DBox, Polygon, Trans",
    "klayout_db": "pip klayout.db 0.30 (import klayout.db as kdb): kdb.<Class>.<method>, the same classes as pya",
    "sax": "SAX circuit simulator (import sax): sax.<function>, sax.models.<model>",
}


@dataclass(frozen=True)
class Expansion:
    """A model's proposals for one need: candidate API names, best first, and a one-line code guess."""

    names: tuple[str, ...] = ()
    code: str = ""
    seconds: float = 0.0
    error: str = ""

    def to_dict(self) -> dict:
        return {"names": list(self.names), "code": self.code, "seconds": round(self.seconds, 2), **({"error": self.error} if self.error else {})}

    @classmethod
    def from_dict(cls, d: dict) -> "Expansion":
        return cls(tuple(d.get("names") or ()), d.get("code") or "", float(d.get("seconds") or 0.0), d.get("error") or "")


def clean_names(names) -> tuple[str, ...]:
    """Proposed names as identifiers: ``gf.components.mmi1x2(width=1)`` -> ``gf.components.mmi1x2``;
    empty, duplicate and non-identifier entries dropped, at most MAX_NAMES."""
    out: list[str] = []
    for n in names or ():
        m = re.match(r"\s*([A-Za-z_][\w]*(?:\s*\.\s*[A-Za-z_]\w*)*)", str(n))
        if m:
            name = re.sub(r"\s+", "", m.group(1))
            if name not in out:
                out.append(name)
    return tuple(out[:MAX_NAMES])


def code_names(code: str) -> list[str]:
    """Dotted names a code guess calls or reads, in order: ``c.add_ref(gf.components.mmi1x2())``
    -> ``c.add_ref``, ``gf.components.mmi1x2``. Falls back to a regex when the code does not parse."""
    code = (code or "").strip().strip("`")
    found: list[str] = []
    try:
        tree = ast.parse(code)
    except SyntaxError:
        tree = None
    if tree is not None:
        def dotted(node) -> str | None:
            attrs, base = attribute_chain(node)
            if isinstance(base, ast.Name):
                return ".".join([base.id, *attrs])
            if isinstance(base, ast.Call):   # a.b().c -> keep the chain from the call on
                inner = dotted(base.func)
                return ".".join([inner, *attrs] if inner else attrs)
            return ".".join(attrs) if attrs else None

        nodes = sorted((n for n in ast.walk(tree) if isinstance(n, (ast.Attribute, ast.Call))),
                       key=lambda n: (n.lineno, n.col_offset))
        for n in nodes:
            target = n.func if isinstance(n, ast.Call) else n
            d = dotted(target)
            if d and (isinstance(n, ast.Call) or "." in d) and d not in found:
                found.append(d)
        # keep the longest chains: ``gf.components`` is covered by ``gf.components.mmi1x2``
        found = [d for d in found if not any(o != d and o.startswith(d + ".") for o in found)]
    else:
        for m in re.finditer(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w*(?=\()", code):
            if m.group(0) not in found:
                found.append(m.group(0))
    return found[:2 * MAX_NAMES]


def expand_query(client, need: str, databases: list[str] | None = None, cancel: threading.Event | None = None) -> Expansion:
    """Ask the LLM which API names (and which one line of code) answer ``need``.

    Args:
        client: a pic_copilot.llm.LLMClient (``make_client()``).
        need: what the designer or the planner wants done, in words.
        databases: the databases that will be searched (named in the prompt so the model proposes
            names of those tools); None: all four.
        cancel: set to abort the call.

    Returns:
        The proposals; an LLM that fails or answers badly gives an empty Expansion with ``error``
        set (expansion is an extra, never a reason for a search to fail). Cancellation raises.
    """
    from .. import prompts
    from ..llm.agent import Agent
    from ..llm import LLMCancelled, LLMError

    dbs = list(databases or DB_HINTS)
    hints = "\n".join(f"- {DB_HINTS.get(d, d)}" for d in dbs)
    agent = Agent("query_expander", prompts.render("query_expander", databases=hints), prompts.fewshot("query_expander"))
    t0 = time.monotonic()
    try:
        ans = agent.ask_json(client, prompts.render("query_expander_user", need=need.strip()), EXPANSION_SCHEMA,
                             cancel=cancel, with_memory=False, max_tokens=160)
    except LLMCancelled:
        raise
    except LLMError as e:
        return Expansion(seconds=time.monotonic() - t0, error=str(e)[:300])
    code = str(ans.get("code") or "").strip().strip("`").strip()
    return Expansion(clean_names(ans.get("names")), code.splitlines()[0][:300] if code else "", time.monotonic() - t0)


# ---------------------------------------------------------------------- cache for evaluations
def prompt_key(model: str) -> str:
    """What a cached proposal depends on besides the need: the prompts, few-shot examples and model."""
    from .. import prompts

    parts = [prompts.text("query_expander"), prompts.text("query_expander_user"), json.dumps(prompts.fewshot("query_expander")), model]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:16]


@dataclass
class ExpansionCache:
    """Proposals per (prompt version, model, need, databases) in a JSON file, so reruns are free."""

    path: Path
    data: dict = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> "ExpansionCache":
        try:
            return cls(Path(path), json.loads(Path(path).read_text()))
        except (OSError, ValueError):
            return cls(Path(path), {})

    @staticmethod
    def key(version: str, need: str, databases: list[str] | None) -> str:
        return hashlib.sha256(f"{version}|{','.join(databases or [])}|{need.strip()}".encode()).hexdigest()[:24]

    def get(self, version: str, need: str, databases: list[str] | None = None) -> Expansion | None:
        rec = self.data.get(self.key(version, need, databases))
        return Expansion.from_dict(rec) if rec else None

    def put(self, version: str, need: str, databases: list[str] | None, exp: Expansion) -> None:
        self.data[self.key(version, need, databases)] = {"need": need.strip(), "databases": databases or [], **exp.to_dict()}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data, indent=0, ensure_ascii=False))
        tmp.replace(self.path)


def expanded_search(client, need: str, db: str | list[str] | None = None, k: int = 5, cancel: threading.Event | None = None,
                    expansion: Expansion | None = None) -> tuple[list[dict], Expansion]:
    """``search_apis`` for a need with the LLM's proposed names fused in: (hits, the proposals).

    One LLM call (skipped when ``expansion`` is given, e.g. from the query generator's own answer);
    if the LLM fails the search runs without proposals (``expansion.error`` says why).
    """
    from .api import _select, search_apis

    dbs = list(_select(db))
    exp = expansion if expansion is not None else expand_query(client, need, dbs, cancel)
    return search_apis(need, db=dbs, k=k, names=exp.names, code=exp.code), exp
