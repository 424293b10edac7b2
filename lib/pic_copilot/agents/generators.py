"""Function-specific script generators (layout, drc, simulation, data).

Each owns its databases (prompts/domains.toml). Inside: a Query Generator (several short queries,
each routed to one of the generator's databases) -> the hybrid retrievers -> a Programmer that
writes the sub-script from the rewritten subtask, the retrieved chunks and the execution context.
"""
from __future__ import annotations

import json
import re

from . import prompts, retrieve
from .base import Agent, extract_code
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
    """One domain's generator with its own query generator and programmer (each with memory)."""

    def __init__(self, domain: str, mode: str, available: tuple[str, ...] | None = None,
                 databases: tuple[str, ...] | None = None):
        """Args:
            domain: "layout", "drc", "simulation" or "data" (a section of prompts/domains.toml).
            mode: "interactive" or "sandbox"; selects the programmer's rules and examples.
            available: the built databases (default: what databases/ holds).
            databases: the designer's choice of databases for this domain (config
                `[generators.<domain>]`); None keeps the choice in domains.toml.
        """
        spec = prompts.domains()[domain]
        avail = retrieve.available_databases() if available is None else available
        self.domain = domain
        self.mode = mode
        if databases is not None:
            check_databases({domain: databases}, avail)
        self.databases = [d for d in (spec["databases"] if databases is None else databases) if d in avail]
        db_lines = "\n".join(f"- {d}" for d in self.databases) or "- (none)"
        self.query_agent = Agent("query_generator", prompts.render("query_generator", databases=db_lines),
                                 prompts.fewshot("query_generator"))
        cfg = prompts.domains()
        system = prompts.render("programmer", domain_title=spec["title"], versions=cfg["versions"]["text"],
                                domain_rules=spec["rules"].strip(), mode_rules=cfg["modes"][mode]["rules"].strip())
        self.programmer = Agent("programmer", system, self.examples_for_kind("edit"))
        self.docs: list[dict] = []   # the chunks the programmer saw last
        self._last_write: dict | None = None   # the latest write() request, for a fresh start

    def examples_for_kind(self, kind: str) -> tuple:
        """The programmer's worked examples: in interactive mode only those of the kind ("edit" or
        "new") the task needs, since a small model copies the example nearest to its answer."""
        own = prompts.fewshot(f"programmer_{self.domain}")
        if self.mode != "interactive" or self.domain not in EDITING_DOMAINS:
            return own
        if kind == "edit":
            return prompts.fewshot("programmer_interactive_edit")
        return own + prompts.fewshot("programmer_interactive_new")

    # -- query generator + retrievers
    def kind_for(self, task: str, request: str = "") -> str | None:
        """The interactive script kind ("edit" or "new") for a subtask, or None outside interactive
        mode; the designer's words decide when they say it outright (see :func:`explicit_kind`)."""
        if self.mode != "interactive" or self.domain not in EDITING_DOMAINS:
            return None
        return explicit_kind(request) or interactive_kind(f"{task} {request}")

    def databases_for(self, kind: str | None) -> list[str]:
        """The databases to search: a pya edit of the open layout does not search gdsfactory (a
        rectangle query found gdsfactory.components.rectangle before pya.Shapes.insert)."""
        if kind == "edit":
            return [d for d in self.databases if d != "gdsfactory"] or self.databases
        return self.databases

    def queries(self, client, task: str, extra: str = "", cancel=None, kind: str | None = None) -> list[dict]:
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
    def write(self, client, subtask: dict, docs: list[dict], layout_context: dict | None, cancel=None,
              on_token=None, request: str = "", avoid: str = "") -> str:
        """The programmer's script for one subtask.

        Args:
            subtask: {"task", "outputs"} from the plan.
            docs: retrieved documentation chunks.
            layout_context: the open layout's summary (interactive mode).
            request: the designer's own words. They go to the programmer next to the planner's
                rewrite (a small planner drops sizes and layers, or adds "with gdsfactory"), and
                in interactive mode what they say outright decides the kind of script.
            avoid: why an earlier script for this task failed (a fresh start after the
                programmer got stuck repeating it).
        """
        self.docs = docs
        self._last_write = {"subtask": subtask, "layout_context": layout_context, "request": request}
        outputs = subtask.get("outputs") or []
        kind = ""
        which = self.kind_for(subtask["task"], request)
        if which is not None:
            self.programmer.examples = self.examples_for_kind(which)
            kind = prompts.domains()["modes"]["interactive"][f"kind_{which}"].strip()
        same = request.strip() == subtask["task"].strip()
        user = prompts.render("programmer_user", task=subtask["task"],
                              outputs=("Outputs: " + ", ".join(outputs)) if outputs else "",
                              request="" if same or not request.strip() else f"The designer's words: {request.strip()}",
                              kind=kind,
                              avoid=f"An earlier script for this task failed; write a different one. What was wrong:\n{avoid[:800]}"
                              if avoid else "",
                              context=context_text(layout_context) if self.mode == "interactive" else "",
                              docs=retrieve.format_docs(docs))
        return extract_code(self.programmer.ask_text(client, user, cancel=cancel, on_token=on_token))

    def revise(self, client, script: str, instructions: str, docs: list[dict] | None = None, cancel=None,
               on_token=None) -> str:
        if docs is not None:
            self.docs = docs
        last = self.programmer.memory[-1]["content"] if self.programmer.memory else ""
        current = "" if script.strip() and script.strip() in last else f"Current script:\n```python\n{script.rstrip()}\n```\n"
        doc_text = ("API documentation:\n" + retrieve.format_docs(docs, budget=3000)) if docs else ""
        user = prompts.render("programmer_revise", instructions=current + instructions, docs=doc_text)
        code = extract_code(self.programmer.ask_text(client, user, cancel=cancel, on_token=on_token))
        if code.strip() == script.strip():  # the model repeated itself: one more try with more randomness
            if on_token is not None:
                on_token(None)
            self.programmer.memory[-2:] = []
            code = extract_code(self.programmer.ask_text(
                client, user + "\nYour last answer repeated the same script unchanged; change it to fix the errors.",
                cancel=cancel, on_token=on_token, temperature=0.7))
        if code.strip() == script.strip() and self._last_write is not None:
            # still stuck (a 1.5B model answered the same script 5 times in a row): start over without
            # the failed script in view, told only what was wrong with it
            if on_token is not None:
                on_token(None)
            self.programmer.memory.clear()
            w = self._last_write
            code = self.write(client, w["subtask"], self.docs, w["layout_context"], cancel=cancel, on_token=on_token,
                              request=w["request"], avoid=instructions)
        return code


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
