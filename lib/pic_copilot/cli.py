"""The `pic-copilot` command line.

Every subcommand returns an exit code (see EXIT_CODES, printed by ``pic-copilot --help``).
Subcommands live with their code and are added here through ``register(subparsers)``:
retrieval (search, api, build-db, eval-retrieval), agents (ask, run), bench, explore; this module
adds llm, klayout and serve-mcp, and lets ask/run reach a running KLayout.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from . import __version__

EXIT_CODES = """\
exit codes:
  0    ok
  1    the work ran but failed (a script that did not pass, a benchmark below its bar)
  2    bad input or set-up problem (the message on stderr says what to fix)
  3    an outside service failed: the LLM endpoint (ask) or the KLayout benchmark harness (bench)
  130  interrupted (Ctrl+C)
"""

EPILOG = EXIT_CODES + """
examples:
  pic-copilot search "route two ports with a bend"         search the installed tools' manuals
  pic-copilot api gf.components.mmi1x2                      one API's signature and docs
  pic-copilot ask "an MMI 1x2 written to mmi.gds" --mode sandbox --out mmi.py
  pic-copilot run mmi.py --json                              run a script, JSON result
  pic-copilot run edit.py --mode interactive                 run on the layout open in KLayout
  pic-copilot serve-mcp                                      MCP server for other agents (stdio)
  pic-copilot llm status                                     the embedded local model
  pic-copilot explore gdsfactory --max-seconds 600           probe the installed APIs (resumable)

