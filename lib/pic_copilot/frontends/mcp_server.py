"""pic-copilot as an MCP server (stdio): the copilot's tools for other agents.

Tools:
    search_apis(query, db?, k?)        hybrid search over the installed tools' manuals
    get_api_details(name)              the full documentation entry of one API name
    run_code(code, mode?, timeout_s?)  run a script in the sandbox, or on the layout open in KLayout
    generate_script(request, mode?, config?, max_rounds?)   the whole pipeline: a checked script
    explain_script(code, name?, question?)   a plain-language explanation of a script / KLayout macro
    fix_script(code, name?, complaint?, mode?, config?, max_rounds?)   run it, fix what fails, return the diff

``mode="interactive"`` reaches a running KLayout through the endpoint the designer switches on in
the pic-copilot panel (see bridges/remote_client.py and docs/MCP.md). Problems a caller can fix (empty
query, unknown database or API, bad mode, KLayout not reachable, LLM endpoint down) come back
as tool errors (``isError: true``) with a message that says what to do.

Run with ``pic-copilot serve-mcp``. Only MCP messages go to stdout (the SDK points fd 1 at
stderr while it serves, so stray prints and child processes cannot corrupt the stream).
"""
from __future__ import annotations

import logging
import sys
import threading
import uuid
from typing import Annotated, Any, Literal

import anyio
import anyio.from_thread
import anyio.to_thread
from pydantic import Field

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from ..contracts import PIPELINE_CONFIGS, ModeName
from ..execution.report import ExecutionReport, execution_summary

from .. import __version__

log = logging.getLogger("pic_copilot.mcp")
#: every pipeline configuration, from the one table (pic_copilot.contracts)
ConfigName = Literal[PIPELINE_CONFIGS]  # type: ignore[valid-type]

CONTENT_CHARS = 4000
DETAIL_CHARS = 20000
TRACEBACK_CHARS = 3000

INSTRUCTIONS = """\
pic-copilot writes and checks Python design scripts for photonic layouts (gdsfactory 9, KLayout pya,
KLayout DRC with pya.Region, SAX circuit simulation), grounded in the APIs installed on this machine.

Typical use:
- Before writing code yourself, call search_apis with what you want to do (e.g. "route two ports
  with a bend") and get_api_details for the exact signature: the installed versions differ from
  what you may remember (gdsfactory 9: gf.gpdk.PDK.activate(), c.write_gds(path), route_single).
- run_code(mode="sandbox") runs a script in a fresh work folder with gdsfactory/klayout/SAX and
  reports stdout, the exception and the files it wrote (GDS cells/layers/bbox).
- run_code(mode="interactive") runs it on the layout open in the designer's KLayout (one undoable
  step; pya scripts get globals layout, cell, view, dbu, selection), or runs a gdsfactory script in
  the sandbox and inserts the GDS it wrote. The designer must switch this on in the panel.
- explain_script(code) explains a script or KLayout macro; fix_script(code, complaint?) runs it, fixes
  the error (or the complaint) and returns the fixed script with a unified diff (nothing is written).
- generate_script(request) runs the whole copilot (planner, retrieval, generators, evaluator with
  execution feedback) and returns a checked script. It calls an LLM and can take minutes.
"""


def _tool_error(prefix: str, e: BaseException) -> ToolError:
    return ToolError(f"{prefix}: {e}" if prefix else str(e))


def _clip(text: str | None, n: int) -> str:
    text = text or ""
    return text if len(text) <= n else text[:n] + f"\n... [{len(text) - n} more characters]"


def _report(rep: ExecutionReport | None) -> dict:
    """An execution report for a caller: its summary plus the traceback tail."""
    out = execution_summary(rep)
    exc = (rep.exception if rep else None) or {}
    if exc.get("traceback"):
        tb = exc["traceback"]
        out["traceback"] = tb[-TRACEBACK_CHARS:]
    if rep and rep.note:
        out["note"] = rep.note
    if rep and rep.workdir:
        out["workdir"] = rep.workdir
    return out


