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
