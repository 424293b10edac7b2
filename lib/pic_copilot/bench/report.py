"""Benchmark report: results.json, report.md (stdlib) and pass_rate.png (matplotlib, engine side).

``python -m pic_copilot.bench.report OUT_DIR`` rebuilds all three from the trial files in OUT_DIR.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from . import metrics
from .tasks import TIERS


def load_trials(out_dir: str | Path) -> list[dict]:
    """Every trial record under OUT_DIR/trials/<config>/<task>/trial_<i>.json."""
    recs = []
    for p in sorted(Path(out_dir, "trials").glob("*/*/trial_*.json")):
        try:
            recs.append(json.loads(p.read_text()))
        except (OSError, ValueError):
            continue  # a half-written file from an interrupted run: the trial is re-run on resume
    return recs


def _pct(x) -> str:
    return "—" if x is None else f"{100 * x:.1f}"


def _num(x, fmt="{:.1f}") -> str:
    return "—" if x is None else fmt.format(x)


def _ids(ids: list[str]) -> str:
    """'2 (b01, b05)', or '0'."""
    return f"{len(ids)} ({', '.join(ids)})" if ids else "0"


def markdown(summary: dict, tasks: list[dict], meta: dict) -> str:
    """The Markdown report: tiers × configs table, failure categories, overhead per task."""
    cfgs = list(summary["configs"])
    lines = ["# pic-copilot benchmark", ""]
    counts = ", ".join(f"{sum(1 for t in tasks if t['tier'] == tr)} {tr}" for tr in TIERS)
    lines.append(f"- tasks: {len(tasks)} ({counts})")
    for k in ("tasks_dir", "n", "temperature", "seed", "model", "started", "finished", "wall_time_s"):
        if meta.get(k) is not None:
            lines.append(f"- {k}: {meta[k]}")
    lines += ["", "## Pass rate (Pass@1 % / Pass@5 % / #Solved)", ""]
    head = "| tier | " + " | ".join(cfgs) + " |"
    lines += [head, "|" + "---|" * (len(cfgs) + 1)]
    for tier in list(TIERS) + ["total"]:
        row = [tier]
        for c in cfgs:
            g = summary["configs"][c]["total"] if tier == "total" else summary["configs"][c]["tiers"].get(tier)
            if not g or not g["tasks"]:
                row.append("—")
                continue
            row.append(f"{_pct(g['pass@1'])} / {_pct(g['pass@5'])} / {g['solved']}/{g['tasks']}")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "## Failure categories (failed trials)", ""]
    cats = metrics.FAILURE_CATEGORIES
    lines += ["| config | " + " | ".join(cats) + " |", "|" + "---|" * (len(cats) + 1)]
    for c in cfgs:
        f = summary["configs"][c]["total"]["failures"]
        lines.append(f"| {c} | " + " | ".join(str(f.get(k, 0)) for k in cats) + " |")
    pairs = summary.get("paired_with_full") or {}
    if pairs:
        lines += ["", "## Paired with full (tasks both ran; solved = at least n/5 trials passed)", "",
                  "| config | tasks | both solved | only full | only config | neither | sign-test p | "
                  "Δ LLM calls/task | Δ tokens in/out per task |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for c, p in pairs.items():
            lines.append(
                f"| {c} | {p['tasks']} | {p['both']} | {_ids(p['only_base'])} | {_ids(p['only_config'])} | "
                f"{p['neither']} | {p['p_value']:.2f} | "
                f"{_num(p['calls_delta_avg'], '{:+.1f}')} | {_num(p['tokens_in_delta_avg'], '{:+.0f}')}/"
                f"{_num(p['tokens_out_delta_avg'], '{:+.0f}')} |")
        lines += ["", "Δ = config minus full, averaged over the paired tasks. The sign test asks how likely a "
                  "split of the discordant tasks at least this uneven would be if neither config were better."]
    lines += ["", "## Overhead per config and tier (averages per task)", "",
              "| config | tier | LLM calls avg/max | tokens in/out avg | cost avg $ | LLM time avg s | total time avg/max s | run time min |",
              "|---|---|---|---|---|---|---|---|"]
    for c in cfgs:
        for tier in list(TIERS) + ["total"]:
            g = summary["configs"][c]["total"] if tier == "total" else summary["configs"][c]["tiers"].get(tier)
            if not g or not g["trials"]:
                continue
            lines.append(
                f"| {c} | {tier} | {_num(g['llm_calls_avg'])}/{_num(g['llm_calls_max'], '{:.0f}')} | "
                f"{_num(g['tokens_in_avg'], '{:.0f}')}/{_num(g['tokens_out_avg'], '{:.0f}')} | {_num(g['cost_avg'], '{:.4f}')} | "
                f"{_num(g['llm_time_avg_s'])} | {_num(g['total_time_avg_s'])}/{_num(g['total_time_max_s'])} | "
                f"{_num(g['run_time_s'] / 60)} |")
    lines += ["", "## Where the time went (averages per task, seconds)", "",
              "Request = the pipeline's wall time (what a designer waits for); its stages as the run record "
              "times them; the LLM's time split into prompt reading, answer generation and waiting behind "
              "another client (as the server reports it; — when it does not); scoring = the harness's setup, "
              "run and check of the final script.", "",
              "| config | tier | request p50 / avg | " + " | ".join(metrics.STAGES) + " | other | "
              "LLM prompt / answer / queue | prompt tokens evaluated / cached | scoring |",
              "|" + "---|" * (len(metrics.STAGES) + 7)]
    for c in cfgs:
        for tier in list(TIERS) + ["total"]:
            g = summary["configs"][c]["total"] if tier == "total" else summary["configs"][c]["tiers"].get(tier)
            if not g or not g["trials"]:
                continue
            t = g.get("time_split_avg_s") or {}
            lines.append(
                f"| {c} | {tier} | {_num(g.get('request_time_p50_s'))} / {_num(g.get('request_time_avg_s'))} | "
                + " | ".join(_num(t.get(st)) for st in metrics.STAGES) + f" | {_num(t.get('other_s'))} | "
                + " / ".join(_num(t.get(k)) for k in metrics.LLM_SPLIT) + " | "
                + f"{_num(t.get('prompt_eval_tokens'), '{:.0f}')} / {_num(t.get('cached_tokens'), '{:.0f}')} | "
                + f"{_num(t.get('scoring_s'))} |")
    lines += ["", "## Overhead per task", "",
              "| config | task | tier | pass | LLM calls avg/max | tokens in/out avg | cost avg $ | LLM time avg s | total time avg/max s | failures |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    tier_of = {t["id"]: t["tier"] for t in tasks}
    for c in cfgs:
        for tid, s in summary["configs"][c]["tasks"].items():
            fails = ", ".join(f"{k}:{v}" for k, v in sorted(s["failures"].items())) or "—"
            lines.append(
                f"| {c} | {tid} | {tier_of.get(tid, '?')} | {s['c']}/{s['n']} | {_num(s['llm_calls_avg'])}/{_num(s['llm_calls_max'], '{:.0f}')} | "
                f"{_num(s['tokens_in_avg'], '{:.0f}')}/{_num(s['tokens_out_avg'], '{:.0f}')} | {_num(s['cost_avg'], '{:.4f}')} | "
                f"{_num(s['llm_time_avg_s'])} | {_num(s['total_time_avg_s'])}/{_num(s['total_time_max_s'])} | {fails} |")
    lines.append("")
    return "\n".join(lines)


def plot(summary: dict, png: str | Path) -> str | None:
    """Bar chart of Pass@1 per tier (groups) and config (bars). Needs matplotlib (engine venv)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cfgs = list(summary["configs"])
    groups = [t for t in TIERS] + ["total"]
    fig, ax = plt.subplots(figsize=(2 + 1.6 * len(groups), 4))
    width = 0.8 / max(1, len(cfgs))
    for i, c in enumerate(cfgs):
        vals = []
        for g in groups:
            d = summary["configs"][c]["total"] if g == "total" else summary["configs"][c]["tiers"].get(g)
            vals.append(100 * (d["pass@1"] or 0.0) if d and d["tasks"] else 0.0)
        xs = [j + (i - (len(cfgs) - 1) / 2) * width for j in range(len(groups))]
        bars = ax.bar(xs, vals, width=width, label=c)
        for b, v in zip(bars, vals):
            ax.text(b.get_x() + b.get_width() / 2, v + 1, f"{v:.0f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups)
    ax.set_ylabel("Pass@1 (%)")
    ax.set_ylim(0, 110)
    ax.set_title("pic-copilot benchmark: pass rate per tier and config")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return str(png)


def write(out_dir: str | Path, tasks: list[dict], meta: dict, prices: dict | None = None) -> dict:
    """Summarise the trial files in OUT_DIR and write results.json and report.md. Returns the summary."""
    out = Path(out_dir)
    trials = load_trials(out)
    cfgs = meta.get("configs")
    if cfgs:
        trials = [t for t in trials if t["config"] in cfgs]
    ids = {t["id"] for t in tasks}
    trials = [t for t in trials if t["task"] in ids and t.get("trial", 0) < meta.get("n", 10 ** 9)]
    summary = metrics.summarize(trials, tasks, prices)
    data = {"meta": meta, "tasks": tasks, "summary": summary}
    (out / "results.json").write_text(json.dumps(data, indent=1))
    (out / "report.md").write_text(markdown(summary, tasks, meta))
    return summary


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python -m pic_copilot.bench.report OUT_DIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    data = json.loads((out / "results.json").read_text())
    summary = write(out, data["tasks"], data["meta"])
    plot(summary, out / "pass_rate.png")
    print(out / "report.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
