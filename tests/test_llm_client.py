"""The LLM client against a scripted OpenAI-compatible server that injects faults.

Each fault ends in a clear error type or a successful retry, never a hang: every test
runs under a wall-clock bound enforced by the client's own timeouts.
"""
import json
import socket
import threading
import time
from dataclasses import replace

import pytest

from pic_copilot.config import Settings, load_settings
from pic_copilot.llm import (
    LLMAuthError, LLMCancelled, LLMClient, LLMConnectionError, LLMProtocolError, LLMRateLimitError,
    LLMServerError, LLMStreamError, LLMTimeoutError,
)
from pic_copilot.testing.scripted_llm import ScriptedLLM

MSG = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]
SECRET = "sk-test-SECRET-0123456789"


def client_for(srv, **kw):
    s = Settings(provider="openai", base_url=srv.base_url, api_key=SECRET, model="m", timeout_s=kw.pop("timeout_s", 5),
                 connect_timeout_s=2, max_retries=kw.pop("max_retries", 3))
    return LLMClient(s)


@pytest.mark.parametrize("stream", [False, True])
def test_plain_answer_and_usage(stream):
    with ScriptedLLM([{"content": "hi there, designer"}]) as srv:
        c = client_for(srv)
        tokens = []
        r = c.chat(MSG, agent="programmer", stream=stream, on_token=tokens.append)
        assert r.text == "hi there, designer"
        assert r.completion_tokens > 0
        if stream:
            assert "".join(t for t in tokens if t) == r.text and len(tokens) >= 2
            assert srv.requests[0]["stream"] is True
        assert srv.requests[0]["model"] == "m"
        tot = c.usage.totals()
        assert tot["calls"] == 1 and tot["per_agent"]["programmer"]["calls"] == 1


def test_429_honours_retry_after_then_succeeds():
    with ScriptedLLM([{"status": 429, "headers": {"Retry-After": "1"}}, {"content": "ok"}]) as srv:
        c = client_for(srv)
        t0 = time.monotonic()
        r = c.chat(MSG)
        waited = time.monotonic() - t0
        assert r.text == "ok" and r.attempts == 2
        assert 0.9 <= waited < 4, waited


def test_429_forever_gives_clear_error():
    with ScriptedLLM([{"status": 429, "headers": {"Retry-After": "0"}}]) as srv:
        with pytest.raises(LLMRateLimitError, match="gave up after 3 attempts"):
            client_for(srv, max_retries=2).chat(MSG)
        assert len(srv.requests) == 3


def test_500_retried_then_ok():
    with ScriptedLLM([{"status": 500}, {"status": 503}, {"content": "fine"}]) as srv:
        r = client_for(srv).chat(MSG, stream=True)
        assert r.text == "fine" and r.attempts == 3


def test_500_forever_is_server_error():
    with ScriptedLLM([{"status": 500}]) as srv:
        with pytest.raises(LLMServerError, match="HTTP 500"):
            client_for(srv, max_retries=1).chat(MSG)


def test_dropped_stream_is_retried_and_restart_signalled():
    steps = [{"content": "a" * 100, "drop_after": 2}, {"content": "complete answer"}]
    with ScriptedLLM(steps) as srv:
        seen = []
        r = client_for(srv).chat(MSG, stream=True, on_token=seen.append)
        assert r.text == "complete answer"
        assert None in seen  # the panel is told to clear the partial text
        assert "".join(t for t in seen[seen.index(None) + 1:] if t) == "complete answer"


def test_dropped_stream_forever_is_stream_error():
    with ScriptedLLM([{"content": "a" * 100, "drop_after": 1}]) as srv:
        with pytest.raises(LLMStreamError):
            client_for(srv, max_retries=1).chat(MSG, stream=True)


def test_timeout_is_timeout_error_not_hang():
    with ScriptedLLM([{"delay": 3, "content": "late"}]) as srv:
        t0 = time.monotonic()
        with pytest.raises(LLMTimeoutError):
            client_for(srv, timeout_s=0.5, max_retries=1).chat(MSG)
        assert time.monotonic() - t0 < 5


