"""Explain a script, or fix it: the engine side of "Explain / Fix this macro".

The panel, the command line (``pic-copilot explain|fix FILE``) and the MCP tools all reach this
through the engine's ``explain`` / ``fix`` messages (docs/PROTOCOL.md), so every front end gets
the same behaviour and no front end builds LLM prompts.

Fixing a script is: run it as it is (the *probe*: on the open layout in interactive mode, its
change undone again, or in the sandbox), collect what went wrong (the exception, the designer's
complaint), then run the pipeline as a revision of the script with those problems as feedback.
The result is a proposed script and a unified diff; applying it is the front end's business.
"""
from __future__ import annotations

import difflib
import html
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..bridges import Bridge
from ..contracts import PipelineIO, Request
from ..execution.report import ExecutionReport, execution_summary
from ..execution.routing import execute
from .. import prompts
from ..llm.agent import Agent

CODE_LIMIT = 16000          # characters of a script the explainer reads
TRACEBACK_LINES = 6         # last lines of a probe's traceback given to the programmer
FEEDBACK_LIMIT = 3000


def explain(client, code: str, name: str = "", question: str = "", cancel: threading.Event | None = None,
            on_token: Callable[[str | None], None] | None = None) -> str:
    """A plain-language explanation of a script (streamed through ``on_token`` when given).

    Args:
        client: the LLM client.
        code: the script.
        name: what the designer calls it (the macro's name), shown to the model.
        question: an optional question about it.
        cancel: set to stop the call.
        on_token: receives streamed text.
    """
    if len(code) > CODE_LIMIT:
        code = code[:CODE_LIMIT] + "\n# ... (cut)"
    agent = Agent("explainer", prompts.text("explainer"))
    user = prompts.render("explainer_user", code=code.rstrip(), macro_name=name or "the macro", question=question or "")
    return agent.ask_text(client, user, cancel=cancel, on_token=on_token).strip()


@dataclass
class FixOutcome:
    """What a fix produced.

    Attributes:
        ok: nothing needed fixing, or the proposed script ran and was accepted.
        needed: the probe run failed or the designer complained (so the pipeline ran).
        script: the proposed script (the original when nothing was needed).
        diff: unified diff from the original to the proposed script ("" when they are equal).
        probe: summary of the original's run (see execution.report.execution_summary).
        problems: what was given to the programmer as feedback.
        rounds, execution, usage, record, message: as in contracts.Outcome.
    """

    ok: bool
    needed: bool
    script: str
    diff: str = ""
    probe: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    rounds: int = 0
    execution: ExecutionReport | None = None
    usage: dict = field(default_factory=dict)
    record: str | None = None
    message: str = ""

    def to_message(self, job_id: str) -> dict:
        """The protocol's ``fix_result`` message."""
        return {"type": "fix_result", "id": job_id, "ok": self.ok, "needed": self.needed, "script": self.script,
                "diff": self.diff, "probe": self.probe, "problems": self.problems, "rounds": self.rounds,
                "execution": self.execution.to_dict() if self.execution is not None else None, "usage": self.usage,
                "record": self.record, "message": self.message}


def probe(code: str, mode: str, bridge: Bridge | None, timeout_s: float = 120) -> ExecutionReport:
    """Run the script as it is, the way it would run (see execution.routing.execute).

    In interactive mode a change it made to the open layout is undone again: the probe only
    shows what goes wrong; the fixed script is what will change the layout.
    """
    rep = execute(code, mode, bridge, timeout_s=timeout_s)
    if mode == "interactive" and rep.changed_layout and bridge is not None:
        rep.probe_undone = bool(bridge.undo().get("ok"))
    return rep


def problems_of(rep: ExecutionReport, complaint: str = "") -> list[str]:
    """What is wrong with a script: its run's exception (with the traceback's tail) and the designer's words."""
    out = []
    if not rep.ok:
        exc = rep.exception or {}
        where = {"klayout": "on the open layout", "sandbox": "in the sandbox",
                 "sandbox+insert": "in the sandbox"}.get(rep.where, "")
        tb = (exc.get("traceback") or "").strip().splitlines()[-TRACEBACK_LINES:]
        out.append(prompts.render("fix_run_failed", where=where, exc_type=exc.get("type") or "error",
                                  exc_message=exc.get("message") or "", traceback_tail="\n".join(tb)))
    if complaint.strip():
        out.append(prompts.render("fix_complaint", complaint=complaint.strip()))
    return out


def certain_fix(code: str, mode: str) -> tuple[str, list[str]]:
    """The script with the pipeline's certain fixes (see agents/fixes/) that need no request
    words: a broken macro is often one of those mistakes, and a model's revision of it tends to
    drop what it does not understand (a reordered keyword loses the designer's value)."""
    from ..checks import static as checks
    from ..execution.routing import needs_engine_python
    from . import fixes, retrieve

    def findings_of(script: str) -> list[dict]:
        interactive_pya = mode == "interactive" and not needs_engine_python(script)
        return checks.static_findings(script, mode, retrieve.symbol_index(), interactive_pya=interactive_pya)[0]

    return fixes.request_free_fixes(code, mode, findings_of)


