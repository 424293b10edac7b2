#!/usr/bin/env python
"""Where a request's time goes: designer requests through the whole pipeline with the embedded model.

    .venv/bin/python benchmark/perf/request_latency.py [--tier basic,medium] [--only B1,M2] [--repeat 1]
        [--variant before=/path/to/old/checkout/lib --variant after=/path/to/new/checkout/lib]
        [--env before:PIC_COPILOT_HOME=/tmp/home-old] [--json out.jsonl]

Each request runs ``pic_copilot.agents.pipeline.run_request`` (configuration ``full``, sandbox mode)
in a child process whose PYTHONPATH is the variant's ``lib`` folder, so two checkouts are compared
on the same machine: variants take turns request by request (A B, then B A, ...). ``--env`` sets
environment variables for one variant's child (e.g. its own data home, so each variant keeps its own
embedded server). Before the first request each variant's server is started and answers one token.

Per request and in total it prints: wall time; LLM time and its split into prompt evaluation,
generation and queue (the server's own timings; "-" where the runtime reports none); calls; prompt
tokens evaluated and reused from the cache; and the ratio of the wall time to the floor: one bare
chat call (a short programmer instruction + the request) whose answer is forced, by a grammar, to be
exactly the final script, so it costs one prompt evaluation plus generating that script once.

The requests are written for this benchmark (not taken from benchmark/tasks).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
MARK = "@@request_latency@@ "

#: designer-style requests: (id, tier, text); sandbox mode, so results go to files
REQUESTS = [
    ("B1", "basic", "create a 1x2 MMI splitter with gdsfactory and write it to mmi.gds"),
    ("B2", "basic", "make a 50 um long, 0.8 um wide straight waveguide with gdsfactory and save it as wg.gds"),
    ("B3", "basic", "draw a 10 um x 4 um rectangle on layer 3/0 with its lower-left corner at (5, 5) using the "
                    "klayout python module and save the layout as rect.gds"),
    ("M1", "medium", "build a ring resonator with a 10 um radius and a 0.2 um gap in gdsfactory, put a grating "
                     "coupler on each of its two bus ports and write ring_gc.gds"),
    ("M2", "medium", "place three 1x2 MMIs in a row 150 um apart with gdsfactory, route the top output of each "
                     "one to the input of the next and write mmi_chain.gds"),
    ("M3", "medium", "create a Mach-Zehnder interferometer with a 40 um arm length difference in gdsfactory, add "
                     "a text label with each port's name on layer 10/0 next to the port and save mzi_labels.gds"),
]

FLOOR_SYSTEM = ("Write one complete, runnable Python script for the photonic design task. "
                "Answer with the script only, in one ```python code block.")


# ------------------------------------------------------------------------------------------ child
def _gbnf_literal(text: str) -> str:
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def floor_call(client, prompt: str, script: str) -> dict:
    """One bare chat call whose answer is the script (grammar-forced), timed from outside."""
    import httpx

    answer = f"```python\n{script.strip()}\n```"
    body = {"model": client.settings.model, "temperature": 0.0, "max_tokens": 4096, "stream": False,
            "messages": [{"role": "system", "content": FLOOR_SYSTEM}, {"role": "user", "content": prompt}],
            "grammar": "root ::= " + _gbnf_literal(answer)}
    t0 = time.monotonic()
    r = httpx.post(client.settings.base_url.rstrip("/") + "/chat/completions", json=body, timeout=1800)
    wall = time.monotonic() - t0
    r.raise_for_status()
    data = r.json()
    text = data["choices"][0]["message"]["content"] or ""
    u = data.get("usage") or {}
    return {"floor_s": round(wall, 2), "floor_prompt_tokens": u.get("prompt_tokens"),
            "floor_answer_tokens": u.get("completion_tokens"), "floor_exact": text.strip() == answer.strip()}


def child(args) -> int:
    from pic_copilot.agents.pipeline import run_request
    from pic_copilot.config import load_settings
    from pic_copilot.llm import make_client
    try:
        from pic_copilot.contracts import NullIO, Request
    except ImportError:   # a checkout from before issue 17's move (``--variant before=...``)
        from pic_copilot.pipeline_io import NullIO, Request

    settings = load_settings()
    client = make_client(settings)
    if args.child == "warmup":
        t0 = time.monotonic()
        client.chat([{"role": "user", "content": "hi"}], max_tokens=1)
        print(MARK + json.dumps({"warmup_s": round(time.monotonic() - t0, 2)}), flush=True)
        return 0
    if args.child == "stop":
        from pic_copilot.llm import local_server

        print(MARK + json.dumps({"stopped": local_server.stop()}), flush=True)
        return 0
    rid, tier, prompt = next(r for r in REQUESTS if r[0] == args.child)
    req = Request(id=f"latency-{rid}", prompt=prompt, mode="sandbox", config="full")
    t0 = time.monotonic()
    error = None
    try:
        out = run_request(req, NullIO(), settings=settings, client=client)
        ok, script, usage, record_path, rounds = out.ok, out.script, out.usage, out.record_path, out.rounds
    except Exception as e:  # noqa: BLE001 - reported, the benchmark goes on
        ok, script, usage, record_path, rounds = False, "", client.usage.totals(), None, None
        error = f"{type(e).__name__}: {e}"
    wall = time.monotonic() - t0
    stages = {}
    if record_path:
        try:
            stages = json.loads(Path(record_path).read_text()).get("stage_time_s") or {}
        except (OSError, json.JSONDecodeError):
            pass
    res = {"id": rid, "tier": tier, "ok": ok, "wall_s": round(wall, 2), "rounds": rounds, "error": error,
           "usage": usage, "stage_time_s": stages, "script_chars": len(script or "")}
    if script and not args.no_floor:
        try:
            res.update(floor_call(client, prompt, script))
        except Exception as e:  # noqa: BLE001
            res["floor_error"] = f"{type(e).__name__}: {e}"
    print(MARK + json.dumps(res), flush=True)
    return 0


# ------------------------------------------------------------------------------------------ parent
def run_child(python: str, lib: str, what: str, env_extra: dict, no_floor: bool, timeout: float) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = lib + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.update(env_extra)
    for k in [k for k in env if k.startswith(("PIC_COPILOT_BASE_URL", "PIC_COPILOT_PROVIDER", "OPENAI_"))]:
        del env[k]
    cmd = [python, str(HERE), "--child", what] + (["--no-floor"] if no_floor else [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    for line in p.stdout.splitlines():
        if line.startswith(MARK):
            return json.loads(line[len(MARK):])
    return {"error": f"child exited {p.returncode}: {(p.stderr or p.stdout)[-800:]}"}


def _f(v, nd=1):
    return "-" if v is None else (f"{v:.{nd}f}" if isinstance(v, float) else str(v))


def row(name: str, r: dict) -> str:
    u = r.get("usage") or {}
    floor = r.get("floor_s")
    ratio = r["wall_s"] / floor if floor and r.get("wall_s") else None
    return (f"{r.get('id', '?'):<4}{name:<10}{'ok' if r.get('ok') else 'FAIL':<5}{_f(r.get('wall_s')):>7}"
            f"{_f(u.get('llm_time_s')):>7}{_f(u.get('prompt_eval_s')):>7}{_f(u.get('gen_s')):>7}{_f(u.get('queue_s')):>7}"
            f"{_f(u.get('calls')):>6}{_f(u.get('prompt_tokens')):>8}{_f(u.get('prompt_eval_tokens')):>8}"
            f"{_f(u.get('cached_tokens')):>8}{_f(u.get('completion_tokens')):>7}{_f(floor):>7}{_f(ratio, 2):>7}")


HEADER = (f"{'req':<4}{'variant':<10}{'res':<5}{'wall':>7}{'llm':>7}{'p_eval':>7}{'gen':>7}{'queue':>7}"
          f"{'calls':>6}{'p_tok':>8}{'p_evald':>8}{'p_reuse':>8}{'out':>7}{'floor':>7}{'x_flr':>7}")


def total(rs: list[dict]) -> dict:
    def s(key):
        vals = [(r.get("usage") or {}).get(key) for r in rs]
        vals = [v for v in vals if v is not None]
        return round(sum(vals), 2) if vals else None
    walls = [r["wall_s"] for r in rs if r.get("wall_s")]
    floors = [r["floor_s"] for r in rs if r.get("floor_s")]
    return {"id": "ALL", "ok": all(r.get("ok") for r in rs), "wall_s": round(sum(walls), 2) if walls else None,
            "usage": {k: s(k) for k in ("llm_time_s", "prompt_eval_s", "gen_s", "queue_s", "calls", "prompt_tokens",
                                        "prompt_eval_tokens", "cached_tokens", "completion_tokens")},
            "floor_s": round(sum(floors), 2) if floors and len(floors) == len(walls) else None,
            "median_wall_s": statistics.median(walls) if walls else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--no-floor", action="store_true", help="skip the floor call")
    ap.add_argument("--tier", default="basic,medium")
    ap.add_argument("--only", help="comma-separated request ids")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=LIB",
                    help="a lib folder to run (default: this checkout's lib as 'current')")
    ap.add_argument("--env", action="append", default=[], metavar="NAME:KEY=VALUE",
                    help="an environment variable for one variant's child")
    ap.add_argument("--python", default=sys.executable, help="interpreter of the children (the engine venv)")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per request")
    ap.add_argument("--stop-servers", action="store_true", help="stop each variant's embedded server at the end")
    ap.add_argument("--json", type=Path, help="append every result as a JSON line")
    args = ap.parse_args()
    if args.child:
        return child(args)
    variants = [tuple(v.split("=", 1)) for v in args.variant] or [("current", str(HERE.parents[2] / "lib"))]
    envs: dict[str, dict] = {n: {} for n, _ in variants}
    for e in args.env:
        name, kv = e.split(":", 1)
        k, v = kv.split("=", 1)
        envs.setdefault(name, {})[k] = v
    tiers = set(args.tier.split(","))
    todo = [r for r in REQUESTS if r[1] in tiers and (not args.only or r[0] in args.only.split(","))]
    out = open(args.json, "a") if args.json else None
    print(f"# {len(todo)} requests x {args.repeat}, variants: {', '.join(n for n, _ in variants)}; "
          f"load {Path('/proc/loadavg').read_text().split()[0]}", flush=True)
    for name, lib in variants:
        w = run_child(args.python, lib, "warmup", envs[name], True, 600)
        print(f"# {name}: server ready, first token in {w.get('warmup_s', w.get('error'))}", flush=True)
    results: dict[str, list[dict]] = {n: [] for n, _ in variants}
    print(HEADER, flush=True)
    k = 0
    for rep in range(args.repeat):
        for rid, _, _ in todo:
            order = variants if k % 2 == 0 else variants[::-1]
            k += 1
            for name, lib in order:
                load = Path("/proc/loadavg").read_text().split()[0]
                r = run_child(args.python, lib, rid, envs[name], args.no_floor, args.timeout)
                r.setdefault("id", rid)
                r["variant"], r["repeat"], r["load1"] = name, rep, load
                results[name].append(r)
                print(row(name, r) + (f"   load {load}" if "wall_s" in r else f"   {r.get('error')}"), flush=True)
                if out:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
    print("\n# totals (sums over requests; floor ratio = total wall / total floor)")
    print(HEADER)
    for name, _ in variants:
        rs = [r for r in results[name] if "wall_s" in r]
        if rs:
            t = total(rs)
            print(row(name, t) + f"   median wall {_f(t['median_wall_s'])} s, {sum(bool(r.get('ok')) for r in rs)}/{len(rs)} ok")
    if args.stop_servers:
        for name, lib in variants:
            run_child(args.python, lib, "stop", envs[name], True, 120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
