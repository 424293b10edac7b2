"""Benchmark metrics (stdlib only): pass@k, #Solved, failure categories, overhead, cost.

A trial record (one JSON file per trial, written by benchmark/bench.py) holds at least::

    {"task": id, "tier": ..., "config": ..., "trial": i, "passed": bool, "failure": category|None,
     "usage": {"calls", "prompt_tokens", "completion_tokens", "llm_time_s", "per_agent": {...},
               "models": {agent: model}}, "total_time_s": float, ...}
"""
from __future__ import annotations

import math
import re
from collections import defaultdict

# "harness": the benchmark driver killed a worker that stopped answering (not the model's failure)
FAILURE_CATEGORIES = ("syntax", "api-misuse", "runtime-error", "wrong-result", "timeout", "generation", "harness")

# $ per million tokens; the embedded local model costs nothing. Override with a TOML/JSON price table:
# {"model-name": {"input": 3.0, "output": 15.0}, "*": {...}} ("*" = any other model).
DEFAULT_PRICES = {"*": {"input": 0.0, "output": 0.0}}

API_MISUSE_TYPES = {"AttributeError", "ImportError", "ModuleNotFoundError"}
TIMEOUT_TYPES = {"TimeoutError", "TrialTimeout", "Timeout"}
_SIGNATURE_RE = re.compile(r"(unexpected keyword argument|positional argument|required (keyword|positional)"
                           r"|takes \d+|got multiple values|No overload|unknown keyword|not callable"
                           r"|object has no attribute|has no attribute)")


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """Unbiased pass@k = 1 - C(n-c, k) / C(n, k) (Chen et al. 2021); None when n < k."""
    if n < k or n <= 0:
        return None
    if c < 0 or c > n:
        raise ValueError(f"c={c} must lie in [0, n={n}]")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def solved(n: int, c: int) -> bool:
    """A task counts as solved when at least n/5 of its trials passed (and at least one did)."""
    return n > 0 and c >= 1 and c >= n / 5


def classify_failure(execution: dict | None, check_passed: bool | None, generation_error: str | None = None) -> str | None:
    """The failure category of one trial, or None when it passed.

    Args:
        execution: the candidate's execution report (ok, exception {type, message}, timed_out).
        check_passed: whether check.py passed (None when it was not run).
        generation_error: set when the pipeline produced no script.
    """
    if generation_error:
        return "generation"
    ex = execution or {}
    exc = ex.get("exception") or {}
    etype = exc.get("type") or ""
    if ex.get("timed_out") or etype in TIMEOUT_TYPES:
        return "timeout"
    if not ex.get("ok", False):
        if etype in ("SyntaxError", "IndentationError", "TabError"):
            return "syntax"
        if etype == "DRCError":   # a KLayout DRC deck failed in KLayout's engine (Ruby)
            msg = exc.get("message") or ""
            if "syntax error" in msg:
                return "syntax"
            if "undefined method" in msg or "undefined local variable" in msg or "wrong number of arguments" in msg:
                return "api-misuse"
            return "runtime-error" if "wrote no report" not in msg else "wrong-result"
        if etype in API_MISUSE_TYPES:
            return "api-misuse"
        if etype in ("TypeError", "RuntimeError", "NameError") and _SIGNATURE_RE.search(exc.get("message") or ""):
            return "api-misuse"  # wrong signature / missing attribute of a library object
        if etype in ("NoLayoutOutput",):
            return "wrong-result"
        return "runtime-error"
    if check_passed:
        return None
    return "wrong-result"


def load_prices(text: str | None, fmt: str = "toml") -> dict:
    """Parse a price table (TOML or JSON) into {model: {"input": $/Mtok, "output": $/Mtok}}."""
    if not text:
        return dict(DEFAULT_PRICES)
    if fmt == "json":
        import json
        data = json.loads(text)
    else:
        import tomllib
        data = tomllib.loads(text)
    prices = dict(DEFAULT_PRICES)
    for model, p in data.items():
        prices[model] = {"input": float(p.get("input", 0.0)), "output": float(p.get("output", 0.0))}
    return prices


def trial_cost(usage: dict, prices: dict) -> float:
    """Cost in $ of one trial's LLM calls, per agent when the agent's model is known."""
    per = (usage or {}).get("per_agent") or {}
    models = (usage or {}).get("models") or {}
    default_model = (usage or {}).get("model") or "*"

    def price(model):
        return prices.get(model) or prices.get("*") or {"input": 0.0, "output": 0.0}

    if per:
        total = 0.0
        for agent, a in per.items():
            p = price(models.get(agent, default_model))
            total += a.get("prompt_tokens", 0) * p["input"] / 1e6 + a.get("completion_tokens", 0) * p["output"] / 1e6
        return total
    p = price(default_model)
    return (usage or {}).get("prompt_tokens", 0) * p["input"] / 1e6 + (usage or {}).get("completion_tokens", 0) * p["output"] / 1e6


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def _max(xs):
    xs = [x for x in xs if x is not None]
    return max(xs) if xs else None


