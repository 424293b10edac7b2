"""The `pic-copilot` command line.

Every subcommand returns an exit code (see EXIT_CODES, printed by ``pic-copilot --help``).
Subcommands live with their code and are added here through ``register(subparsers)``:
retrieval (search, api, build-db, eval-retrieval), frontends/ask_run.py (ask, run), bench, explore; this module
adds llm, klayout, serve-mcp, explain and fix, and lets ask/run reach a running KLayout.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .. import __version__

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
  pic-copilot explain my_macro.lym                           what a script or KLayout macro does
  pic-copilot fix broken.py --apply                          run it, fix what fails, write the fix back
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
    from ..llm import local_server

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
    from ..bridges.remote_client import RemoteBridge, RemoteError, discover

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


# ------------------------------------------------------------------------------ explain / fix
class _Console:
    """Prints an engine job's progress and streamed text to stderr (like the panel's transcript)."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.streaming = False

    def end(self) -> None:
        if self.streaming:
            sys.stderr.write("\n")
            self.streaming = False

    def __call__(self, msg: dict) -> None:
        if self.quiet:
            return
        t = msg.get("type")
        if t == "token":
            if msg.get("text") is None:
                return
            if not self.streaming:
                sys.stderr.write(f"[{msg.get('agent')}] ")
                self.streaming = True
            sys.stderr.write(msg["text"])
            sys.stderr.flush()
        elif t == "progress":
            self.end()
            print(f"[{msg.get('stage')}] {msg.get('message')}", file=sys.stderr, flush=True)


def _script_job_command(sub, name: str, func, help: str, description: str) -> argparse.ArgumentParser:
    """The parser of a command that runs an engine job on a script or macro (explain, fix): its
    FILE argument and handler; the command adds its own options, then :func:`_job_output_flags`.

    Args:
        sub: the subparsers of the main parser.
        name, help, description: the command's name and texts.
        func: its handler.
    """
    p = sub.add_parser(name, help=help, description=description, formatter_class=_fmt())
    p.add_argument("file", help="the script (.py) or KLayout macro (.lym)")
    p.set_defaults(func=func)
    return p


def _job_output_flags(p: argparse.ArgumentParser) -> None:
    """--json and --quiet, as the commands that run an engine job (explain, fix) take them, after their own options.

    Args:
        p: the command's parser.
    """
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--quiet", action="store_true", help="no progress or streamed text on stderr")


def _job(msg: dict, args, bridge=None) -> dict | None:
    """Run an engine message in this process; prints a failure and returns None on an error answer."""
    from .engine import run_job

    console = _Console(args.quiet or args.json)
    try:
        ans = run_job(msg, bridge=bridge, on_event=console)
    finally:
        console.end()
    if ans.get("type") == "error":
        if args.json:
            print(json.dumps({"ok": False, "error": {"kind": ans.get("kind"), "message": ans.get("message")}}))
        else:
            _err(f"{ans.get('kind')}: {ans.get('message')}")
        raise SystemExit(3 if str(ans.get("kind", "")).startswith("llm-") else 2)
    return ans


def _script_at(path: str) -> tuple[str, str] | None:
    """The code and name of the script or macro at ``path``; None, after saying why on stderr, when
    it cannot be read or holds no code.

    Args:
        path: a ``.py`` file or a KLayout ``.lym`` macro, as given on the command line.
    """
    from ..agents.explain_fix import read_script

    try:
        code, name = read_script(path)
    except ValueError as e:
        _err(str(e))
        return None
    if not code.strip():
        _err(f"{path} holds no code")
        return None
    return code, name


def _explain(args: argparse.Namespace) -> int:
    script = _script_at(args.file)
    if script is None:
        return 2
    code, name = script
    ans = _job({"type": "explain", "id": "cli-explain", "code": code, "name": name, "question": args.question or ""},
               args)
    if args.json:
        print(json.dumps({"ok": True, "file": args.file, "explanation": ans.get("text", "")}))
    else:
        print(ans.get("text", ""))
    return 0


