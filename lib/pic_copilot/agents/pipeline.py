"""The multi-agent pipeline: plan -> per-domain generators -> synthesizer -> evaluator loop.

Entry point: :func:`run_request`. Configurations (``Request.config``):

- ``full``: everything below.
- ``zero-shot``: one programmer call, no examples, no retrieval, no checks; the script is run once.
- ``icl-rag``: one call with few-shot examples and retrieval over all databases with the raw request.
- ``no-tailored-rag``: full pipeline, but retrieval uses the subtask text over all databases
  (no query generator, no per-generator databases).
- ``no-multi-agent``: one programmer with retrieval and the evaluation loop (static + execution
  evidence, no LLM planner, synthesizer or LLM evaluator).
- ``no-exec-feedback``: full pipeline, but revisions only see static evidence; the final script
  is run once for the result.
- ``no-exploration``: full pipeline, but the observed behaviour from ``pic-copilot explore``
  (databases/<db>/observations.json) is not used: not in the programmer's documentation context,
  not in API details, not in the API check (observed port names).
"""
from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass, field

from ..config import Settings, load_settings
from ..execution import changed_layout, execute, needs_engine_python
from ..history import RunRecord
from ..llm import LLMCancelled, LLMClient, LLMError, make_client
from ..pipeline_configs import PIPELINE_CONFIGS
from ..pipeline_io import Outcome, PipelineIO, Request
from . import checks as checks_mod
from . import evaluator, planner, prompts, retrieve
from .base import Agent, extract_code
from .generators import ScriptGenerator, check_databases, Synthesizer, describe_hits
from . import deck_generator

CONFIGS = PIPELINE_CONFIGS
#: configurations that use the observed behaviour of the installed APIs (pic_copilot.explore)
OBSERVING = ("full", "no-tailored-rag", "no-multi-agent", "no-exec-feedback")
MAX_SESSIONS = 32


@dataclass
class Session:
    """Per-request agent state kept for designer feedback (per-agent memory)."""

    mode: str
    plan: dict | None = None
    planner: Agent = field(default_factory=planner.new_agent)
    evaluator: Agent = field(default_factory=evaluator.new_agent)
    synthesizer: Synthesizer = field(default_factory=Synthesizer)
    generators: dict = field(default_factory=dict)
    script: str | None = None
    databases: dict = field(default_factory=dict)   # Settings.generator_databases

    def generator(self, domain: str) -> ScriptGenerator:
        if domain not in self.generators:
            self.generators[domain] = deck_generator.make_generator(domain, self.mode, databases=self.databases.get(domain))
        return self.generators[domain]


_SESSIONS: "collections.OrderedDict[str, Session]" = collections.OrderedDict()
_SESSIONS_LOCK = threading.Lock()


def _session(request: Request, fresh: bool, databases: dict | None = None) -> Session:
    with _SESSIONS_LOCK:
        s = None if fresh else _SESSIONS.get(request.id)
        if s is None or s.mode != request.mode or s.databases != (databases or {}):
            s = Session(mode=request.mode, databases=dict(databases or {}))
        _SESSIONS[request.id] = s
        _SESSIONS.move_to_end(request.id)
        while len(_SESSIONS) > MAX_SESSIONS:
            _SESSIONS.popitem(last=False)
        return s


def forget(request_id: str) -> None:
    """Drop a request's agent memory (the engine may call this when a panel closes a request)."""
    with _SESSIONS_LOCK:
        _SESSIONS.pop(request_id, None)