def fix_request(job_id: str, code: str, problems: list[str], name: str = "", mode: str = "sandbox",
                config: str = "full", max_rounds: int | None = None, layout_context: dict | None = None) -> Request:
    """The pipeline request that revises ``code`` with ``problems`` as the designer's feedback."""
    first = problems[0].splitlines()[0][:240] if problems else ""
    prompt = prompts.render("fix_request", macro_name=name or "the macro", first_problem=first)
    return Request(id=job_id, prompt=prompt, mode=mode, layout_context=layout_context, max_rounds=max_rounds,
                   config=config, previous_script=code, feedback=["\n".join(problems)[:FEEDBACK_LIMIT]])


def unified_diff(old: str, new: str, name: str = "script") -> str:
    """A unified diff (3 lines of context) from ``old`` to ``new``; "" when equal."""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        fromfile=f"{name} (now)", tofile=f"{name} (proposed)", n=3))


def fix(code: str, io: PipelineIO, settings, get_client: Callable, job_id: str, name: str = "", complaint: str = "",
        mode: str = "sandbox", config: str = "full", max_rounds: int | None = None,
        layout_context: dict | None = None) -> FixOutcome:
    """Probe the script, then revise it with what went wrong (nothing to do when it ran and nobody complained).

    Args:
        code: the script (the macro's current text).
        io: progress, streamed tokens, candidate scripts and the KLayout bridge (interactive mode).
        settings: the engine settings.
        get_client: returns the LLM client (called only when a revision is needed).
        job_id: the protocol id (also the pipeline request's id).
        name: the macro's name, for the prompt and the diff.
        complaint: what the designer says is wrong, if anything.
        mode: where the script runs: "interactive" (the open layout) or "sandbox".
        config, max_rounds, layout_context: passed to the pipeline.
    """
    from . import run_request

    if mode not in ("interactive", "sandbox"):
        raise ValueError(f"unknown mode {mode!r}; use sandbox or interactive")
    if not code.strip():
        raise ValueError("the script is empty")
    label = name or "the macro"
    io.progress("execute", f"running {label} as it is " + ("on the open layout" if mode == "interactive" else "in the sandbox"))
    rep = probe(code, mode, getattr(io, "bridge", None))
    summary = execution_summary(rep)
    io.progress("execute", (f"{label} ran without errors" if rep.ok else f"{label} failed")
                + ("; its change was undone" if rep.probe_undone else ""), summary)
    problems = problems_of(rep, complaint)
    if not problems:
        return FixOutcome(ok=True, needed=False, script=code, probe=summary,
                          message=f"{label} ran without errors; say what is wrong with it to get a fix")
    start, certain = (certain_fix(code, mode) if not rep.ok else (code, []))
    if certain and start != code:
        io.progress("check", "certain fixes: " + "; ".join(certain))
        rep2 = probe(start, mode, getattr(io, "bridge", None))
        if rep2.ok and not complaint.strip():
            return FixOutcome(ok=True, needed=True, script=start, diff=unified_diff(code, start, label), probe=summary,
                              problems=problems, execution=rep2,
                              message=f"fixed without the LLM ({'; '.join(certain)}); the fixed script ran without errors")
        if rep2.ok or (rep2.exception or {}) != (rep.exception or {}):
            problems = problems_of(rep2, complaint) or problems
        code_for_llm = start
    else:
        code_for_llm = code
    if io.cancel.is_set():
        from ..llm import LLMCancelled

        raise LLMCancelled("cancelled")
    req = fix_request(job_id, code_for_llm, problems, name=name, mode=mode, config=config, max_rounds=max_rounds,
                      layout_context=layout_context)
    out = run_request(req, io, settings=settings, client=get_client())
    if not out.script.strip():   # "ran without an error" says nothing about an empty script
        return FixOutcome(ok=False, needed=True, script=code, probe=summary, problems=problems, rounds=out.rounds,
                          usage=out.usage, record=out.record_path, message="no fix: the copilot proposed no script")
    return FixOutcome(ok=out.ok, needed=True, script=out.script, diff=unified_diff(code, out.script, label),
                      probe=summary, problems=problems, rounds=out.rounds, execution=out.execution, usage=out.usage,
                      record=out.record_path, message=out.message)


# ------------------------------------------------------------------------------ macro files
_LYM_TEXT = re.compile(r"(<text>)(.*?)(</text>)", re.S)


def read_script(path: str | Path) -> tuple[str, str]:
    """The code and name of a script file: a ``.py`` file, or a KLayout ``.lym`` macro's ``<text>``.

    Raises:
        ValueError: the file cannot be read, or a .lym file has no <text> element.
    """
    p = Path(path)
    try:
        text = p.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {p}: {e}") from None
    if p.suffix.lower() == ".lym":
        m = _LYM_TEXT.search(text)
        if m is None:
            raise ValueError(f"{p} is not a KLayout macro (.lym without a <text> element)")
        text = html.unescape(m.group(2))
    return text, p.stem


def write_script(path: str | Path, code: str) -> None:
    """Replace a script file's code (for a ``.lym`` only its ``<text>``, the rest of the macro is kept)."""
    p = Path(path)
    if p.suffix.lower() == ".lym":
        old = p.read_text()
        escaped = code.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        new, n = _LYM_TEXT.subn(lambda m: m.group(1) + escaped + m.group(3), old, count=1)
        if not n:
            raise ValueError(f"{p} is not a KLayout macro (.lym without a <text> element)")
        p.write_text(new)
    else:
        p.write_text(code)
