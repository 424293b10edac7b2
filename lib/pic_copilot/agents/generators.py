"""Function-specific script generators (layout, drc, simulation, data).

Each owns its databases (prompts/domains.toml). Inside: a Query Generator (several short queries,
each routed to one of the generator's databases) -> the hybrid retrievers -> a Programmer that
writes the sub-script from the rewritten subtask, the retrieved chunks and the execution context.
"""
from __future__ import annotations

import json
import re

from .. import prompts
from . import retrieve
from ..llm.agent import Agent, extract_code
from .planner import context_text


def query_schema(dbs: list[str]) -> dict:
    q = {"type": "object", "required": ["db", "query"],
         "properties": {"db": {"type": "string", "enum": dbs} if dbs else {"type": "string"}, "query": {"type": "string"}}}
    return {"type": "object", "required": ["queries"],
            "properties": {"queries": {"type": "array", "minItems": 1, "maxItems": 4, "items": q}}}


EDITING_DOMAINS = ("layout", "drc", "data")   # interactive scripts of these act on the open layout

_EXPLICIT_GF = re.compile(r"\b(gdsfactory|pdk)\b", re.IGNORECASE)
_EDITS_OPEN_LAYOUT = re.compile(
    r"\b(current|active|selected|existing)\s+(cell|layout|layers?|shapes?|selection|view)\b"
    r"|\bselect(ed|ion)\b|\bthe layout ha(s|ve)\b|\bthis cell\b", re.IGNORECASE)
_COMPONENT_WORDS = re.compile(
    r"\b(mmi|ring|coupler|grating|mzi|taper|bend|splitter|spiral|component|cross[- ]?section|rout(e|ing)|"
    r"waveguide|straight)\w*", re.IGNORECASE)


def explicit_kind(text: str) -> str | None:
    """The kind a text names outright: gdsfactory/the PDK -> "new", the current/selected cell,
    shapes or layout -> "edit"; None when it names neither."""
    if _EXPLICIT_GF.search(text):
        return "new"
    if _EDITS_OPEN_LAYOUT.search(text):
        return "edit"
    return None


def interactive_kind(text: str) -> str:
    """Which kind of interactive script a task needs: "new" (build a gdsfactory component that
    pic-copilot places in the layout) or "edit" (pya on the open layout).

    The PDK or gdsfactory named outright means "new"; the current/selected cell or shapes mean
    "edit" ("draw a waveguide in the current cell" is pya); photonic component words alone mean
    "new"; anything else (layer geometry) is an edit.
    """
    return explicit_kind(text) or ("new" if _COMPONENT_WORDS.search(text) else "edit")


def kind_of(mode: str, task: str, request: str = "") -> str | None:
    """The interactive script kind ("edit" or "new") of a task, None in sandbox mode."""
    if mode != "interactive":
        return None
    return explicit_kind(request) or interactive_kind(f"{task} {request}")


def check_databases(choice: dict[str, tuple[str, ...]], available: tuple[str, ...] | None = None) -> None:
    """Raise ValueError naming the fix if the designer's per-domain databases are not all built.

    Args:
        choice: Settings.generator_databases ({domain: database names}).
        available: the built databases (default: what databases/ holds).
    """
    avail = retrieve.available_databases() if available is None else available
    for domain, dbs in choice.items():
        if domain not in prompts.DOMAINS:
            raise ValueError(f"config [generators.{domain}]: no such domain (use {', '.join(prompts.DOMAINS)})")
        unknown = [d for d in dbs if d not in avail]
        if unknown:
            raise ValueError(f"config [generators.{domain}] names database(s) {', '.join(unknown)} that are "
                             f"not built (built: {', '.join(avail) or 'none'}; run `pic-copilot build-db`)")


