"""The pipeline configurations as one table of flags (stdlib only: the KLayout-side benchmark
driver imports this too). The pipeline reads flags, never configuration names.

``full`` is the product: deterministic routing (an LLM plan only for a request that spans
several domains), retrieval with the request itself, the nearest verified cookbook recipes as
worked examples, k candidates per round ranked by execution evidence, and acceptance by evidence
(the output contract, the requested values and names); the LLM judge only breaks ties.
The others are the baselines and ablations the benchmark compares with it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PipelineConfig:
    """What one configuration of the pipeline does.

    Attributes:
        name: the configuration's name (Request.config).
        description: one line for reports and help texts.
        single_shot: one programmer call and one run, no checks or revisions (the baselines).
        planner: "auto" (the LLM planner only for a request that names several domains),
            "always" (every request is planned by the LLM) or "never" (one step, no LLM).
        queries: "request" (retrieval with the request/subtask text, no LLM) or "llm" (the query
            generator agent writes the queries).
        tailored_rag: each domain's generator searches its own databases (else all of them).
        retrieval: documentation is retrieved at all.
        examples: the programmer's worked examples: "cookbook" (the nearest verified recipes),
            "fixed" (the fixed examples of its domain) or "none".
        candidates: scripts sampled per round from the same prompt, each run and ranked.
        judge: "ties" (the LLM evaluator only chooses among candidates whose evidence is equally
            good), "always" (a script that passed every check must also be accepted by the LLM
            evaluator: the acceptance of sessions 1-3) or "never".
        synthesizer: a composite plan gets one sub-script per step, merged by the synthesizer
            (else one script is written for all steps).
        exec_feedback: candidates are run and the run's evidence is fed back (else only static
            checks decide; the final script is run once for the result).
        observations: use what `pic-copilot explore` observed of the installed APIs.
        contract: check the output contract extracted from the request after each run.
        binding: when a script leaves requested numbers unused, bind them to the parameters of the
            component/cross-section it builds with one answer constrained to the real signature.
        docs_from_recipes: with cookbook recipes found, search only the manuals of the tools they use
            and show the manual entries of the nearest recipe's first calls first.
    """

    name: str
    description: str
    single_shot: bool = False
    planner: str = "auto"
    queries: str = "request"
    tailored_rag: bool = True
    retrieval: bool = True
    examples: str = "cookbook"
    candidates: int = 3
    judge: str = "ties"
    synthesizer: bool = False
    exec_feedback: bool = True
    observations: bool = True
    contract: bool = True
    binding: bool = True
    docs_from_recipes: bool = True


_TABLE = (
    PipelineConfig("full", "the product: cookbook examples, 3 execution-ranked candidates, evidence-first acceptance"),
    PipelineConfig("zero-shot", "one programmer call without examples or documentation, run once", single_shot=True,
                   planner="never", retrieval=False, examples="none", candidates=1, judge="never", contract=False,
                   observations=False, binding=False),
    PipelineConfig("icl-rag", "one programmer call with the fixed examples and documentation for the request, run once",
                   single_shot=True, planner="never", tailored_rag=False, examples="fixed", candidates=1,
                   judge="never", contract=False, observations=False, binding=False),
    PipelineConfig("no-cookbook", "full, with the fixed examples of each domain instead of the nearest recipes",
                   examples="fixed"),
    PipelineConfig("single-candidate", "full, with one candidate per round", candidates=1),
    PipelineConfig("llm-judge", "full, but a script must also be accepted by the LLM evaluator", judge="always"),
    PipelineConfig("agentic", "the multi-agent pipeline of sessions 1-3: LLM planner, query generator, one candidate, "
                   "fixed examples, synthesizer, LLM evaluator", planner="always", queries="llm", examples="fixed",
                   candidates=1, judge="always", synthesizer=True, contract=False, binding=False),
    PipelineConfig("all-docs", "full, but documentation is searched in every manual of the domain, whatever "
                   "tools the nearest recipes use", docs_from_recipes=False),
    PipelineConfig("no-tailored-rag", "full, but every generator searches all databases", tailored_rag=False),
    PipelineConfig("no-exec-feedback", "full, but only static checks decide; the final script is run once",
                   exec_feedback=False, candidates=1, contract=False),
    PipelineConfig("no-exploration", "full, without the observed behaviour from `pic-copilot explore`",
                   observations=False),
)

CONFIG_TABLE: dict[str, PipelineConfig] = {c.name: c for c in _TABLE}
#: configurations of the copilot pipeline (Request.config); "full" is the product
PIPELINE_CONFIGS = tuple(CONFIG_TABLE)
#: what the benchmark runs: the pipeline configurations and "oracle" (the reference solutions)
BENCH_CONFIGS = ("oracle",) + PIPELINE_CONFIGS


def config(name: str) -> PipelineConfig:
    """The configuration called ``name``.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    try:
        return CONFIG_TABLE[name]
    except KeyError:
        raise ValueError(f"unknown pipeline configuration {name!r}; use one of {', '.join(PIPELINE_CONFIGS)}") from None