def test_invalid_json_body_is_protocol_error():
    with ScriptedLLM([{"raw": "<html>oops</html>"}]) as srv:
        with pytest.raises(LLMProtocolError, match="invalid JSON"):
            client_for(srv).chat(MSG)
        assert len(srv.requests) == 1  # not retried: retrying would not help


def test_invalid_json_in_stream_is_protocol_error():
    with ScriptedLLM([{"content": "abc", "invalid_chunk": True}]) as srv:
        with pytest.raises(LLMProtocolError, match="streamed invalid JSON"):
            client_for(srv).chat(MSG, stream=True)


def test_connection_refused_is_connection_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    c = LLMClient(Settings(provider="openai", base_url=f"http://127.0.0.1:{port}/v1", api_key=SECRET, max_retries=1))
    t0 = time.monotonic()
    with pytest.raises(LLMConnectionError, match="cannot reach") as ei:
        c.chat(MSG)
    assert SECRET not in str(ei.value)
    assert time.monotonic() - t0 < 5


def test_auth_error_not_retried_and_key_not_in_message():
    with ScriptedLLM([{"status": 401}]) as srv:
        with pytest.raises(LLMAuthError) as ei:
            client_for(srv).chat(MSG)
        assert SECRET not in str(ei.value) and len(srv.requests) == 1


def test_cancel_stops_stream_within_a_second():
    steps = [{"content": "x" * 2000, "chunk_chars": 4, "chunk_delay": 0.01}]
    with ScriptedLLM(steps) as srv:
        cancel = threading.Event()
        threading.Timer(0.3, cancel.set).start()
        t0 = time.monotonic()
        with pytest.raises(LLMCancelled):
            client_for(srv).chat(MSG, cancel=cancel)
        assert time.monotonic() - t0 < 1.3


def test_an_answer_that_loops_is_stopped_early_as_cut_off():
    """A real a03 answer ended in ~900 tokens of "000..." (a minute of generation on 2 cores, then cut
    off anyway): the client stops reading at the loop and reports it as a cut-off."""
    from pic_copilot.agents.evaluator import CUT_OFF
    from pic_copilot.llm.client import RUNAWAY, runaway

    start = "```python\nimport json\ndensity = 1 / 25"
    steps = [{"content": start + "0" * 4000, "chunk_chars": 4, "chunk_delay": 0.002}]
    with ScriptedLLM(steps) as srv:
        r = client_for(srv).chat(MSG, stream=True)
    assert r.finish_reason == RUNAWAY and RUNAWAY in CUT_OFF
    assert r.text.startswith(start) and len(r.text) < len(start) + 600
    lines = "    ref = c << gf.components.straight(length=10)\n"
    assert runaway("x = 1\n" + lines * 10) and not runaway("x = 1\n" + lines * 9)
    # a block of two lines again and again (a real a12 answer, to the length limit)
    block = "    if shape.area() < 0.001:\n        shape.delete()\n"
    assert runaway("x = 1\n" + block * 6) and not runaway("x = 1\n" + block * 5)
    four = "a = 1\nb = 2\nc = 3\nd = 4\n"
    assert runaway("x = 1\n" + four * 4) and not runaway("x = 1\n" + four * 3)
    # invented imports from one module, one after another (a real a07 answer, to the length limit)
    invented = "".join(f"from gdsfactory.pdk.standard import get_layer{'_grid' * i}\n" for i in range(12))
    assert runaway("import json\n" + invented) and not runaway("import json\n" + invented.split("\n", 1)[1])
    several = "".join(f"from gdsfactory.components import {n}\n" for n in ("mmi1x2", "straight", "bend_euler"))
    assert not runaway("import json\nimport math\n" + several + "import klayout.db as kdb\n")
    # real code: a ruler comment, deep indentation, a table of numbers
    for ok in ("# " + "=" * 150 + "\n", "x = 1\n" + " " * 40 + "y = 2\n", "\n".join(f"    [{i}, {i * 2}]," for i in range(60)),
               "".join(f"    ref{i} = c << wg\n    ref{i}.dmovey({i * 10})\n" for i in range(12)), "\n\n" * 20 + "x = 1\n"):
        assert not runaway(ok), ok