def _fix(args: argparse.Namespace) -> int:
    from ..agents.explain_fix import write_script
    from ..bridges.remote_client import RemoteError
    from ..config import data_home

    script = _script_at(args.file)
    if script is None:
        return 2
    code, name = script
    bridge = None
    if args.mode == "interactive":
        from .ask_run import interactive_bridge

        try:
            bridge = interactive_bridge(argparse.Namespace(layout=args.layout, batch=args.batch))
        except (RuntimeError, RemoteError) as e:
            _err(str(e))
            return 2
    msg = {"type": "fix", "id": "cli-fix", "code": code, "name": name, "complaint": args.complaint or "",
           "mode": args.mode, "config": args.config, "max_rounds": args.max_rounds}
    try:
        ans = _job(msg, args, bridge)
    finally:
        if bridge is not None:
            bridge.close()
    applied = kept = None
    if args.apply and ans.get("ok") and ans.get("diff"):
        hist = data_home() / "macro-history"
        hist.mkdir(parents=True, exist_ok=True)
        kept = hist / f"{name}.{time.strftime('%Y%m%d-%H%M%S')}{Path(args.file).suffix}"
        kept.write_bytes(Path(args.file).read_bytes())
        write_script(args.file, ans["script"])
        applied = str(args.file)
    if args.json:
        print(json.dumps({"ok": ans.get("ok"), "needed": ans.get("needed"), "applied": applied,
                          "old_text_kept": str(kept) if kept else None, "diff": ans.get("diff"),
                          "script": ans.get("script"), "problems": ans.get("problems"), "message": ans.get("message"),
                          "probe": ans.get("probe"), "execution": ans.get("execution"), "rounds": ans.get("rounds"),
                          "usage": ans.get("usage"),
                          "record": ans.get("record")}, indent=1, default=str))
    else:
        if ans.get("diff"):
            print(ans["diff"], end="" if ans["diff"].endswith("\n") else "\n")
        verdict = ("nothing to fix" if not ans.get("needed") else
                   "fixed (the new script ran and was accepted)" if ans.get("ok") else "NOT fixed (the proposal did not pass)")
        print(f"# {name}: {verdict}. {ans.get('message') or ''}".rstrip(), file=sys.stderr)
        if applied:
            print(f"# applied to {applied}; the old text is kept in {kept}", file=sys.stderr)
        elif args.apply and ans.get("needed"):
            print(f"# not applied: {args.file} is unchanged", file=sys.stderr)
        elif ans.get("diff"):
            print("# not applied (--apply writes it to the file)", file=sys.stderr)
    if not ans.get("needed"):
        return 0
    return 0 if ans.get("ok") else 1


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

    from ..retrieval import cli as retrieval_cli
    retrieval_cli.register(sub)
    from . import ask_run
    ask_run.register(sub)
    from ..bench import cli as bench_cli
    bench_cli.register(sub)
    from ..explore import cli as explore_cli
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

    p = _script_job_command(
        sub, "explain", _explain, help="explain what a script or KLayout macro does",
        description="A plain-language explanation of a Python script or a KLayout .lym/.py macro: what it does step "
                    "by step, which layers and cells it touches, what looks wrong. The same engine message as the "
                    "panel's Explain macro. The text goes to stdout.")
    p.add_argument("--question", help="a question about it, answered in the explanation")
    _job_output_flags(p)

    from ..contracts import PIPELINE_CONFIGS

    p = _script_job_command(
        sub, "fix", _fix, help="run a script, fix what fails (or what you say is wrong), show the diff",
        description="Run the script as it is (sandbox, or --mode interactive: the layout open in KLayout, its change "
                    "undone again, else klayout -b), then revise it with the error and your --complaint until the new "
                    "script runs and is accepted. The same engine message as the panel's Fix macro. Prints a unified "
                    "diff; --apply writes the fixed script into FILE (a .lym keeps its macro settings), keeping the old "
                    "text in <data home>/macro-history. Exit 0 fixed or nothing to fix, 1 not fixed (FILE unchanged).")
    p.add_argument("--complaint", help="what is wrong with it, in plain words (needed when it runs without an error)")
    p.add_argument("--mode", choices=["sandbox", "interactive"], default="sandbox", help="where it runs (default sandbox)")
    p.add_argument("--apply", action="store_true", help="write the fix into FILE when it passed")
    p.add_argument("--config", choices=list(PIPELINE_CONFIGS), default=None,
                   help="pipeline configuration (default: PIC_COPILOT_PIPELINE or full)")
    p.add_argument("--max-rounds", type=int, default=None, help="revision rounds (default from settings)")
    p.add_argument("--layout", help="interactive mode without a running KLayout: the GDS file to run on")
    p.add_argument("--batch", action="store_true", help="interactive mode: klayout -b even if a KLayout allows agents")
    _job_output_flags(p)

    p = sub.add_parser("serve-mcp", help="serve the copilot's tools to other agents over MCP (stdio)",
                       formatter_class=_fmt(),
                       description="Model Context Protocol server on stdin/stdout with the tools search_apis, "
                                   "get_api_details, run_code (sandbox or the open KLayout layout), generate_script, explain_script and "
                                   "fix_script. "
                                   "Configure your MCP client to start: pic-copilot serve-mcp (see docs/MCP.md).")
    p.add_argument("--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                   help="server log level on stderr (default WARNING)")
    p.set_defaults(func=_serve_mcp)
    return ap


def main(argv: list[str] | None = None) -> int:
    from ..llm.local_server import LocalServerError
    from ..bridges.remote_client import RemoteError
    from ..retrieval import RetrievalError

    from ..redact import scrub_streams

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
    except SystemExit as e:  # explain/fix: the engine answered with an error (already printed)
        return int(e.code or 0)
    except BrokenPipeError:  # `pic-copilot ... | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
