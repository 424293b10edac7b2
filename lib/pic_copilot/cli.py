"""The `pic-copilot` command line.

Exit codes: 0 success; 1 the work ran but failed (a script that did not pass, a benchmark
below its bar); 2 bad input or set-up problem (clear message on stderr); 130 interrupted.
"""
from __future__ import annotations

import argparse
import json
import sys

from . import __version__


def _llm(args: argparse.Namespace) -> int:
    from .llm import local_server

    if args.action == "start":
        info = local_server.start()
        out = {"running": True, "pid": info.pid, "base_url": info.base_url, "model": info.model}
    elif args.action == "stop":
        out = {"stopped": local_server.stop()}
    else:
        info = local_server.status()
        out = {"running": info is not None}
        if info:
            out.update(pid=info.pid, base_url=info.base_url, model=info.model)
    if args.json:
        print(json.dumps(out))
    else:
        print(", ".join(f"{k}: {v}" for k, v in out.items()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="pic-copilot", description="Photonic design copilot: grounded script generation for gdsfactory and KLayout.")
    ap.add_argument("--version", action="version", version=f"pic-copilot {__version__}")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("llm", help="start, stop or check the embedded local LLM server")
    p.add_argument("action", choices=["start", "stop", "status"])
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_llm)

    from .retrieval import cli as retrieval_cli
    retrieval_cli.register(sub)
    from .agents import cli as agents_cli
    agents_cli.register(sub)
    try:
        from .bench import cli as bench_cli
    except ImportError:  # the benchmark package is optional in a minimal install
        bench_cli = None
    if bench_cli is not None:
        bench_cli.register(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    from .llm.local_server import LocalServerError

    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except LocalServerError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
