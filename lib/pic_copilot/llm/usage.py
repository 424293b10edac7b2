"""Records LLM calls, tokens and latency per agent for one request (the run record's numbers)."""
from __future__ import annotations

import threading
from dataclasses import asdict, dataclass


@dataclass
class CallRecord:
    """One chat call: who made it, what it cost, how long it took."""

    agent: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    ttft_s: float
    attempts: int
    ok: bool
    error: str | None = None


class UsageRecorder:
    """Thread-safe list of :class:`CallRecord` with totals per agent."""

    def __init__(self) -> None:
        self._calls: list[CallRecord] = []
        self._lock = threading.Lock()

    def record(self, **kw) -> None:
        with self._lock:
            self._calls.append(CallRecord(**kw))

    @property
    def calls(self) -> list[CallRecord]:
        with self._lock:
            return list(self._calls)

    def totals(self, since: int = 0) -> dict:
        """Calls, tokens and LLM time in total and per agent (of the calls from index ``since`` on,
        so a client shared by several requests can report one request's share)."""
        calls = self.calls[since:]
        per: dict[str, dict] = {}
        for c in calls:
            a = per.setdefault(c.agent, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "llm_time_s": 0.0})
            a["calls"] += 1
            a["prompt_tokens"] += c.prompt_tokens
            a["completion_tokens"] += c.completion_tokens
            a["llm_time_s"] = round(a["llm_time_s"] + c.latency_s, 3)
        return {
            "calls": len(calls),
            "prompt_tokens": sum(c.prompt_tokens for c in calls),
            "completion_tokens": sum(c.completion_tokens for c in calls),
            "llm_time_s": round(sum(c.latency_s for c in calls), 3),
            "per_agent": per,
        }

    def to_list(self) -> list[dict]:
        return [asdict(c) for c in self.calls]
