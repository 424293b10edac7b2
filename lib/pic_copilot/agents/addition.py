"""Revision by addition: a script that ran, and whose results are right as far as they go, but that
lacks outputs the request asks for (a file it never wrote, a layer it left empty) is continued,
not rewritten.

Asked to revise such a script as a whole, the embedded 1.5B model kept one output and dropped
another (session 24: a01's candidates wrote ring_ad.gds and then lost spectrum.csv or
resonances.json), or returned the script unchanged (15 of 20 revision rounds). Here the model only
writes the lines that come after the script's last line: where the endpoint continues an answer
it was given the start of (the embedded llama-server, Anthropic), the script itself is that start,
so the working lines cannot be lost and only the new lines are generated; elsewhere the model is
asked for the new lines and :func:`extended` puts them after the script.
"""
from __future__ import annotations

import re

from .. import prompts

#: the designer's words quoted in an addition's message, at most (the advanced requests are 400-900)
REQUEST_CHARS = 1500

#: contract problems that say an output is absent, not wrong (checks.output_contract, pipeline.evaluate)
_ABSENT = (re.compile(r"^file '[^']+' was not written\b"), re.compile(r"^\S+\.\w+ was not written$"),
           re.compile(r"^no shapes on layer \d+/\d+\b"))
_FILE = re.compile(r"^(?:file '([^']+)'|(\S+\.\w+)) was not written")
_LAYER = re.compile(r"(?:^no shapes on layer|^The designer named layer) (\d+/\d+(?:, \d+/\d+)*)")
#: what a run did produce, as those problems say it
_PRODUCED = re.compile(r"\((?:written|layers with shapes): ([^)]*)\)")
#: where a sentence ends inside a line: after a stop that follows no digit, before a capital or quote
_SENTENCE_END = re.compile(r"(?<=[^\d\s][.!?])\s+(?=[A-Z\"'(])")
#: the request's still-to-do steps quoted in a continuation's cue, at most (characters)
STEPS_CHARS = 900
#: a sentence with which the designer starts a later part of the request: a sequencing word or a step number
_NEXT_PART = re.compile(r"^(?:then|afterwards|finally|also|next|after that)\b|^\d+\.\s", re.IGNORECASE)
#: a part shorter than this (characters) is no part of its own: it joins the part before it (the
#: first part joins the next): "Design an add-drop ring filter." is a title, "Also print the
#: total." a detail of the part it closes
MIN_PART_CHARS = 120


def absent_only(problems: list[str]) -> bool:
    """True when every problem says that a requested output is missing (so everything the script did
    produce holds) and there is at least one.

    Args:
        problems: a candidate's contract problems, one sentence each.
    """
    return bool(problems) and all(any(p.match(s) for p in _ABSENT) for s in problems)


def cue(problems: list[str], request: str = "", next_part: str = "") -> str:
    """A comment naming what the lines after the script are to add ("write spectrum.csv and
    resonances.json", "put shapes on layer 99/0"), followed by the request's steps that are still
    to do (see :func:`unfinished_steps`), one comment line each: ended with the script alone, the
    model's answer often ended at once (a01, session 25: three continuations of one token each).

    Args:
        problems: the absent outputs, as the contract check or the layer hint's instructions say them.
        request: the designer's words.
        next_part: the request's part that the lines are to do (see :func:`request_parts`), in
            place of the still-to-do steps the problems point to.
    """
    if next_part:
        return "\n# ".join(["Next part of the request, as the designer asked:", *request_steps(next_part)])
    files, layers = _missing(problems)
    parts = ([f"write {' and '.join(files)}"] if files else []) + \
            ([f"put shapes on layer {' and '.join(layers)}"] if layers else [])
    head = "Next: " + ("; ".join(parts) if parts else "add what the designer asked for that is still missing")
    steps = unfinished_steps(request, problems) if request else []
    return "\n# ".join([head + (". Still to do, as the designer asked:" if steps else ""), *steps])


def _missing(problems: list[str]) -> tuple[list[str], list[str]]:
    """(files, layers) that the problems say are absent."""
    files = [m.group(1) or m.group(2) for p in problems for m in [_FILE.match(p)] if m]
    layers = [l for p in problems for m in [_LAYER.match(p)] if m for l in m.group(1).split(", ")]
    return list(dict.fromkeys(files)), list(dict.fromkeys(layers))


def request_steps(request: str) -> list[str]:
    """The request's sentences and numbered steps, in order (a line is split where a sentence ends
    and a capital starts one; "1.55 µm" and "1. Layout" are not ends)."""
    return [s.strip() for line in request.splitlines() for s in _SENTENCE_END.split(line) if s.strip()]


def request_parts(request: str) -> list[str]:
    """The parts the designer's request is done in, in order: a new part starts at a sentence the
    designer begins with a sequencing word ("Then", "Afterwards", "Also", "Finally", "Next") or a
    step number ("2. Simulation ..."); a part shorter than MIN_PART_CHARS joins its neighbour. One
    part (the whole request) when the designer sequenced nothing.

    Args:
        request: the designer's words.
    """
    parts: list[list[str]] = []
    for step in request_steps(request):
        if not parts or _NEXT_PART.match(step):
            parts.append([step])
        else:
            parts[-1].append(step)
    texts = [" ".join(p) for p in parts]
    joined: list[str] = []
    for text in texts:   # a short part joins the one before; a short first part takes the next one in
        if joined and (len(text) < MIN_PART_CHARS or len(joined[-1]) < MIN_PART_CHARS):
            joined[-1] = f"{joined[-1]} {text}"
        else:
            joined.append(text)
    return joined


