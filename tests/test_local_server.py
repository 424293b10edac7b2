"""The embedded LLM server's lifecycle and what its runtime offers (real llama.cpp, the real model).

One server, reused, stopped on request; with llama-server: parallel slots that neither cut each other
off nor re-read a cached prefix, k answers from one prompt evaluation, and per-call accounting.
"""
import os
import threading
import time

import pytest

from pic_copilot.config import load_settings
from pic_copilot.llm import local_server, make_client

pytestmark = [pytest.mark.llm, pytest.mark.skipif(not local_server.runtime_available(),
                                                  reason="the embedded LLM is not installed (scripts/setup.sh)")]
needs_llama_server = pytest.mark.skipif(
    (local_server.installed_runtime() or ("",))[0] != local_server.LLAMA_SERVER,
    reason="llama-server is not installed (scripts/setup.sh builds it)")

# a long, stable prefix (~900 tokens), as an agent's system prompt is
PREFIX = ("You are a careful assistant for photonic layout scripts. Rules follow.\n"
          + "\n".join(f"Rule {i}: keep waveguide {i} at a width of {0.4 + i / 100:.2f} um and check port {i}."
                      for i in range(60)))


def test_concurrent_starts_share_one_server_and_stop_ends_it():
    was_running = local_server.is_running()  # (a busy server may miss a quick health check)
    infos = []
    threads = [threading.Thread(target=lambda: infos.append(local_server.start())) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=180)
    assert len(infos) == 3 and len({i.pid for i in infos}) == 1, infos
    assert local_server.is_running()  # (an HTTP health check can wait minutes behind other clients)
    if not was_running:
        assert local_server.stop()
        assert local_server.status() is None and not local_server.is_running()
        with pytest.raises(ProcessLookupError):
            os.kill(infos[0].pid, 0)


@needs_llama_server
def test_accounting_shows_the_cached_prefix_and_the_server_times():
    info = local_server.start()
    assert info.runtime == local_server.LLAMA_SERVER and info.slots == local_server.N_SLOTS
    client = make_client(load_settings())
    tag = f"[test {time.time()}]\n"   # a prefix nobody sent before
    first = client.chat([{"role": "system", "content": tag + PREFIX}, {"role": "user", "content": "Say OK."}],
                        max_tokens=4, temperature=0.0)
    second = client.chat([{"role": "system", "content": tag + PREFIX}, {"role": "user", "content": "Say yes."}],
                         max_tokens=4, temperature=0.0, stream=True)
    for r in (first, second):
        assert r.prompt_eval_tokens is not None and r.cached_tokens is not None
        assert r.prompt_eval_tokens + r.cached_tokens == r.prompt_tokens
        assert r.prompt_eval_s > 0 and r.gen_s >= 0 and r.queue_s >= 0
    assert first.prompt_tokens > 800 and first.prompt_eval_tokens > 800
    # the second call reads only its new tail
    assert second.cached_tokens >= first.prompt_tokens - 20 and second.prompt_eval_tokens < 40, second
    assert second.prompt_eval_s < first.prompt_eval_s
    tot = client.usage.totals()
    assert tot["timed_calls"] == 2 and tot["cached_tokens"] == first.cached_tokens + second.cached_tokens


@needs_llama_server
def test_three_candidates_share_one_prompt_evaluation():
    local_server.start()
    client = make_client(load_settings())
    msgs = [{"role": "system", "content": f"[cand {time.time()}]\n" + PREFIX},
            {"role": "user", "content": "Name a colour, one word."}]
    rs = client.chat_candidates(msgs, 3, temperature=1.0, max_tokens=6, seed=7)
    assert len(rs) == 3 and all(r.text.strip() for r in rs)
    rec = client.usage.calls[-1]
    assert len(client.usage.calls) == 1 and rec.candidates == 3
    assert rec.prompt_eval_tokens > 800   # evaluated once, for all three
    assert rec.completion_tokens == sum(r.completion_tokens for r in rs)