def _remote_bridge():
    from ..bridges.remote_client import RemoteBridge, RemoteError

    try:
        return RemoteBridge()
    except RemoteError as e:
        raise ToolError(f"interactive mode needs the designer's KLayout: {e}. Or use mode=\"sandbox\".") from None


# ---------------------------------------------------------------------------------------------- tools
def search_apis(
    query: Annotated[str, Field(description="What you want to do or find, in plain words or an API name, "
                                            "e.g. 'connect two ports with a waveguide route' or 'Region sized'.")],
    db: Annotated[str | None, Field(description="Database name(s), comma separated: gdsfactory, pya (KLayout "
                                                "application API), klayout_db (pip klayout.db), sax. Default: all.")] = None,
    k: Annotated[int, Field(description="Number of results (1-20).", ge=1, le=20)] = 5,
) -> dict[str, Any]:
    """Search the manuals of the tools installed on this machine (gdsfactory, KLayout pya, klayout.db, SAX).

    Hybrid retrieval (dense + BM25) over one entry per function/class/method with its real
    signature and docstring, matching the installed versions. Returns the top-k entries: id (the API
    name to pass to get_api_details), db, kind, score, summary and the documentation text.
    """
    from ..retrieval import RetrievalError
    from ..retrieval import search_apis as _search

    try:
        res = _search(query, db=db, k=k)
    except RetrievalError as e:
        raise _tool_error("", e) from None
    results = []
    for r in res:
        md = r.get("metadata") or {}
        item = {"id": r["id"], "db": r["db"], "kind": r["kind"], "score": r["score"], "summary": r["summary"],
                "content": _clip(r["content"], CONTENT_CHARS)}
        if md.get("signature"):
            item["signature"] = md["signature"]
        results.append(item)
    return {"query": query.strip(), "db": db or "all", "results": results}


def get_api_details(
    name: Annotated[str, Field(description="An API name as returned by search_apis, or a usual spelling: "
                                           "'gdsfactory.components.mmi1x2', 'gf.routing.route_single', "
                                           "'pya.Region.sized', 'kdb.Layout'.")],
) -> dict[str, Any]:
    """The full documentation entry of one API name: signature, parameters, docstring, members.

    Aliases and the usual prefixes (gf., kdb., pya.) are understood. An unknown name is an error
    that lists the closest known names.
    """
    from ..retrieval import RetrievalError
    from ..retrieval import get_api_details as _details

    try:
        d = _details(name)
    except RetrievalError as e:
        raise _tool_error("", e) from None
    d = dict(d)
    d["content"] = _clip(d.get("content"), DETAIL_CHARS)
    if isinstance(d.get("members"), list) and len(d["members"]) > 300:
        d["members"] = d["members"][:300] + [f"... {len(d['members']) - 300} more"]
    return d


def run_code(
    code: Annotated[str, Field(description="A complete Python script.")],
    mode: Annotated[ModeName, Field(
        description="'sandbox': the engine's Python (gdsfactory 9.45, pip klayout, SAX) in a fresh work folder. "
                    "'interactive': the layout open in the designer's KLayout (pya only, one undoable step; "
                    "gdsfactory scripts run in the sandbox and the GDS they write is inserted).")] = "sandbox",
    timeout_s: Annotated[float, Field(description="Wall-time limit in seconds (sandbox).", gt=0, le=1800)] = 120,
) -> dict[str, Any]:
    """Run a Python design script and report what happened.

    Returns ok, where it ran, stdout/stderr (tails), the exception with its traceback, files the
    script wrote (GDS/OAS: cells, layers, ports, bbox) and, in KLayout, the layout changes. A script
    that fails is reported with ok=false (not as a tool error); a failed script leaves the open
    layout exactly as it was.
    """
    from ..execution.routing import execute

    if not isinstance(code, str) or not code.strip():
        raise ToolError("empty code: pass the whole script to run")
    if mode not in ("sandbox", "interactive"):
        raise ToolError(f"unknown mode {mode!r}: use 'sandbox' or 'interactive'")
    bridge = _remote_bridge() if mode == "interactive" else None
    try:
        rep = execute(code, mode, bridge, timeout_s=timeout_s)
    except Exception as e:
        from ..bridges.remote_client import RemoteError

        if isinstance(e, RemoteError):
            raise ToolError(f"KLayout: {e}") from None
        log.exception("run_code failed")
        raise ToolError(f"internal error while running the script: {type(e).__name__}: {e}") from None
    finally:
        if bridge is not None:
            bridge.close()
    return _report(rep)