def test_json_schema_is_sent_as_response_format():
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    with ScriptedLLM([{"content": '{"a": 1}'}]) as srv:
        r = client_for(srv).chat(MSG, json_schema=schema)
        assert json.loads(r.text) == {"a": 1}
        rf = srv.requests[0]["response_format"]
        assert rf["type"] == "json_schema" and rf["json_schema"]["schema"] == schema


def test_settings_precedence_and_masking(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text('provider = "openai"\nbase_url = "http://file/v1"\nmodel = "file-model"\n'
                   '[agents.planner]\nmodel = "small"\n')
    s = load_settings(env={"PIC_COPILOT_CONFIG": str(cfg), "OPENAI_API_KEY": SECRET,
                           "PIC_COPILOT_MODEL": "env-model"}, path=cfg)
    assert s.base_url == "http://file/v1" and s.model == "env-model" and s.api_key == SECRET
    assert s.for_agent("planner").model == "small" and s.for_agent("programmer").model == "env-model"
    assert SECRET not in repr(s) and SECRET not in json.dumps(s.public_dict())
    s2 = load_settings(env={"PIC_COPILOT_BASE_URL": "http://env/v1", "PIC_COPILOT_API_KEY": "k2"}, path=cfg)
    assert s2.base_url == "http://env/v1" and s2.api_key == "k2"
    s3 = load_settings(env={}, path=tmp_path / "none.toml")
    assert s3.provider == "local" and s3.base_url == ""
    cfg.write_text('[generators.layout]\ndatabases = ["pya"]\n[generators.drc]\n')
    assert load_settings(env={}, path=cfg).generator_databases == {"layout": ("pya",)}
    cfg.write_text('[generators.layout]\ndatabases = "pya"\n')
    with pytest.raises(ValueError, match=r"\[generators.layout\] databases must be a list"):
        load_settings(env={}, path=cfg)


def test_server_without_json_schema_support_falls_back_to_json_object():
    """llama.cpp answers HTTP 500 to response_format type json_schema: retry at once with json_object."""
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    steps = [{"status": 500, "message": "Input should be 'text' or 'json_object' (response_format.type)"},
             {"content": '{"a": 2}'}]
    with ScriptedLLM(steps) as srv:
        c = client_for(srv, max_retries=0)
        r = c.chat(MSG, json_schema=schema)
        assert json.loads(r.text) == {"a": 2}
        assert srv.requests[0]["response_format"]["type"] == "json_schema"
        assert srv.requests[1]["response_format"] == {"type": "json_object", "schema": schema}


def test_managed_endpoint_that_went_away_is_restarted_once():
    """The embedded server was stopped while the engine lived: the client asks for a new one."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    with ScriptedLLM([{"content": "back again"}]) as srv:
        calls = []

        def reconnect():
            calls.append(1)
            return srv.base_url

        c = LLMClient(Settings(provider="local", base_url=f"http://127.0.0.1:{dead}/v1", max_retries=0,
                               connect_timeout_s=1), reconnect=reconnect)
        assert c.chat(MSG).text == "back again" and calls == [1]
        assert c.settings.base_url == srv.base_url
    c2 = LLMClient(Settings(provider="local", base_url=f"http://127.0.0.1:{dead}/v1", max_retries=0),
                   reconnect=lambda: f"http://127.0.0.1:{dead}/v1")
    with pytest.raises(LLMConnectionError):   # a restart that does not help ends in the clear error
        c2.chat(MSG)


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_messages_api(stream):
    with ScriptedLLM([{"content": "hello from the messages API"}]) as srv:
        base = srv.base_url[: -len("/v1")]
        c = LLMClient(Settings(provider="anthropic", base_url=base, api_key=SECRET, model="claude-x", max_retries=0))
        seen = []
        r = c.chat(MSG, stream=stream, on_token=seen.append)
        assert r.text == "hello from the messages API" and r.completion_tokens > 0
        body = srv.requests[0]
        assert body["system"] == "be brief" and all(m["role"] != "system" for m in body["messages"])
        assert body["model"] == "claude-x" and body["stream"] is stream and SECRET not in json.dumps(body)
        if stream:
            assert "".join(t for t in seen if t) == r.text and r.prompt_tokens > 0


# ------------------------------------------------------------------ one deadline per call (issue 13)
@pytest.mark.parametrize("stream", [True, False], ids=["stream", "plain"])
def test_keepalive_trickling_endpoint_ends_in_timeout_error(stream):
    """The endpoint sends a keep-alive every 0.5 s and never answers (within 30 s): a per-read
    timeout never trips; the call's deadline does."""
    with ScriptedLLM([{"keepalive": 30, "keepalive_every": 0.5, "content": "late"}]) as srv:
        t0 = time.monotonic()
        with pytest.raises(LLMTimeoutError) as ei:
            client_for(srv, timeout_s=3).chat(MSG, stream=stream)
        took = time.monotonic() - t0
        assert took < 3 + 1.5, took
        msg = str(ei.value)
        assert srv.base_url.rstrip("/") in msg and "PIC_COPILOT_TIMEOUT" in msg and "timeout" in msg


def test_silent_endpoint_fails_within_the_deadline_not_attempts_times_timeout():
    with ScriptedLLM([{"delay": 30, "content": "never"}]) as srv:
        t0 = time.monotonic()
        with pytest.raises(LLMTimeoutError, match="within 2 s"):
            client_for(srv, timeout_s=2, max_retries=3).chat(MSG)
        assert time.monotonic() - t0 < 2 + 1.5


def test_deadline_covers_retries_and_backoff():
    with ScriptedLLM([{"status": 503}]) as srv:
        t0 = time.monotonic()
        with pytest.raises(LLMServerError, match="gave up"):
            client_for(srv, timeout_s=2, max_retries=50).chat(MSG)
        assert time.monotonic() - t0 < 2 + 1.0
    with ScriptedLLM([{"status": 429, "headers": {"Retry-After": "30"}}]) as srv:
        t0 = time.monotonic()
        with pytest.raises(LLMRateLimitError):
            client_for(srv, timeout_s=3).chat(MSG)
        assert time.monotonic() - t0 < 2, "a Retry-After beyond the deadline is not waited for"


def test_an_honest_slow_answer_is_not_cut_by_the_deadline():
    with ScriptedLLM([{"content": "s" * 40, "chunk_chars": 4, "chunk_delay": 0.2}]) as srv:
        r = client_for(srv, timeout_s=6).chat(MSG, stream=True)
        assert r.text == "s" * 40 and r.latency_s >= 1.5


def test_cancel_acts_on_a_silent_endpoint():
    with ScriptedLLM([{"delay": 20, "content": "never"}]) as srv:
        cancel = threading.Event()
        threading.Timer(0.5, cancel.set).start()
        t0 = time.monotonic()
        with pytest.raises(LLMCancelled):
            client_for(srv, timeout_s=15).chat(MSG, cancel=cancel)
        assert time.monotonic() - t0 < 2.0


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "plain"])
def test_an_oversized_answer_is_refused(stream, monkeypatch):
    from pic_copilot.llm import client as client_mod

    monkeypatch.setattr(client_mod, "MAX_ANSWER_BYTES", 1 << 20)
    varied = " ".join(map(str, range(450_000)))   # ~3 MiB that never repeats itself (a loop is stopped earlier)
    with ScriptedLLM([{"content": varied}]) as srv:
        with pytest.raises(LLMProtocolError, match="MiB"):
            client_for(srv).chat(MSG, stream=stream)
        assert len(srv.requests) == 1  # not retried


