"""The benchmark: pass@k maths, task loading/validation, report, CLI, and the suite self-test."""
from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pic_copilot.bench import metrics, report
from pic_copilot.bench.tasks import DOMAINS, TaskError, apply_replacements, load_task, load_tasks

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "benchmark" / "tasks"
KLAYOUT = shutil.which("klayout")


# ------------------------------------------------------------------------------------ metrics
def _brute_pass_at_k(n, c, k):
    """Probability that a random k-subset of n trials (c passing) holds at least one pass."""
    trials = [1] * c + [0] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    return sum(1 for s in subsets if any(trials[i] for i in s)) / len(subsets)


@pytest.mark.parametrize("n,c,k", [(5, 0, 1), (5, 1, 1), (5, 3, 1), (5, 5, 1), (5, 1, 5), (5, 0, 5),
                                   (10, 3, 5), (10, 1, 5), (8, 2, 3), (7, 6, 4)])
def test_pass_at_k_matches_brute_force(n, c, k):
    assert metrics.pass_at_k(n, c, k) == pytest.approx(_brute_pass_at_k(n, c, k))


def test_pass_at_k_known_values():
    assert metrics.pass_at_k(5, 1, 1) == pytest.approx(0.2)
    assert metrics.pass_at_k(5, 1, 5) == 1.0
    assert metrics.pass_at_k(10, 3, 5) == pytest.approx(1 - math.comb(7, 5) / math.comb(10, 5))
    assert metrics.pass_at_k(1, 1, 5) is None  # n < k: not defined
    with pytest.raises(ValueError):
        metrics.pass_at_k(5, 6, 1)


def test_solved_needs_a_fifth_of_trials():
    assert metrics.solved(5, 1) and not metrics.solved(5, 0)
    assert not metrics.solved(10, 1) and metrics.solved(10, 2)
    assert metrics.solved(1, 1) and not metrics.solved(0, 0)


@pytest.mark.parametrize("execution,check,gen,expected", [
    ({"ok": False, "exception": {"type": "SyntaxError", "message": "invalid"}}, None, None, "syntax"),
    ({"ok": False, "exception": {"type": "AttributeError", "message": "module has no attribute write_gds"}}, None, None, "api-misuse"),
    ({"ok": False, "exception": {"type": "TypeError", "message": "f() got an unexpected keyword argument 'x'"}}, None, None, "api-misuse"),
    ({"ok": False, "exception": {"type": "ZeroDivisionError", "message": "division by zero"}}, None, None, "runtime-error"),
    ({"ok": False, "timed_out": True, "exception": {"type": "Killed", "message": ""}}, None, None, "timeout"),
    ({"ok": False, "exception": {"type": "TrialTimeout", "message": ""}}, None, None, "timeout"),
    ({"ok": True, "exception": None}, False, None, "wrong-result"),
    ({"ok": True, "exception": None}, True, None, None),
    (None, None, "llm-timeout: no answer", "generation"),
])
def test_failure_categories(execution, check, gen, expected):
    assert metrics.classify_failure(execution, check, gen) == expected


def test_sign_test_matches_the_binomial_tail():
    assert metrics.sign_test_p(0, 0) == 1.0 and metrics.sign_test_p(1, 1) == 1.0
    assert metrics.sign_test_p(3, 0) == pytest.approx(0.25)      # 2 * (1/2)^3
    assert metrics.sign_test_p(1, 7) == pytest.approx(2 * 9 / 256)  # 2 * (C(8,0) + C(8,1)) / 2^8
    assert metrics.sign_test_p(10, 0) < 0.01


def test_costs_from_price_table():
    prices = metrics.load_prices('[big]\ninput = 3.0\noutput = 15.0\n["*"]\ninput = 1.0\noutput = 1.0\n')
    usage = {"model": "small", "models": {"planner": "big", "programmer": "small"},
             "per_agent": {"planner": {"prompt_tokens": 1_000_000, "completion_tokens": 100_000},
                           "programmer": {"prompt_tokens": 500_000, "completion_tokens": 0}}}
    assert metrics.trial_cost(usage, prices) == pytest.approx(3.0 + 1.5 + 0.5)
    assert metrics.trial_cost({}, metrics.DEFAULT_PRICES) == 0.0