class _McpIO:
    """PipelineIO that forwards progress to the MCP client (from the pipeline's worker thread)."""

    def __init__(self, bridge, send):
        self.bridge = bridge
        self.cancel = threading.Event()
        self._send = send
        self.steps = 0
        self.scripts = 0

    def progress(self, stage: str, message: str, data: dict | None = None) -> None:
        self.steps += 1
        self._send(self.steps, f"[{stage}] {message}")

    def token(self, agent: str, text: str | None) -> None:
        pass

    def script(self, code: str, round_: int) -> None:
        self.scripts += 1


async def generate_script(
    request: Annotated[str, Field(description="The design request in plain language, e.g. 'an MMI 1x2 with "
                                              "5 um long taper, write it to mmi.gds'.")],
    ctx: Context,
    mode: Annotated[ModeName, Field(
        description="'sandbox' (default): the script is checked in the engine's sandbox. 'interactive': it acts "
                    "on the layout open in the designer's KLayout (switched on in the panel).")] = "sandbox",
    config: Annotated[ConfigName, Field(
        description="Pipeline configuration: 'full' (cookbook examples, execution-ranked candidates, "
                    "evidence-first acceptance) or a baseline/ablation such as 'zero-shot' (one LLM call).")] = "full",
    max_rounds: Annotated[int | None, Field(description="Evaluator feedback rounds (default from settings).",
                                            ge=0, le=10)] = None,
) -> dict[str, Any]:
    """Turn a design request into a checked Python script (the whole pic-copilot pipeline).

    Plans the work, retrieves the installed APIs, writes the script, runs it (sandbox or the open
    layout) and revises it with the execution evidence. Calls an LLM (the configured endpoint or
    the embedded local model) and can take minutes; progress is reported as MCP progress
    notifications and log messages. Returns ok, the final script, a message, rounds, the last
    execution report, LLM usage and the run record's path.
    """
    from ..agents import run_request
    from ..config import load_settings
    from ..llm import LLMError
    from ..llm.local_server import LocalServerError
    from ..contracts import Request

    if not isinstance(request, str) or not request.strip():
        raise ToolError("empty request: describe what the script should do")
    if mode not in ("sandbox", "interactive"):
        raise ToolError(f"unknown mode {mode!r}: use 'sandbox' or 'interactive'")
    bridge = None
    layout_context = None
    if mode == "interactive":
        from ..bridges.remote_client import RemoteError

        bridge = _remote_bridge()
        try:
            layout_context = (await anyio.to_thread.run_sync(bridge.status)).get("layout")
        except RemoteError as e:
            bridge.close()
            raise ToolError(f"interactive mode needs the designer's KLayout: {e}") from None

    def send(step: int, message: str) -> None:
        from ..redact import scrub

        message = scrub(message)

        async def _notify():
            await ctx.report_progress(step, None, message)
            await ctx.info(message)

        try:
            anyio.from_thread.run(_notify)
        except Exception:  # the call was cancelled or the client went away: keep working quietly
            pass

    io = _McpIO(bridge, send)
    req = Request(id="mcp-" + uuid.uuid4().hex[:10], prompt=request.strip(), mode=mode, config=config,
                  max_rounds=max_rounds, layout_context=layout_context)
    try:
        out = await anyio.to_thread.run_sync(lambda: run_request(req, io, load_settings()), abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        io.cancel.set()
        raise
    except LLMError as e:
        raise ToolError(f"the LLM endpoint failed ({e.kind}): {e}") from None
    except LocalServerError as e:
        raise ToolError(f"the embedded LLM cannot start: {e}") from None
    except ValueError as e:
        raise ToolError(str(e)) from None
    except Exception as e:  # noqa: BLE001 - a bug, but the calling agent deserves to know what happened
        log.exception("generate_script failed")
        raise ToolError(f"internal error in the pipeline: {type(e).__name__}: {e} (traceback in the server's "
                        f"stderr log)") from None
    finally:
        if bridge is not None:
            bridge.close()
    return {"ok": out.ok, "script": out.script, "message": out.message, "rounds": out.rounds,
            "execution": execution_summary(out.execution), "usage": out.usage, "record": out.record_path,
            "mode": mode, "config": config}


async def _engine_job(msg: dict, ctx: Context, bridge=None) -> dict:
    """Run an engine message (the panel's own ``explain`` / ``fix``) in a worker thread, forwarding its
    progress as MCP progress notifications; an ``error`` answer becomes a tool error."""
    from .engine import run_job

    steps = [0]

    def on_event(m: dict) -> None:
        if m.get("type") != "progress":
            return
        steps[0] += 1
        message = f"[{m.get('stage')}] {m.get('message')}"

        async def _notify():
            await ctx.report_progress(steps[0], None, message)
            await ctx.info(message)

        try:
            anyio.from_thread.run(_notify)
        except Exception:  # the client went away: keep working quietly
            pass

    ans = await anyio.to_thread.run_sync(lambda: run_job(msg, bridge=bridge, on_event=on_event),
                                         abandon_on_cancel=True)
    if ans.get("type") == "error":
        kind = str(ans.get("kind") or "")
        prefix = f"the LLM endpoint failed ({kind[4:]})" if kind.startswith("llm-") else kind
        raise ToolError(f"{prefix}: {ans.get('message')}")
    return ans


async def explain_script(
    code: Annotated[str, Field(description="The script or KLayout macro text (Python).")],
    ctx: Context,
    name: Annotated[str, Field(description="What to call it in the explanation, e.g. the macro's file name.")] = "",
    question: Annotated[str, Field(description="An optional question about the script.")] = "",
) -> dict[str, Any]:
    """Explain a Python layout script or KLayout macro in plain language.

    What it does step by step, which layers, cells and files it reads or changes, and what looks
    wrong for the installed tool versions (invented APIs, database units vs micrometres). The same
    explanation the pic-copilot panel gives for "Explain this macro". Calls the LLM.
    """
    if not isinstance(code, str) or not code.strip():
        raise ToolError("empty code: pass the whole script to explain")
    ans = await _engine_job({"type": "explain", "id": "mcp-" + uuid.uuid4().hex[:10], "code": code, "name": name,
                             "question": question}, ctx)
    return {"explanation": ans.get("text", ""), "name": name}


async def fix_script(
    code: Annotated[str, Field(description="The script or KLayout macro text (Python).")],
    ctx: Context,
    name: Annotated[str, Field(description="Its name (used in the prompt and the diff headers).")] = "",
    complaint: Annotated[str, Field(description="What is wrong with it in plain words; needed when it runs "
                                                "without an error but does the wrong thing.")] = "",
    mode: Annotated[ModeName, Field(
        description="Where it runs: 'sandbox' (default) or 'interactive' (the layout open in the designer's "
                    "KLayout; the probe run's change is undone, the fixed script's change stays, one undo step).")] = "sandbox",
    config: Annotated[str | None, Field(description="Pipeline configuration (default 'full').")] = None,
    max_rounds: Annotated[int | None, Field(description="Revision rounds (default from settings).", ge=0, le=10)] = None,
) -> dict[str, Any]:
    """Run a script as it is, then fix what fails (or what the complaint says) and return the fixed script.

    Returns ok (the fixed script ran and was accepted, or nothing needed fixing), needed (the run
    failed or there was a complaint), script (the proposal), diff (unified diff from the given
    code), problems (what the programmer was told), the original run's summary (probe), rounds,
    LLM usage and the run record. Writes no file: apply the diff yourself. The same workflow as
    the pic-copilot panel's "Fix this macro".
    """
    if not isinstance(code, str) or not code.strip():
        raise ToolError("empty code: pass the whole script to fix")
    if mode not in ("sandbox", "interactive"):
        raise ToolError(f"unknown mode {mode!r}: use 'sandbox' or 'interactive'")
    bridge = _remote_bridge() if mode == "interactive" else None
    msg = {"type": "fix", "id": "mcp-" + uuid.uuid4().hex[:10], "code": code, "name": name, "complaint": complaint,
           "mode": mode, "config": config, "max_rounds": max_rounds}
    try:
        ans = await _engine_job(msg, ctx, bridge)
    finally:
        if bridge is not None:
            bridge.close()
    execution = ans.get("execution")   # the engine's fix_result message: the report's dict
    return {k: ans.get(k) for k in ("ok", "needed", "script", "diff", "problems", "message", "probe", "rounds",
                                    "usage", "record")} | {"execution": execution_summary(ExecutionReport.from_dict(execution))
                                                           if execution else None, "mode": mode}

def _scrubbed(fn):
    """A tool whose answers and error texts never show an API key (an LLM endpoint may echo one)."""
    import functools

    from ..redact import scrub, scrub_obj

    import inspect

    if inspect.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def atool(*args, **kwargs):
            try:
                return scrub_obj(await fn(*args, **kwargs))
            except ToolError as e:
                raise ToolError(scrub(str(e))) from None
            except Exception as e:  # noqa: BLE001 - reported to the client as a tool error, scrubbed
                raise ToolError(scrub(f"{type(e).__name__}: {e}")) from None
        return atool

    @functools.wraps(fn)
    def tool(*args, **kwargs):
        try:
            return scrub_obj(fn(*args, **kwargs))
        except ToolError as e:
            raise ToolError(scrub(str(e))) from None
        except Exception as e:  # noqa: BLE001 - reported to the client as a tool error, scrubbed
            raise ToolError(scrub(f"{type(e).__name__}: {e}")) from None

    return tool


def build_server(log_level: str = "WARNING") -> MCPServer:
    """The MCP server with its six tools."""
    server = MCPServer("pic-copilot", title="pic-copilot", version=__version__, instructions=INSTRUCTIONS,
                       log_level=log_level)
    ro = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    server.add_tool(_scrubbed(search_apis), title="Search the installed tools' APIs", annotations=ro)
    server.add_tool(_scrubbed(get_api_details), title="Details of one API", annotations=ro)
    server.add_tool(_scrubbed(run_code), title="Run a design script", annotations=ToolAnnotations(destructive_hint=False, open_world_hint=False))
    server.add_tool(_scrubbed(generate_script), title="Generate a checked design script",
                    annotations=ToolAnnotations(destructive_hint=False, open_world_hint=True))
    server.add_tool(_scrubbed(explain_script), title="Explain a script or KLayout macro",
                    annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True))
    server.add_tool(_scrubbed(fix_script), title="Fix a script or KLayout macro",
                    annotations=ToolAnnotations(destructive_hint=False, open_world_hint=True))
    return server


def main(log_level: str = "WARNING") -> int:
    """Serve MCP over stdio until the client closes stdin."""
    from ..redact import ScrubbingStream

    sys.stderr = ScrubbingStream(sys.stderr)  # logs and tracebacks: never a key
    logging.basicConfig(level=getattr(logging, log_level, logging.WARNING), format="%(levelname)s %(name)s: %(message)s")
    build_server(log_level).run("stdio")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
