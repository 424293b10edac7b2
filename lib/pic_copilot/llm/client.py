"""LLM client on httpx: OpenAI-compatible chat completions and the Anthropic messages API.

:meth:`LLMClient.chat_candidates` asks for k answers to one prompt (the embedded llama-server
evaluates the prompt once and samples k answers in parallel slots). Every record says where the
call's time went when the server reports it (:mod:`pic_copilot.llm.usage`).

One method, :meth:`LLMClient.chat`, covers streaming and non-streaming calls, JSON-schema
structured output, bounded retries with backoff (429 honours ``Retry-After``; 5xx, dropped
streams, timeouts and connection errors are retried), cancellation, and usage recording.
The API key is sent in a header and never appears in an exception message or a record
(every error text goes through :func:`pic_copilot.redact.scrub`).

Every call has one deadline, ``Settings.timeout_s`` (``PIC_COPILOT_TIMEOUT``, config
``timeout``): connecting, every read and every retry together. A watchdog shuts the socket
when it passes, so an endpoint that trickles keep-alive comments, drips a byte at a time or
says nothing at all ends in :class:`LLMTimeoutError`; the same watchdog makes ``cancel``
act at once. An answer larger than ``MAX_ANSWER_BYTES`` is refused.
"""
from __future__ import annotations

import concurrent.futures
import email.utils
import json
import os
import random
import re
import socket
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

import httpx

from ..config import Settings
from ..redact import known_secrets, scrub
from .errors import (
    LLMAuthError, LLMCancelled, LLMConnectionError, LLMError, LLMProtocolError, LLMRateLimitError,
    LLMRequestError, LLMServerError, LLMStreamError, LLMTimeoutError,
)
from .usage import UsageRecorder

Message = dict  # {"role": "system"|"user"|"assistant", "content": str}
TokenCallback = Callable[[str | None], None]  # text delta; None means "the stream restarted"

MAX_RETRY_AFTER_S = 60.0
# largest answer body accepted (a 1024-token streamed answer is ~0.2 MB of SSE)
MAX_ANSWER_BYTES = int(float(os.environ.get("PIC_COPILOT_MAX_ANSWER_MB") or 8) * (1 << 20))
MAX_ERROR_BODY = 64 << 10


class _Watchdog:
    """Shuts the attempt's socket when the call's deadline passes or ``cancel`` is set, so a
    read blocked on a silent or trickling endpoint returns at once."""

    def __init__(self, deadline: float, cancel: threading.Event | None):
        self.deadline = deadline
        self.cancel = cancel
        self.fired: str | None = None  # "deadline" | "cancelled"
        self._streams: list = []
        self._done = threading.Event()
        self._t = threading.Thread(target=self._run, name="llm-deadline", daemon=True)
        self._t.start()

    def trace(self, name: str, info: dict) -> None:  # httpcore trace hook
        if name in ("connection.connect_tcp.complete", "connection.connect_unix_socket.complete",
                    "connection.start_tls.complete"):
            self._streams.append(info.get("return_value"))
            if self.fired:
                self._shut()

    def _run(self) -> None:
        while not self._done.wait(0.1):
            if self.cancel is not None and self.cancel.is_set():
                self.fired = "cancelled"
            elif time.monotonic() >= self.deadline:
                self.fired = "deadline"
            if self.fired:
                self._shut()
                return

    def _shut(self) -> None:
        for st in self._streams:
            try:
                sock = st.get_extra_info("socket")
                if sock is not None:
                    sock.shutdown(socket.SHUT_RDWR)
            except Exception:  # noqa: BLE001 - already closed
                pass

    def check(self) -> None:
        if self.fired == "cancelled" or (self.cancel is not None and self.cancel.is_set()):
            raise LLMCancelled("request cancelled")

    def stop(self) -> None:
        self._done.set()


class _RetryNow(LLMError, kind="retry-now", retryable=True):
    """Internal: repeat the request at once with a different structured-output style."""


@dataclass
class ChatResult:
    """What one chat call returned.

    Attributes:
        text: the assistant's full answer.
        model: model name the server reported.
        prompt_tokens / completion_tokens: usage as reported (or estimated when absent).
        latency_s: wall time of the successful attempt, request to last byte.
        ttft_s: time to the first content token (streaming), else equal to latency_s.
        finish_reason: "stop", "length", ...
        attempts: how many HTTP attempts it took.
        prompt_eval_tokens / cached_tokens / prompt_eval_s / gen_s / queue_s: where the time went, as the
            server reported it (None when it did not; see pic_copilot.llm.usage).
        alternatives: the other answers when several were asked for in one call (chat_candidates).
    """

    text: str
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    ttft_s: float = 0.0
    finish_reason: str | None = None
    attempts: int = 1
    extra: dict = field(default_factory=dict)
    prompt_eval_tokens: int | None = None
    cached_tokens: int | None = None
    prompt_eval_s: float | None = None
    gen_s: float | None = None
    queue_s: float | None = None
    alternatives: list["ChatResult"] = field(default_factory=list)


