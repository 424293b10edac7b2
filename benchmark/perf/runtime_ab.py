"""Compare LLM runtimes for the embedded model on this machine, interleaved (docs/RUNTIME.md has the results).

Starts each runtime as its own server on a free 127.0.0.1 port, all on the same GGUF, and runs the same
experiments on each in turn, round by round (A B C, then B C A, ...), so a machine that gets busier or
quieter affects every runtime alike. Prints one JSON line per measurement and a summary table.

    python benchmark/perf/runtime_ab.py --model M.gguf --draft D.gguf \
        --llama-server BIN --legacy-python ~/.local/share/pic-copilot/llm-venv/bin/python --rounds 3

Runtimes (``--runtimes``, default all that are available):
  legacy    llama-cpp-python's server (``python -m llama_cpp.server``), the runtime before issue 14
  server    llama.cpp's ``llama-server`` with the engine's default flags but no speculation
  spec      ``server`` plus the draft model for speculative decoding (``-md``)
  ngram     ``server`` plus draftless n-gram speculative decoding (the engine's default since session 6)

Experiments (``--experiments``):
  cold      one chat call, a ~1.5k-token prompt nobody sent before, 150 answer tokens, greedy
  warm      the same long prefix again with another question (prompt cache)
  agents    four agents' prompts in turn, twice each (a2 b2 c2 d2 after a1 b1 c1 d1): does each keep its cache?
            ``server`` also runs it with each agent pinned to its own slot (``id_slot``)
  k3        three answers to one prompt: one call, three concurrent calls, one call with n=3
            (``server``), on a cold and on a warm prefix
Every call streams; time to first token and wall time are measured here, token counts and the
server's own timings are taken from its answer when it reports them.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "lib"))
from pic_copilot.llm import local_server  # noqa: E402  (the engine's own llama-server flags)

QUESTIONS = [
    "Write a gdsfactory script that builds a 2x2 MMI coupler and a straight waveguide of 40 um, connects them and "
    "writes the result to GDS. Comment every step in detail.",
    "Write a gdsfactory script that places four ring resonators of different radii in a column, 30 um apart, adds "
    "text labels with each radius and writes the GDS. Comment every step in detail.",
    "Write a gdsfactory script that builds a grating coupler array of six couplers with a 127 um pitch and routes "
    "a loopback between the first and the last. Comment every step in detail.",
    "Write a gdsfactory script that creates a Mach-Zehnder interferometer with a 100 um length difference and "
    "exposes its optical ports. Comment every step in detail.",
]


def _docs(n_chars: int, seed: int) -> str:
    """Documentation text from the package's own gdsfactory database, about n_chars long."""
    lines = (ROOT / "databases/gdsfactory/entries.jsonl").read_text().splitlines()
    rnd = random.Random(seed)
    rnd.shuffle(lines)
    out, size = [], 0
    for ln in lines:
        e = json.loads(ln)
        text = e.get("content", "")[:1200]
        out.append(f"### {e.get('id')}\n{text}")
        size += len(text)
        if size >= n_chars:
            break
    return "\n\n".join(out)