def _trial(task, tier, cfg, i, passed, failure=None, calls=2):
    return {"task": task, "tier": tier, "config": cfg, "trial": i, "passed": passed, "failure": failure,
            "usage": {"calls": calls, "prompt_tokens": 100, "completion_tokens": 50, "llm_time_s": 1.5},
            "total_time_s": 3.0 + i}


def test_summary_report_and_plot(tmp_path):
    tasks = [{"id": "t1", "tier": "basic"}, {"id": "t2", "tier": "basic"}, {"id": "t3", "tier": "advanced"}]
    trials = [_trial("t1", "basic", "full", i, i == 0, None if i == 0 else "syntax") for i in range(5)]
    trials += [_trial("t2", "basic", "full", i, False, "wrong-result", calls=4) for i in range(5)]
    trials += [_trial("t3", "advanced", "full", i, True) for i in range(5)]
    trials += [_trial(t["id"], t["tier"], "zero-shot", i, False, "api-misuse", calls=1) for t in tasks for i in range(5)]
    for t in trials:
        p = tmp_path / "trials" / t["config"] / t["task"] / f"trial_{t['trial']}.json"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(t))
    (tmp_path / "trials" / "full" / "t1" / "trial_9.json").write_text("{half written")  # ignored
    summary = report.write(tmp_path, tasks, {"configs": ["full", "zero-shot"], "n": 5})
    full = summary["configs"]["full"]
    assert full["tasks"]["t1"]["pass@1"] == pytest.approx(0.2) and full["tasks"]["t1"]["pass@5"] == 1.0
    assert full["tiers"]["basic"]["pass@1"] == pytest.approx(0.1)
    assert full["tiers"]["basic"]["solved"] == 1 and full["total"]["solved"] == 2
    assert full["total"]["failures"] == {"syntax": 4, "wrong-result": 5}
    assert full["tasks"]["t2"]["llm_calls_max"] == 4 and full["tasks"]["t1"]["total_time_max_s"] == 7.0
    basic = full["tiers"]["basic"]
    assert basic["llm_calls_avg"] == 3.0 and basic["llm_calls_max"] == 4 and basic["run_time_s"] == 50.0
    md = (tmp_path / "report.md").read_text()
    assert "| basic | 10.0 / 50.0 / 1/2 | 0.0 / 0.0 / 0/2 |" in md
    assert "| zero-shot | 0 | 15 | 0 | 0 | 0 | 0 |" in md
    assert "| full | basic | 3.0/4 | 100/50 | 0.0000 | 1.5 | 5.0/7.0 | 0.8 |" in md
    assert json.loads((tmp_path / "results.json").read_text())["summary"]["configs"]["zero-shot"]["total"]["solved"] == 0
    pair = summary["paired_with_full"]["zero-shot"]
    assert (pair["tasks"], pair["both"], pair["neither"]) == (3, 0, 1)
    assert pair["only_base"] == ["t1", "t3"] and pair["only_config"] == [] and pair["p_value"] == 0.5
    assert "| zero-shot | 3 | 0 | 2 (t1, t3) | 0 | 1 | 0.50 | -1.7 | +0/+0 |" in md
    png = report.plot(summary, tmp_path / "pass_rate.png")
    assert Path(png).stat().st_size > 5000


# -------------------------------------------------------------------------------- task format
def _task(folder: Path, **over):
    folder.mkdir(parents=True)
    meta = {"id": f'"{folder.name}"', "tier": '"basic"', "domains": '["layout"]', "mode": '"sandbox"',
            "prompt": '"""make a thing"""', "timeout_s": "30"}
    meta.update(over)
    folder.joinpath("task.toml").write_text("".join(f"{k} = {v}\n" for k, v in meta.items() if v is not None))
    folder.joinpath("solution.py").write_text("print(1)\n")
    folder.joinpath("check.py").write_text("assert True\n")
    folder.joinpath("wrong.toml").write_text('[[variant]]\nname = "wrong_x"\nwhy = "prints 2"\n'
                                             'replace = [["print(1)", "print(2)"]]\n')
    return folder