@needs_llama_server
def test_concurrent_clients_run_side_by_side_and_none_is_cut_off():
    local_server.start()
    results, errors = [], []

    def one(i):
        try:
            c = make_client(load_settings())
            t0 = time.monotonic()
            r = c.chat([{"role": "user", "content": f"Write the numbers from 1 to 12 separated by commas ({i})."}],
                       max_tokens=30, temperature=0.0, stream=True)
            results.append((t0 + r.ttft_s, t0 + r.latency_s, r))
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors and len(results) == 3   # an interrupted answer would be an LLMStreamError
    assert all(r.finish_reason in ("stop", "length") and r.text.strip() for _, _, r in results), results
    # each had a slot at once: all three were generating at the same moment (queued ones would not be)
    assert max(first for first, _, _ in results) < min(end for _, end, _ in results), results


@needs_llama_server
def test_copied_text_is_drafted_from_the_prompt_and_checked_in_batches():
    """n-gram speculation (the default flags): an answer that copies the prompt is accepted in
    drafted runs, and it copies as well as without speculation. (Not the same text to the letter:
    a batch of drafted tokens is computed in another order than one token at a time, and greedy
    answers then part after a near tie, as a clean-clone CI run showed.)"""
    import subprocess

    import httpx

    from pic_copilot.config import data_home

    binary, model = local_server.installed_runtime()[1], local_server.llm_model_path(data_home())
    code = "".join(f"layer_{i} = layout.layer({i}, 0)\ncell.shapes(layer_{i}).insert(pya.Box(0, 0, {i}00, 50))\n"
                   for i in range(1, 9))
    msgs = [{"role": "user", "content": f"Repeat this script exactly, in a python code block:\n```python\n{code}```"}]
    assert "--spec-type" in local_server.llama_server_command(binary, model, 1)
    os.environ["PIC_COPILOT_LLM_SPEC"] = "off"
    try:
        assert "--spec-type" not in local_server.llama_server_command(binary, model, 1)
    finally:
        del os.environ["PIC_COPILOT_LLM_SPEC"]
    answers = {}
    for ngram in (True, False):
        port = local_server._free_port()
        cmd = local_server.llama_server_command(binary, model, port, ngram=ngram, threads=2)
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while not local_server.is_healthy(port) and time.monotonic() < deadline:
                time.sleep(0.5)
            r = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", timeout=600,
                           json={"messages": msgs, "max_tokens": 400, "temperature": 0})
            body = r.json()
            answers[ngram] = (body["choices"][0]["message"]["content"], body.get("timings", {}))
        finally:
            proc.terminate()
            proc.wait(30)
    (spec_text, spec_t), (plain_text, plain_t) = answers[True], answers[False]
    lines = [ln for ln in code.splitlines() if "insert" in ln]

    def copied(text: str) -> int:
        return sum(ln in text for ln in lines)

    assert copied(spec_text) >= min(copied(plain_text), len(lines) - 1), (spec_text, plain_text)
    assert spec_t.get("draft_n_accepted", 0) > spec_t["predicted_n"] / 2, spec_t
    assert not plain_t.get("draft_n")


@needs_llama_server
def test_an_answer_given_its_start_is_continued_not_begun_again():
    """The embedded server continues a chat's final assistant message (LLMClient.continues_answers,
    which revision by addition relies on): the answer carries on after the given script instead of
    opening a new code block with the script again."""
    local_server.start()
    client = make_client(load_settings())
    assert client.continues_answers
    start = ("```python\nimport json\nvalues = [3, 1, 2]\n"
             "json.dump({'n': len(values)}, open('n.json', 'w'))")
    msgs = [{"role": "system", "content": "You write Python scripts."},
            {"role": "user", "content": "Continue the script: after its last line, also print the largest value."},
            {"role": "assistant", "content": start}]
    streamed: list = []
    r = client.chat(msgs, max_tokens=60, temperature=0.0, stream=True, on_token=streamed.append,
                    cancel=threading.Event(), slot=1)   # as the pipeline asks: streamed, cancellable, in a slot
    assert "```python" not in r.text and "json.dump" not in r.text, r.text
    assert "max(values)" in r.text or "print" in r.text, r.text
    assert "".join(t for t in streamed if t) == r.text and r.completion_tokens > 0
    again = client.chat(msgs, max_tokens=60, temperature=0.0, slot=1)   # not streamed; the prompt is cached
    assert again.text == r.text and again.cached_tokens > 20, again