def system_prompt(seed: int, n_chars: int = 5200) -> str:
    rules = (ROOT / "lib/pic_copilot/prompts/programmer.md").read_text()
    return (f"[session {seed}]\n" + rules.replace("$domain_title", "gdsfactory").replace("$versions", "gdsfactory 9.45")
            .replace("$domain_rules", "").replace("$mode_rules", "") + "\n\nAPI documentation:\n" + _docs(n_chars, seed))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Runtime:
    def __init__(self, name: str, cmd: list[str], port: int, log: Path, slots: int):
        self.name, self.cmd, self.port, self.log, self.slots = name, cmd, port, log, slots
        self.proc = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 300) -> float:
        t0 = time.monotonic()
        with open(self.log, "ab") as lf:
            self.proc = subprocess.Popen(self.cmd, stdout=lf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True)
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}; see {self.log}")
            try:
                if httpx.get(self.url + "/v1/models", timeout=2).status_code == 200:
                    r = httpx.post(self.url + "/v1/chat/completions", timeout=60,
                                   json={"messages": [{"role": "user", "content": "hi"}], "max_tokens": 1})
                    if r.status_code == 200:
                        return time.monotonic() - t0
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        raise RuntimeError(f"{self.name} not ready in {timeout} s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def chat(rt: Runtime, messages: list[dict], max_tokens: int = 150, temperature: float = 0.0, seed: int = 1,
         **extra) -> dict:
    """One streamed chat call; returns wall, ttft, tokens and the server's timings (None when not reported)."""
    body = {"messages": messages, "max_tokens": max_tokens, "temperature": temperature, "seed": seed, "stream": True,
            "stream_options": {"include_usage": True}, **extra}
    t0 = time.monotonic()
    ttft = {}
    texts: dict[int, list[str]] = {}
    usage, timings = {}, {}
    with httpx.stream("POST", rt.url + "/v1/chat/completions", json=body, timeout=900) as r:
        r.raise_for_status()
        for line in r.iter_lines():
            if not line.startswith("data:"):
                continue
            payload = line[5:].strip()
            if payload == "[DONE]":
                break
            ev = json.loads(payload)
            for ch in ev.get("choices") or []:
                d = (ch.get("delta") or {}).get("content") or ""
                i = ch.get("index", 0)
                if d:
                    ttft.setdefault(i, time.monotonic() - t0)
                    texts.setdefault(i, []).append(d)
            idx = (ev.get("choices") or [{}])[0].get("index", 0) if ev.get("choices") else len(usage)
            if ev.get("usage"):
                usage[idx if idx not in usage else len(usage)] = ev["usage"]
            if ev.get("timings"):
                timings[idx if idx not in timings else len(timings)] = ev["timings"]
    wall = time.monotonic() - t0
    u0 = usage.get(0) or (next(iter(usage.values())) if usage else {})
    t0_ = timings.get(0) or (next(iter(timings.values())) if timings else {})
    # llama-cpp-python reports no usage while streaming: count its content chunks (one token each)
    n_out = (sum((u.get("completion_tokens") or 0) for u in usage.values()) if usage
             else sum(len(v) for v in texts.values()) or None)
    first = min(ttft.values()) if ttft else None
    return {"wall": wall, "ttft": first, "answers": len(texts), "prompt_tokens": u0.get("prompt_tokens"),
            "completion_tokens": n_out, "tokens_counted": not usage, "prompt_n": t0_.get("prompt_n"), "cache_n": t0_.get("cache_n"),
            "prompt_ms": t0_.get("prompt_ms"), "predicted_n": t0_.get("predicted_n"),
            "predicted_ms": t0_.get("predicted_ms"), "draft_n": t0_.get("draft_n"),
            "draft_n_accepted": t0_.get("draft_n_accepted"),
            "gen_tps_client": ((n_out or 0) / len(texts) - 1) / (wall - first) if texts and first and wall > first else None}


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def emit(out, **rec):
    rec["load1"] = load()
    line = json.dumps(rec)
    print(line, flush=True)
    out.write(line + "\n")
    out.flush()
    return rec


K3_PREFIXES = ["cold", "warm"]
ANSWER = 150   # answer tokens of the cold/warm/k3 calls (--max-tokens)
N_AGENTS = 4


def run_round(rt: Runtime, rnd: int, exps: list[str], out) -> None:
    base = 1000 * rnd + hash(rt.name) % 997   # each runtime and round gets prompts nobody sent before
    if "cold" in exps or "warm" in exps:
        sysm = system_prompt(base)
        r = chat(rt, [{"role": "system", "content": sysm}, {"role": "user", "content": QUESTIONS[0]}], max_tokens=ANSWER)
        emit(out, runtime=rt.name, round=rnd, exp="cold", **r)
        r = chat(rt, [{"role": "system", "content": sysm}, {"role": "user", "content": QUESTIONS[1]}], max_tokens=ANSWER)
        emit(out, runtime=rt.name, round=rnd, exp="warm", **r)
    if "agents" in exps:
        pins = [False, True] if rt.slots >= N_AGENTS else [False]
        for pin in pins:
            sysms = [system_prompt(base + 100 + 10 * pin + a, n_chars=2400) for a in range(N_AGENTS)]
            for turn in range(2):
                for a in range(N_AGENTS):
                    extra = {"id_slot": a} if pin else {}
                    r = chat(rt, [{"role": "system", "content": sysms[a]},
                                  {"role": "user", "content": QUESTIONS[(a + turn) % 4]}], max_tokens=1, **extra)
                    emit(out, runtime=rt.name, round=rnd, exp="agents-pinned" if pin else "agents", turn=turn,
                         agent=a, **r)
    if "k3" in exps:
        for prefix in K3_PREFIXES:
            sysm = system_prompt(base + 500 + (prefix == "warm"))
            msgs = [{"role": "system", "content": sysm}, {"role": "user", "content": QUESTIONS[2]}]
            if prefix == "warm":
                chat(rt, msgs, max_tokens=1)   # the prefix is in the cache before each variant
            r = chat(rt, msgs, temperature=0.7, seed=11, max_tokens=ANSWER)
            emit(out, runtime=rt.name, round=rnd, exp=f"k3-{prefix}", variant="one", **r)
            if prefix == "cold":
                msgs = [{"role": "system", "content": system_prompt(base + 600)}, msgs[1]]
            else:
                chat(rt, msgs, max_tokens=1)
            t0 = time.monotonic()
            with cf.ThreadPoolExecutor(3) as ex:
                rs = list(ex.map(lambda s: chat(rt, msgs, temperature=0.7, seed=s, max_tokens=ANSWER), (21, 22, 23)))
            emit(out, runtime=rt.name, round=rnd, exp=f"k3-{prefix}", variant="three-concurrent",
                 wall=time.monotonic() - t0, completion_tokens=sum(x["completion_tokens"] or 0 for x in rs),
                 prompt_n=sum(x["prompt_n"] or 0 for x in rs) if rs[0]["prompt_n"] is not None else None,
                 ttft=min(x["ttft"] for x in rs if x["ttft"]), answers=3)
            if rt.slots >= 3:
                if prefix == "cold":
                    msgs = [{"role": "system", "content": system_prompt(base + 700)}, msgs[1]]
                else:
                    chat(rt, msgs, max_tokens=1)
                r = chat(rt, msgs, temperature=0.7, seed=31, n=3, max_tokens=ANSWER)
                emit(out, runtime=rt.name, round=rnd, exp=f"k3-{prefix}", variant="n3", **r)


