"""The pipeline: route -> retrieve (documentation and the nearest cookbook recipes) -> k candidate
scripts per round, each checked, fixed where certain and run -> the best by evidence is accepted
or revised with what its evidence says.

Entry point: :func:`run_request`. What a configuration (``Request.config``) does is one row of
flags in :mod:`pic_copilot.contracts`; this module reads the flags, never names.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from ..checks import deck_rules, static as checks_mod
from ..checks.output_contract import OutputContract
from ..config import Settings, load_settings
from ..contracts import PIPELINE_CONFIGS, Outcome, PipelineConfig, PipelineIO, Request, SessionStore, config
from ..execution import drc_deck
from ..execution.report import ExecutionReport, execution_summary, failed_run
from ..execution.routing import execute, needs_engine_python
from ..history import RunRecord
from ..llm import LLMCancelled, LLMClient, LLMError, make_client
from .. import prompts
from ..retrieval import observations
from . import addition, binding, contract_words, evaluator, planner, retrieve
from ..llm.agent import Agent, extract_code
from . import deck_generator
from .candidates import STAGES, Candidate, best, contract_decision, same_code
from .fixes import (bind_the_requested_pitch, name_box_and_point_parts, write_the_missing_header, ask_the_bounding_box, make_a_region_for_the_region_method, make_regions_of_shape_operands, use_the_word_the_class_has, write_one_row_of_scalars, copy_the_locked_component, name_each_loop_component, bind_default_layer, concat_instead_of_append, drop_dataframe_index, unpack_points_by_coordinates, make_points_of_tuples, use_the_ports_center, bind_label_layer, bind_named_layers, bind_requested_layer, call_methods_written_as_values, call_uncalled_methods, write_json_values_plainly, draw_in_the_active_cell, drop_reopened_layout, look_up_only_cells_that_exist,
                    name_the_new_layer, rebind_one_wrong_layer, rename_csv_columns, drop_extra_csv_columns, rename_json_keys, rename_outputs, rename_rdb_categories, repair_syntax, request_free_fixes,
                    drop_foreign_parameters, restore_example_definitions,
                    drop_printouts_of_unasked_layers, insert_the_built_shape, read_through_the_hierarchy, save_the_report_database, unscale_column, use_the_named_variant, write_layout_by_suffix, write_the_named_entry,
                    write_the_nested_map)
from .generators import ScriptGenerator, Synthesizer, check_databases, describe_hits, kind_of

CONFIGS = PIPELINE_CONFIGS
#: sampling temperatures of a round's candidates, in the order they are drawn (the first is the
#: configured default); a candidate that passes ends the round, so later ones cost nothing
CANDIDATE_TEMPERATURES = (None, 0.7, 1.0)
RECIPES_SHOWN = 2
#: what the first part of a request written in parts says to the programmer (see addition.request_parts)
FIRST_PART_NOTE = "(This is the first part of the designer's request; write only this part. The next parts are added after it runs.)"
#: statements that failed in a continuation's added lines dropped in a row (view.add_rdb, then view.show_rdb)
MAX_ADDITION_CUTS = 3
#: run-proven repairs in a row for one candidate (bbox = c.bbox -> c.bbox(), then box.width -> box.width() ...)
MAX_RUN_REPAIRS = 4
#: request-word hints that still count after they were sent back once: every accepted final script in
#: history that never named a layer the designer wrote (a06 twice, a12; all wrong) was accepted on the
#: round after the "layers" hint; no accepted script ever missed one rightly
LASTING_HINTS = ("layers",)
#: the repairs a failed run can prove, tried in this order; the first that applies is run again
RUN_REPAIRS = (call_uncalled_methods, write_json_values_plainly, ask_the_bounding_box, make_a_region_for_the_region_method,
               make_regions_of_shape_operands, use_the_word_the_class_has, concat_instead_of_append, unpack_points_by_coordinates, name_box_and_point_parts, make_points_of_tuples,
               use_the_ports_center, copy_the_locked_component, name_each_loop_component, write_one_row_of_scalars)
DOCS_BUDGET_WITH_RECIPES = 2600   # characters of documentation when recipes show the usage


@dataclass
class Session:
    """Per-request agent state kept for designer feedback (per-agent memory), held in the caller's
    :class:`~pic_copilot.contracts.SessionStore` as ``RequestMemory.agents``."""

    mode: str
    plan: dict | None = None
    planner: Agent = field(default_factory=planner.new_agent)
    evaluator: Agent = field(default_factory=evaluator.new_agent)
    synthesizer: Synthesizer = field(default_factory=Synthesizer)
    binder: Agent = field(default_factory=binding.new_agent)
    generators: dict = field(default_factory=dict)
    script: str | None = None
    databases: dict = field(default_factory=dict)   # Settings.generator_databases

    def generator(self, domains: str | tuple[str, ...]) -> ScriptGenerator:
        key = (domains,) if isinstance(domains, str) else tuple(domains)
        if key not in self.generators:
            mine = self.databases.get(key[0]) if len(key) == 1 else None
            self.generators[key] = deck_generator.make_generator(key, self.mode, databases=mine)
        return self.generators[key]


def _session(store: SessionStore, request: Request, fresh: bool, databases: dict | None = None) -> Session:
    """The agents of ``request``: the ones it had (a revision continues them) unless ``fresh``, or new ones
    when there are none or they were made for another mode or other databases.

    Args:
        store: the per-request memory the agents are kept in.
        request: the request being run.
        fresh: start with new agents (a new request, not a revision).
        databases: Settings.generator_databases.
    """
    m = store.entry(request.id)
    s = None if fresh else m.agents
    if s is None or s.mode != request.mode or s.databases != (databases or {}):
        s = Session(mode=request.mode, databases=dict(databases or {}))
    m.agents = s
    return s


class _Run:
    def __init__(self, request: Request, io: PipelineIO, settings: Settings, client: LLMClient,
                 sessions: SessionStore):
        self.req, self.io, self.settings, self.client = request, io, settings, client
        self.sessions = sessions
        self.cfg: PipelineConfig = config(request.config or "full")
        if request.mode not in ("sandbox", "interactive"):
            raise ValueError(f"unknown mode {request.mode!r}; use sandbox or interactive")
        self.cancel: threading.Event = getattr(io, "cancel", None) or threading.Event()
        self.usage_start = len(client.usage.calls)
        self.rec = RunRecord(request.id, request.prompt, settings, meta={
            "mode": request.mode, "config": self.cfg.name, "feedback": list(request.feedback),
            "continues": bool(request.feedback and request.previous_script),
            "max_rounds": request.max_rounds or settings.max_rounds})
        self.checks, problems = checks_mod.load_checks()
        if problems:
            self.rec.set("check_problems", problems)
        self.index = None
        # an attempt's change is in the open layout (interactive mode) and must be undone if not accepted;
        # a feedback round replaces the accepted result the designer commented on
        self.applied = bool(request.previous_applied) and request.mode == "interactive"
        self.observations: dict | None = None  # observed port names per factory, loaded on first check
        self.plan: dict | None = None
        self.hinted: set[str] = set()   # request-word checks already sent back (see hints)
        self.shown_recipes: list = []    # the worked examples the programmer sees (see examples)
        self.llm_failure: LLMError | None = None   # a call that failed after some candidate existed
        self.started = time.monotonic()
        self.candidate_s: list[float] = []   # seconds each candidate took (written, checked, run)
        self.out_of_time = False             # the time budget stopped the request (see over_budget)
        self.continuing: Candidate | None = None   # the candidate whose script this round's answers continue (see addition)
        self.continued: set[str] = set()     # scripts already continued once (not again)
        self.rewrite: str = ""               # a continuing round's whole-script revision message (see sample_round)
        continuing = bool(request.feedback and request.previous_script)
        #: the parts the request is written in, one after another (configurations with ``in_parts``;
        #: empty for a request of one part, which is written whole as in ``full``)
        parts = addition.request_parts(request.prompt) if self.cfg.in_parts and not continuing else []
        self.parts = parts if len(parts) > 1 else []
        if self.parts:
            self.rec.set("parts", self.parts)
        self.parts_asked = 1 if self.parts else 0   # how many of them the scripts so far were asked for
        self.next_part = ""                         # the part this round's continuations add (see revision)
        self.part_starts = False                     # the chosen script did its parts: the next one is due
        self.ask_parts()

    def ask_parts(self) -> None:
        """Set what the scripts are checked against to the request's parts asked for so far: the
        designer's words up to them (the whole request once every part is asked for, or without
        parts), the output contract extracted from those words, and the words the requested-value
        checks read (after feedback, the designer's latest words)."""
        request = self.req
        self.asked = (request.prompt if self.parts_asked >= len(self.parts)
                      else " ".join(self.parts[:self.parts_asked]))
        self.words = request.feedback[-1] if request.feedback else self.asked
        self.contract = (contract_words.from_request(self.asked, tuple(request.inputs or ()), request.mode)
                         if self.cfg.contract else OutputContract())
        self.rec.set("contract", self.contract.to_dict())

    def parts_left(self) -> bool:
        """The request has parts the scripts were not yet asked for."""
        return self.parts_asked < len(self.parts)

    # ------------------------------------------------------------------ plumbing
    def check_cancel(self) -> None:
        if self.cancel.is_set():
            raise LLMCancelled("request cancelled")

    def progress(self, stage: str, message: str, data=None) -> None:
        self.rec.event(stage, message, data)
        try:
            self.io.progress(stage, message, data)
        except Exception:  # noqa: BLE001 - a broken listener must not kill the pipeline
            pass

    def token_cb(self, agent: str):
        def cb(text):
            try:
                self.io.token(agent, text)
            except Exception:  # noqa: BLE001
                pass
        return cb

    def timed(self, stage: str, fn, *a, **kw):
        t0 = time.monotonic()
        try:
            return fn(*a, **kw)
        finally:
            self.rec.add_time(stage, time.monotonic() - t0)

    def usage(self) -> dict:
        """This request's share of the (possibly shared) client's calls."""
        return self.client.usage.totals(since=self.usage_start)

    # ------------------------------------------------------------------ plan and context
    def make_plan(self, sess: Session, extra: str = "") -> dict:
        """The plan: one step without an LLM call unless the configuration always plans, or (``auto``)
        the request spans several domains."""
        self.check_cancel()
        inputs = tuple(self.req.inputs or ())
        domains = planner.signalled_domains(self.req.prompt)
        ask = self.cfg.planner == "always" or (self.cfg.planner == "auto" and planner.is_composite(self.req.prompt))
        if ask:
            plan = self.timed("plan", planner.plan, sess.planner, self.client, self.req.prompt, self.req.mode,
                              self.req.layout_context, cancel=self.cancel, extra=extra, inputs=inputs)
        elif self.cfg.planner == "words" and planner.is_composite(self.req.prompt):
            plan = planner.words_plan(self.req.prompt, self.req.mode, inputs)
            plan["routed"] = "words"
        else:
            plan = planner.single_plan(self.req.prompt, domain=domains[0] if domains else "layout", inputs=inputs)
            plan["routed"] = "words" if domains else "default"
        self.plan = sess.plan = plan
        self.rec.set("plan", plan)
        how = "planned by the LLM" if ask else "one step, no LLM plan"
        self.progress("plan", f"{len(plan['subtasks'])} subtask(s): "
                      + ", ".join(plan_domains(plan)) + f" ({how})", plan)
        return plan

    def find_docs(self, gen: ScriptGenerator, task: str, extra: str = "", lookup: list[str] | None = None,
                  recipes: list | None = None) -> list[dict]:
        """Documentation for a task. With ``recipes`` (the nearest verified ones) only the manuals of
        the tools they use are searched, and the manual entries of the top recipe's first calls come
        first (configurations with ``docs_from_recipes``)."""
        self.check_cancel()
        kind = gen.kind_for(task, self.req.prompt)
        if not self.cfg.retrieval:
            return []
        if not self.cfg.tailored_rag:
            queries = [{"db": None, "query": task[:300]}]
        elif self.cfg.queries == "llm":
            queries = self.timed("query", gen.queries, self.client, task, extra=extra, cancel=self.cancel, kind=kind)
        else:
            queries = gen.request_queries(task, kind)
        pinned: list[dict] = []
        if recipes and self.cfg.docs_from_recipes:
            tools = retrieve.recipe_databases(recipes)
            scoped = [q for q in queries if q.get("db") in tools]
            queries = scoped or queries
            pinned = retrieve.recipe_api_docs(recipes)
        for name in lookup or []:
            queries.append({"db": None, "query": name})
        self.rec.append("queries", queries)
        self.progress("query", f"{len(queries)} quer{'y' if len(queries) == 1 else 'ies'}", {"queries": queries})
        self.check_cancel()
        hits, errors = self.timed("retrieve", gen.retrieve, queries)
        if pinned:
            ids = {h.get("id") for h in pinned}
            hits = pinned + [h for h in hits if h.get("id") not in ids]
        if self.cfg.observations:
            hits = _with_observations(hits)
        desc = describe_hits(hits)
        self.rec.append("retrieved", desc)
        self.progress("retrieve", f"{len(hits)} documentation chunk(s)" + (f" ({errors[0]})" if errors else ""),
                      {"entries": desc, "errors": errors})
        return hits

    def find_recipes(self, task: str, kind: str | None, domains: tuple[str, ...] = ()) -> list:
        """The nearest verified cookbook recipes for a task (configurations with cookbook examples)."""
        if self.cfg.examples != "cookbook":
            return []
        given_layout = self.req.mode == "sandbox" and planner.reads_layout_file(self.req.prompt, self.req.inputs)
        found, err = self.timed("retrieve", retrieve.recipes, task,
                                retrieve.recipe_kinds(self.req.mode, kind, domains), RECIPES_SHOWN,
                                starts_from_layout=given_layout, places=self.contract.placements,
                                two_d=self.contract.grid.get("columns", 0) > 1 and self.contract.grid.get("rows", 0) > 1,
                                outputs=tuple(self.contract.files),
                                steps=tuple(addition.request_steps(self.req.prompt)) if self.cfg.step_recipes else ())
        self.rec.append("recipes", [r.id for r in found])
        self.progress("retrieve", f"{len(found)} cookbook recipe(s)" + (f" ({err})" if err else ""),
                      {"recipes": [{"id": r.id, "title": r.title} for r in found], "errors": [err] if err else []})
        return found

    def examples(self, gen: ScriptGenerator, kind: str | None, found: list) -> tuple:
        """The programmer's worked examples: the recipes found, or the domain's fixed ones."""
        gen.recipes = found
        self.shown_recipes = list(found) if self.cfg.examples == "cookbook" else []
        if self.cfg.examples == "none":
            return ()
        return retrieve.recipe_messages(found) if found else gen.fixed_examples(kind)

    def first_message(self, sess: Session, plan: dict) -> tuple[ScriptGenerator, str | None, str | None]:
        """(generator, the programmer's first user message, or a script already written by the
        synthesizer path)."""
        subs = plan["subtasks"]
        if self.cfg.synthesizer and len(subs) > 1:
            return self.primary(sess), None, self.synthesize(sess, plan)
        task = subs[0]["task"] if len(subs) == 1 else "\n".join(f"{i + 1}. {s['task']}" for i, s in enumerate(subs))
        query = self.asked if self.parts_left() else task if len(subs) == 1 else self.req.prompt
        domains = plan_domains(plan)
        kind = None if domains == (deck_generator.DOMAIN,) else kind_of(self.req.mode, task, self.req.prompt)
        found = self.find_recipes(query, kind, domains)
        if plan.get("routed") == "default" and found and retrieve.FAMILY_DOMAIN.get(found[0].family, "layout") != "layout":
            # no domain words: the nearest verified recipe says what kind of job this is
            domains = (retrieve.FAMILY_DOMAIN[found[0].family],)
            for s in subs:
                s["domain"] = domains[0]
            self.rec.set("plan", plan)
        gen = sess.generator(domains)
        docs = self.find_docs(gen, query, recipes=found)
        kind = gen.kind_for(task, self.req.prompt)
        gen.prepare(kind, self.examples(gen, kind, found))
        outputs = [o for s in subs for o in s.get("outputs") or []]
        if self.parts_left():   # the first part alone: its words, its contract (see ask_parts)
            task, outputs = f"{self.asked}\n{FIRST_PART_NOTE}", []
        user = gen.first_message(task, docs, self.req.layout_context, request=self.asked, outputs=outputs,
                                 contract=contract_words.describe(self.contract),
                                 docs_budget=DOCS_BUDGET_WITH_RECIPES if found else None)
        return gen, user, None

    def synthesize(self, sess: Session, plan: dict) -> str:
        """One sub-script per step, merged by the synthesizer (configurations with ``synthesizer``)."""
        parts = []
        for i, sub in enumerate(plan["subtasks"]):
            gen = sess.generator(sub["domain"])
            docs = self.find_docs(gen, sub["task"])
            kind = gen.kind_for(sub["task"], self.req.prompt)
            gen.prepare(kind, self.examples(gen, kind, self.find_recipes(sub["task"], kind, gen.domains)))
            user = gen.first_message(sub["task"], docs, self.req.layout_context, request=self.req.prompt,
                                     outputs=sub.get("outputs") or [])
            self.progress("generate", f"writing the {sub['domain']} script ({i + 1}/{len(plan['subtasks'])})",
                          {"subtask": i + 1, "domain": sub["domain"]})
            self.io.token("programmer", None)
            text, _ = self.timed("generate", gen.sample, self.client, user, cancel=self.cancel,
                                 on_token=self.token_cb("programmer"))
            gen.choose(user, text)
            parts.append(extract_code(text))
        self.rec.set("sub_scripts", parts)
        self.check_cancel()
        self.progress("synthesize", f"merging {len(parts)} scripts", {"parts": len(parts)})
        self.io.token("synthesizer", None)
        return self.timed("synthesize", sess.synthesizer.merge, self.client, plan, parts, cancel=self.cancel,
                          on_token=self.token_cb("synthesizer"))

    def primary(self, sess: Session) -> ScriptGenerator:
        subs = (self.plan or planner.single_plan(self.req.prompt))["subtasks"]
        if self.cfg.synthesizer:
            return sess.generator(subs[0]["domain"])
        return sess.generator(plan_domains(self.plan or planner.single_plan(self.req.prompt)))

    # ------------------------------------------------------------------ evidence
    def discard_applied(self) -> None:
        """Undo the open-layout change of an attempt that was not accepted, so attempts never pile up
        in the designer's layout and a rejected request leaves it as it was."""
        if not self.applied:
            return
        self.applied = False
        res = self.io.bridge.undo()
        self.progress("execute", "undid the previous attempt on the open layout" if res.get("ok")
                      else f"could not undo the previous attempt: {res.get('message', '')}")

    def expected_files(self) -> list[str]:
        """Files the designer named or the plan says its steps write (in the parts asked for so far)."""
        plan = self.plan or {}
        files = dict.fromkeys([*plan.get("requested_files", []),
                               *(o for st in plan.get("subtasks", []) for o in st.get("outputs") or [])])
        # a request written in parts: those of the parts asked for so far
        return [f for f in files if not self.parts_left() or f in self.asked]

    def run_script(self, script: str) -> ExecutionReport:
        self.check_cancel()
        self.discard_applied()
        t0 = time.monotonic()
        try:
            rep = execute(script, self.req.mode, getattr(self.io, "bridge", None),
                          emit=lambda m: self.progress("execute", m), inputs=self.req.inputs,
                          expected_files=self.expected_files())
        except ValueError:
            raise
        except Exception as e:  # noqa: BLE001 - a broken runner is reported as a failed run
            rep = failed_run(type(e).__name__, str(e), where="none", stdout="", stderr="")
        self.rec.add_time("execute", time.monotonic() - t0)
        self.applied = rep.changed_layout
        summ = execution_summary(rep)
        self.progress("execute", "ran ok" if rep.ok else "the run failed", summ)
        return rep

    def symbols(self):
        """The symbol index of the installed APIs (loaded on first use), or None without one."""
        if self.index is None:
            self.index = self.timed("check", retrieve.symbol_index) or False
        return self.index or None

    def static(self, script: str) -> tuple[list[dict], list]:
        self.symbols()
        interactive_pya = self.req.mode == "interactive" and not needs_engine_python(script)
        if self.observations is None:
            self.observations = _observed_ports() if self.cfg.observations else {}
        t0 = time.monotonic()
        findings, review = checks_mod.static_findings(script, self.req.mode, self.index or None, self.checks,
                                                      interactive_pya=interactive_pya,
                                                      observations=self.observations or None)
        if self.cfg.examples == "cookbook":
            findings = retrieve.name_invented_apis(findings)
        self.rec.add_time("check", time.monotonic() - t0)
        return findings, review

    def hints(self, script: str) -> list[dict]:
        """The requested-value and cell-name checks that are not yet sent back.

        They read the request's words, so they can be wrong (a centred 100 um box is written as
        +-50, "a 0.2 um gap" may only be a consequence): each is sent back at most once per
        request; after that the other evidence decides. Except :data:`LASTING_HINTS`, which keep a
        script that misses them from being accepted. After feedback the designer's latest
        words set the values ("make it 20 um instead").
        """
        out = []
        for name, check in (("values", evaluator.missing_values), ("names", evaluator.missing_names),
                            ("layers", evaluator.missing_layers), ("unused", evaluator.unused_parameters)):
            if name not in self.hinted or name in LASTING_HINTS:
                dec = check(self.words, script)
                if dec is not None:
                    out.append(dict(dec, hint=name))
        return out

    def evaluate(self, text: str, finish: str | None, index: int, temperature: float,
                 review_state: dict, cut_off_by: str = "programmer", bound: bool = False,
                 renamed_outputs: bool = False, repairs: int = 0) -> Candidate:
        """Check, fix, run and judge one candidate answer (``bound``: it is a candidate whose
        numbers were already bound to a signature, see :meth:`bind`; ``renamed_outputs``: its
        output names were already set to the requested ones, see :meth:`rename_outputs`;
        ``repairs``: how many run-proven repairs it already had, see :meth:`repair_run`)."""
        script = extract_code(text)
        cand = Candidate(script=script, temperature=temperature, index=index, answer=text)
        completed = None
        if finish in evaluator.CUT_OFF:
            completed = evaluator.complete_part(text) if finish != evaluator.RUNAWAY else None
            if completed is None:
                cand.stage, cand.decision = "cut-off", evaluator.cut_off(cut_off_by)
                cand.problems = ["cut off at the answer length limit"]
                return cand
            script = cand.script = completed[0]
        deck = drc_deck.is_deck(script)   # KLayout's DRC language: none of the Python fixes apply
        checked: dict[str, tuple[list[dict], list]] = {}   # script -> its static check, run once per text

        def findings_of(s: str) -> list[dict]:
            checked[s] = self.static(s)
            return checked[s][0]

        if deck:
            script, fixed = drc_deck.certain_fixes(script, self.req.prompt)
        else:
            script, resyntaxed = repair_syntax(script, self.req.mode)
            bridge_names = checks_mod.BRIDGE_GLOBALS if self.req.mode == "interactive" and not needs_engine_python(script) else ()
            script, restored = restore_example_definitions(script, [r.code for r in self.shown_recipes], bridge_names)
            script, reopened = drop_reopened_layout(script, self.req.mode, self.req.prompt, self.req.inputs or ())
            script, numbered = name_the_new_layer(script, self.words)
            script, rebound = bind_requested_layer(script, self.words)
            script, rebound_one = rebind_one_wrong_layer(script, self.words)
            script, renamed_layers = bind_named_layers(script, self.req.prompt)
            script, plain = write_layout_by_suffix(script, self.req.prompt)
            script, saved = save_the_report_database(script, self.req.prompt, self.req.inputs or ())
            script, active = draw_in_the_active_cell(script, self.req.mode, self.req.prompt)
            script, existing = look_up_only_cells_that_exist(script, self.req.mode, self.req.prompt, self.req.layout_context)
            script, invented = binding.drop_invented_parameters(script, self.words, self.symbols())
            script, documented = binding.bind_documented_decimals(script, self.words, self.symbols())
            script, variant = use_the_named_variant(script, self.words, self.symbols())
            script, foreign = drop_foreign_parameters(script, self.words)
            script, fixed = request_free_fixes(script, self.req.mode, findings_of)
            script, deep = read_through_the_hierarchy(script, self.words)   # after the Region the fixes above may make
            fixed += [deep] if deep else []
            fixed = ([f"restored {line!r} from the worked example (the script uses it and never set it)" for line in restored]
                     + [w for w in (completed and completed[1], resyntaxed, reopened, numbered, rebound, rebound_one, renamed_layers, plain, saved, active, existing, invented, documented, variant, foreign)
                        if w] + fixed)
        findings, review = checked[script] if script in checked else self.static(script)
        cand.script, cand.findings = script, findings
        cand.fixes = fixed
        review_state["review"] = review
        n_err = sum(f["severity"] == "error" for f in findings)
        self.progress("check", f"{n_err} error(s), {len(findings) - n_err} warning(s)"
                      + (f"; {'; '.join(cand.fixes)}" if cand.fixes else ""),
                      {"findings": findings, "fixes": cand.fixes, "review_checks": [c.name for c in review]})
        dec = evaluator.from_static(findings, script)
        if dec is not None:
            cand.stage, cand.decision = "static-error", dec
            cand.problems = [f["message"] for f in findings if f["severity"] == "error"]
            return cand
        if self.cfg.examples == "fixed":
            dec = evaluator.copied_example(script, prompts.programmer_examples(), self.req.prompt)
            if dec is not None:
                cand.stage, cand.decision, cand.problems = "copied", dec, ["a worked example copied unchanged"]
                return cand
        if not self.cfg.exec_feedback:
            return cand
        rep = cand.report = self.run_script(script)
        dec = evaluator.from_execution(rep, script, self.index or None)
        if dec is not None:
            exc = rep.exception or {}
            cand.stage, cand.decision = "run-failed", dec
            cand.problems = [f"{exc.get('type', 'error')}: {str(exc.get('message', ''))[:200]}"]
            if repairs < MAX_RUN_REPAIRS:
                derived = self.repair_run(cand, review_state, bound, renamed_outputs, repairs)
                if derived is not None and derived.repaired(cand):
                    return derived
            return cand
        problems = self.contract.check(rep)
        if deck and self.cfg.contract:   # the rule names the designer gave are the report's categories
            missing = drc_deck.missing_categories(self.asked, rep)
            if missing:
                have = ", ".join(rep.deck_categories() or {}) or "none"
                problems.append(f"the report has no categor{'y' if len(missing) == 1 else 'ies'} {', '.join(missing)} "
                                f"(it has: {have}); every rule the designer named must reach the report as "
                                f'<check>.output("{missing[0]}", "{missing[0]}: <the rule in words>")')
            # the rules that reached the report are tested too, so one revision can fix them all
            problems += [p for p in self.deck_rule_test(script) if p.split(" ", 1)[0] not in missing]
        if rep.where == "klayout" and self.cfg.contract and not (rep.changes or {}).get("changed") \
                and contract_words.expects_layout_change(self.words):
            problems.append("the script ran but did not change the open layout, and the designer asked for a change")
        if self.cfg.contract:
            problems += contract_words.unasked_layout_change(rep, self.words, self.contract)
            problems += contract_words.script_problems(script, self.asked, self.contract)
            problems += contract_words.report_problems(rep, self.asked, self.contract, script)
        planned = [f for f in self.expected_files() if f not in self.contract.files]
        problems += [f"{f} was not written" for f in contract_words.missing_files(planned, rep)]
        if problems:
            cand.stage, cand.problems = "contract", problems
            cand.decision = contract_decision(problems, contract_words.missing_files(self.expected_files(), rep),
                                              script)
            if not renamed_outputs:
                derived = self.rename_outputs(cand, review_state, bound)
                # as good is enough: its names are the ones the run proved requested, and what it
                # still breaks is what the revision must hear (a real a06 rename of its categories
                # showed that drc.json's counts disagree with them)
                if derived is not None and derived.rank() >= cand.rank():
                    return derived
            return cand
        cand.hints = self.hints(script)
        if cand.hints:
            cand.stage, cand.decision = "hints", cand.hints[0]
            if self.cfg.binding and not bound and any(h["hint"] == "values" for h in cand.hints):
                derived = self.bind(cand, review_state)
                if derived is not None and derived.rank() > cand.rank():
                    return derived
            return cand
        if self.cfg.judge == "always":
            self.check_cancel()
            dec = self.timed("evaluate", evaluator.judge, review_state["sess"].evaluator, self.client, self.req.prompt,
                             script, rep, review, cancel=self.cancel, expected_files=self.expected_files())
            if dec["decision"] != "accept":
                cand.stage, cand.decision, cand.problems = "judge", dec, [dec["instructions"][:200]]
        return cand

    def repair_run(self, cand: Candidate, review_state: dict, bound: bool, renamed_outputs: bool,
                   repairs: int) -> Candidate | None:
        """The candidate with the repair its failed run proves (a method read where its value was
        meant, see fixes.call_uncalled_methods), checked and run again; None when the run proves none."""
        rep = cand.report or ExecutionReport()
        for repair in RUN_REPAIRS:
            script, done = repair(cand.script, rep)
            if done:
                break
        else:
            return None
        self.progress("check", "; ".join(done))
        derived = self.evaluate(f"```python\n{script}\n```", None, cand.index, cand.temperature, review_state,
                                bound=bound, renamed_outputs=renamed_outputs, repairs=repairs + 1)
        derived.fixes = cand.fixes + done + derived.fixes
        return derived

    def deck_from_rules(self, review_state: dict) -> Outcome | None:
        """The deck written from the request's rules (checks.deck_rules.deck_from_rules), checked, run and
        rule-tested like any candidate and accepted without an LLM call when its evidence holds; None when
        some named rule was not read or the evidence fails (the LLM writes the deck then)."""
        deck = deck_rules.deck_from_rules(self.req.prompt)
        if deck is None:
            return None
        self.progress("generate", "writing the deck from the request's rules (no LLM call)", {"round": 1})
        cand = self.evaluate(f"```ruby\n{deck}```", None, 0, 0.0, review_state)
        self.io.script(cand.script, 1)
        self.rec.append("rounds", {"round": 1, "script": cand.script, "findings": cand.findings, "written_from_rules": True,
                                   "execution": execution_summary(cand.report), "candidates": [cand.summary()],
                                   "chosen": 0, "decision": cand.decision or evaluator.decision("accept", "", "", "evidence")})
        self.progress("evaluate", f"deck from the request's rules: {cand.stage}"
                      + (f" ({cand.problems[0][:120]})" if cand.problems else ""), cand.summary())
        if not cand.passed:
            self.discard_applied()
            return None
        return self.finish(True, cand.script, 1, cand.report,
                           "accepted after 1 round(s): the deck was written from the request's rules")

    def deck_rule_test(self, deck: str) -> list[str]:
        """What the deck's named rules got wrong on a layout built to break and keep each of them
        (see checks.deck_rules); [] when every rule the words define behaved."""
        self.check_cancel()
        rules = deck_rules.rules_of(self.req.prompt)
        if not rules:
            return []
        found = self.timed("check", deck_rules.self_test, deck, self.req.prompt)
        self.progress("check", f"rule test of {len(rules)} rule(s) on a test layout: "
                      + (f"{len(found)} problem(s)" if found else "each flags what breaks it and nothing else"),
                      {"rules": [r.name for r in rules], "problems": found})
        return found[:deck_rules.MAX_PROBLEMS]

    def rename_outputs(self, cand: Candidate, review_state: dict, bound: bool) -> Candidate | None:
        """The candidate with the file or cell name it produced instead of the requested one
        renamed in its source (see fixes.rename_outputs), and the layer a factory's default drew
        instead of the requested one set (fixes.bind_default_layer), checked and run again; None
        when the run proves neither. When the fixes together break the run (a real m01 printout
        looked its slab up by the old layer name), the layer fix and the others are also tried
        alone, and the best-ranked script is kept."""
        rep = cand.report or ExecutionReport()
        script, done = rename_outputs(cand.script, self.contract, rep)
        script, columns = rename_csv_columns(script, self.contract, rep)
        script, keyed = rename_json_keys(script, self.contract, rep)
        script, entry = write_the_named_entry(script, self.contract, rep, self.words)
        script, nested = write_the_nested_map(script, self.contract, rep)
        keyed += entry + nested
        script, categorised = rename_rdb_categories(script, self.contract, rep)
        columns += keyed + categorised
        script, narrowed = drop_extra_csv_columns(script, self.contract, rep)
        columns += narrowed
        script, unindexed = drop_dataframe_index(script, self.contract, rep)
        script, headed = write_the_missing_header(script, self.contract, rep)
        columns += unindexed + headed
        script, unscaled = unscale_column(script, self.contract, rep)
        script, called = call_methods_written_as_values(script, rep)
        script, labelled = bind_label_layer(script, self.contract, rep)
        script, pitched = bind_the_requested_pitch(script, self.contract, rep)
        script, inserted = insert_the_built_shape(script, self.contract, rep)
        script, unprinted = drop_printouts_of_unasked_layers(script, rep, self.words)
        named = done + columns + unscaled + called + labelled + pitched + inserted + unprinted
        layered_script, layered = bind_default_layer(script, self.contract, rep, self.index or None)
        if not named and not layered:
            return None
        tries = [(layered_script, named + layered)]
        if named and layered:
            alone, _ = bind_default_layer(cand.script, self.contract, rep, self.index or None)
            tries += [(script, named), (alone, layered)]
        best, best_what = None, []
        for fixed, what in tries:
            self.progress("check", "; ".join(what))
            derived = self.evaluate(f"```python\n{fixed}\n```", None, cand.index, cand.temperature, review_state,
                                    bound=bound, renamed_outputs=True)
            derived.fixes = cand.fixes + what + derived.fixes
            if best is None or derived.rank() > best.rank():
                best, best_what = derived, what
            if best.rank() > cand.rank() and best.stage != "run-failed":
                break
        kept = best if best.rank() > cand.rank() else cand
        if layered and layered[0] not in (best_what if kept is best else []) and kept.decision:
            # the layer fix broke the script elsewhere (e.g. a printout that looks for the old layer
            # name): the revision is told the parameter the run proved
            kept.decision = dict(kept.decision, instructions=kept.decision.get("instructions", "")
                                 + f"\nThe run shows where the wrong layer comes from: set {layered[0]}.")
        return best

    def bind(self, cand: Candidate, review_state: dict) -> Candidate | None:
        """The candidate with the request's numbers bound to the real parameters of the component
        it builds (one JSON answer constrained to the signature), checked and run again; None when
        nothing could be bound."""
        self.check_cancel()
        res = self.timed("bind", binding.bind, review_state["sess"].binder, self.client, self.words, cand.script,
                         self.index or None, cancel=self.cancel)
        if res is None:
            return None
        script, info = res
        self.progress("check", f"bound {', '.join(f'{k}={v:g}' for k, v in info['values'].items())} to "
                      f"{info['function'].rsplit('.', 1)[-1]} (from its signature)", info)
        derived = self.evaluate(f"```python\n{script}\n```", None, cand.index, cand.temperature, review_state,
                                bound=True)
        derived.fixes = cand.fixes + [f"bound {info['values']} to {info['function']}"] + derived.fixes
        return derived

    # ------------------------------------------------------------------ a round
    def sample_round(self, gen: ScriptGenerator, user: str, rnd: int, review_state: dict,
                     given: str | None = None, revising: Candidate | None = None) -> list[Candidate]:
        """Up to ``candidates`` scripts for one prompt, drawn one after another from the same (cached)
        prompt at rising temperature; the first that passes ends the round.

        ``revising``: the candidate this round's prompt asks to revise. A candidate that is the same
        program (a 1.5B model answered 20 of 50 revision prompts of three benchmark runs with the
        script unchanged) switches the round's remaining candidates to :meth:`fresh_start`, a new
        start without the failed script in view, and ranks below the round's changed candidates
        of the same stage (:meth:`Candidate.mark_unchanged`). In a round that continues a script
        (:mod:`addition`, ``self.continuing``) the first answer is the lines after it; the round's
        other candidates revise a whole script (:meth:`after_continuation`)."""
        k = max(1, self.cfg.candidates)
        revised = revising
        base = self.continuing
        temps = [self.settings.temperature if t is None else t for t in CANDIDATE_TEMPERATURES]
        temps = (temps + [temps[-1]] * k)[:k]
        out: list[Candidate] = []
        for i, temp in enumerate(temps):
            self.check_cancel()
            if self.over_budget(rnd, i + 1):
                break
            began = time.monotonic()
            if given is not None:   # the synthesizer's merge is this round's only candidate
                text, cut = f"```python\n{given}\n```", "synthesizer"
                finish = review_state["sess"].synthesizer.agent.last_finish
            else:
                what = "writing the script" if rnd == 1 and not self.req.feedback else "revising the script"
                self.progress("generate", what + (f" (candidate {i + 1}/{k}, temperature {temp:g})" if k > 1 else ""),
                              {"round": rnd, "candidate": i + 1, "temperature": temp})
                self.io.token("programmer", None)
                start = (addition.answer_start(base.script, absent_outputs(base), self.asked, self.next_part)
                         if base is not None and self.client.continues_answers else None)
                try:
                    text, finish = self.timed("generate", gen.sample, self.client, user, temperature=temp,
                                              cancel=self.cancel, on_token=self.token_cb("programmer"),
                                              answer_start=start)
                except LLMCancelled:
                    raise
                except LLMError as e:
                    if not out and rnd == 1:
                        raise   # no script to fall back on
                    self.stop_sampling(e, rnd, i + 1)
                    break
                cut = "programmer"
                if base is not None and finish not in evaluator.CUT_OFF:
                    text = f"```python\n{addition.extended(base.script, extract_code(text))}```"
            cand = self.evaluate(text, finish, i, temp, review_state, cut_off_by=cut)
            if base is not None and cand.stage == "run-failed":
                cand = self.keep_what_ran(base, cand, review_state)
            if revised is not None and not cand.passed and same_code(cand.script, revised.script):
                cand.mark_unchanged()
            self.candidate_s.append(time.monotonic() - began)
            cand.prompt = user
            self.io.script(cand.script, rnd)
            out.append(cand)
            self.progress("evaluate", f"round {rnd}, candidate {i + 1}: {cand.stage}"
                          + (f" ({cand.problems[0][:120]})" if cand.problems else ""), cand.summary())
            if cand.passed or given is not None:
                break
            if base is not None and i + 1 < k:
                user, revising = self.after_continuation(gen, cand, revising)
                base, revised = None, revising
                continue
            if revising is not None and i + 1 < k and same_code(cand.script, revising.script):
                self.progress("generate", "the revision left the script unchanged: the next candidates start over")
                self.rec.append("unchanged_revisions", {"round": rnd, "candidate": i + 1})
                user, revising = self.fresh_start(gen, revising.decision or {}), None
        return out

    def keep_what_ran(self, base: Candidate, cont: Candidate, review_state: dict) -> Candidate:
        """The continuation ``cont`` of ``base``, whose run failed in its added lines, without the
        statements that failed (see addition.without_failing_addition; up to MAX_ADDITION_CUTS, as a
        later added line can fail the same way), checked and run again, when that ranks better;
        else ``cont`` itself."""
        derived, done = cont, []
        for _ in range(MAX_ADDITION_CUTS):
            cut = addition.without_failing_addition(base.script, derived.script,
                                                    (derived.report or ExecutionReport()).failing_line())
            if cut is None:
                break
            script, what = cut
            done.append(what)
            self.progress("check", what)
            derived = self.evaluate(f"```python\n{script}```", None, cont.index, cont.temperature, review_state)
            if derived.stage != "run-failed":
                break
        if not done or derived.rank() <= cont.rank():
            return cont
        derived.fixes = cont.fixes + done + derived.fixes
        return derived

    def after_continuation(self, gen: ScriptGenerator, cont: Candidate,
                           revising: Candidate | None) -> tuple[str, Candidate | None]:
        """The message and the revised candidate for a continuing round's other candidates (whole
        scripts, no answer start), once its continuation ``cont`` did not pass.

        Warmer continuations of a failed continuation added nothing in session 25's runs (a01: three
        that all wrote files from names never computed, a round spent; a06: two static errors).
        A continuation that ran has the missing outputs, so its own problems are revised (a06's
        added marker layers held the checked region instead of the violations: one name to
        change); one that did not run leaves the script it continued to be revised as a whole,
        which wrote a01's missing files.

        Args:
            gen: the round's script generator.
            cont: the round's continuation, evaluated.
            revising: the candidate the round revises (the continued one).
        """
        if STAGES.index(cont.stage) >= STAGES.index("contract") and cont.decision:
            self.progress("generate", "the continuation ran but is not right yet: the next candidates revise it")
            return gen.revision_message(cont.script, cont.decision.get("instructions", "")), cont
        self.progress("generate", "the continuation did not run: the next candidates revise the script as a whole")
        return self.rewrite, revising

    def budget_s(self) -> float | None:
        """The request's time budget: its own, else the settings' (0 or None: no limit)."""
        return self.req.time_budget_s if self.req.time_budget_s is not None else self.settings.time_budget_s

    def over_budget(self, rnd: int, candidate: int) -> bool:
        """True (and the request stops with its best script so far) when one more candidate, taking
        as long as this request's slowest candidate so far, would end after the request's time
        budget; never before the first candidate exists."""
        budget = self.budget_s()
        if not budget or not self.candidate_s:
            return False
        elapsed = time.monotonic() - self.started
        pace = max(self.candidate_s)
        if elapsed + pace <= budget:
            return False
        self.out_of_time = True
        self.rec.append("budget_stops", {"round": rnd, "candidate": candidate, "elapsed_s": round(elapsed, 1),
                                         "pace_s": round(pace, 1), "budget_s": budget})
        self.progress("generate", f"time budget: {elapsed:.0f} s used of {budget:.0f} s and a candidate takes about "
                      f"{pace:.0f} s: keeping the best script so far")
        return True

    def stop_sampling(self, error: LLMError, rnd: int, candidate: int) -> None:
        """An LLM call failed (a timeout, a dead server) once a candidate existed: the request ends
        with the best script so far instead of losing it, and says why it stopped."""
        self.llm_failure = error
        self.rec.append("llm_failures", {"round": rnd, "candidate": candidate, "kind": error.kind, "message": str(error)[:300]})
        self.progress("generate", f"the LLM failed ({error.kind}) on round {rnd}, candidate {candidate}: "
                      "keeping the best script so far")

    def revision(self, sess: Session, gen: ScriptGenerator, chosen: Candidate, previous: str | None) -> str:
        """The programmer's next user message for the chosen candidate's evidence; replans or
        re-retrieves when the evidence says so."""
        if self.part_starts:
            return self.next_part_message(gen, chosen)
        dec = chosen.decision or {}
        if dec.get("hint"):
            self.hinted.add(dec["hint"])
        target = dec.get("target") or "programmer"
        docs = None
        if target == "query_generator" or dec.get("lookup"):
            task = "; ".join(s["task"] for s in self.plan["subtasks"])[:600]
            docs = self.find_docs(gen, task, extra=f"The programmer needs documentation for: {dec['instructions'][:500]}",
                                  lookup=dec.get("lookup"))
        self.continuing, self.next_part = None, ""
        instructions = dec.get("instructions", "")
        if any(evaluator.CUT_PART in f for f in chosen.fixes):   # it ran without its cut-off end
            instructions += f"\nThe script's last statement was cut off at the answer length limit. {evaluator.SHORTER}"
        if previous is not None and same_code(chosen.script, previous):
            # stuck (a 1.5B model answered one broken script five times): start over without the
            # failed script in view, told only what was wrong with it
            self.progress("generate", "starting over: the script did not change")
            return self.fresh_start(gen, dec, docs)
        if self.cfg.additions and lacks_outputs_only(chosen, self.contract.layers) and docs is None \
                and chosen.script not in self.continued:
            self.progress("generate", "the script's results hold but outputs are missing: continuing it")
            self.rec.append("additions", {"problems": chosen.problems[:6], "hint": dec.get("hint")})
            return self.continuation(gen, chosen, instructions, dec.get("instructions", ""))
        return gen.revision_message(chosen.script, instructions, docs=docs)

    def continuation(self, gen: ScriptGenerator, chosen: Candidate, rewrite: str, added: str) -> str:
        """The message that continues ``chosen`` (see :mod:`addition`): this round's answers are the
        lines after its script, and the round's other candidates revise it as a whole with ``rewrite``.

        Args:
            gen: the round's script generator.
            chosen: the candidate whose script is continued (once per script).
            rewrite: the instructions of the whole-script revision.
            added: what the continuation's message says the new lines are to add.
        """
        self.continuing = chosen
        self.continued.add(chosen.script)
        self.rewrite = gen.revision_message(chosen.script, rewrite)
        return addition.message(chosen.script, added, self.asked, shown=self.client.continues_answers)

    def start_next_part(self, chosen: Candidate, review_state: dict) -> Candidate:
        """Ask for the request's next part: the contract and the checked words grow to it, and the
        chosen script, which did the parts before, is checked and run against them (no LLM call),
        so that its continuation is ranked against what it lacks now."""
        self.parts_asked += 1
        self.ask_parts()
        self.part_starts = True
        self.progress("plan", f"part {self.parts_asked - 1} of {len(self.parts)} done: adding part {self.parts_asked}",
                      {"part": self.parts_asked, "text": self.parts[self.parts_asked - 1]})
        self.rec.append("part_starts", {"part": self.parts_asked, "from_script": chosen.script})
        return self.evaluate(f"```python\n{chosen.script}```", None, chosen.index, chosen.temperature, review_state)

    def next_part_message(self, gen: ScriptGenerator, chosen: Candidate) -> str:
        """The message that continues ``chosen`` with the next part of the request: the model
        writes only the lines after the script (see :mod:`addition`), shown the nearest verified
        recipe for that part as its worked example."""
        self.part_starts = False
        part = self.next_part = self.parts[self.parts_asked - 1]
        found = self.find_recipes(part, gen.kind, gen.domains)
        if found:
            gen.prepare(gen.kind, self.examples(gen, gen.kind, found))
        instructions = f"Now add the next part of the request:\n{part}"
        if not chosen.passed and chosen.decision:
            instructions += "\n" + chosen.decision.get("instructions", "")
        return self.continuation(gen, chosen, instructions, instructions)

    def fresh_start(self, gen: ScriptGenerator, dec: dict, docs: list[dict] | None = None) -> str:
        """The programmer's first message again, with what was wrong with the failed script and
        without the script itself (its memory is cleared)."""
        gen.programmer.memory.clear()
        self.continuing = None
        subs = self.plan["subtasks"]
        task = subs[0]["task"] if len(subs) == 1 else "\n".join(f"{i + 1}. {s['task']}" for i, s in enumerate(subs))
        if self.parts:
            task = self.asked + (f"\n{FIRST_PART_NOTE}" if self.parts_left() else "")
        return gen.first_message(task, docs if docs is not None else gen.docs, self.req.layout_context,
                                 request=self.asked, contract=contract_words.describe(self.contract),
                                 avoid=dec.get("instructions", ""))

    # ------------------------------------------------------------------ the loop
    def go(self) -> Outcome:
        if self.cfg.single_shot:
            return self.single_shot()
        req = self.req
        # each later part of the request gets a round of its own
        max_rounds = max(1, req.max_rounds or self.settings.max_rounds) + max(0, len(self.parts) - 1)
        continuing = bool(req.feedback and req.previous_script)
        sess = _session(self.sessions, req, fresh=not continuing, databases=self.settings.generator_databases)
        review_state = {"sess": sess, "review": []}
        given = None
        if continuing:
            self.plan = sess.plan or self.make_plan(sess)
            if sess.plan is not None:
                self.progress("plan", "continuing with the designer's feedback", self.plan)
                self.rec.set("plan", self.plan)
            gen = self.primary(sess)
            if not gen.prepared:   # the engine was restarted: the request's agents are new
                kind = gen.kind_for(self.plan["subtasks"][0]["task"], req.prompt)
                gen.prepare(kind, self.examples(gen, kind, self.find_recipes(req.prompt, kind, gen.domains)))
            fb = "\n".join(f"- {t}" for t in req.feedback[-3:])
            dec = evaluator.decision("revise", "query_generator" if self.cfg.retrieval else "programmer",
                                     f"The designer reviewed the result of this script and asks:\n{fb}", "designer")
            self.progress("evaluate", "designer feedback: revise", dec)
            user = self.revision(sess, gen, Candidate(script=req.previous_script, temperature=0.0, decision=dec), None)
        else:
            plan = self.make_plan(sess)
            gen, user, given = self.first_message(sess, plan)
            if given is None and self.cfg.rule_decks and gen.domains == (deck_generator.DOMAIN,):
                written = self.deck_from_rules(review_state)
                if written is not None:
                    return written

        rounds, chosen, previous, reached, stalled = 0, None, None, None, None
        for rnd in range(1, max_rounds + 1):
            self.check_cancel()
            rounds = rnd
            cands = self.sample_round(gen, user or "", rnd, review_state, given=given, revising=chosen)
            if not cands:   # the LLM failed before this round's first candidate: the last round's stands
                rounds = rnd - 1
                break
            chosen = best(cands)
            kept = (self.continuing is not None and best([self.continuing, *cands]) is self.continuing
                    and not (chosen.passed and self.continuing.passed))   # a passing continuation did more
            if kept:   # every continuation made it worse (a01: new lines that use names never defined)
                chosen = self.continuing
                self.progress("evaluate", f"round {rnd}: no continuation improved the script; keeping it to revise as a whole")
            elif given is None:
                gen.choose(chosen.prompt or user, chosen.answer)
            given = None
            if chosen is not cands[-1] and self.req.mode == "interactive" and self.cfg.exec_feedback:
                self.discard_applied()   # the open layout shows the last candidate; the chosen one is not in it
                if chosen.passed:   # a script that did the parts before, kept over its continuations
                    chosen.report = self.run_script(chosen.script)
            sess.script = chosen.script
            self.rec.append("rounds", {"round": rnd, "script": chosen.script, "findings": chosen.findings,
                                       "execution": execution_summary(chosen.report),
                                       "candidates": [dict(c.summary(), script=c.script) for c in cands],
                                       "chosen": chosen.index, "kept_continued": kept,
                                       "decision": chosen.decision or evaluator.decision("accept", "", "", "evidence")})
            progress = reached is None or max(c.evidence() for c in cands) > reached
            reached = max([c.evidence() for c in cands] + ([reached] if reached is not None else []))
            if not progress and self.cfg.stop_without_progress and not chosen.passed and rnd < max_rounds:
                # a third round after one that brought nothing better passed 1 of 13 times in the
                # records of sessions 25-26 (37 calls for it)
                stalled = rnd
                self.progress("evaluate", f"round {rnd} brought no better evidence than the rounds before: stopping")
                self.rec.set("stopped_without_progress", rnd)
                break
            if chosen.passed and self.parts_left() and rnd < max_rounds and self.llm_failure is None \
                    and not self.out_of_time:
                chosen = self.start_next_part(chosen, review_state)
                reached, previous = None, None   # evidence is now measured against the larger part
            elif chosen.passed or rnd == max_rounds or self.llm_failure is not None or self.out_of_time:
                break
            elif max_rounds - rnd <= len(self.parts) - self.parts_asked:
                break   # the rounds left are the later parts' own: this part did not get done in its rounds
            try:
                user = self.revision(sess, gen, chosen, None if kept else previous)
            except LLMCancelled:
                raise
            except LLMError as e:   # re-retrieval's query generator or a replan failed
                self.stop_sampling(e, rnd + 1, 0)
                break
            previous = chosen.script

        script = chosen.script
        rep = chosen.report
        ok = chosen.passed and not self.parts_left()
        if not self.cfg.exec_feedback and ok:
            rep = self.run_script(script)
            ok = bool(rep.ok)
        msg = (f"accepted after {rounds} round(s)" if ok else
               f"not accepted after {rounds} round(s): {((chosen.decision or {}).get('instructions', ''))[:200]}")
        if self.llm_failure is not None:
            msg += f" (stopped early: the LLM failed: {self.llm_failure.kind}, {str(self.llm_failure)[:160]})"
        elif self.out_of_time and not ok:
            msg += f" (stopped at the time budget of {self.budget_s():.0f} s)"
        elif stalled is not None:
            msg += f" (stopped: round {stalled} brought no better evidence than the round(s) before)"
        return self.finish(ok, script, rounds, rep, msg)

    def single_shot(self) -> Outcome:
        """zero-shot and icl-rag baselines: one LLM call, then one run."""
        req = self.req
        self.plan = planner.single_plan(req.prompt, inputs=tuple(req.inputs or ()))
        domain = self.plan["subtasks"][0]["domain"]
        cfg = prompts.domains()
        system = prompts.render("programmer", domain_title=cfg[domain]["title"], versions=cfg["versions"]["text"],
                                domain_rules="", mode_rules=cfg["modes"][req.mode]["rules"].strip()) \
            if domain != deck_generator.DOMAIN else deck_generator.system_prompt(req.mode, with_rules=False)
        examples: tuple = ()
        docs: list[dict] = []
        if self.cfg.examples == "fixed":
            examples = prompts.fewshot(f"programmer_{domain}")
        if self.cfg.retrieval:
            self.rec.append("queries", [{"db": None, "query": req.prompt}])
            self.progress("query", "1 query (the request)", {"queries": [{"db": None, "query": req.prompt}]})
            docs, err = self.timed("retrieve", retrieve.search, req.prompt, None, 5)
            self.rec.append("retrieved", describe_hits(docs))
            self.progress("retrieve", f"{len(docs)} documentation chunk(s)", {"entries": describe_hits(docs), "errors": [err] if err else []})
        agent = Agent("programmer", system, examples)
        # the open layout (and the selection) is part of an interactive request, for the baselines too
        context = planner.context_text(req.layout_context) if req.mode == "interactive" else ""
        user = prompts.render("programmer_user", task=req.prompt, outputs="", request="", contract="", avoid="",
                              context=context, docs=retrieve.format_docs(docs) if docs else "(none)")
        self.check_cancel()
        self.progress("generate", "writing the script", {"domain": domain})
        self.io.token("programmer", None)
        text = self.timed("generate", agent.ask_text, self.client, user, cancel=self.cancel,
                          on_token=self.token_cb("programmer"))
        script = extract_code(text)
        self.io.script(script, 1)
        rep = self.run_script(script)
        dec = evaluator.decision("accept" if rep.ok else "revise", "", "", "execution")
        self.rec.append("rounds", {"round": 1, "script": script, "execution": execution_summary(rep),
                                   "decision": dec})
        self.progress("evaluate", f"round 1: {dec['decision']}", dec)
        return self.finish(bool(rep.ok), script, 1, rep, "ran ok" if rep.ok else "the script failed")

    def finish(self, ok: bool, script: str, rounds: int, rep: ExecutionReport | None, msg: str) -> Outcome:
        if not ok:
            self.discard_applied()
        usage = self.usage()
        self.rec.set("usage", usage)
        self.rec.set("calls", [c.__dict__ for c in self.client.usage.calls[self.usage_start:]])
        self.rec.finish("accepted" if ok else "rejected", final_script=script, ok=ok, rounds_used=rounds,
                        message=msg, execution=execution_summary(rep))
        timings = dict(self.rec.data.get("stage_time_s") or {}, total_s=self.rec.data.get("duration_s"))
        return Outcome(ok=ok, script=script, rounds=rounds, execution=rep, usage=usage,
                       record_path=str(self.rec.path), message=msg, timings=timings)


def lacks_outputs_only(cand: Candidate, requested_layers: list[str] = ()) -> bool:
    """The candidate ran and what it produced holds, but requested outputs are absent: files not
    written, layers left empty (contract problems), or requested layers its script never uses (the
    "layers" hint, with no other hint pending).

    Not when the run drew on the open layout's layers that the request does not name: the shapes
    went to the wrong layer, and a continuation only adds (a real m11 script drew the cladding on
    ``layout.layer(LAYER + 101, 0)``, 102/0 for 111/0, and its continuation printed a count).

    Args:
        cand: the chosen candidate, evaluated.
        requested_layers: the layers the request names ("L/D").
    """
    if cand.unchanged:
        return False
    delta = ((cand.report.changes if cand.report is not None else None) or {}).get("shapes_delta") or {}
    if any(n > 0 and layer not in requested_layers for layer, n in delta.items()):
        return False
    if cand.stage == "contract":
        return addition.absent_only(cand.problems)
    return cand.stage == "hints" and bool(cand.hints) and all(h.get("hint") == "layers" for h in cand.hints)


def absent_outputs(cand: Candidate) -> list[str]:
    """What a candidate that lacks only outputs (:func:`lacks_outputs_only`) lacks, as its evidence
    says it: its contract problems and its pending hints' instructions."""
    return cand.problems + [h.get("instructions", "") for h in cand.hints]


def plan_domains(plan: dict) -> tuple[str, ...]:
    """The domains a plan's one generator serves: its own list (a one-step plan of a request that
    spans domains), else its steps' domains in order."""
    return tuple(plan.get("domains") or dict.fromkeys(s["domain"] for s in plan["subtasks"]))


def _with_observations(hits: list[dict]) -> list[dict]:
    """Retrieved chunks with the observed behaviour of their API inserted (``pic-copilot explore``;
    unchanged where nothing was observed)."""
    return observations.annotate_hits(hits)


def _observed_ports() -> dict:
    """Observed port names per component factory ({} where nothing was observed)."""
    return observations.port_table()


def run_request(request: Request, io: PipelineIO, settings: Settings | None = None,
                client: LLMClient | None = None, sessions: SessionStore | None = None) -> Outcome:
    """Run the pipeline on one request.

    Args:
        request: what the designer asked (a revision carries ``feedback`` and ``previous_script``).
        io: progress, tokens, candidate scripts, the cancel event and the KLayout bridge.
        settings: the engine settings (default: load_settings()).
        client: the LLM client (default: a new one for this call, closed afterwards).
        sessions: the per-request memory of whoever serves requests: the run is noted there, and
            a revision continues the agents its request id left there. None: a store of this call's
            own (nothing is remembered afterwards; a revision then starts with new agents).

    Raises:
        LLMError subclasses (LLMCancelled when io.cancel was set); ValueError for a bad request.
        The run record is finished (status "error"/"cancelled") before anything propagates.
    """
    settings = settings or load_settings()
    own = client is None
    if client is None:
        client = make_client(settings)
    sessions = SessionStore() if sessions is None else sessions
    sessions.started(request)
    run = None
    try:
        check_databases(settings.generator_databases)   # a bad choice fails before any LLM call
        run = _Run(request, io, settings, client, sessions)
        outcome = run.go()
        sessions.finished(request.id, outcome)
        return outcome
    except LLMCancelled:
        if run is not None:
            run.rec.set("usage", run.usage())
            run.rec.finish("cancelled")
        raise
    except LLMError as e:
        if run is not None:
            run.rec.set("usage", run.usage())
            run.rec.finish("error", error={"kind": e.kind, "type": type(e).__name__, "message": str(e)})
        raise
    except Exception as e:
        if run is not None:
            run.rec.finish("error", error={"kind": "internal", "type": type(e).__name__, "message": str(e)})
        raise
    finally:
        if own:
            client.close()
