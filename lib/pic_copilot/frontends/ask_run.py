"""``pic-copilot ask`` and ``pic-copilot run`` (wired into pic_copilot.frontends.cli by ``register(subparsers)``)."""
from __future__ import annotations

import json
import sys
import threading
import uuid
from pathlib import Path

from ..execution.report import ExecutionReport, execution_summary


class ConsoleIO:
    """PipelineIO that prints progress to stderr (and streamed text unless quiet)."""

    def __init__(self, bridge=None, quiet: bool = False, stream: bool = True):
        self.bridge = bridge
        self.cancel = threading.Event()
        self.quiet = quiet
        self.stream = stream and not quiet
        self._streaming = False

    def _end_stream(self):
        if self._streaming:
            sys.stderr.write("\n")
            self._streaming = False

    def progress(self, stage, message, data=None):
        if self.quiet:
            return
        self._end_stream()
        print(f"[{stage}] {message}", file=sys.stderr, flush=True)

    def token(self, agent, text):
        if not self.stream or text is None:
            return
        if not self._streaming:
            sys.stderr.write(f"[{agent}] ")
            self._streaming = True
        sys.stderr.write(text)
        sys.stderr.flush()

    def script(self, code, round_):
        pass


def _exec_summary_lines(rep: ExecutionReport | None) -> list[str]:
    s = execution_summary(rep)
    if not s.get("ran"):
        return ["not run"]
    lines = [f"where: {s.get('where')}  ok: {s['ok']}  duration: {s.get('duration_s')} s"]
    if s.get("killed_reason"):
        lines.append(f"killed: {s['killed_reason']} (a sandbox limit)")
    if s.get("exception"):
        lines.append(f"exception: {s['exception']['type']}: {s['exception']['message']}")
    if s.get("stdout"):
        lines.append("stdout:\n" + s["stdout"].rstrip())
    for f in s.get("files") or []:
        lines.append(f"file: {f['path']} ({f.get('kind')}, {f.get('size')} bytes)")
    if s.get("changes"):
        lines.append("layout changes: " + json.dumps(s["changes"]))
    return lines


def interactive_bridge(args):
    """The bridge for interactive mode: the layout open in a running KLayout whose panel allows outside
    tools, else ``klayout -b`` on --layout FILE (or a temporary layout). --layout/--batch skip the search.

    Raises RuntimeError (KLayout not installed) or remote_client.RemoteError (it went away).
    """
    from ..bridges.klayout_batch import KlayoutBatchBridge

    if not (args.layout or args.batch):
        from ..bridges.remote_client import RemoteBridge, RemoteError

        try:
            remote = RemoteBridge()
        except RemoteError as e:
            print(f"note: {e}\nnote: running on a temporary layout in klayout -b instead "
                  f"(--layout FILE keeps it; --batch skips this check)", file=sys.stderr)
        else:
            print(f"using the layout open in KLayout (pid {remote.info.pid}, {remote.info.host}:{remote.info.port})",
                  file=sys.stderr)
            return remote
    return KlayoutBatchBridge(layout_file=args.layout)