class _Run:
    def __init__(self, request: Request, io: PipelineIO, settings: Settings, client: LLMClient):
        self.req, self.io, self.settings, self.client = request, io, settings, client
        self.cfg = request.config or "full"
        self._hinted: set[str] = set()   # request-word checks already sent back (see hint_once)
        self.cut_off_by: str | None = None   # the agent whose answer (the current script) hit the length limit
        if self.cfg not in CONFIGS:
            raise ValueError(f"unknown pipeline configuration {self.cfg!r}; use one of {', '.join(CONFIGS)}")
        if request.mode not in ("sandbox", "interactive"):
            raise ValueError(f"unknown mode {request.mode!r}; use sandbox or interactive")
        self.cancel: threading.Event = getattr(io, "cancel", None) or threading.Event()
        self.usage_start = len(client.usage.calls)
        self.rec = RunRecord(request.id, request.prompt, settings, meta={
            "mode": request.mode, "config": self.cfg, "feedback": list(request.feedback),
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

    # ------------------------------------------------------------------ steps
    def make_plan(self, sess: Session, extra: str = "") -> dict:
        self.check_cancel()
        if self.cfg == "no-multi-agent":
            plan = planner.single_plan(self.req.prompt, inputs=tuple(self.req.inputs or ()))
        else:
            plan = self.timed("plan", planner.plan, sess.planner, self.client, self.req.prompt, self.req.mode,
                              self.req.layout_context, cancel=self.cancel, extra=extra,
                              inputs=tuple(self.req.inputs or ()))
        self.plan = sess.plan = plan
        self.rec.set("plan", plan)
        self.progress("plan", f"{len(plan['subtasks'])} subtask(s): "
                      + ", ".join(s["domain"] for s in plan["subtasks"]), plan)
        return plan

    def find_docs(self, gen: ScriptGenerator, task: str, extra: str = "", lookup: list[str] | None = None) -> list[dict]:
        self.check_cancel()
        if self.cfg in ("no-tailored-rag", "no-multi-agent"):
            queries = [{"db": None, "query": task[:300]}]
        else:
            queries = self.timed("query", gen.queries, self.client, task, extra=extra, cancel=self.cancel,
                                 kind=gen.kind_for(task, self.req.prompt))
        for name in lookup or []:
            queries.append({"db": None, "query": name})
        self.rec.append("queries", queries)
        self.progress("query", f"{len(queries)} quer{'y' if len(queries) == 1 else 'ies'}", {"queries": queries})
        self.check_cancel()
        hits, errors = self.timed("retrieve", gen.retrieve, queries)
        if self.cfg in OBSERVING:
            hits = _with_observations(hits)
        desc = describe_hits(hits)
        self.rec.append("retrieved", desc)
        self.progress("retrieve", f"{len(hits)} documentation chunk(s)" + (f" ({errors[0]})" if errors else ""),
                      {"entries": desc, "errors": errors})
        return hits

    def generate(self, sess: Session, plan: dict) -> str:
        parts = []
        self.cut_off_by = None
        for i, sub in enumerate(plan["subtasks"]):
            gen = sess.generator(sub["domain"])
            docs = self.find_docs(gen, sub["task"])
            self.check_cancel()
            self.progress("generate", f"writing the {sub['domain']} script ({i + 1}/{len(plan['subtasks'])})",
                          {"subtask": i + 1, "domain": sub["domain"]})
            self.io.token("programmer", None)
            code = self.timed("generate", gen.write, self.client, sub, docs, self.req.layout_context,
                              cancel=self.cancel, on_token=self.token_cb("programmer"), request=self.req.prompt)
            parts.append(code)
            if gen.programmer.last_finish in evaluator.CUT_OFF:
                self.cut_off_by = "programmer"
        self.rec.set("sub_scripts", parts)
        if len(parts) == 1:
            return parts[0]
        self.check_cancel()
        self.progress("synthesize", f"merging {len(parts)} scripts", {"parts": len(parts)})
        self.io.token("synthesizer", None)
        merged = self.timed("synthesize", sess.synthesizer.merge, self.client, plan, parts, cancel=self.cancel,
                            on_token=self.token_cb("synthesizer"))
        if sess.synthesizer.agent.last_finish in evaluator.CUT_OFF:
            self.cut_off_by = "synthesizer"
        return merged

    def primary(self, sess: Session) -> ScriptGenerator:
        domain = (self.plan or planner.single_plan(self.req.prompt))["subtasks"][0]["domain"]
        return sess.generator(domain)

    def revise(self, sess: Session, dec: dict, script: str) -> str:
        self.check_cancel()
        target = dec.get("target") or "programmer"
        if target == "planner" and self.cfg != "no-multi-agent" and not getattr(self, "_replanned", False):
            self._replanned = True
            plan = self.make_plan(sess, extra=f"(An earlier attempt was rejected: {dec['instructions'][:400]})")
            return self.generate(sess, plan)
        gen = self.primary(sess)
        docs = None
        if target == "query_generator" or dec.get("lookup"):
            task = "; ".join(s["task"] for s in self.plan["subtasks"])[:600]
            docs = self.find_docs(gen, task, extra=f"The programmer needs documentation for: {dec['instructions'][:500]}",
                                  lookup=dec.get("lookup"))
        self.progress("generate", "revising the script", {"target": target})
        self.io.token("programmer", None)
        code = self.timed("generate", gen.revise, self.client, script, dec["instructions"], docs=docs,
                          cancel=self.cancel, on_token=self.token_cb("programmer"))
        self.cut_off_by = "programmer" if gen.programmer.last_finish in evaluator.CUT_OFF else None
        return code

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
        """Files the designer named or the plan says its steps write."""
        plan = self.plan or {}
        return [*plan.get("requested_files", []), *(o for st in plan.get("subtasks", []) for o in st.get("outputs") or [])]

    def run_script(self, script: str) -> dict:
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
            rep = {"ok": False, "where": "none", "stdout": "", "stderr": "",
                   "exception": {"type": type(e).__name__, "message": str(e), "traceback": ""}}
        self.rec.add_time("execute", time.monotonic() - t0)
        self.applied = changed_layout(rep)
        summ = evaluator.execution_summary(rep)
        self.progress("execute", "ran ok" if rep.get("ok") else "the run failed", summ)
        return rep

    def static(self, script: str) -> tuple[list[dict], list]:
        if self.index is None:
            self.index = self.timed("check", retrieve.symbol_index) or False
        interactive_pya = self.req.mode == "interactive" and not needs_engine_python(script)
        if self.observations is None:
            self.observations = _observed_ports() if self.cfg in OBSERVING else {}
        t0 = time.monotonic()
        findings, review = checks_mod.static_findings(script, self.req.mode, self.index or None, self.checks,
                                                      interactive_pya=interactive_pya,
                                                      observations=self.observations or None)
        self.rec.add_time("check", time.monotonic() - t0)
        n_err = sum(f["severity"] == "error" for f in findings)
        self.progress("check", f"{n_err} error(s), {len(findings) - n_err} warning(s)",
                      {"findings": findings, "review_checks": [c.name for c in review]})
        return findings, review

    def hint_once(self, script: str) -> dict | None:
        """The requested-value and cell-name checks, each sent back at most once per request.

        They read the request's words, so they can be wrong (a centred 100 um box is written as
        +-50, "a 0.2 um gap" may only be a consequence); after one revision the LLM judge decides.
        After feedback the designer's latest words set the values ("make it 20 um instead").
        """
        words = self.req.feedback[-1] if self.req.feedback else self.req.prompt
        for name, check in (("values", evaluator.missing_values), ("names", evaluator.missing_names)):
            if name in self._hinted:
                continue
            dec = check(words, script)
            if dec is not None:
                self._hinted.add(name)
                return dec
        return None

    # ------------------------------------------------------------------ the loop
    def go(self) -> Outcome:
        if self.cfg in ("zero-shot", "icl-rag"):
            return self.single_shot()
        req = self.req
        max_rounds = max(1, req.max_rounds or self.settings.max_rounds)
        continuing = bool(req.feedback and req.previous_script)
        sess = _session(req, fresh=not continuing, databases=self.settings.generator_databases)
        if continuing:
            self.plan = sess.plan or self.make_plan(sess)
            if sess.plan is not None:
                self.progress("plan", "continuing with the designer's feedback", self.plan)
                self.rec.set("plan", self.plan)
            script = req.previous_script
            fb = "\n".join(f"- {t}" for t in req.feedback[-3:])
            dec = evaluator.decision("revise", "query_generator" if self.cfg != "no-multi-agent" else "programmer",
                                     f"The designer reviewed the result of this script and asks:\n{fb}", "designer")
            self.progress("evaluate", "designer feedback: revise", dec)
            script = self.revise(sess, dec, script)
        else:
            plan = self.make_plan(sess)
            script = self.generate(sess, plan)

        rounds, accepted, rep, last_dec = 0, False, None, None
        for rnd in range(1, max_rounds + 1):
            self.check_cancel()
            rounds = rnd
            sess.script = script
            self.io.script(script, rnd)
            entry = {"round": rnd, "script": script}
            findings, review = self.static(script)
            script, added = checks_mod.add_missing_imports(script, findings)
            if added:   # a certain fix: made here instead of costing a revision round
                sess.script = entry["script"] = script
                entry["imports_added"] = added
                self.io.script(script, rnd)
                self.progress("check", f"added {'; '.join(added)}", {"imports_added": added})
                findings, review = self.static(script)
            entry["findings"] = findings
            dec = ((evaluator.cut_off(self.cut_off_by) if self.cut_off_by else None)
                   or evaluator.from_static(findings, script)
                   or evaluator.copied_example(script, prompts.programmer_examples(), req.prompt))
            rep = None
            if dec is None and self.cfg == "no-exec-feedback":
                dec = evaluator.decision("accept", "", "", "static")
            elif dec is None:
                rep = self.run_script(script)
                entry["execution"] = evaluator.execution_summary(rep)
                dec = (evaluator.from_execution(rep) or evaluator.missing_outputs(rep, self.plan["requested_files"])
                       or self.hint_once(script))
                if dec is None and self.cfg in ("full", "no-tailored-rag", "no-exploration"):
                    self.check_cancel()
                    dec = self.timed("evaluate", evaluator.judge, sess.evaluator, self.client, req.prompt, script, rep,
                                     review, cancel=self.cancel, expected_files=self.expected_files())
                elif dec is None:
                    dec = evaluator.decision("accept", "", "", "execution")
            entry["decision"] = dec
            self.rec.append("rounds", entry)
            last_dec = dec
            self.progress("evaluate", f"round {rnd}: {dec['decision']}"
                          + (f" ({dec['target']})" if dec["decision"] == "revise" else ""), dec)
            if dec["decision"] == "accept":
                accepted = True
                break
            if rnd == max_rounds:
                break
            script = self.revise(sess, dec, script)

        if self.cfg == "no-exec-feedback" and accepted:
            rep = self.run_script(script)
            accepted = bool(rep.get("ok"))
        ok = accepted and (rep is None or bool(rep.get("ok")))
        msg = (f"accepted after {rounds} round(s)" if ok else
               f"not accepted after {rounds} round(s): {(last_dec or {}).get('instructions', '')[:200]}")
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
        if self.cfg == "icl-rag":
            examples = prompts.fewshot(f"programmer_{domain}")
            self.rec.append("queries", [{"db": None, "query": req.prompt}])
            self.progress("query", "1 query (the request)", {"queries": [{"db": None, "query": req.prompt}]})
            docs, err = self.timed("retrieve", retrieve.search, req.prompt, None, 5)
            self.rec.append("retrieved", describe_hits(docs))
            self.progress("retrieve", f"{len(docs)} documentation chunk(s)", {"entries": describe_hits(docs), "errors": [err] if err else []})
        agent = Agent("programmer", system, examples)
        # the open layout (and the selection) is part of an interactive request, for the baselines too
        context = planner.context_text(req.layout_context) if req.mode == "interactive" else ""
        user = prompts.render("programmer_user", task=req.prompt, outputs="", request="", kind="", avoid="", context=context,
                              docs=retrieve.format_docs(docs) if docs else "(none)")
        self.check_cancel()
        self.progress("generate", "writing the script", {"domain": domain})
        self.io.token("programmer", None)
        text = self.timed("generate", agent.ask_text, self.client, user, cancel=self.cancel,
                          on_token=self.token_cb("programmer"))
        script = extract_code(text)
        self.io.script(script, 1)
        rep = self.run_script(script)
        dec = evaluator.decision("accept" if rep.get("ok") else "revise", "", "", "execution")
        self.rec.append("rounds", {"round": 1, "script": script, "execution": evaluator.execution_summary(rep),
                                   "decision": dec})
        self.progress("evaluate", f"round 1: {dec['decision']}", dec)
        return self.finish(bool(rep.get("ok")), script, 1, rep, "ran ok" if rep.get("ok") else "the script failed")

    def finish(self, ok: bool, script: str, rounds: int, rep: dict | None, msg: str) -> Outcome:
        if not ok:
            self.discard_applied()
        usage = self.usage()
        self.rec.set("usage", usage)
        self.rec.set("calls", [c.__dict__ for c in self.client.usage.calls[self.usage_start:]])
        self.rec.finish("accepted" if ok else "rejected", final_script=script, ok=ok, rounds_used=rounds,
                        message=msg, execution=evaluator.execution_summary(rep))
        return Outcome(ok=ok, script=script, rounds=rounds, execution=rep, usage=usage,
                       record_path=str(self.rec.path), message=msg)


def _with_observations(hits: list[dict]) -> list[dict]:
    """Retrieved chunks with the observed behaviour of their API inserted (pic_copilot.explore)."""
    try:
        from ..explore.store import annotate_hits

        return annotate_hits(hits)
    except Exception:  # noqa: BLE001 - observations are optional evidence
        return hits


def _observed_ports() -> dict:
    try:
        from ..explore.store import port_table

        return port_table()
    except Exception:  # noqa: BLE001
        return {}


def run_request(request: Request, io: PipelineIO, settings: Settings | None = None,
                client: LLMClient | None = None) -> Outcome:
    """Run the pipeline on one request.

    Raises:
        LLMError subclasses (LLMCancelled when io.cancel was set); ValueError for a bad request.
        The run record is finished (status "error"/"cancelled") before anything propagates.
    """
    settings = settings or load_settings()
    own = client is None
    if client is None:
        client = make_client(settings)
    run = None
    try:
        check_databases(settings.generator_databases)   # a bad choice fails before any LLM call
        run = _Run(request, io, settings, client)
        return run.go()
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
