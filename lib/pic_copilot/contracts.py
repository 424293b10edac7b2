"""What crosses the boundary between a pipeline (the agents) and whoever drives it (engine, CLI,
MCP server, benchmark): the pipeline configurations, the request, the outcome and the I/O protocol.

A driver builds a :class:`Request` (``Request.config`` names one of :data:`PIPELINE_CONFIGS`),
gives the pipeline a :class:`PipelineIO` to report progress and reach KLayout, and gets an
:class:`Outcome` back. A driver that lets a designer revise a result (the engine) also owns a
:class:`SessionStore`, the one home of per-request memory, and passes it to every run.

The pipeline configurations are one table of flags; the pipeline reads flags, never configuration
names. ``full`` is the product: deterministic routing (an LLM plan only for a request that spans
several domains), retrieval with the request itself, the nearest verified cookbook recipes as
worked examples, k candidates per round ranked by execution evidence, and acceptance by evidence
(the output contract, the requested values and names); the LLM judge only breaks ties.
The others are the baselines and ablations the benchmark compares with it.

stdlib only: the KLayout-side benchmark driver (benchmark/bench.py) imports this too.
"""
from __future__ import annotations

import collections
import threading
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from .bridges import Bridge
from .execution.report import ExecutionReport


#: how a request runs: "interactive" acts on the layout open in KLayout (through the bridge),
#: "sandbox" runs the script confined, its results written to files
MODES = ("interactive", "sandbox")   # in the order the settings dialog lists them
#: a mode as a type (MCP tool schemas; sandbox, the confined one, first)
ModeName = Literal["sandbox", "interactive"]


@dataclass(frozen=True)
class PipelineConfig:
    """What one configuration of the pipeline does.

    Attributes:
        name: the configuration's name (Request.config).
        description: one line for reports and help texts.
        single_shot: one programmer call and one run, no checks or revisions (the baselines).
        planner: "words" (no LLM: one step in the designer's own words; a request that names
            several domains gets all their documentation and examples), "auto" (the LLM planner
            only for a request that names several domains), "always" (every request is planned by
            the LLM) or "never" (one step in the first domain, no LLM).
        queries: "request" (retrieval with the request/subtask text, no LLM) or "llm" (the query
            generator agent writes the queries).
        tailored_rag: each domain's generator searches its own databases (else all of them).
        retrieval: documentation is retrieved at all.
        examples: the programmer's worked examples: "cookbook" (the nearest verified recipes),
            "fixed" (the fixed examples of its domain) or "none".
        candidates: scripts sampled per round from the same prompt, each run and ranked.
        judge: "ties" (the LLM evaluator only chooses among candidates whose evidence is equally
            good), "always" (a script that passed every check must also be accepted by the LLM
            evaluator: the acceptance of sessions 1-3) or "never".
        synthesizer: a composite plan gets one sub-script per step, merged by the synthesizer
            (else one script is written for all steps).
        exec_feedback: candidates are run and the run's evidence is fed back (else only static
            checks decide; the final script is run once for the result).
        observations: use what `pic-copilot explore` observed of the installed APIs.
        contract: check the output contract extracted from the request after each run.
        binding: when a script leaves requested numbers unused, bind them to the parameters of the
            component/cross-section it builds with one answer constrained to the real signature.
        docs_from_recipes: with cookbook recipes found, search only the manuals of the tools they use
            and show the manual entries of the nearest recipe's first calls first.
        rule_decks: a DRC deck request whose every named rule is read (checks.deck_rules) gets a deck
            written from those rules as its first candidate, without an LLM call.
        additions: a script whose results hold but that lacks requested outputs is continued (the
            model writes only the lines after it, agents.addition) instead of rewritten.
        stop_without_progress: the request stops (with its best script) after a revision round
            none of whose candidates has better evidence than the best of the rounds before.
        step_recipes: when the recipes nearest to the whole request are fewer than shown, the
            nearest recipe to one of its sentences is shown too (agents.retrieve.recipe_for_another_step).
            Off in ``full``: paired with it in session 28 it did not pay (config ``step-recipes``).
        in_parts: a request the designer wrote in parts ("Then ...", "Also ...", "2. ...";
            agents.addition.request_parts) is written one part at a time: the first part alone,
            checked against the contract of its own words, then each next part as lines added after
            the script that did the parts before, shown the nearest recipe for that part.
    """

    name: str
    description: str
    single_shot: bool = False
    planner: str = "words"
    queries: str = "request"
    tailored_rag: bool = True
    retrieval: bool = True
    examples: str = "cookbook"
    candidates: int = 3
    judge: str = "ties"
    synthesizer: bool = False
    exec_feedback: bool = True
    observations: bool = True
    contract: bool = True
    binding: bool = True
    docs_from_recipes: bool = True
    rule_decks: bool = True
    additions: bool = True
    stop_without_progress: bool = True
    step_recipes: bool = False
    in_parts: bool = False