class ScriptGenerator:
    """The generator for one domain (or the domains of a composite request): its query generator,
    its databases and its programmer (with memory of the request's exchanges)."""

    def __init__(self, domain: str | tuple[str, ...], mode: str, available: tuple[str, ...] | None = None,
                 databases: tuple[str, ...] | None = None):
        """Args:
            domain: "layout", "drc", "simulation" or "data" (a section of prompts/domains.toml), or
                several for a request that spans domains (their rules and databases are joined).
            mode: "interactive" or "sandbox"; selects the programmer's rules and examples.
            available: the built databases (default: what databases/ holds).
            databases: the designer's choice of databases (config `[generators.<domain>]`) for a
                single domain; None keeps the choice in domains.toml.
        """
        self.domains = (domain,) if isinstance(domain, str) else tuple(domain)
        self.domain = self.domains[0]
        specs = [prompts.domains()[d] for d in self.domains]
        avail = retrieve.available_databases() if available is None else available
        self.mode = mode
        if databases is not None:
            check_databases({self.domain: databases}, avail)
        wanted = list(databases) if databases is not None else [db for sp in specs for db in sp["databases"]]
        self.databases = [d for d in dict.fromkeys(wanted) if d in avail]
        db_lines = "\n".join(f"- {d}" for d in self.databases) or "- (none)"
        self.query_agent = Agent("query_generator", prompts.render("query_generator", databases=db_lines),
                                 prompts.fewshot("query_generator"))
        self.programmer = Agent("programmer", self.system_prompt(None), self.fixed_examples("edit"))
        self.docs: list[dict] = []   # the chunks the programmer saw last
        self.recipes: list = []      # the cookbook recipes it was shown
        self.kind: str | None = None   # the interactive script kind of the current request
        self.prepared = False          # prepare() chose the role prompt and examples for the request

    def system_prompt(self, kind: str | None) -> str:
        """The programmer's role prompt: stable per domain, mode and script kind, so a server that
        caches prompt prefixes reuses it across requests."""
        cfg = prompts.domains()
        specs = [cfg[d] for d in self.domains]
        # a pya edit of the open layout gets its domain's pya rules (the layout domain's are gdsfactory's)
        rules = "\n".join((sp.get("rules_edit") if kind == "edit" and sp.get("rules_edit") else sp["rules"]).strip()
                          for sp in specs)
        mode_rules = (cfg["modes"]["interactive"][f"kind_{kind}"].strip() if kind is not None
                      else cfg["modes"][self.mode]["rules"].strip())
        return prompts.render("programmer", domain_title="; ".join(sp["title"] for sp in specs),
                              versions=cfg["versions"]["text"], domain_rules=rules, mode_rules=mode_rules)

    def fixed_examples(self, kind: str | None) -> tuple:
        """The fixed worked examples of the domain: in interactive mode only those of the kind
        ("edit" or "new") the task needs, since a small model copies the example nearest to its answer."""
        own = tuple(m for d in self.domains for m in prompts.fewshot(f"programmer_{d}"))
        if self.mode != "interactive" or not set(self.domains) & set(EDITING_DOMAINS) or kind is None:
            return own
        if kind == "edit":
            return prompts.fewshot("programmer_interactive_edit")
        return own + prompts.fewshot("programmer_interactive_new")

    # -- query generator + retrievers
    def kind_for(self, task: str, request: str = "") -> str | None:
        """The interactive script kind ("edit" or "new") for a task, or None outside interactive
        mode; the designer's words decide when they say it outright (see :func:`explicit_kind`)."""
        if not set(self.domains) & set(EDITING_DOMAINS):
            return None
        return kind_of(self.mode, task, request)

    def databases_for(self, kind: str | None) -> list[str]:
        """The databases to search: a pya edit of the open layout does not search gdsfactory (a
        rectangle query found gdsfactory.components.rectangle before pya.Shapes.insert)."""
        if kind == "edit":
            return [d for d in self.databases if d != "gdsfactory"] or self.databases
        return self.databases

    def queries(self, client, task: str, extra: str = "", cancel=None, kind: str | None = None) -> list[dict]:
        """Queries written by the query generator agent (the subtask itself first)."""
        dbs = self.databases_for(kind)
        if not dbs:
            return []
        user = prompts.render("query_generator_user", task=task, extra=extra)
        ans = self.query_agent.ask_json(client, user, query_schema(dbs), cancel=cancel, max_tokens=200)
        # the subtask itself is the best query for summary-based retrieval (summaries are written the
        # way designers ask): it goes first, to the domain's main database
        qs = [{"db": dbs[0], "query": task}]
        for q in ans["queries"]:
            db = q["db"] if q["db"] in dbs else dbs[0]
            if q["query"].strip():
                qs.append({"db": db, "query": q["query"].strip()})
        return qs

    def request_queries(self, task: str, kind: str | None = None) -> list[dict]:
        """Queries without an LLM call: the task text, once per database of the domain."""
        return [{"db": db, "query": task[:400]} for db in self.databases_for(kind)]

    def retrieve(self, queries: list[dict], k: int = 3) -> tuple[list[dict], list[str]]:
        """Hits of all queries interleaved (best of each query first), and errors."""
        per, errors = [], []
        for q in queries:
            hits, err = retrieve.search(q["query"], q.get("db"), k=k)
            if err:
                errors.append(err)
            per.append(hits)
        merged, seen = [], set()
        for rank in range(k):
            for hits in per:
                if rank < len(hits) and hits[rank].get("id") not in seen:
                    seen.add(hits[rank].get("id"))
                    merged.append(hits[rank])
        return merged, errors

    # -- programmer
    def prepare(self, kind: str | None, examples: tuple) -> None:
        """Set the programmer's role prompt and worked examples for this request."""
        self.kind = kind
        self.prepared = True
        self.programmer.system = self.system_prompt(kind)
        self.programmer.examples = examples

    def first_message(self, task: str, docs: list[dict], layout_context: dict | None, request: str = "",
                      outputs: list[str] | None = None, contract: str = "", avoid: str = "",
                      docs_budget: int | None = None) -> str:
        """The programmer's user message for a new script.

        Args:
            task: what to do (the planner's rewrite, or the designer's words).
            docs: retrieved documentation chunks.
            layout_context: the open layout's summary (interactive mode).
            request: the designer's own words. They go to the programmer next to the planner's
                rewrite (a small planner drops sizes and layers, or adds "with gdsfactory").
            outputs: files the script must write.
            contract: what the result must have (see contract_words.describe).
            avoid: why an earlier script for this task failed (a fresh start after the
                programmer got stuck repeating it).
            docs_budget: characters of documentation (default: retrieve.DOCS_BUDGET).
        """
        self.docs = docs
        same = request.strip() == task.strip()
        outputs = outputs or []
        return prompts.render("programmer_user", task=task,
                              outputs=("Outputs: " + ", ".join(outputs)) if outputs and not contract else "",
                              request="" if same or not request.strip() else f"The designer's words: {request.strip()}",
                              contract=("The result must have:\n" + contract) if contract else "",
                              avoid=f"An earlier script for this task failed; write a different one. What was wrong:\n{avoid[:800]}"
                              if avoid else "",
                              context=context_text(layout_context) if self.mode == "interactive" else "",
                              docs=retrieve.format_docs(docs, budget=docs_budget or retrieve.DOCS_BUDGET))

    def revision_message(self, script: str, instructions: str, docs: list[dict] | None = None) -> str:
        """The programmer's user message asking to revise ``script``."""
        if docs is not None:
            self.docs = docs
        last = self.programmer.memory[-1]["content"] if self.programmer.memory else ""
        current = "" if script.strip() and script.strip() in last else f"Current script:\n```python\n{script.rstrip()}\n```\n"
        doc_text = ("API documentation:\n" + retrieve.format_docs(docs, budget=3000)) if docs else ""
        return prompts.render("programmer_revise", instructions=current + instructions, docs=doc_text)

    def sample(self, client, user: str, *, temperature: float | None = None, cancel=None, on_token=None,
               with_memory: bool = True, answer_start: str | None = None) -> tuple[str, str | None]:
        """One candidate answer to ``user`` (not remembered: see :meth:`choose`); (script, finish reason).
        ``answer_start``: the answer's beginning for the model to continue (see Agent.sample)."""
        return self.programmer.sample(client, user, cancel=cancel, on_token=on_token, with_memory=with_memory,
                                      temperature=temperature, answer_start=answer_start)

    def choose(self, user: str, answer: str) -> None:
        """Remember the chosen candidate's exchange (the next revision continues from it)."""
        self.programmer.remember(user, answer)


def plan_text(plan: dict) -> str:
    return "\n".join(f"{i + 1}. [{s['domain']}] {s['task']}" + (f" (writes {', '.join(s['outputs'])})" if s.get("outputs") else "")
                     for i, s in enumerate(plan["subtasks"]))


class Synthesizer:
    """Merges the sub-scripts of a composite plan into one script."""

    def __init__(self):
        self.agent = Agent("synthesizer", prompts.text("synthesizer"))

    def merge(self, client, plan: dict, parts: list[str], cancel=None, on_token=None) -> str:
        blocks = "\n".join(f"Script for step {i + 1}:\n```python\n{p.rstrip()}\n```" for i, p in enumerate(parts))
        user = prompts.render("synthesizer_user", plan=plan_text(plan), parts=blocks)
        return extract_code(self.agent.ask_text(client, user, cancel=cancel, on_token=on_token))


def describe_hits(hits: list[dict]) -> list[dict]:
    return [{"id": h.get("id"), "db": h.get("db"), "name": retrieve.hit_name(h),
             "score": round(float(h.get("score") or 0.0), 4)} for h in hits]


__all__ = ["ScriptGenerator", "Synthesizer", "plan_text", "describe_hits", "json"]