def test_load_task_ok(tmp_path):
    t = load_task(_task(tmp_path / "t1"))
    assert t.id == "t1" and t.tier == "basic" and t.domains == ("layout",) and t.setup == ""
    assert t.wrong == {"wrong_x": "print(2)\n"} and t.wrong_why == {"wrong_x": "prints 2"}
    assert t.public()["prompt"] == "make a thing" and len(t.digest()) == 16


@pytest.mark.parametrize("over,message", [
    ({"tier": '"expert"'}, "bad tier 'expert'"),
    ({"mode": '"gui"'}, "bad mode 'gui'"),
    ({"domains": '["layout", "optics"]'}, "bad domains"),
    ({"id": '"other"'}, "must equal the folder name"),
    ({"prompt": None}, "lacks prompt"),
    ({"timeout_s": "-1"}, "timeout_s must be a positive number"),
    ({"color": '"red"'}, "unknown keys in task.toml: color"),
])
def test_load_task_errors(tmp_path, over, message):
    folder = _task(tmp_path / "t1", **over)
    with pytest.raises(TaskError, match=message) as e:
        load_task(folder)
    assert str(folder) in str(e.value)


def test_missing_files_are_named(tmp_path):
    folder = _task(tmp_path / "t1")
    (folder / "check.py").unlink()
    with pytest.raises(TaskError, match=r"t1: missing file check.py"):
        load_task(folder)
    (folder / "task.toml").write_text("id = \n")
    with pytest.raises(TaskError, match="not valid TOML"):
        load_task(folder)
    (folder / "task.toml").unlink()
    with pytest.raises(TaskError, match="missing file task.toml"):
        load_task(folder)


SOLUTION = 'import gdsfactory as gf\n\nc = gf.components.ring_single(radius=10, gap=0.2)\nc.write_gds("ring.gds")\n'


def test_apply_replacements_edits_the_original_text():
    assert apply_replacements(SOLUTION, [["gap=0.2", "gap=0.3"]]) == SOLUTION.replace("gap=0.2", "gap=0.3")
    # the pairs are edits of the original, in any order; multi-line old strings and deletions work
    two = apply_replacements(SOLUTION, [['c.write_gds("ring.gds")\n', ""], ["radius=10", "radius=5"]])
    assert two == 'import gdsfactory as gf\n\nc = gf.components.ring_single(radius=5, gap=0.2)\n'
    # a new string that creates another occurrence of a later old string does not matter
    assert apply_replacements("a=1\nb=2\n", [["a=1", "b=2"], ["b=2", "b=3"]]) == "b=2\nb=3\n"


@pytest.mark.parametrize("replace,message", [
    ([["gap=0.5", "gap=0.3"]], r"entry 1: old string 'gap=0.5' does not occur in solution.py"),
    ([["gap=0.2", "x"], ["c", "d"]], r"entry 2: old string 'c' is ambiguous, it occurs \d+ times in solution.py \(lines 1, "),
    ([["ring_single(radius=10", "x"], ["radius=10, gap", "y"]], "replace entries 1 and 2 overlap"),
    ([["", "x"]], "entry 1 has an empty old string"),
    ([["gap=0.2"]], "entry 1 must be a pair of strings"),
    ([], "non-empty list"),
    ("gap=0.2", "non-empty list"),
])
def test_apply_replacements_validation(replace, message):
    with pytest.raises(TaskError, match=message) as e:
        apply_replacements(SOLUTION, replace, "task t1: wrong.toml: variant 'wrong_x'")
    assert str(e.value).startswith("task t1: wrong.toml: variant 'wrong_x': ")


