"""``pic-copilot bench``: run the benchmark (the KLayout driver benchmark/bench.py under ``klayout -b``).

Interactive tasks need KLayout's own interpreter, so this command starts
``klayout -b -r benchmark/bench.py -rd ...`` and passes its exit code on:
0 ok; 1 oracle below 100 % or self-test mismatch; 2 bad options/tasks; 3 harness failure.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..contracts import BENCH_CONFIGS

CONFIGS = BENCH_CONFIGS


def _root() -> Path:
    return Path(__file__).resolve().parents[3]


def register(subparsers) -> None:
    """Add the ``bench`` subcommand."""
    p = subparsers.add_parser("bench", help="run the benchmark (oracle, LLM configs, self-test)",
                              description="Run the pic-copilot benchmark through KLayout (klayout -b).")
    p.add_argument("--tasks", help="tasks directory (default: benchmark/tasks)")
    p.add_argument("--config", default="oracle",
                   help=f"comma-separated configs: {', '.join(CONFIGS)} (default: oracle)")
    p.add_argument("-n", "--n", type=int, help="trials per task and config (default 5; oracle 1)")
    p.add_argument("--tier", help="comma-separated tiers: basic, medium, advanced")
    p.add_argument("--ids", help="comma-separated task ids or patterns (b0*)")
    p.add_argument("--out", help="results folder (default: benchmark/results/<configs>)")
    p.add_argument("--temperature", type=float, help="sampling temperature for every agent")
    p.add_argument("--seed", type=int, help="sampling seed (trial i uses seed+i)")
    p.add_argument("--model", help="default model name")
    p.add_argument("--agent-model", action="append", default=[], metavar="AGENT=MODEL",
                   help="per-agent model override (repeatable)")
    p.add_argument("--max-rounds", type=int, help="evaluator feedback rounds")
    p.add_argument("--prices", help="price table (TOML or JSON: {model: {input: $/Mtok, output: $/Mtok}})")
    p.add_argument("--timeout-scale", type=float, help="multiply every task's timeout_s")
    p.add_argument("--gen-timeout", type=float, help="wall-time limit per generation (s, default 1200)")
    p.add_argument("--fresh", action="store_true", help="re-run trials that already have results")
    p.add_argument("--selftest", action="store_true",
                   help="check the tasks: solutions pass, empty scripts and wrong.toml variants fail")
    p.add_argument("--klayout", help="KLayout executable (default: klayout on PATH)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=cmd_bench)


def build_command(args: argparse.Namespace, klayout: str) -> list[str]:
    """The ``klayout -b -r bench.py -rd ...`` command line for the parsed options."""
    defs = {"root": str(_root()), "config": args.config, "python": sys.executable}
    for name in ("tasks", "n", "tier", "ids", "out", "temperature", "seed", "model", "max_rounds",
                 "timeout_scale", "gen_timeout"):
        v = getattr(args, name, None)
        if v is not None:
            defs[name] = str(Path(v).resolve()) if name in ("tasks", "out") else str(v)
    if args.agent_model:
        defs["models"] = ",".join(args.agent_model)
    if args.prices:
        defs["prices"] = str(Path(args.prices).resolve())
    if args.fresh:
        defs["resume"] = "0"
    if args.selftest:
        defs["selftest"] = "1"
    if args.quiet:
        defs["quiet"] = "1"
    cmd = [klayout, "-b", "-r", str(_root() / "benchmark" / "bench.py")]
    for k, v in defs.items():
        cmd += ["-rd", f"{k}={v}"]
    return cmd


def cmd_bench(args: argparse.Namespace) -> int:
    for c in args.config.split(","):
        if c.strip() and c.strip() not in CONFIGS:
            print(f"error: unknown config {c!r} (use {', '.join(CONFIGS)})", file=sys.stderr)
            return 2
    klayout = args.klayout or shutil.which("klayout")
    if not klayout:
        print("error: KLayout is not installed (no `klayout` on PATH); the benchmark needs it for interactive tasks",
              file=sys.stderr)
        return 2
    env = dict(os.environ)
    if "KLAYOUT_HOME" not in env:
        env["KLAYOUT_HOME"] = tempfile.mkdtemp(prefix="pic-copilot-bench-home-")
    try:
        return subprocess.call(build_command(args, klayout), env=env)
    except KeyboardInterrupt:
        return 130