def _server_accounting(usage: dict | None, timings: dict | None) -> dict:
    """Prompt tokens evaluated/reused and the server's own times, from what the endpoint reported.

    llama.cpp's server: ``timings`` {prompt_n, cache_n, prompt_ms, predicted_ms}; OpenAI-style
    ``usage.prompt_tokens_details.cached_tokens``; Anthropic ``usage.cache_read_input_tokens``.
    Absent figures stay absent (no estimates).
    """
    out: dict = {}
    u = usage or {}
    t = timings or {}
    if isinstance(t.get("prompt_n"), (int, float)) and t["prompt_n"] >= 0:
        out["prompt_eval_tokens"] = int(t["prompt_n"])
    if isinstance(t.get("cache_n"), (int, float)) and t["cache_n"] >= 0:
        out["cached_tokens"] = int(t["cache_n"])
    if isinstance(t.get("prompt_ms"), (int, float)):
        out["prompt_eval_s"] = round(t["prompt_ms"] / 1000.0, 4)
    if isinstance(t.get("predicted_ms"), (int, float)):
        out["gen_s"] = round(t["predicted_ms"] / 1000.0, 4)
    cached = (u.get("prompt_tokens_details") or {}).get("cached_tokens")
    if "cached_tokens" not in out and isinstance(cached, int):
        out["cached_tokens"] = cached
        if isinstance(u.get("prompt_tokens"), int):
            out["prompt_eval_tokens"] = max(0, u["prompt_tokens"] - cached)
    if "cached_tokens" not in out and isinstance(u.get("cache_read_input_tokens"), int):
        out["cached_tokens"] = u["cache_read_input_tokens"]
    return out


def _with_answers(acc: dict, others: dict[int, dict], **kw) -> "ChatResult":
    """The streamed result: the first answer with its accounting, the other answers (n > 1) as alternatives."""
    alternatives = []
    for i in sorted(others):
        o = others[i]
        u, tm = o.get("acc") or ({}, None)
        alt = "".join(o["parts"])
        alternatives.append(ChatResult(
            text=alt, model=kw["model"], prompt_tokens=u.get("prompt_tokens", kw["prompt_tokens"]),
            completion_tokens=u.get("completion_tokens") or _estimate_tokens(alt), latency_s=kw["latency_s"],
            ttft_s=kw["ttft_s"], finish_reason=o.get("finish"), **_server_accounting(u, tm)))
    return ChatResult(**kw, **acc, alternatives=alternatives)


def _finish_accounting(result: "ChatResult", streamed: bool) -> None:
    """Queue time and (unstreamed) time to first token from the attempt's wall time and the server's times."""
    if result.prompt_eval_s is not None and result.gen_s is not None:
        result.queue_s = round(max(0.0, result.latency_s - result.prompt_eval_s - result.gen_s), 4)
    if not streamed and result.gen_s is not None:
        result.ttft_s = round(max(0.0, result.latency_s - result.gen_s), 4)