@pytest.mark.parametrize("toml,message", [
    ('[[variant]]\nname = "wrong_g"\nwhy = "w"\nreplace = [["gap=0.7", "gap=0.3"]]\n',
     r"variant 'wrong_g': replace entry 1: old string 'gap=0.7' does not occur"),
    ('[[variant]]\nname = "wrong_g"\nwhy = "w"\nreplace = [["ring", "-"]]\n', r"'ring' is ambiguous, it occurs 2 times in solution.py \(lines 3, 4\)"),
    ('[[variant]]\nname = "wrong_g"\nwhy = "w"\nreplace = [["gap=0.2", "gap=0.2"]]\n', "identical to solution.py"),
    ('[[variant]]\nname = "wrong_g"\nwhy = "w"\nscript = "x"\nreplace = [["gap", "g"]]\n', "exactly one of replace"),
    ('[[variant]]\nname = "wrong_g"\nwhy = "w"\n', "exactly one of replace"),
    ('[[variant]]\nname = "wrong_g"\nreplace = [["gap", "g"]]\n', "why .* is missing"),
    ('[[variant]]\nname = "bad name"\nwhy = "w"\nscript = "x"\n', "needs a name like"),
    ('[[variant]]\nname = "wrong_g"\nwhy = "w"\nscript = "x"\n' * 2, "variant 'wrong_g' is defined twice"),
    ('[[variant]]\nname = "wrong_g"\nwhy = "w"\nscript = "x"\ncolour = 1\n', "unknown keys colour"),
    ('[[variants]]\nname = "wrong_g"\n', "unknown keys variants"),
    ('name = \n', "not valid TOML"),
    ('variant = [1]\n', "variant 1 must be a \\[\\[variant\\]\\] table"),
    ('variant = []\n', "no \\[\\[variant\\]\\] tables"),
])
def test_wrong_toml_errors_name_the_folder_and_variant(tmp_path, toml, message):
    folder = _task(tmp_path / "t1")
    (folder / "solution.py").write_text(SOLUTION)
    (folder / "wrong.toml").write_text(toml)
    with pytest.raises(TaskError, match=message) as e:
        load_task(folder)
    assert str(e.value).startswith(f"task {folder}: wrong.toml")


def test_wrong_toml_is_optional_and_script_variants_load(tmp_path):
    folder = _task(tmp_path / "t1")
    (folder / "wrong.toml").unlink()
    (folder / "wrong_old.py").write_text("pass\n")  # the old format is not read any more
    assert load_task(folder).wrong == {}
    (folder / "wrong.toml").write_text('[[variant]]\nname = "wrong_s"\nwhy = "prints nothing"\nscript = """\npass\n"""\n')
    t = load_task(folder)
    assert t.wrong == {"wrong_s": "pass\n"} and t.wrong_why == {"wrong_s": "prints nothing"}


def test_load_tasks_filters(tmp_path):
    _task(tmp_path / "a1", tier='"advanced"')
    _task(tmp_path / "b1")
    _task(tmp_path / "b2")
    (tmp_path / "_shared").mkdir()
    assert [t.id for t in load_tasks(tmp_path)] == ["b1", "b2", "a1"]
    assert [t.id for t in load_tasks(tmp_path, tiers=["advanced"])] == ["a1"]
    assert [t.id for t in load_tasks(tmp_path, ids=["b*"])] == ["b1", "b2"]
    with pytest.raises(TaskError, match="unknown tier filter"):
        load_tasks(tmp_path, tiers=["hard"])
    with pytest.raises(TaskError, match="no task matches id filter 'zz'"):
        load_tasks(tmp_path, ids=["zz"])
    with pytest.raises(TaskError, match="does not exist"):
        load_tasks(tmp_path / "nope")


