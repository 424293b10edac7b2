"""The contract between a pipeline (the agents) and whoever drives it (engine, CLI, benchmark).

A driver builds a :class:`Request`, gives the pipeline a :class:`PipelineIO` to report progress
and reach KLayout, and gets an :class:`Outcome` back.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Protocol

from .execution import Bridge


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


@dataclass
class Outcome:
    """What the pipeline produced.

    Attributes:
        ok: the final script ran and the evaluator accepted it.
        script: the final script (also when not ok: the best attempt).
        rounds: feedback rounds used.
        execution: the last execution report (see execution.execute).
        usage: LLM calls/tokens/time totals.
        record_path: the run record in the history folder.
        message: one line for the designer.
        timings: seconds per stage (plan, retrieve, generate, check, execute, evaluate, ...) and total_s.
    """

    ok: bool
    script: str
    rounds: int = 0
    execution: dict | None = None
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