_TABLE = (
    PipelineConfig("full", "the product: cookbook examples, 3 execution-ranked candidates, evidence-first acceptance"),
    PipelineConfig("zero-shot", "one programmer call without examples or documentation, run once", single_shot=True,
                   planner="never", retrieval=False, examples="none", candidates=1, judge="never", contract=False,
                   observations=False, binding=False, rule_decks=False),
    PipelineConfig("icl-rag", "one programmer call with the fixed examples and documentation for the request, run once",
                   single_shot=True, planner="never", tailored_rag=False, examples="fixed", candidates=1,
                   judge="never", contract=False, observations=False, binding=False, rule_decks=False),
    PipelineConfig("no-cookbook", "full, with the fixed examples of each domain instead of the nearest recipes",
                   examples="fixed"),
    PipelineConfig("single-candidate", "full, with one candidate per round", candidates=1),
    PipelineConfig("llm-judge", "full, but a script must also be accepted by the LLM evaluator", judge="always"),
    PipelineConfig("agentic", "the multi-agent pipeline of sessions 1-3: LLM planner, query generator, one candidate, "
                   "fixed examples, synthesizer, LLM evaluator", planner="always", queries="llm", examples="fixed",
                   candidates=1, judge="always", synthesizer=True, contract=False, binding=False, rule_decks=False,
                   additions=False, stop_without_progress=False),
    PipelineConfig("all-docs", "full, but documentation is searched in every manual of the domain, whatever "
                   "tools the nearest recipes use", docs_from_recipes=False),
    PipelineConfig("no-tailored-rag", "full, but every generator searches all databases", tailored_rag=False),
    PipelineConfig("no-exec-feedback", "full, but only static checks decide; the final script is run once",
                   exec_feedback=False, candidates=1, contract=False),
    PipelineConfig("no-exploration", "full, without the observed behaviour from `pic-copilot explore`",
                   observations=False),
    PipelineConfig("llm-planner", "full, but a request that names several domains is split into steps by the LLM "
                   "planner (the product before session 14)", planner="auto"),
    PipelineConfig("rewrite-revisions", "full, but a script that only lacks outputs is rewritten as a whole, not "
                   "continued", additions=False),
    PipelineConfig("all-rounds", "full, but every revision round is used, also after a round that brought no "
                   "better evidence than the rounds before", stop_without_progress=False),
    PipelineConfig("step-recipes", "full, and when the whole request finds one recipe, the nearest recipe to one of "
                   "its sentences is shown too", step_recipes=True),
    PipelineConfig("in-parts", "full, and a request the designer wrote in parts (\"Then ...\", \"2. ...\") is "
                   "written one part at a time, each next part as lines added after the script that did the parts "
                   "before", in_parts=True),
    PipelineConfig("llm-decks", "full, but the LLM writes every DRC deck (no deck written from the request's rules)",
                   rule_decks=False),
)

