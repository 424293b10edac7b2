"""LLM-guided exploration: hypotheses -> minimal test scripts -> sandbox runs -> revised beliefs.

For the entries whose documentation has the biggest gaps (undocumented parameters, no docstring, a
default call that fails, many rejected variants), the explorer asks the LLM for a belief, the next
hypothesis and a minimal script that tests it; runs the script in the sandbox; shows the result in the
next call; and stops when the LLM says it is confident, after ``max_steps`` experiments per entry, or when
the call / time budget is spent. The LLM is called directly (one call per step, no repair call), so the
number of calls never exceeds ``budget_calls``. Findings are saved per entry into
``databases/<db>/observations.json`` (``entries[id].llm``), so an interrupted run keeps what it learnt.
"""
from __future__ import annotations

import json
import re
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from ..llm import LLMCancelled
from ..retrieval import observations as store

SCHEMA = {
    "type": "object",
    "required": ["belief", "hypothesis", "script", "stop"],
    "properties": {"belief": {"type": "string"}, "hypothesis": {"type": "string"}, "script": {"type": "string"},
                   "stop": {"type": "boolean"}},
}
PREAMBLE = ("import gdsfactory as gf\ntry:\n    gf.get_active_pdk()\nexcept Exception:\n    gf.gpdk.PDK.activate()\n")
DOC_CHARS = 700
OUT_CHARS = 600


def _entry_doc(root: Path, db: str, ids: set[str] | None = None) -> dict[str, dict]:
    out = {}
    try:
        with open(root / db / "entries.jsonl", encoding="utf-8") as f:
            for line in f:
                e = json.loads(line)
                if "#" in e["id"] or (ids is not None and e["id"] not in ids):
                    continue
                out[e["id"]] = e
    except OSError:
        pass
    return out


def gap_score(doc_entry: dict | None, obs: dict | None) -> tuple[float, list[str]]:
    """How much the documentation leaves open (higher = explore first), and why."""
    score, why = 0.0, []
    md = (doc_entry or {}).get("metadata") or {}
    params = md.get("parameters") or []
    if params:
        undoc = [p["name"] for p in params if not (p.get("description") or "").strip()]
        if undoc:
            score += 2.0 * len(undoc) / len(params)
            why.append(f"{len(undoc)}/{len(params)} parameters undocumented ({', '.join(undoc[:6])})")
    if not (md.get("doc") or "").strip():
        score += 1.0
        why.append("no docstring")
    if obs:
        d = obs.get("default") or {}
        if d and not d.get("ok"):
            score += 1.0
            why.append(f"the default call fails ({str(d.get('error', 'timeout'))[:80]})")
        nrej = len(obs.get("rejected") or [])
        if nrej:
            score += min(nrej / 10.0, 1.0)
            why.append(f"{nrej} rejected variants")
    return score, why


def _usage(root: Path, db: str) -> dict[str, int]:
    """How often each API name appears in the shipped samples (the database's "sample" entries)."""
    counts: dict[str, int] = {}
    try:
        with open(root / db / "entries.jsonl", encoding="utf-8") as f:
            for line in f:
                e = json.loads(line)
                if e.get("kind") != "sample":
                    continue
                for name in set(re.findall(r"\b([a-z_][a-z0-9_]+)\(", e.get("content", ""))):
                    counts[name] = counts.get(name, 0) + 1
    except OSError:
        pass
    return counts


def candidates(root: Path, db: str = "gdsfactory", only: list[str] | None = None, version: str | None = None) -> list[dict]:
    """Entries with observations, ordered by documentation gap weighted by use in the shipped samples
    (a gap in a much-used API matters more); ones already explored by the LLM for this version are left out."""
    data = store.load(db, root) or {}
    entries = data.get("entries") or {}
    docs = _entry_doc(root, db, set(entries) if entries else None)
    usage = _usage(root, db)
    out = []
    for eid, e in entries.items():
        if e.get("kind") not in ("component", "route", "cross_section"):
            continue
        if only and not any(p in eid for p in only):
            continue
        if any(f.get("version") == (version or data.get("tool_version")) for f in e.get("llm") or []):
            continue
        s, why = gap_score(docs.get(eid), e)
        used = usage.get(eid.rsplit(".", 1)[-1], 0)
        if used:
            why.append(f"used in {used} sample(s)")
        s *= 1.0 + min(used, 10) / 5.0
        out.append({"id": eid, "score": round(s, 3), "why": why})
    out.sort(key=lambda c: (-c["score"], c["id"]))
    return out


def _user_prompt(eid: str, doc_entry: dict | None, observed: str, history: list[dict], why: list[str]) -> str:
    md = (doc_entry or {}).get("metadata") or {}
    sig = md.get("signature") or eid
    doc = re.sub(r"\s+", " ", md.get("doc") or "").strip()[:DOC_CHARS]
    lines = [f"API: {sig}", f"Documentation: {doc or '(none)'}"]
    if why:
        lines.append("Open questions because: " + "; ".join(why))
    if observed:
        lines.append(observed)
    if history:
        lines.append("Your experiments so far:")
        for i, h in enumerate(history, 1):
            r = h.get("result") or {}
            res = ("ok, printed: " + (r.get("stdout") or "(nothing)")) if r.get("ok") else f"failed: {r.get('error')}"
            lines.append(f"{i}. hypothesis: {h.get('hypothesis')}\n   script:\n{h.get('script')}\n   result: {res}")
    lines.append("Answer with the JSON object.")
    return "\n".join(lines)