def test_the_suite_has_the_required_shape():
    tasks = load_tasks(TASKS)
    by_tier = {tier: [t for t in tasks if t.tier == tier] for tier in ("basic", "medium", "advanced")}
    assert len(tasks) >= 48
    assert len(by_tier["basic"]) >= 12 and len(by_tier["medium"]) >= 12 and len(by_tier["advanced"]) >= 24
    assert all(len(t.domains) == 1 for t in by_tier["basic"] + by_tier["medium"])
    assert all(len(t.domains) >= 2 for t in by_tier["advanced"])
    assert sum(t.mode == "interactive" for t in tasks) >= 12
    assert {d for t in tasks for d in t.domains} == set(DOMAINS)
    for t in tasks:
        assert t.wrong, f"{t.id} has no wrong.toml variant"
        assert not list(t.path.glob("wrong_*.py")), f"{t.id}: wrong_*.py files are replaced by wrong.toml"
        if t.mode == "interactive":
            for code in [t.solution, t.setup, t.check, *t.wrong.values()]:
                assert "gdsfactory" not in code or t.solution == code, f"{t.id}: gdsfactory in KLayout-side code"


# ------------------------------------------------------------------------------------- CLI
def test_cli_builds_the_klayout_command(tmp_path):
    from pic_copilot.bench import cli

    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command")
    cli.register(sub)
    args = ap.parse_args(["bench", "--config", "zero-shot,full", "-n", "3", "--tier", "basic", "--seed", "7",
                          "--agent-model", "planner=big", "--out", str(tmp_path), "--fresh"])
    assert args.func is cli.cmd_bench
    cmd = cli.build_command(args, "klayout")
    assert cmd[:3] == ["klayout", "-b", "-r"] and cmd[3].endswith("benchmark/bench.py")
    defs = dict(cmd[i + 1].split("=", 1) for i in range(4, len(cmd), 2))
    assert defs["config"] == "zero-shot,full" and defs["n"] == "3" and defs["tier"] == "basic"
    assert defs["models"] == "planner=big" and defs["resume"] == "0" and defs["out"] == str(tmp_path)
    bad = ap.parse_args(["bench", "--config", "best"])
    assert cli.cmd_bench(bad) == 2


# ------------------------------------------------------------------------- the real suite
def _bench(tmp_path, **defs):
    home = tmp_path / "klayout-home"
    home.mkdir(exist_ok=True)
    cmd = [KLAYOUT, "-b", "-r", str(ROOT / "benchmark" / "bench.py"), "-rd", f"root={ROOT}",
           "-rd", f"python={sys.executable}"]
    for k, v in defs.items():
        cmd += ["-rd", f"{k}={v}"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900,
                          env=dict(os.environ, KLAYOUT_HOME=str(home)))


needs_klayout = pytest.mark.skipif(KLAYOUT is None, reason="KLayout not installed")