CONFIG_TABLE: dict[str, PipelineConfig] = {c.name: c for c in _TABLE}
#: configurations of the copilot pipeline (Request.config); "full" is the product
PIPELINE_CONFIGS = tuple(CONFIG_TABLE)
#: what the benchmark runs: the pipeline configurations and "oracle" (the reference solutions)
BENCH_CONFIGS = ("oracle",) + PIPELINE_CONFIGS


def config(name: str) -> PipelineConfig:
    """The configuration called ``name``.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    try:
        return CONFIG_TABLE[name]
    except KeyError:
        raise ValueError(f"unknown pipeline configuration {name!r}; use one of {', '.join(PIPELINE_CONFIGS)}") from None


@dataclass
class Request:
    """A designer's request.

    Attributes:
        id: identifier chosen by the driver (the panel's request id).
        prompt: the request text as typed.
        mode: "interactive" (act on the open layout through the bridge) or "sandbox".
        layout_context: compact description of the open layout (see bridge.layout_summary), or None.
        feedback: designer corrections given after earlier results, oldest first.
        max_rounds: evaluator feedback rounds (None = settings default).
        config: pipeline configuration: "full" or a benchmark baseline/ablation name.
        previous_script: the script shown last, when the request continues with feedback.
        inputs: files every sandbox run of this request starts with (name in the work dir -> path),
            e.g. the layout a benchmark task's setup prepared.
        previous_applied: the previous script changed the open layout (feedback continues from it):
            its change is undone before the revised script runs, so the revision replaces it.
        time_budget_s: the seconds the designer gives the request (None = the settings' budget,
            0 = no limit): no candidate is started that would, at the request's slowest candidate's
            pace so far, end after it; the request then ends with the best script so far, not
            accepted, and says so. The first candidate is always written.
    """

    id: str
    prompt: str
    mode: str = "interactive"
    layout_context: dict | None = None
    feedback: list[str] = field(default_factory=list)
    max_rounds: int | None = None
    config: str = "full"
    previous_script: str | None = None
    inputs: dict[str, str] | None = None
    previous_applied: bool = False
    time_budget_s: float | None = None


@dataclass
class Outcome:
    """What the pipeline produced.

    Attributes:
        ok: the final script ran and the evaluator accepted it.
        script: the final script (also when not ok: the best attempt).
        rounds: feedback rounds used.
        execution: the last execution report (see execution.routing.execute), None when nothing ran.
        usage: LLM calls/tokens/time totals.
        record_path: the run record in the history folder.
        message: one line for the designer.
        timings: seconds per stage (plan, retrieve, generate, check, execute, evaluate, ...) and total_s.
    """

    ok: bool
    script: str
    rounds: int = 0
    execution: ExecutionReport | None = None
    usage: dict = field(default_factory=dict)
    record_path: str | None = None
    message: str = ""
    timings: dict = field(default_factory=dict)

    def time_line(self) -> str:
        """Where the request's time went, in one line for the designer's transcript."""
        t, u = self.timings or {}, self.usage or {}
        parts = []
        if u.get("calls"):
            read, reused = u.get("prompt_eval_tokens"), u.get("cached_tokens")
            tokens = (f"{read} prompt tokens read, {reused} reused" if read is not None and reused is not None
                      else f"{u.get('prompt_tokens', 0)} prompt tokens")
            parts.append(f"LLM {u.get('llm_time_s', 0):.1f} s in {u['calls']} call(s) ({tokens}, "
                         f"{u.get('completion_tokens', 0)} answer tokens)")
        for key, name in (("retrieve", "retrieval"), ("check", "checks"), ("execute", "runs")):
            if t.get(key):
                parts.append(f"{name} {t[key]:.1f} s")
        total = t.get("total_s")
        return (f"{total:.1f} s" if isinstance(total, (int, float)) else "time") + (": " + ", ".join(parts) if parts else "")


class PipelineIO(Protocol):
    """What a pipeline may do besides calling the LLM."""

    cancel: threading.Event
    bridge: Bridge | None

    def progress(self, stage: str, message: str, data: dict | None = None) -> None:
        """Report one pipeline step to the designer."""

    def token(self, agent: str, text: str | None) -> None:
        """Stream LLM text (None = the stream restarted)."""

    def script(self, code: str, round_: int) -> None:
        """Show a candidate script."""


class NullIO:
    """A PipelineIO that reports nothing (CLI --quiet, benchmark)."""

    def __init__(self, bridge: Bridge | None = None, cancel: threading.Event | None = None):
        self.bridge = bridge
        self.cancel = cancel or threading.Event()

    def progress(self, stage: str, message: str, data: dict | None = None) -> None:
        pass

    def token(self, agent: str, text: str | None) -> None:
        pass

    def script(self, code: str, round_: int) -> None:
        pass


#: how many requests a SessionStore remembers; the least recently used is dropped first
MAX_SESSIONS = 32


@dataclass
class RequestMemory:
    """What one request id remembers between its runs, so a designer's feedback continues it.

    Attributes:
        request: the request as it last ran (a revision is built from it).
        outcome: that run's outcome; None while it runs, or when it failed or was cancelled.
        agents: the pipeline's per-agent state for this request (``agents.pipeline.Session``:
            the plan, the agents' conversations, the generators); None until the pipeline made it.
    """

    request: Request | None = None
    outcome: Outcome | None = None
    agents: Any = None


class SessionStore:
    """Per-request memory: one :class:`RequestMemory` per request id, the ``limit`` most recently
    used kept (thread-safe). Owned by whoever serves requests (the engine: one per process) and
    passed to :func:`pic_copilot.agents.run_request`; a caller that never revises (CLI, MCP,
    benchmark) passes none and each run gets a store of its own.

    Args:
        limit: how many requests are remembered.
    """

    def __init__(self, limit: int = MAX_SESSIONS):
        self.limit = max(1, int(limit))
        self._items: "collections.OrderedDict[str, RequestMemory]" = collections.OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def __contains__(self, request_id: object) -> bool:
        with self._lock:
            return request_id in self._items

    def get(self, request_id: str) -> RequestMemory | None:
        """The memory of ``request_id`` (marked as just used), or None.

        Args:
            request_id: the request's id.
        """
        with self._lock:
            m = self._items.get(request_id)
            if m is not None:
                self._items.move_to_end(request_id)
            return m

    def entry(self, request_id: str) -> RequestMemory:
        """The memory of ``request_id``, made empty if it has none; the oldest beyond the limit are dropped.

        Args:
            request_id: the request's id.
        """
        with self._lock:
            m = self._items.get(request_id)
            if m is None:
                m = self._items[request_id] = RequestMemory()
            self._items.move_to_end(request_id)
            while len(self._items) > self.limit:
                self._items.popitem(last=False)
            return m

    def started(self, request: Request) -> RequestMemory:
        """Note that ``request`` runs now (its earlier outcome no longer applies).

        Args:
            request: the request about to run.
        """
        m = self.entry(request.id)
        m.request, m.outcome = request, None
        return m

    def finished(self, request_id: str, outcome: Outcome) -> None:
        """Note the outcome of the run of ``request_id``.

        Args:
            request_id: the request's id.
            outcome: what the run produced.
        """
        self.entry(request_id).outcome = outcome

    def revision(self, request_id: str, text: str) -> Request | None:
        """The request that continues ``request_id`` with the designer's correction ``text``: the same
        id (so the same agents), the feedback appended, the last script to revise; None when the
        request is not remembered.

        Args:
            request_id: the request the designer comments on.
            text: the designer's correction.
        """
        m = self.get(request_id)
        if m is None or m.request is None:
            return None
        prev, outcome = m.request, m.outcome
        return replace(prev, feedback=[*prev.feedback, text],
                       previous_script=outcome.script if outcome else prev.previous_script,
                       previous_applied=bool(outcome and outcome.execution and outcome.execution.changed_layout))

    def forget(self, request_id: str) -> None:
        """Drop what ``request_id`` remembers.

        Args:
            request_id: the request's id.
        """
        with self._lock:
            self._items.pop(request_id, None)