def summarise(path: Path) -> None:
    recs = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    def med(vals):
        vals = [v for v in vals if v is not None]
        return round(statistics.median(vals), 2) if vals else None
    groups: dict[tuple, list] = {}
    for r in recs:
        groups.setdefault((r["exp"], r.get("variant", ""), r["runtime"], r.get("turn", "")), []).append(r)
    print(f"\n{'experiment':<16}{'variant':<18}{'runtime':<8}{'turn':<5}{'n':>3}{'wall':>8}{'ttft':>8}{'p_eval':>8}"
          f"{'cached':>8}{'p_tok/s':>9}{'g_tok/s':>9}{'accept':>8}{'load':>6}")
    for (exp, var, rt, turn), rs in sorted(groups.items()):
        ptps = med([r["prompt_n"] / r["prompt_ms"] * 1000 if r.get("prompt_n") and r.get("prompt_ms") else None for r in rs])
        acc = med([r["draft_n_accepted"] / r["draft_n"] if r.get("draft_n") else None for r in rs])
        print(f"{exp:<16}{var:<18}{rt:<8}{str(turn):<5}{len(rs):>3}{med([r['wall'] for r in rs]) or '':>8}"
              f"{med([r.get('ttft') for r in rs]) or '':>8}{med([r.get('prompt_n') for r in rs]) or '':>8}"
              f"{med([r.get('cache_n') for r in rs]) or '':>8}{ptps or '':>9}"
              f"{med([r.get('gen_tps_client') for r in rs]) or '':>9}{acc or '':>8}"
              f"{med([float(r['load1']) for r in rs]):>6}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--draft", type=Path)
    ap.add_argument("--llama-server", type=Path)
    ap.add_argument("--legacy-python", type=Path)
    ap.add_argument("--runtimes", default="legacy,server,spec,ngram")
    ap.add_argument("--experiments", default="cold,warm,agents,k3")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path("/tmp/runtime_ab.jsonl"))
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--threads", type=int, help="CPU threads of every runtime (default: the cores, at most 4)")
    ap.add_argument("--max-tokens", type=int, default=150)
    ap.add_argument("--agents", type=int, default=4, help="agents in the 'agents' experiment")
    ap.add_argument("--k3-prefixes", default="cold,warm")
    args = ap.parse_args()
    if args.summary_only:
        summarise(args.out)
        return 0
    global ANSWER, N_AGENTS, K3_PREFIXES
    ANSWER, N_AGENTS, K3_PREFIXES = args.max_tokens, args.agents, args.k3_prefixes.split(",")
    threads = str(args.threads or max(1, min(4, os.cpu_count() or 2)))
    rts = []
    logdir = args.out.parent
    for name in args.runtimes.split(","):
        port = _free_port()
        if name == "legacy" and args.legacy_python:
            cmd = [str(args.legacy_python), "-m", "llama_cpp.server", "--model", str(args.model), "--host", "127.0.0.1",
                   "--port", str(port), "--n_ctx", "8192", "--n_threads", threads, "--n_threads_batch", threads,
                   "--interrupt_requests", "False"]
            rts.append(Runtime(name, cmd, port, logdir / f"ab-{name}.log", slots=1))
        elif name in ("server", "spec", "ngram") and args.llama_server:
            draft = args.draft if name == "spec" else None
            if name == "spec" and not draft:
                continue
            cmd = local_server.llama_server_command(args.llama_server, args.model, port, draft=draft,
                                                    threads=int(threads), ngram=name == "ngram")
            rts.append(Runtime(name, cmd, port, logdir / f"ab-{name}.log", slots=local_server.N_SLOTS))
    exps = args.experiments.split(",")
    with open(args.out, "a") as out:
        try:
            for rt in rts:   # all loaded once (memory is plentiful); only one works at a time
                emit(out, runtime=rt.name, round=-1, exp="start", wall=rt.start())
            for rnd in range(args.rounds):
                order = rts[rnd % len(rts):] + rts[:rnd % len(rts)]
                for rt in order:
                    run_round(rt, rnd, exps, out)
        finally:
            for rt in rts:
                rt.stop()
    summarise(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