environment: PIC_COPILOT_BASE_URL / _API_KEY / _MODEL / _PROVIDER choose the LLM endpoint,
PIC_COPILOT_HOME the data folder (see README.md).
"""


def _fmt() -> type[argparse.HelpFormatter]:
    return argparse.RawDescriptionHelpFormatter


def _err(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)


# ----------------------------------------------------------------------------------------- llm
def _llm(args: argparse.Namespace) -> int:
    from .llm import local_server

    if args.action == "start":
        running = local_server.status()
        if running is None and not args.json:
            print("starting the embedded model (llama.cpp on 127.0.0.1; a few seconds, longer on first start) ...",
                  file=sys.stderr, flush=True)
        t0 = time.monotonic()
        info = running or local_server.start(timeout_s=args.timeout)
        out = {"running": True, "already_running": running is not None, "pid": info.pid, "base_url": info.base_url,
               "model": info.model, "seconds": round(time.monotonic() - t0, 1)}
    elif args.action == "stop":
        out = {"stopped": local_server.stop()}
    else:
        info = local_server.status()
        out = {"running": info is not None}
        if info:
            out.update(pid=info.pid, base_url=info.base_url, model=info.model)
    if args.json:
        print(json.dumps(out))
    elif args.action == "start":
        print(f"{'already running' if out['already_running'] else 'started'}: {out['base_url']} "
              f"(pid {out['pid']}, model {out['model']})")
    elif args.action == "stop":
        print("stopped" if out["stopped"] else "not running")
    elif out["running"]:
        print(f"running: {out['base_url']} (pid {out['pid']}, model {out['model']})")
    else:
        print("not running (it starts on demand; `pic-copilot llm start` starts it now)")
    return 0


# ------------------------------------------------------------------------------------- klayout
def _klayout(args: argparse.Namespace) -> int:
    from .remote_client import RemoteBridge, RemoteError, discover

    try:
        info = discover()
        with RemoteBridge(info, timeout_s=10) as b:
            st = b.status()
    except RemoteError as e:
        if args.json:
            print(json.dumps({"reachable": False, "message": str(e)}))
        else:
            print(f"not reachable: {e}")
        return 2
    out = {"reachable": True, "host": info.host, "port": info.port, "pid": info.pid, "klayout": st.get("klayout"),
           "filename": st.get("filename"), "undoable": st.get("undoable"), "layout": st.get("layout")}
    if args.json:
        print(json.dumps(out, default=str))
    else:
        lay = st.get("layout")
        print(f"reachable: KLayout {st.get('klayout')} (pid {info.pid}) on {info.host}:{info.port}")
        if lay is None:
            print("no layout is open")
        else:
            print(f"layout: {st.get('filename') or '(unsaved)'}; undoable: {st.get('undoable')}")
            print(json.dumps(lay, default=str)[:1000])
    return 0


# ----------------------------------------------------------------------------------- serve-mcp
def _serve_mcp(args: argparse.Namespace) -> int:
    from .mcp_server import main as serve

    return serve(log_level=args.log_level)


# -------------------------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="pic-copilot", formatter_class=_fmt(), epilog=EPILOG,
        description="Photonic design copilot: turns plain-language requests into working gdsfactory / KLayout "
                    "scripts, grounded in the APIs installed here and checked by running them.")
    ap.add_argument("--version", action="version", version=f"pic-copilot {__version__}")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    from .retrieval import cli as retrieval_cli
    retrieval_cli.register(sub)
    from .agents import cli as agents_cli
    agents_cli.register(sub)
    from .bench import cli as bench_cli
    bench_cli.register(sub)
    from .explore import cli as explore_cli
    explore_cli.register(sub)

    run_p = sub.choices["run"]
    run_p.description = ("Run a script and print a result summary. --mode sandbox (default): the engine's Python in "
                         "a fresh work folder. --mode interactive: the layout open in KLayout (when its panel allows "
                         "external agents), else klayout -b on --layout FILE or a temporary layout.")

    ask_p = sub.choices["ask"]
    ask_p.description = ("Turn a design request into a checked script: plan, retrieve the installed APIs, generate, "
                         "run and revise. The script goes to stdout (or --out), progress to stderr.")


    p = sub.add_parser("llm", help="start, stop or check the embedded local LLM server", formatter_class=_fmt(),
                       description="The embedded model (Qwen2.5-Coder 1.5B on llama.cpp, 127.0.0.1 only). The engine "
                                   "starts it on demand and leaves it running for the next request; `stop` frees its "
                                   "memory (2-3.5 GB). Not used when PIC_COPILOT_BASE_URL points elsewhere.")
    p.add_argument("action", choices=["start", "stop", "status"], help="start it now / stop it / is it running")
    p.add_argument("--timeout", type=float, default=180, help="start: seconds to wait until it answers (default 180)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_llm)

    p = sub.add_parser("klayout", help="is a running KLayout reachable for interactive mode?", formatter_class=_fmt(),
                       description="Check the endpoint a running KLayout offers when its pic-copilot panel allows external "
                                   "agents (127.0.0.1 only, per-session token; see docs/MCP.md). Exit 0 reachable, 2 not.")
    p.add_argument("action", choices=["status"], help="report reachability and the open layout")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_klayout)

    p = sub.add_parser("serve-mcp", help="serve the copilot's tools to other agents over MCP (stdio)",
                       formatter_class=_fmt(),
                       description="Model Context Protocol server on stdin/stdout with the tools search_apis, "
                                   "get_api_details, run_code (sandbox or the open KLayout layout) and generate_script. "
                                   "Configure your MCP client to start: pic-copilot serve-mcp (see docs/MCP.md).")
    p.add_argument("--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                   help="server log level on stderr (default WARNING)")
    p.set_defaults(func=_serve_mcp)
    return ap


def main(argv: list[str] | None = None) -> int:
    from .llm.local_server import LocalServerError
    from .remote_client import RemoteError
    from .retrieval import RetrievalError

    from .redact import scrub_streams

    scrub_streams()  # whatever is printed (errors an endpoint echoed included) never shows a key
    ap = build_parser()
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # argparse: 0 for --help/--version, 2 for bad usage
        return int(e.code or 0)
    try:
        return int(args.func(args) or 0)
    except (LocalServerError, RemoteError, RetrievalError) as e:
        _err(str(e))
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `pic-copilot ... | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