def _run(sandbox, script: str, timeout_s: float) -> dict:
    code = PREAMBLE + script
    try:
        r = sandbox.run(code, timeout_s=timeout_s, summarize=False, memory_mb=3072)
    except Exception as e:  # noqa: BLE001
        return {"ok": False, "error": f"sandbox: {type(e).__name__}: {e}"[:300]}
    out = (r.stdout or "").strip()
    res = {"ok": bool(r.ok), "stdout": out[-OUT_CHARS:]}
    if not r.ok:
        if r.timed_out:
            res["error"] = f"timed out after {timeout_s:.0f} s"
        else:
            exc = r.exception or {}
            res["error"] = f"{exc.get('type', 'Error')}: {exc.get('message', '')}"[:300]
    return res


def explore_llm(client=None, *, root: str | Path | None = None, db: str = "gdsfactory", budget_calls: int = 20,
                budget_s: float = 600.0, max_steps: int = 3, only: list[str] | None = None, sandbox=None,
                script_timeout_s: float = 30.0, quiet: bool = False, model_label: str | None = None) -> dict:
    """Run the hypothesis -> experiment -> belief loop over the entries with the biggest gaps.

    Returns {entries, calls, experiments, seconds, stopped, explored: [...ids]}."""
    t0 = time.monotonic()
    root = store.databases_root(root)
    data = store.load(db, root)
    if not data:
        raise RuntimeError(f"no observations for {db} yet; run the systematic exploration first: pic-copilot explore {db}")
    version = data.get("tool_version")
    own = client is None
    if client is None:
        from ..llm import make_client

        client = make_client()
    if sandbox is None:
        from ..sandbox import default_sandbox

        sandbox = default_sandbox()
    model = model_label or getattr(getattr(client, "settings", None), "model", "") or ""
    from .. import prompts

    system = prompts.render("explorer", version=version)
    cands = candidates(root, db, only, version)
    docs = _entry_doc(root, db, {c["id"] for c in cands})
    calls = experiments = 0
    stopped = "no candidates" if not cands else "done"
    explored = []

    def out_of_budget() -> str | None:
        if calls >= budget_calls:
            return "call budget"
        if time.monotonic() - t0 >= budget_s:
            return "time budget"
        return None

    try:
        for cand in cands:
            reason = out_of_budget()
            if reason:
                stopped = reason
                break
            eid = cand["id"]
            observed = store.short_text(eid, root, 600) or ""
            history: list[dict] = []
            final_belief, entry_stop, invalid = "", "max steps", 0
            for _step in range(max_steps + 1):
                reason = out_of_budget()
                if reason:
                    entry_stop = reason
                    break
                msgs = [{"role": "system", "content": system},
                        {"role": "user", "content": _user_prompt(eid, docs.get(eid), observed, history, cand["why"])}]
                calls += 1
                # the time budget also bounds a call in progress: a timer cancels it
                cancel = threading.Event()
                timer = threading.Timer(max(0.05, budget_s - (time.monotonic() - t0)), cancel.set)
                timer.daemon = True
                timer.start()
                try:
                    res = client.chat(msgs, agent="explorer", json_schema=SCHEMA, max_tokens=500, cancel=cancel)
                    from ..llm.agent import parse_json

                    ans = parse_json(res.text, SCHEMA)
                except ValueError as e:
                    invalid += 1
                    history.append({"hypothesis": "(invalid answer)", "script": "", "result": {"ok": False, "error": f"invalid JSON: {e}"}})
                    continue
                except LLMCancelled:
                    entry_stop = "time budget"
                    break
                finally:
                    timer.cancel()
                if history:
                    history[-1]["belief"] = ans["belief"].strip()[:400]
                final_belief = ans["belief"].strip()[:400]
                if ans.get("stop") or not ans.get("script", "").strip() or len(history) >= max_steps:
                    entry_stop = "confident" if ans.get("stop") else ("max steps" if len(history) >= max_steps else "no script")
                    break
                script = ans["script"].strip()
                if script.startswith("```"):
                    from ..llm.agent import extract_code

                    script = extract_code(script).strip()
                result = _run(sandbox, script, script_timeout_s)
                experiments += 1
                history.append({"hypothesis": ans["hypothesis"].strip()[:300], "script": script[:1200], "result": result})
                if not quiet:
                    sys.stderr.write(f"\rexplore --llm: {eid.rsplit('.', 1)[-1]:<30} calls {calls}/{budget_calls} "
                                     f"experiments {experiments} {time.monotonic() - t0:5.0f}s/{budget_s:.0f}s")
                    sys.stderr.flush()
            findings = [{**h, "version": version} for h in history if h.get("script")]
            findings.append({"version": version, "belief": final_belief, "final": True, "stopped": entry_stop,
                             "invalid_answers": invalid, "model": model,
                             "date": datetime.now(timezone.utc).isoformat(timespec="seconds")})
            _save(root, db, eid, findings)
            explored.append(eid)
            if entry_stop in ("call budget", "time budget"):
                stopped = entry_stop
                break
    finally:
        if own:
            client.close()
        if not quiet:
            sys.stderr.write("\n")
    return {"entries": len(explored), "explored": explored, "calls": calls, "experiments": experiments,
            "seconds": round(time.monotonic() - t0, 1), "stopped": stopped, "candidates": len(cands)}


def _save(root: Path, db: str, eid: str, findings: list[dict]) -> None:
    data = store.load(db, root)
    if not data:
        return
    data = json.loads(json.dumps(data))  # do not mutate the cached copy
    e = data.setdefault("entries", {}).setdefault(eid, {"kind": "other", "probes": 0, "ok": 0, "accepted": [], "rejected": []})
    e["llm"] = findings
    st = data.setdefault("stats", {})
    st["llm_explored"] = sum(1 for x in data["entries"].values() if x.get("llm"))
    store.save(db, data, root)