def test_bench_refuses_to_run_outside_the_klayout_application(tmp_path):
    """A plain Python (with or without the pip klayout package's pya) must not run the driver."""
    proc = subprocess.run([sys.executable, str(ROOT / "benchmark" / "bench.py")], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "runs only inside the KLayout application" in proc.stderr and "klayout -b -r" in proc.stderr
    assert not (tmp_path / "benchmark").exists()


@pytest.mark.klayout
@needs_klayout
def test_selftest_solutions_pass_empty_and_wrong_variants_fail(tmp_path):
    proc = _bench(tmp_path, selftest=1, out=tmp_path / "st", quiet=1)
    data = json.loads((tmp_path / "st" / "selftest.json").read_text())
    assert data["problems"] == [], "\n".join(data["problems"])
    assert proc.returncode == 0, proc.stderr[-3000:]
    tasks = load_tasks(TASKS)
    assert data["tasks"] == len(tasks)
    kinds = {(r["task"], r["variant"]) for r in data["results"]}
    for t in tasks:
        assert (t.id, "solution") in kinds and (t.id, "empty") in kinds
        assert all((t.id, w) in kinds for w in t.wrong)
    assert data["wrong_variants"] == sum(len(t.wrong) for t in tasks) and data["notes"] == []
    assert all(r["why"] for r in data["results"] if r["variant"].startswith("wrong_"))
    empty = [r for r in data["results"] if r["variant"] == "empty"]
    assert all(not r["passed"] for r in empty)


@pytest.mark.klayout
@needs_klayout
def test_oracle_scores_100_on_all_tasks_and_resumes(tmp_path):
    out = tmp_path / "oracle"
    proc = _bench(tmp_path, config="oracle", out=out, quiet=1)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    res = json.loads((out / "results.json").read_text())
    tot = res["summary"]["configs"]["oracle"]["total"]
    n_tasks = len(load_tasks(TASKS))
    assert tot["pass@1"] == 1.0 and tot["solved"] == n_tasks and tot["trials"] == n_tasks
    assert "oracle: pass@1 100.0%" in proc.stdout
    assert (out / "report.md").read_text().count("| oracle |") >= 1 and (out / "pass_rate.png").exists()
    # the output contract the pipeline reads from a request's words never rejects a reference solution
    rejected = {}
    for f in (out / "trials" / "oracle").glob("*/trial_0.json"):
        rec = json.loads(f.read_text())
        problems = (rec.get("execution") or {}).get("contract_problems")
        assert problems is not None, f"{rec['task']}: the contract was not checked"
        if problems:
            rejected[rec["task"]] = problems
    assert rejected == {}
    trial = out / "trials" / "oracle" / "b07_ia_box" / "trial_0.json"
    mtime = trial.stat().st_mtime_ns
    proc = _bench(tmp_path, config="oracle", ids="b07*", out=out, resume=1)
    assert proc.returncode == 0 and trial.stat().st_mtime_ns == mtime and "trial 0" not in proc.stdout


@pytest.mark.klayout
@needs_klayout
def test_a_hung_worker_is_killed_and_the_run_goes_on(tmp_path, monkeypatch):
    """A worker that stops answering (generation or scoring) is killed and restarted; the trial is recorded."""
    tasks = tmp_path / "tasks"
    shutil.copytree(TASKS / "b01_straight_wg", tasks / "b01_straight_wg")
    starts = tmp_path / "starts.txt"
    fake = tmp_path / "fakepython"
    fake.write_text(f"#!/bin/sh\nexec {sys.executable} {ROOT / 'tests' / 'data' / 'hung_worker.py'}\n")
    fake.chmod(0o755)
    monkeypatch.setenv("HUNG_WORKER_STARTS", str(starts))
    proc = _bench(tmp_path, config="oracle,full", tasks=tasks, out=tmp_path / "o", python=fake,
                  gen_timeout=1, timeout_scale=0.02, harness_timeout=1, hang_margin=2, n=1)
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]  # the oracle trial failed
    assert proc.stdout.count("it was killed") == 2, proc.stdout
    oracle = json.loads((tmp_path / "o" / "trials" / "oracle" / "b01_straight_wg" / "trial_0.json").read_text())
    assert oracle["failure"] == "timeout" and oracle["execution"]["exception"]["type"] == "WorkerHang"
    assert "'sandbox_trial'" in oracle["execution"]["exception"]["message"]
    full = json.loads((tmp_path / "o" / "trials" / "full" / "b01_straight_wg" / "trial_0.json").read_text())
    assert full["failure"] == "harness" and "'generate'" in full["generation"]["error"]
    assert len(starts.read_text().split()) == 3  # the first worker, and a fresh one after each kill
    assert "harness" in (tmp_path / "o" / "report.md").read_text()


@pytest.mark.klayout
@needs_klayout
def test_oracle_below_100_exits_nonzero(tmp_path):
    tasks = tmp_path / "tasks"
    shutil.copytree(TASKS / "b07_ia_box", tasks / "b07_ia_box")
    (tasks / "b07_ia_box" / "wrong.toml").unlink()  # its edits are of the real solution.py (and it is optional)
    (tasks / "b07_ia_box" / "solution.py").write_text("cell.shapes(layout.layer(2, 0)).insert(pya.DBox(0, 0, 9, 5))\n")
    proc = _bench(tmp_path, config="oracle", tasks=tasks, out=tmp_path / "o")
    assert proc.returncode == 1 and "ORACLE BELOW 100 %" in proc.stdout
    bad = _bench(tmp_path, config="oracle", tasks=tasks, tier="expert", out=tmp_path / "o")
    assert bad.returncode == 2 and "unknown tier filter" in bad.stderr