@pytest.mark.parametrize("status", [400, 500])
def test_an_endpoint_echoing_the_key_in_an_error_body_never_shows_it(status):
    with ScriptedLLM([{"status": status, "echo_auth": True}]) as srv:
        with pytest.raises(Exception) as ei:
            client_for(srv, max_retries=0).chat(MSG)
        text = str(ei.value)
        assert "Authorization" in text and "***" in text, text
        assert SECRET not in text


def test_timeout_setting_from_env_and_config(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text('timeout = 42\n')
    assert load_settings(env={}, path=cfg).timeout_s == 42
    assert load_settings(env={"PIC_COPILOT_TIMEOUT": "7.5"}, path=cfg).timeout_s == 7.5
    assert load_settings(env={}, path=tmp_path / "none.toml").timeout_s == 300
    with pytest.raises(ValueError, match="PIC_COPILOT_TIMEOUT"):
        load_settings(env={"PIC_COPILOT_TIMEOUT": "soon"}, path=cfg)

@pytest.mark.parametrize("stream", [False, True])
def test_timing_fields_are_none_when_the_endpoint_does_not_report_them(stream):
    with ScriptedLLM([{"content": "plain answer"}]) as srv:
        c = client_for(srv)
        r = c.chat(MSG, stream=stream)
        assert r.prompt_eval_tokens is None and r.cached_tokens is None
        assert r.prompt_eval_s is None and r.gen_s is None and r.queue_s is None
        tot = c.usage.totals()
        assert tot["timed_calls"] == 0
        assert all(tot[f] is None for f in ("prompt_eval_tokens", "cached_tokens", "prompt_eval_s", "gen_s", "queue_s"))


def test_server_timings_and_cached_tokens_are_parsed():
    from pic_copilot.llm.client import ChatResult, _finish_accounting, _server_accounting

    acc = _server_accounting({"prompt_tokens": 120, "prompt_tokens_details": {"cached_tokens": 100}},
                             {"prompt_n": 20, "cache_n": 100, "prompt_ms": 400.0, "predicted_ms": 1500.0})
    assert acc == {"prompt_eval_tokens": 20, "cached_tokens": 100, "prompt_eval_s": 0.4, "gen_s": 1.5}
    # OpenAI-style usage only: evaluated = prompt - cached
    assert _server_accounting({"prompt_tokens": 50, "prompt_tokens_details": {"cached_tokens": 30}}, None) == \
        {"cached_tokens": 30, "prompt_eval_tokens": 20}
    assert _server_accounting({"input_tokens": 9, "cache_read_input_tokens": 4}, None) == {"cached_tokens": 4}
    r = ChatResult(text="x", latency_s=2.5, ttft_s=2.5, **acc)
    _finish_accounting(r, streamed=False)
    assert r.queue_s == pytest.approx(0.6) and r.ttft_s == pytest.approx(1.0)


def test_candidates_without_server_slots_are_concurrent_calls_with_distinct_seeds():
    with ScriptedLLM([{"content": "candidate", "delay": 0.5}]) as srv:
        c = client_for(srv)
        t0 = time.monotonic()
        rs = c.chat_candidates(MSG, 3, agent="programmer", seed=40, slot=2)
        took = time.monotonic() - t0
        assert [r.text for r in rs] == ["candidate"] * 3
        assert sorted(b["seed"] for b in srv.requests) == [40, 41, 42]
        assert all("n" not in b and "id_slot" not in b for b in srv.requests)  # not the embedded server
        assert took < 1.4, took   # side by side, not one after the other (3 x 0.5 s)
        assert c.usage.totals()["calls"] == 3
        rs = c.chat_candidates(MSG, 2, temperatures=[0.2, 0.9], seed=1)
        assert sorted(b["temperature"] for b in srv.requests[-2:]) == [0.2, 0.9]
        with pytest.raises(ValueError):
            c.chat_candidates(MSG, 2, temperatures=[0.2])
