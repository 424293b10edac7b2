"""Execution-ranked candidates: the evidence gathered about one candidate script, how candidates
are ranked by it, and the revision instructions the best one's evidence turns into.

A candidate passes when it has no static error, ran, keeps the output contract the request set
(:mod:`pic_copilot.agents.contract_words`) and uses the values and names the designer gave. The
LLM judge is not needed to accept such a script; it only decides when a configuration asks it
to (``judge = "always"``) or between candidates whose evidence is equally good.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from . import evaluator
from ..execution.report import ExecutionReport, execution_summary

#: how far a candidate got, worst first (the first element of its rank)
STAGES = ("cut-off", "static-error", "copied", "run-failed", "contract", "hints", "judge", "passed")


@dataclass
class Candidate:
    """One sampled script and the evidence about it.

    Attributes:
        script: the script as run (after the certain fixes).
        temperature: the sampling temperature it was drawn with.
        index: its position in the round (0 = the first, least random, sample).
        answer: the model's full answer (what the programmer's memory keeps if it is chosen).
        fixes: certain fixes made without the LLM (imports added, import forms corrected).
        findings: static findings of the final script.
        report: the execution report (None when it was not run).
        stage: how far it got, one of STAGES.
        problems: what is wrong, one sentence each (hard evidence: never accepted while present).
        decision: the revision instructions its evidence calls for (None when it passed).
        hints: soft evidence (requested values or names not used) as revision decisions.
        prompt: the programmer's user message it answers (what the programmer's memory keeps with
            ``answer`` if it is chosen).
        unchanged: it answered a revision prompt with the script it was to revise (:meth:`mark_unchanged`).
    """

    script: str
    temperature: float
    index: int = 0
    answer: str = ""
    fixes: list[str] = field(default_factory=list)
    findings: list[dict] = field(default_factory=list)
    report: ExecutionReport | None = None
    stage: str = "passed"
    problems: list[str] = field(default_factory=list)
    decision: dict | None = None
    hints: list[dict] = field(default_factory=list)
    prompt: str = ""
    unchanged: bool = False

    @property
    def passed(self) -> bool:
        return self.stage == "passed"

    def rank(self) -> tuple:
        """Higher is better: stage, then changed by its revision, fewer problems, fewer hints, fewer
        warnings, earlier sample."""
        warnings = sum(f.get("severity") == "warning" for f in self.findings)
        return (STAGES.index(self.stage), not self.unchanged, -len(self.problems), -len(self.hints), -warnings,
                -self.index)

    def evidence(self) -> tuple[int, int, int]:
        """How far it got and how little it left wrong (stage, fewer problems, fewer hints): what a
        revision round must improve on to be progress (:meth:`rank` without the tie-breakers)."""
        return STAGES.index(self.stage), -(len(self.problems) - self.unchanged), -len(self.hints)

    def mark_unchanged(self) -> None:
        """This candidate answered a revision prompt with the script it was to revise: no progress.
        It keeps its stage, but a changed candidate of the same stage ranks above it, so the next
        round revises the changed one (a real a06 round kept the unchanged script over a changed one
        with as far a stage). A changed candidate of a worse stage does not: a real a06 round that
        ranked the unchanged script, which passed the contract and only lacked two marker layers, as
        a copied example revised a crashing one next and never ran again."""
        self.unchanged = True
        self.problems = ["the revision returned the script unchanged"] + self.problems

    def repaired(self, failed: Candidate) -> bool:
        """This candidate, ``failed`` after a repair its run proved, is the better one to keep: it has
        better evidence, or it too failed at run time but with another error, so the repair removed
        the one it was made for and the run got past it (keeping ``failed`` would throw the repair
        away and send the next round back to the error it mended)."""
        if self.rank() > failed.rank():
            return True
        return self.stage == failed.stage == "run-failed" and self.problems != failed.problems

    def summary(self) -> dict:
        """What the run record and the progress events keep of it."""
        return {"index": self.index, "temperature": self.temperature, "stage": self.stage,
                "problems": self.problems[:6], "fixes": self.fixes,
                "execution": execution_summary(self.report)}


def same_code(a: str, b: str) -> bool:
    """The two scripts are the same program: equal syntax trees (comments, blank lines and layout
    do not count); scripts that do not parse are compared as stripped text."""
    try:
        return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
    except SyntaxError:
        return a.strip() == b.strip()


def best(candidates: list[Candidate]) -> Candidate:
    """The candidate with the best evidence (ties: the earlier, less random sample)."""
    return max(candidates, key=Candidate.rank)


#: how to place a cell many times, per tool: the idioms the verified recipes use
PLACEMENT_HINTS = {
    "gdsfactory": "place the device that many times in the top cell, e.g. one arrayed reference "
                  "c.add_ref(device, columns=C, rows=R, column_pitch=PX, row_pitch=PY), or c << device in a loop "
                  "with ref.move((x, y))",
    "pya": "insert that many placements into the cell, e.g. one arrayed instance cell.insert(pya.CellInstArray("
           "child.cell_index(), pya.Trans(), pya.Vector(px, 0), pya.Vector(0, py), columns, rows)) with px, py in "
           "database units, or cell.insert(pya.DCellInstArray(child.cell_index(), pya.DTrans(x, y))) in a loop",
}


#: how to place one cell at a stated origin, per tool
ORIGIN_HINTS = {
    "gdsfactory": "place a reference of the device in the top cell and move it: ref = c << device; ref.move((x, y)) "
                  "(adding the device's ports to the top cell places nothing)",
    "pya": "insert a placement at that origin: cell.insert(pya.DCellInstArray(child.cell_index(), pya.DTrans(x, y)))",
}


#: how to write a layer as the request's "1/0", per tool: a small model keys by the datatype, the
#: layer index or a (layer, datatype) tuple and cannot tell from "do not have the form" what to change
LAYER_FORM_HINTS = {
    "gdsfactory": 'write each layer as its layer and datatype numbers joined by "/": f"{layer}/{datatype}" of the '
                  '(layer, datatype) tuple',
    "pya": 'write each layer as its layer and datatype numbers joined by "/": info = layout.get_info(layer_index); '
           'f"{info.layer}/{info.datatype}" (the layer index of layout.layer_indexes() is neither number)',
}
_LAYER_FORM = re.compile(r"(?:form of the request's example key\(s\)|writes its values in the form) '\d+/\d+'")


def contract_decision(problems: list[str], missing_files: list[str], script: str = "") -> dict:
    """Revision instructions for a run that broke the output contract; ``script`` (the candidate)
    decides which tool's idiom a too-few-placements problem is told."""
    hints = [evaluator.WRITE_HINTS[ext].format(name=name) for name in missing_files
             for ext in [name[name.rfind("."):].lower()] if ext in evaluator.WRITE_HINTS]
    if any("cells placed in one cell expected" in p or " grid" in p and " places " in p for p in problems):
        hints.append(PLACEMENT_HINTS["gdsfactory" if "gdsfactory" in script else "pya"])
    if any("is placed with its origin at" in p for p in problems):
        hints.append(ORIGIN_HINTS["gdsfactory" if "gdsfactory" in script else "pya"])
    if any(_LAYER_FORM.search(p) for p in problems):
        hints.append(LAYER_FORM_HINTS["gdsfactory" if "gdsfactory" in script else "pya"])
    text = ("The script ran, but its result does not do what the designer asked:\n"
            + "\n".join(f"- {p}" for p in problems)
            + "\nKeep the parts that work and fix exactly these points"
            + (": " + "; ".join(hints) if hints else "") + ".")
    return evaluator.decision("revise", "programmer", text, "contract")