def cmd_ask(args) -> int:
    from ..config import load_settings
    from ..llm import LLMError
    from ..contracts import Request
    from ..agents import run_request

    settings = load_settings()
    mode = args.mode or settings.mode
    from ..bridges.remote_client import RemoteError

    bridge = None
    if mode == "interactive":
        try:
            bridge = interactive_bridge(args)
        except (RuntimeError, RemoteError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    io = ConsoleIO(bridge=bridge, quiet=args.quiet or args.json, stream=not args.no_stream)
    inputs, problem = _inputs(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    req = Request(id=args.id or uuid.uuid4().hex[:12], prompt=args.request, mode=mode, max_rounds=args.max_rounds,
                  config=args.config, inputs=inputs, time_budget_s=args.time_budget)
    try:
        out = run_request(req, io, settings)
    except KeyboardInterrupt:
        io.cancel.set()
        print("cancelled", file=sys.stderr)
        return 130
    except LLMError as e:
        if args.json:
            print(json.dumps({"ok": False, "error": {"kind": e.kind, "message": str(e)}}))
        else:
            print(f"error ({e.kind}): {e}", file=sys.stderr)
        return 3
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.out:
        from ..execution.drc_deck import file_text

        Path(args.out).write_text(file_text(out.script, args.out))   # a deck saved as .lydrc is the XML macro
    if args.json:
        print(json.dumps({"ok": out.ok, "rounds": out.rounds, "message": out.message, "script": out.script,
                          "execution": execution_summary(out.execution), "usage": out.usage,
                          "timings": out.timings, "time_summary": out.time_line(),
                          "record": out.record_path}, indent=1, default=str))
    else:
        io._end_stream()
        print(out.script)
        print(f"# {'OK' if out.ok else 'FAILED'}: {out.message}", file=sys.stderr)
        for line in _exec_summary_lines(out.execution):
            print("# " + line.replace("\n", "\n# "), file=sys.stderr)
        u = out.usage
        print(f"# time: {out.time_line()}; record: {out.record_path}", file=sys.stderr)
    if bridge is not None:
        bridge.close()
    return 0 if out.ok else 1


def _inputs(args) -> tuple[dict | None, str | None]:
    """--input FILE (repeatable): files every sandbox run starts with, under their own names
    (a DRC deck reads the first layout among them as $input)."""
    files = {}
    for f in getattr(args, "input", None) or []:
        p = Path(f).resolve()
        if not p.is_file():
            return None, f"--input {f}: no such file"
        files[p.name] = str(p)
    return files or None, None


def cmd_run(args) -> int:
    from ..execution.routing import execute

    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as e:
        print(f"error: cannot read {path}: {e.strerror or e}", file=sys.stderr)
        return 2
    try:
        if b"\0" in data:
            raise UnicodeDecodeError("utf-8", data, data.index(b"\0"), data.index(b"\0") + 1, "NUL byte")
        code = data.decode("utf-8")
    except UnicodeDecodeError as e:
        print(f"error: {path} is not a Python script (not UTF-8 text: {e.reason} at byte {e.start}); "
              "pass the .py file to run", file=sys.stderr)
        return 2
    from ..bridges.remote_client import RemoteError

    bridge = None
    try:
        if args.mode == "interactive":
            bridge = interactive_bridge(args)
        inputs, problem = _inputs(args)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
        rep = execute(code, args.mode, bridge, timeout_s=args.timeout, inputs=inputs)
    except (RuntimeError, RemoteError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        if bridge is not None:
            bridge.close()
    if args.json:
        print(json.dumps(execution_summary(rep), indent=1, default=str))
    else:
        for line in _exec_summary_lines(rep):
            print(line)
        exc = rep.exception or {}
        if exc.get("traceback"):
            print(exc["traceback"].rstrip(), file=sys.stderr)
    return 0 if rep.ok else 1


def register(subparsers) -> None:
    """Add the ``ask`` and ``run`` subcommands."""
    from ..agents.pipeline import CONFIGS

    a = subparsers.add_parser("ask", help="turn a design request into a checked script")
    a.add_argument("request", help="the request in plain language")
    a.add_argument("--mode", choices=["sandbox", "interactive"], default=None,
                   help="sandbox (engine Python) or interactive (KLayout; klayout -b on --layout when no GUI)")
    a.add_argument("--out", help="write the final script to this file")
    a.add_argument("--json", action="store_true", help="print the outcome as JSON")
    a.add_argument("--max-rounds", type=int, default=None, help="evaluator rounds (default from settings)")
    a.add_argument("--time-budget", type=float, default=None, metavar="SECONDS",
                   help="start no candidate that would end after this many seconds; end with the best script so far")
    a.add_argument("--config", choices=list(CONFIGS), default="full", help="pipeline configuration")
    a.add_argument("--layout", help="interactive mode without a GUI: the GDS file the script works on")
    a.add_argument("--batch", action="store_true",
                   help="interactive mode: use klayout -b even when a running KLayout allows external agents")
    a.add_argument("--id", help="request id (to continue with feedback in the same process)")
    a.add_argument("--input", action="append", metavar="FILE",
                   help="sandbox mode: a file every run starts with (repeatable; a DRC deck checks the first layout)")
    a.add_argument("--quiet", action="store_true", help="no progress output")
    a.add_argument("--no-stream", action="store_true", help="do not echo streamed LLM text")
    a.set_defaults(func=cmd_ask)

    r = subparsers.add_parser("run", help="run a script in the sandbox and print a result summary")
    r.add_argument("file")
    r.add_argument("--mode", choices=["sandbox", "interactive"], default="sandbox")
    r.add_argument("--layout", help="interactive mode: the GDS file the script works on (klayout -b)")
    r.add_argument("--batch", action="store_true",
                   help="interactive mode: use klayout -b even when a running KLayout allows external agents")
    r.add_argument("--timeout", type=float, default=120)
    r.add_argument("--input", action="append", metavar="FILE",
                   help="sandbox mode: a file the script starts with (repeatable; a DRC deck checks the first layout)")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_run)