def task_stats(trials: list[dict], prices: dict | None = None) -> dict:
    """Per-task numbers from its trial records (all of one config)."""
    prices = prices or DEFAULT_PRICES
    n = len(trials)
    c = sum(1 for t in trials if t.get("passed"))
    usages = [t.get("usage") or {} for t in trials]
    failures: dict[str, int] = defaultdict(int)
    for t in trials:
        if not t.get("passed"):
            failures[t.get("failure") or "wrong-result"] += 1
    return {
        "n": n, "c": c,
        "pass@1": pass_at_k(n, c, 1), "pass@5": pass_at_k(n, c, 5),
        "solved": solved(n, c),
        "llm_calls_avg": _mean([u.get("calls", 0) for u in usages]),
        "llm_calls_max": _max([u.get("calls", 0) for u in usages]),
        "tokens_in_avg": _mean([u.get("prompt_tokens", 0) for u in usages]),
        "tokens_out_avg": _mean([u.get("completion_tokens", 0) for u in usages]),
        "cost_avg": _mean([trial_cost(u, prices) for u in usages]),
        "llm_time_avg_s": _mean([u.get("llm_time_s", 0.0) for u in usages]),
        "total_time_avg_s": _mean([t.get("total_time_s") for t in trials]),
        "total_time_max_s": _max([t.get("total_time_s") for t in trials]),
        "failures": dict(failures),
    }


def sign_test_p(b: int, c: int) -> float:
    """Two-sided exact sign test (McNemar's exact test) on b vs c discordant pairs: the chance of a
    split at least this uneven if neither side were better. 1.0 when there are no discordant pairs."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def paired(summary: dict, base: str = "full") -> dict:
    """Each other config against ``base`` on the tasks both ran: which side solved which task.

    Returns {config: {"tasks", "both", "neither", "only_base": [ids], "only_config": [ids], "p_value",
    "calls_delta_avg", "tokens_in_delta_avg", "tokens_out_delta_avg"}} (deltas: config minus base,
    averaged over the paired tasks); {} when ``base`` did not run.
    """
    cfgs = summary.get("configs", {})
    if base not in cfgs:
        return {}
    out = {}
    for cfg, data in cfgs.items():
        if cfg in (base, "oracle"):
            continue
        ids = [t for t, s in data["tasks"].items() if s["n"] and cfgs[base]["tasks"].get(t, {}).get("n")]
        if not ids:
            continue
        a = {t: cfgs[base]["tasks"][t] for t in ids}
        b = {t: data["tasks"][t] for t in ids}
        only_base = [t for t in ids if a[t]["solved"] and not b[t]["solved"]]
        only_cfg = [t for t in ids if b[t]["solved"] and not a[t]["solved"]]

        def delta(key):
            return _mean([(b[t][key] or 0) - (a[t][key] or 0) for t in ids])

        out[cfg] = {"tasks": len(ids), "both": sum(1 for t in ids if a[t]["solved"] and b[t]["solved"]),
                    "neither": sum(1 for t in ids if not a[t]["solved"] and not b[t]["solved"]),
                    "only_base": only_base, "only_config": only_cfg,
                    "p_value": sign_test_p(len(only_base), len(only_cfg)),
                    "calls_delta_avg": delta("llm_calls_avg"), "tokens_in_delta_avg": delta("tokens_in_avg"),
                    "tokens_out_delta_avg": delta("tokens_out_avg")}
    return out


def summarize(trials: list[dict], tasks: list[dict], prices: dict | None = None) -> dict:
    """Aggregate trial records into per-config, per-tier and per-task numbers.

    Args:
        trials: every trial record.
        tasks: task descriptions ({id, tier, ...}) that define the denominator (a task with no trial
            counts as unsolved with pass@k 0).
    Returns:
        {"configs": {config: {"tiers": {tier: {...}}, "total": {...}, "tasks": {id: task_stats}}}}
    """
    by_cfg: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for t in trials:
        by_cfg[t["config"]][t["task"]].append(t)
    tier_of = {t["id"]: t["tier"] for t in tasks}
    out: dict = {"configs": {}}
    for cfg, per_task in by_cfg.items():
        stats = {tid: task_stats(per_task.get(tid, []), prices) for tid in tier_of}
        groups: dict[str, list[str]] = defaultdict(list)
        for tid, tier in tier_of.items():
            groups[tier].append(tid)
        groups["total"] = list(tier_of)

        def agg(ids):
            s = [stats[i] for i in ids]
            fails: dict[str, int] = defaultdict(int)
            for x in s:
                for k, v in x["failures"].items():
                    fails[k] += v
            return {
                "tasks": len(ids),
                "trials": sum(x["n"] for x in s),
                "passed": sum(x["c"] for x in s),
                "pass@1": _mean([x["pass@1"] if x["n"] else 0.0 for x in s]),
                "pass@5": _mean([x["pass@5"] for x in s]) if all(x["pass@5"] is not None for x in s) else None,
                "solved": sum(1 for x in s if x["solved"]),
                "failures": dict(fails),
                # overhead per task of the group, averaged over the tasks that ran
                "llm_calls_avg": _mean([x["llm_calls_avg"] for x in s]),
                "llm_calls_max": _max([x["llm_calls_max"] for x in s]),
                "tokens_in_avg": _mean([x["tokens_in_avg"] for x in s]),
                "tokens_out_avg": _mean([x["tokens_out_avg"] for x in s]),
                "cost_avg": _mean([x["cost_avg"] for x in s]),
                "llm_time_avg_s": _mean([x["llm_time_avg_s"] for x in s]),
                "total_time_avg_s": _mean([x["total_time_avg_s"] for x in s]),
                "total_time_max_s": _max([x["total_time_max_s"] for x in s]),
                # the time this config's trials took, summed: its wall time had it run alone
                "run_time_s": sum(x["total_time_avg_s"] * x["n"] for x in s if x["total_time_avg_s"] is not None),
            }
        out["configs"][cfg] = {"tiers": {k: agg(v) for k, v in groups.items() if k != "total"},
                               "total": agg(groups["total"]), "tasks": stats}
    out["paired_with_full"] = paired(out, "full")
    return out