def _retry_after_seconds(value: str | None) -> float | None:
    """Parse a Retry-After header (delta-seconds or HTTP-date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4) if text else 0


class LLMClient:
    """Talks to one endpoint described by :class:`Settings`.

    Args:
        settings: endpoint, key, model and limits.
        usage: where calls, tokens and latency are recorded (a fresh recorder if None).
        transport: optional httpx transport (tests).
        reconnect: for an endpoint the engine manages (the embedded server): returns a fresh base URL,
            restarting the server, when the old one refuses connections; tried once per call.
    """

    def __init__(self, settings: Settings, usage: UsageRecorder | None = None,
                 transport: httpx.BaseTransport | None = None, reconnect: Callable[[], str] | None = None):
        if not settings.base_url:
            raise LLMRequestError("no LLM endpoint configured (base_url is empty)")
        self.settings = settings
        self.usage = usage or UsageRecorder()
        timeout = httpx.Timeout(settings.timeout_s, connect=settings.connect_timeout_s)
        # no connection reuse: each attempt connects, so its socket is known to the watchdog
        self._http = httpx.Client(timeout=timeout, transport=transport,
                                  limits=httpx.Limits(max_keepalive_connections=0))
        self._secrets = [k for k in {settings.api_key, *known_secrets()} if k and len(k) >= 4]
        # the structured-output style the endpoint accepts, found on first use
        self._json_style: str | None = "json_object" if settings.provider == "local" else None
        self._prompt_estimate = 0
        self._reconnect = reconnect
        self._slots: int | None = None   # the embedded server's parallel slots, asked on first use

    def close(self) -> None:
        self._http.close()

    @property
    def continues_answers(self) -> bool:
        """A chat that ends with an assistant message is answered by continuing that message:
        Anthropic's Messages API does so itself; for the embedded llama-server (whose chat endpoint
        starts a new message) the chat is rendered with the model's own template and completed
        (see _continuation_request); an OpenAI-style endpoint starts a new message."""
        return self.settings.provider in ("local", "anthropic")

    def _server_root(self) -> str:
        root = self._where()
        return root[:-3] if root.endswith("/v1") else root

    # ------------------------------------------------------------------ public
    def chat(self, messages: list[Message], *, agent: str = "default", json_schema: dict | None = None,
             stream: bool = False, on_token: TokenCallback | None = None, temperature: float | None = None,
             max_tokens: int | None = None, cancel: threading.Event | None = None,
             seed: int | None = None, slot: int | None = None, n: int = 1) -> ChatResult:
        """Send a chat request and return the answer.

        Args:
            messages: chat history, system message first if any.
            agent: agent name, used for the per-agent model override and the usage record.
            json_schema: when given, ask the server to constrain the answer to this JSON schema.
            stream: stream the answer (``on_token`` receives each text delta).
            on_token: callback for streamed text; receives None when a retry restarts the stream.
            temperature / max_tokens: override the agent's defaults.
            cancel: set this event to abort the call (checked between streamed chunks and retries).
            seed: sampling seed (default: Settings.seed), passed through when set.
            slot: the embedded server's slot to run in (``id_slot``), so an agent's prompt prefix stays cached
                there; ignored by other endpoints and by a server without slots.
            n: answers to sample from one evaluation of the prompt (see chat_candidates); the first is
                returned, the others are in ``alternatives``.

        Raises:
            LLMError subclasses: one per failure kind; retryable ones only after the retries ran out.
        """
        spec = self.settings.for_agent(agent)
        params = {
            "model": spec.model,
            "temperature": spec.temperature if temperature is None else temperature,
            "max_tokens": max_tokens or spec.max_tokens,
        }
        seed = self.settings.seed if seed is None else seed
        if seed is not None:
            params["seed"] = seed
        if n > 1:
            params["n"] = n
        if slot is not None and self.settings.provider == "local" and self.server_slots() > 0:
            params["id_slot"] = int(slot) % self.server_slots()
        # stream internally whenever cancellation is possible, so Stop acts within a chunk;
        # stream internally for several answers too: each one's final chunk carries its own usage
        use_stream = stream or cancel is not None or n > 1
        attempts = 0
        reconnected = False
        t_start = time.monotonic()
        deadline = t_start + max(1.0, float(self.settings.timeout_s))
        while True:
            attempts += 1
            if cancel is not None and cancel.is_set():
                raise LLMCancelled("request cancelled")
            try:
                if time.monotonic() >= deadline:
                    raise self._deadline_error(deadline - t_start, "before an attempt could start")
                result = self._once(messages, params, json_schema, use_stream, on_token, cancel, deadline, t_start)
                result.attempts = attempts
                self._record_ok(agent, result.model or spec.model, result, use_stream, time.monotonic() - t_start)
                return result
            except _RetryNow:
                attempts -= 1
                continue
            except LLMError as e:
                if isinstance(e, LLMConnectionError) and self._reconnect is not None and not reconnected:
                    # the embedded server was stopped or died: start it again and go on
                    reconnected = True
                    self._slots = None   # the new server may have other slots
                    self.settings = replace(self.settings, base_url=self._reconnect())
                    continue
                delay = self._backoff(attempts, e) if e.retryable else 0.0
                out_of_time = e.retryable and time.monotonic() + delay >= deadline
                if not e.retryable or attempts > self.settings.max_retries or out_of_time:
                    self.usage.record(agent=agent, model=spec.model, prompt_tokens=0, completion_tokens=0,
                                      latency_s=time.monotonic() - t_start, ttft_s=0.0, attempts=attempts,
                                      ok=False, error=e.kind)
                    if e.retryable:
                        why = (f"gave up after {attempts} attempts" if not out_of_time or isinstance(e, LLMTimeoutError)
                               else f"gave up after {attempts} attempts: the {self.settings.timeout_s:.0f} s deadline "
                                    f"leaves no time for another (PIC_COPILOT_TIMEOUT / config 'timeout')")
                        if "gave up after" in str(e):
                            raise
                        raise type(e)(f"{e} ({why})", status=e.status) if not isinstance(e, LLMRateLimitError) \
                            else LLMRateLimitError(f"{e} ({why})", retry_after=e.retry_after)
                    raise
                if on_token is not None and use_stream:
                    on_token(None)
                self._sleep(delay, cancel)

    def chat_candidates(self, messages: list[Message], k: int, *, agent: str = "default",
                        json_schema: dict | None = None, temperature: float | None = None,
                        temperatures: list[float] | None = None, max_tokens: int | None = None,
                        cancel: threading.Event | None = None, seed: int | None = None,
                        slot: int | None = None) -> list[ChatResult]:
        """k answers to the same messages, sampled with different seeds (and temperatures when given).

        On the embedded llama-server with one temperature for all, this is one request with ``n=k``: the
        prompt is evaluated once and the k answers are generated side by side in parallel slots. Otherwise
        (other endpoints, a temperature per candidate, more candidates than slots) the k calls run
        concurrently; a server with parallel slots then batches them, one without queues them.

        Args:
            messages / agent / json_schema / max_tokens / cancel: as for :meth:`chat`.
            k: how many answers (1 is a plain chat call).
            temperature: one temperature for all (default: the agent's).
            temperatures: one per candidate (length k); forces k separate requests.
            seed: the first candidate's seed; candidate i uses seed + i (default: Settings.seed, else 1).
            slot: the slot of the first candidate (see :meth:`chat`).

        Returns:
            k results in candidate order (each with its own text and tokens).
        """
        if k < 1:
            raise ValueError("k must be at least 1")
        if temperatures is not None and len(temperatures) != k:
            raise ValueError("temperatures must have one value per candidate")
        base = self.settings.seed if seed is None else seed
        base = 1 if base is None else base
        kw = dict(agent=agent, json_schema=json_schema, max_tokens=max_tokens, cancel=cancel)
        same_t = temperatures is None or len(set(temperatures)) == 1
        t_all = temperatures[0] if temperatures else temperature
        if k == 1:
            return [self.chat(messages, temperature=t_all, seed=base, slot=slot, **kw)]
        if same_t and self.settings.provider == "local" and k <= self.server_slots():
            first = self.chat(messages, temperature=t_all, seed=base, slot=slot, n=k, **kw)
            out = [first, *first.alternatives]
            if len(out) == k:
                return out
            # a server that ignored n: ask for the missing ones separately
            return out + self._concurrent(messages, [t_all] * (k - len(out)),
                                          [base + i for i in range(len(out), k)], None, kw)
        temps = list(temperatures) if temperatures is not None else [temperature] * k
        return self._concurrent(messages, temps, [base + i for i in range(k)], slot, kw)

    def _concurrent(self, messages, temps, seeds, slot, kw) -> list[ChatResult]:
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(temps)) as ex:
            futs = [ex.submit(self.chat, messages, temperature=t, seed=s, slot=slot if i == 0 else None, **kw)
                    for i, (t, s) in enumerate(zip(temps, seeds))]
            return [f.result() for f in futs]

    def server_slots(self) -> int:
        """Parallel slots of the embedded server (llama-server's /props ``total_slots``), 0 if it has none.

        Asked once per client; only for the local provider (other endpoints are not probed)."""
        if self._slots is None:
            self._slots = 0
            if self.settings.provider == "local":
                try:
                    r = self._http.get(self._server_root() + "/props", timeout=5.0)
                    if r.status_code == 200:
                        self._slots = int(r.json().get("total_slots") or 0)
                except (httpx.HTTPError, ValueError, TypeError, AttributeError):
                    self._slots = 0
        return self._slots

    def _record_ok(self, agent: str, model: str, result: ChatResult, streamed: bool, latency: float) -> None:
        answers = [result, *result.alternatives]
        gens = [r.gen_s for r in answers if r.gen_s is not None]
        if len(answers) > 1 and gens:   # the answers were generated side by side: the call took the longest
            result.gen_s = max(gens)
        _finish_accounting(result, streamed)
        self.usage.record(agent=agent, model=model, prompt_tokens=result.prompt_tokens,
                          completion_tokens=sum(r.completion_tokens for r in answers), latency_s=latency,
                          ttft_s=result.ttft_s, attempts=result.attempts, ok=True,
                          prompt_eval_tokens=result.prompt_eval_tokens, cached_tokens=result.cached_tokens,
                          prompt_eval_s=result.prompt_eval_s, gen_s=result.gen_s, queue_s=result.queue_s,
                          candidates=len(answers))

    # ------------------------------------------------------------------ internals
    @staticmethod
    def _backoff(attempt: int, err: LLMError) -> float:
        """Seconds to wait before the next attempt: Retry-After when given, else capped exponential."""
        if isinstance(err, LLMRateLimitError) and err.retry_after is not None:
            return min(err.retry_after, MAX_RETRY_AFTER_S)
        return min(8.0, 0.5 * 2 ** (attempt - 1)) * (0.8 + 0.4 * random.random())

    @staticmethod
    def _sleep(delay: float, cancel: threading.Event | None) -> None:
        if cancel is None:
            time.sleep(delay)
        elif cancel.wait(delay):
            raise LLMCancelled("request cancelled")

    def _deadline_error(self, limit: float, how: str) -> LLMTimeoutError:
        return LLMTimeoutError(
            f"LLM endpoint {self._where()} gave no complete answer within {limit:.0f} s ({how}); "
            f"if it is just slow, raise the deadline: PIC_COPILOT_TIMEOUT=<seconds> or 'timeout = <seconds>' "
            f"in {_config_hint()}")

    def _once(self, messages, params, json_schema, stream, on_token, cancel, deadline, t_start) -> ChatResult:
        if self.settings.provider == "anthropic":
            url, headers, body = self._anthropic_request(messages, params, json_schema, stream)
        elif self.settings.provider == "local" and messages and messages[-1]["role"] == "assistant":
            url, headers, body = self._continuation_request(messages, params, stream)
        else:
            url, headers, body = self._openai_request(messages, params, json_schema, stream)
        self._prompt_estimate = sum(_estimate_tokens(str(m.get("content", ""))) for m in messages)
        t0 = time.monotonic()
        remaining = max(0.05, deadline - t0)
        timeout = httpx.Timeout(remaining, connect=min(self.settings.connect_timeout_s, remaining))
        dog = _Watchdog(deadline, cancel)
        try:
            with self._http.stream("POST", url, headers=headers, json=body, timeout=timeout,
                                   extensions={"trace": dog.trace}) as resp:
                if resp.status_code >= 400:
                    data = self._read_body(resp, dog, MAX_ERROR_BODY, truncate=True)
                    self._raise_for_status(resp, data)
                if not stream:
                    return self._parse_full(self._read_body(resp, dog, MAX_ANSWER_BYTES), t0)
                return self._parse_stream(resp, t0, on_token, dog)
        except (httpx.TimeoutException, httpx.TransportError) as e:
            dog.check()
            if dog.fired == "deadline" or isinstance(e, httpx.TimeoutException) and time.monotonic() >= deadline - 0.05:
                raise self._deadline_error(deadline - t_start, f"{type(e).__name__} after {time.monotonic() - t0:.0f} s "
                                           "of this attempt") from None
            if isinstance(e, httpx.TimeoutException):
                raise LLMTimeoutError(f"LLM endpoint {self._where()} did not answer in time ({type(e).__name__})") from None
            if isinstance(e, httpx.ConnectError):
                raise LLMConnectionError(self._scrub(f"cannot reach the LLM endpoint {self._where()}: {e}")) from None
            raise LLMStreamError(f"connection to {self._where()} broke during the answer: {type(e).__name__}") from None
        except LLMError:
            raise
        except Exception as e:  # noqa: BLE001 - a socket shut by the watchdog mid-parse
            dog.check()
            if dog.fired == "deadline":
                raise self._deadline_error(deadline - t_start, type(e).__name__) from None
            raise
        finally:
            dog.stop()

    def _scrub(self, text: str) -> str:
        return scrub(text, self._secrets)

    def _read_body(self, resp: httpx.Response, dog: _Watchdog, limit: int, truncate: bool = False) -> bytes:
        """The body, chunk by chunk (cancel and the deadline act between chunks), at most ``limit`` bytes."""
        buf = bytearray()
        for chunk in resp.iter_bytes():
            dog.check()
            buf += chunk
            if len(buf) > limit:
                if truncate:
                    return bytes(buf[:limit])
                raise LLMProtocolError(f"{self._where()} sent an answer larger than {limit >> 20} MiB; refused "
                                       "(PIC_COPILOT_MAX_ANSWER_MB raises the limit)")
        if dog.fired == "deadline":
            raise httpx.ReadError("deadline")
        return bytes(buf)

    def _where(self) -> str:
        return self.settings.base_url.rstrip("/")

    # -- OpenAI-compatible
    def _continuation_request(self, messages, params, stream):
        """The embedded server's completion of a chat's final assistant message: the chat before it
        in the model's own template (llama-server's /apply-template, which ends with the assistant's
        turn opened), then that message's text, completed by /v1/completions."""
        try:
            r = self._http.post(self._server_root() + "/apply-template", json={"messages": messages[:-1]},
                                timeout=httpx.Timeout(30.0, connect=self.settings.connect_timeout_s))
        except httpx.ConnectError as e:
            raise LLMConnectionError(self._scrub(f"cannot reach the LLM endpoint {self._where()}: {e}")) from None
        except httpx.HTTPError as e:
            raise LLMTimeoutError(f"LLM endpoint {self._where()} did not render the chat ({type(e).__name__})") from None
        self._raise_for_status(r, r.content)
        try:
            prompt = r.json()["prompt"] + messages[-1]["content"]
        except (ValueError, KeyError, TypeError):
            raise LLMProtocolError(f"{self._where()}/apply-template answered without a prompt") from None
        body = {"prompt": prompt, **params, "stream": stream}
        if stream:
            body["stream_options"] = {"include_usage": True}
        return self._where() + "/completions", {"Content-Type": "application/json"}, body

    def _openai_request(self, messages, params, json_schema, stream):
        url = self._where() + "/chat/completions"
        headers = {"Content-Type": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        body = {"messages": messages, **params, "stream": stream}
        if stream:
            body["stream_options"] = {"include_usage": True}
        if json_schema is not None:
            style = self._json_style or "json_schema"
            if style == "json_schema":
                body["response_format"] = {"type": "json_schema",
                                           "json_schema": {"name": "answer", "schema": json_schema, "strict": True}}
            elif style == "json_object":
                body["response_format"] = {"type": "json_object", "schema": json_schema}
        return url, headers, body

    # -- Anthropic
    def _anthropic_request(self, messages, params, json_schema, stream):
        url = self._where() + "/v1/messages"
        headers = {"Content-Type": "application/json", "anthropic-version": "2023-06-01"}
        if self.settings.api_key:
            headers["x-api-key"] = self.settings.api_key
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        if json_schema is not None:
            system += ("\n\nAnswer with one JSON object only, no prose, that matches this JSON schema:\n"
                       + json.dumps(json_schema))
        turns = [m for m in messages if m["role"] != "system"]
        if turns and turns[-1]["role"] == "assistant":   # an answer to continue may not end in white space
            turns[-1] = dict(turns[-1], content=turns[-1]["content"].rstrip())
        body = {"model": params["model"], "max_tokens": params["max_tokens"], "temperature": params["temperature"],
                "messages": turns, "stream": stream}
        if system:
            body["system"] = system
        return url, headers, body

    def _raise_for_status(self, resp: httpx.Response, data: bytes = b"") -> None:
        code = resp.status_code
        if code < 400:
            return
        # the body is the endpoint's text: it may echo the request's Authorization header
        detail = self._scrub(data.decode("utf-8", "replace"))[:300]
        where = self._where()
        if code in (400, 422, 500) and "response_format" in detail and self._json_style != "none":
            # the server does not know this structured-output style (llama.cpp answers 500): try the next one
            self._json_style = {None: "json_object", "json_schema": "json_object", "json_object": "none"}[self._json_style]
            raise _RetryNow("retry with another structured-output style")
        if code == 429:
            raise LLMRateLimitError(f"rate limited by {where} (HTTP 429)",
                                    retry_after=_retry_after_seconds(resp.headers.get("retry-after")))
        if code in (401, 403):
            raise LLMAuthError(f"{where} refused the credentials (HTTP {code}); check the API key", status=code)
        if code >= 500:
            raise LLMServerError(f"{where} failed with HTTP {code}: {detail}", status=code)
        raise LLMRequestError(f"{where} rejected the request (HTTP {code}): {detail}", status=code)

    def _parse_full(self, raw: bytes, t0: float) -> ChatResult:
        latency = time.monotonic() - t0
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            shown = self._scrub(raw[:200].decode("utf-8", "replace"))
            raise LLMProtocolError(f"{self._where()} answered with invalid JSON: {shown!r}") from None
        try:
            if self.settings.provider == "anthropic":
                text = "".join(b.get("text", "") for b in data["content"] if b.get("type") == "text")
                u = data.get("usage") or {}
                return ChatResult(text=text, model=data.get("model", ""), prompt_tokens=u.get("input_tokens", 0),
                                  completion_tokens=u.get("output_tokens", 0), latency_s=latency, ttft_s=latency,
                                  finish_reason=data.get("stop_reason"), **_server_accounting(u, None))
            choice = data["choices"][0]
            text = (choice["message"].get("content") if "message" in choice else choice.get("text")) or ""
            u = data.get("usage") or {}
            return ChatResult(text=text, model=data.get("model", ""),
                              prompt_tokens=u.get("prompt_tokens", 0),
                              completion_tokens=u.get("completion_tokens", _estimate_tokens(text)),
                              latency_s=latency, ttft_s=latency, finish_reason=choice.get("finish_reason"),
                              **_server_accounting(u, data.get("timings")))
        except (KeyError, IndexError, TypeError, AttributeError):
            raise LLMProtocolError(self._scrub(f"{self._where()} answered without the expected fields: {str(data)[:200]}")) from None

    def _lines(self, resp: httpx.Response, dog: _Watchdog) -> Iterator[str]:
        """The body's lines; control returns after every chunk, however little arrives."""
        buf = b""
        total = 0
        for chunk in resp.iter_bytes():
            dog.check()
            total += len(chunk)
            if total > MAX_ANSWER_BYTES:
                raise LLMProtocolError(f"{self._where()} streamed more than {MAX_ANSWER_BYTES >> 20} MiB; refused "
                                       "(PIC_COPILOT_MAX_ANSWER_MB raises the limit)")
            buf += chunk
            while True:
                i = buf.find(b"\n")
                if i < 0:
                    break
                line, buf = buf[:i], buf[i + 1:]
                yield line.rstrip(b"\r").decode("utf-8", "replace")
        if dog.fired == "deadline":
            raise httpx.ReadError("deadline")
        if buf:
            yield buf.decode("utf-8", "replace")

    def _sse_events(self, resp: httpx.Response, dog: _Watchdog) -> Iterator[dict | str]:
        for line in self._lines(resp, dog):
            if not line or line.startswith(":") or line.startswith("event:"):
                continue
            if not line.startswith("data:"):
                continue
            payload = line[5:].strip()
            if payload == "[DONE]":
                yield "[DONE]"
                return
            try:
                yield json.loads(payload)
            except json.JSONDecodeError:
                raise LLMProtocolError(self._scrub(f"{self._where()} streamed invalid JSON: {payload[:200]!r}")) from None

    def _parse_stream(self, resp, t0, on_token, dog: _Watchdog) -> ChatResult:
        parts: list[str] = []
        ttft = None
        acc: dict = {}
        others: dict[int, dict] = {}   # answers 1.. of a call with n > 1
        last_done = 0                  # the answer whose last chunk came last (its usage chunk follows it)
        model = ""
        usage_in = usage_out = 0
        finish = None
        complete = False
        anthropic = self.settings.provider == "anthropic"
        for ev in self._sse_events(resp, dog):
            if ev == "[DONE]":
                complete = True
                break
            delta = ""
            if anthropic:
                t = ev.get("type")
                if t == "message_start":
                    msg = ev.get("message", {})
                    model = msg.get("model", model)
                    usage_in = (msg.get("usage") or {}).get("input_tokens", 0)
                    acc = _server_accounting(msg.get("usage"), None)
                elif t == "content_block_delta":
                    delta = (ev.get("delta") or {}).get("text", "")
                elif t == "message_delta":
                    usage_out = (ev.get("usage") or {}).get("output_tokens", usage_out)
                    finish = (ev.get("delta") or {}).get("stop_reason", finish)
                elif t == "message_stop":
                    complete = True
                    break
                elif t == "error":
                    raise LLMServerError(self._scrub(f"{self._where()} reported an error mid-stream: {ev.get('error')}"))
            else:
                model = ev.get("model", model) or model
                if (ev.get("usage") or ev.get("timings")) and last_done:
                    others.setdefault(last_done, {"parts": []})["acc"] = (ev.get("usage") or {}, ev.get("timings"))
                elif ev.get("usage") or ev.get("timings"):
                    usage_in = (ev.get("usage") or {}).get("prompt_tokens", usage_in)
                    usage_out = (ev.get("usage") or {}).get("completion_tokens", usage_out)
                    acc = _server_accounting(ev.get("usage"), ev.get("timings"))
                for ch in ev.get("choices") or []:
                    i = ch.get("index") or 0
                    text_i = ((ch.get("delta") or {}).get("content") if "delta" in ch else ch.get("text")) or ""
                    if i:
                        o = others.setdefault(i, {"parts": []})
                        o["parts"].append(text_i)
                        o["finish"] = ch.get("finish_reason") or o.get("finish")
                        if text_i and ttft is None:
                            ttft = time.monotonic() - t0
                    else:
                        delta += text_i
                        finish = ch.get("finish_reason") or finish
                    if ch.get("finish_reason"):
                        last_done = i
            if delta:
                if ttft is None:
                    ttft = time.monotonic() - t0
                parts.append(delta)
                if on_token is not None:
                    on_token(delta)
                if len(parts) % 8 == 0 and runaway("".join(parts[-400:])):
                    finish, complete = RUNAWAY, True   # leaving the stream closes it: the server stops generating
                    break
        if not complete:
            raise LLMStreamError(f"the answer from {self._where()} stopped before it was complete")
        text = "".join(parts)
        latency = time.monotonic() - t0
        if not usage_in:  # llama.cpp does not report usage while streaming: estimate it
            usage_in = self._prompt_estimate
        return _with_answers(acc, others, text=text, model=model, prompt_tokens=usage_in,
                          completion_tokens=usage_out or _estimate_tokens(text), latency_s=latency,
                          ttft_s=ttft if ttft is not None else latency, finish_reason=finish)


#: the finish reason of an answer stopped because it repeated itself (see :func:`runaway`)
RUNAWAY = "repetition"
RUNAWAY_CHARS = 160   # a unit of at most 8 characters repeated over this many characters at the end
RUNAWAY_LINES = 10    # or this many identical lines in a row
RUNAWAY_BLOCK = 4     # or a block of up to this many lines repeated, over 12 lines
RUNAWAY_REPEATS = 4   # and at least this many times
RUNAWAY_IMPORTS = 12  # or this many imports from one module in a row
_IMPORT_FROM = re.compile(r"\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+))")


def runaway(tail: str) -> bool:
    """Whether a streamed answer has fallen into a loop a small model does not leave: a short unit
    repeated to the end (a real a03 answer ended in ~900 tokens of "000..."), or one line or a
    block of a few lines written again and again. Such an answer runs to the length limit, a minute or more of generation on 2
    cores, and is cut off anyway; stopping it early gives the same "cut off" revision sooner.

    Args:
        tail: the end of the answer so far (a few hundred characters are enough).
    """
    t = tail[-RUNAWAY_CHARS:]
    if len(t) == RUNAWAY_CHARS and any(t == (t[:p] * (RUNAWAY_CHARS // p + 1))[:RUNAWAY_CHARS] for p in range(1, 9)):
        return True
    whole = tail.split("\n")[:-1]   # whole lines only
    lines = whole[-RUNAWAY_LINES:]
    if len(lines) == RUNAWAY_LINES and len(set(lines)) == 1 and len(lines[0].strip()) >= 4:
        return True
    # a block of a few lines written again and again (a real a12 answer repeated two lines to the
    # length limit): the same statements in the same order do nothing the first time did not
    for p in range(2, RUNAWAY_BLOCK + 1):
        lines = whole[-max(RUNAWAY_LINES + 2, RUNAWAY_REPEATS * p):]
        if (len(lines) == max(RUNAWAY_LINES + 2, RUNAWAY_REPEATS * p) and len(set(lines)) > 1
                and all(lines[i] == lines[i + p] for i in range(len(lines) - p))
                and any(len(x.strip()) >= 4 for x in lines)):
            return True
    # invented names imported one after another (a real a07 answer: 1024 tokens of
    # "from gdsfactory.pdk.standard import get_layer_grid_grid_...")
    modules = [m and (m.group(1) or m.group(2)) for m in map(_IMPORT_FROM.match, whole[-RUNAWAY_IMPORTS:])]
    return len(modules) == RUNAWAY_IMPORTS and modules[0] is not None and len(set(modules)) == 1


def _config_hint() -> str:
    from ..config import config_path
    return str(config_path())
