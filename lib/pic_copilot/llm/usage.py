"""Records LLM calls, tokens and latency per agent for one request (the run record's numbers).

Where a call's time went (all optional: None when the endpoint does not report it, never a guess):

- ``prompt_eval_tokens``: prompt tokens the server evaluated for this call;
  ``cached_tokens``: prompt tokens it reused from its prompt cache (llama-server ``timings.cache_n``,
  OpenAI ``usage.prompt_tokens_details.cached_tokens``, Anthropic ``cache_read_input_tokens``).
- ``prompt_eval_s`` / ``gen_s``: the server's own prompt-evaluation and generation time
  (llama-server ``timings.prompt_ms`` / ``predicted_ms``).
- ``queue_s``: the successful attempt's wall time minus ``prompt_eval_s + gen_s``: time the request
  waited for a free slot (behind another client) plus HTTP and chat-template overhead, which is a few
  milliseconds on 127.0.0.1. Only when the server reported both times.
- ``ttft_s``: time to the first answer token: measured when streaming; for a non-streamed call with
  server timings, the attempt's wall time minus ``gen_s``; otherwise the call's latency (an upper bound).
"""
from __future__ import annotations

import threading
from dataclasses import asdict, dataclass

#: optional per-call figures that totals() sums (None when no call reported them)
TIMING_FIELDS = ("prompt_eval_tokens", "cached_tokens", "prompt_eval_s", "gen_s", "queue_s")


@dataclass
class CallRecord:
    """One chat call: who made it, what it cost, how long it took (see the module doc for the optional fields)."""

    agent: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    ttft_s: float
    attempts: int
    ok: bool
    error: str | None = None
    prompt_eval_tokens: int | None = None
    cached_tokens: int | None = None
    prompt_eval_s: float | None = None
    gen_s: float | None = None
    queue_s: float | None = None
    candidates: int = 1   # answers this call returned (k > 1: several completions of one prompt)


def _add(total, value):
    if value is None:
        return total
    return value if total is None else total + value


def _round(v):
    return round(v, 3) if isinstance(v, float) else v


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
        so a client shared by several requests can report one request's share).

        The optional figures (:data:`TIMING_FIELDS`) are sums over the calls that reported them, None
        when none did; ``timed_calls`` says how many calls reported the server's timings.
        """
        calls = self.calls[since:]
        per: dict[str, dict] = {}
        for c in calls:
            a = per.setdefault(c.agent, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "llm_time_s": 0.0,
                                         **{f: None for f in TIMING_FIELDS}})
            a["calls"] += 1
            a["prompt_tokens"] += c.prompt_tokens
            a["completion_tokens"] += c.completion_tokens
            a["llm_time_s"] = round(a["llm_time_s"] + c.latency_s, 3)
            for f in TIMING_FIELDS:
                a[f] = _round(_add(a[f], getattr(c, f)))
        out = {
            "calls": len(calls),
            "prompt_tokens": sum(c.prompt_tokens for c in calls),
            "completion_tokens": sum(c.completion_tokens for c in calls),
            "llm_time_s": round(sum(c.latency_s for c in calls), 3),
        }
        for f in TIMING_FIELDS:
            t = None
            for c in calls:
                t = _add(t, getattr(c, f))
            out[f] = _round(t)
        out["timed_calls"] = sum(1 for c in calls if c.gen_s is not None)
        out["per_agent"] = per
        return out

    def to_list(self) -> list[dict]:
        return [asdict(c) for c in self.calls]