def _names_any(step: str, names: list[str]) -> bool:
    """True when ``step`` names one of ``names`` as a whole token ("1/0" is not in "11/0")."""
    return any(re.search(rf"(?<![\w/.]){re.escape(n)}(?![\w/])", step) for n in names)


def unfinished_steps(request: str, problems: list[str]) -> list[str]:
    """The request's steps that a script lacking only outputs has still to do: from the one after the
    last step naming an output it produced (its evidence says "written: ..." or "layers with shapes:
    ...") to the last step naming a missing one; only the steps naming missing ones when that span is
    longer than STEPS_CHARS or nothing produced is named before them. A real a01 continuation named
    only the missing files and wrote them from names never computed: the simulation step between
    the saved layout and the files was skipped.

    Args:
        request: the designer's words.
        problems: the absent outputs, as the contract check or the layer hint's instructions say them.
    """
    files, layers = _missing(problems)
    produced = [n.strip() for p in problems for m in _PRODUCED.finditer(p) for n in m.group(1).split(",")
                if n.strip() and n.strip() != "none"]
    steps = request_steps(request)
    wanted = [i for i, s in enumerate(steps) if _names_any(s, files + layers)]
    if not wanted:
        return []
    done = [i for i, s in enumerate(steps[:wanted[-1]]) if _names_any(s, produced)]
    span = steps[min(wanted[0], done[-1] + 1 if done else wanted[0]):wanted[-1] + 1]
    if sum(len(s) for s in span) > STEPS_CHARS:
        span = [steps[i] for i in wanted]
    return span if sum(len(s) for s in span) <= STEPS_CHARS else []


def answer_start(script: str, problems: list[str], request: str = "", next_part: str = "") -> str:
    """The start of the answer the model continues: the script in an open code block, then a comment
    that says what comes next (see :func:`cue`)."""
    return f"```python\n{script.rstrip()}\n\n# {cue(problems, request, next_part)}\n"


def message(script: str, instructions: str, request: str, shown: bool) -> str:
    """The programmer's user message asking for the lines that add the missing outputs.

    Args:
        script: the script to continue.
        instructions: what is missing and how such an output is written (the evidence's decision).
        request: the designer's words, which say what the missing outputs hold.
        shown: the script is the start of the answer (prefilled), so it is not repeated here.
    """
    current = "" if shown else f"Current script:\n```python\n{script.rstrip()}\n```\n"
    return prompts.render("programmer_add", request=request.strip()[:REQUEST_CHARS],
                          instructions=current + instructions)


def extended(base: str, code: str) -> str:
    """The script the answer ``code`` makes of ``base``: ``code`` itself when it already is the whole
    script (a continuation of ``base``, or a rewrite that keeps most of its lines), else ``base``
    followed by ``code`` (the new lines alone).

    Args:
        base: the script that was to be continued.
        code: the code of the model's answer.
    """
    if code.strip().startswith(base.strip()):
        return code
    lines = [l.strip() for l in base.splitlines() if l.strip() and not l.strip().startswith("#")]
    have = {l.strip() for l in code.splitlines()}
    if lines and sum(l in have for l in lines) >= 0.6 * len(lines):
        return code
    return f"{base.rstrip()}\n\n{code.strip()}\n"


def without_failing_addition(base: str, script: str, failing_line: int | None) -> tuple[str, str] | None:
    """``script`` (a continuation of ``base`` whose run failed on ``failing_line``) without what failed,
    keeping the added lines that ran: a failing statement whose value nothing keeps (a call, e.g.
    ``view.add_rdb(...)`` with no view) is dropped alone; any other failing statement is cut with
    everything after it. A real a06 continuation put its marker shapes on 99/0 and 99/1 and then
    failed on showing the report in a view that headless runs lack: the round revised the script
    it continued as a whole, and the added markers were lost. Returns (script, what was dropped),
    or None when the failure is not in the added lines or no added statement would remain.

    Args:
        base: the script that was continued.
        script: the continuation (``base`` followed by the added lines).
        failing_line: the script's line the run failed on (ExecutionReport.failing_line).
    """
    import ast

    from .fixes.source import drop_statements, parsed

    head = base.rstrip()
    tree = parsed(script) if failing_line is not None and script.startswith(head) else None
    if tree is None:
        return None
    added_from = len(head.splitlines()) + 1
    added = [s for s in tree.body if s.lineno >= added_from]
    failing = next((s for s in added if s.lineno <= failing_line <= s.end_lineno), None)
    if failing is None:
        return None
    if isinstance(failing, ast.Expr):
        dropped, what = [failing], f"dropped the added statement on line {failing.lineno}, where the run failed"
    else:
        dropped = [s for s in added if s.lineno >= failing.lineno]
        what = f"cut the added lines from line {failing.lineno}, where the run failed"
    if len(dropped) == len(added):
        return None
    return drop_statements(script, dropped).rstrip() + "\n", what
