"""``pic-copilot explore``: learn what the installed APIs really do (wired in by ``register(subparsers)``).

    pic-copilot explore                          # systematic probes: gdsfactory (sandbox) + pya (klayout -b)
    pic-copilot explore gdsfactory --only mmi1x2 # a subset (resumes; complete runs are skipped per version)
    pic-copilot explore --llm --budget-calls 20 --budget-s 600   # + LLM-guided experiments on the biggest gaps
    pic-copilot explore --status                 # what is explored, for which versions
    pic-copilot explore --show gf.components.mmi1x2

Reached as ``pic-copilot explore ...`` (registered by lib/pic_copilot/frontends/cli.py).
Exit codes: 0 done (or nothing to do); 2 set-up problem; 130 interrupted (progress is kept: rerun to resume).
"""
from __future__ import annotations

import argparse
import json
import sys


def register(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "explore", help="probe the installed APIs (gdsfactory, KLayout pya) and record their observed behaviour",
        description="Systematic probing of every gdsfactory component/cross-section factory and routing function "
                    "(in the sandbox) and of the most used pya classes (in klayout -b): defaults and counterfactual "
                    "variants; results go to databases/<db>/observations.json. Resumable; skips versions already "
                    "explored. --llm adds LLM-guided experiments within a call and time budget.")
    p.add_argument("databases", nargs="*", metavar="DB", help="gdsfactory and/or pya (default: both)")
    p.add_argument("--force", action="store_true", help="probe again even if this version is explored (drops saved progress)")
    p.add_argument("--only", action="append", metavar="PATTERN", help="only these APIs (glob on the id or its last part; repeatable)")
    p.add_argument("--limit", type=int, help="only the first N APIs")
    p.add_argument("--batch-size", type=int, help="probes per sandbox / klayout run")
    p.add_argument("--probe-timeout", type=float, help="time guard per probe in seconds")
    p.add_argument("--batch-timeout", type=float, help="wall-time limit per batch in seconds (a hung probe is then killed)")
    p.add_argument("--max-seconds", type=float, help="stop the systematic probes after this long (resume later)")
    p.add_argument("--max-variants", type=int, help="counterfactual variants per API")
    p.add_argument("--state-dir", help="where raw probe results are kept between runs (default $PIC_COPILOT_HOME/explore)")
    p.add_argument("--databases-dir", help="databases folder (default $PIC_COPILOT_DATABASES or <repo>/databases)")
    p.add_argument("--llm", action="store_true", help="also run LLM-guided experiments on the entries with the biggest gaps")
    p.add_argument("--llm-only", action="store_true", help="only the LLM-guided part (needs earlier systematic results)")
    p.add_argument("--budget-calls", type=int, default=20, help="LLM call budget (default 20)")
    p.add_argument("--budget-s", type=float, default=600.0, help="LLM-guided time budget in seconds (default 600)")
    p.add_argument("--max-steps", type=int, default=3, help="experiments per API in the LLM-guided part (default 3)")
    p.add_argument("--recompile", action="store_true", help="no probes: rebuild observations.json from the saved raw results")
    p.add_argument("--status", action="store_true", help="show what is explored and exit")
    p.add_argument("--show", metavar="API", help="print the observed behaviour of one API and exit")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=handler)
    return p


def _status(args) -> int:
    from ..retrieval import observations as store

    rows = []
    for db in ("gdsfactory", "pya"):
        data = store.load(db, args.databases_dir)
        if not data:
            rows.append({"database": db, "status": "not explored"})
            continue
        rows.append({"database": db, "status": "complete" if data.get("complete") else "partial",
                     "tool": data.get("tool"), "tool_version": data.get("tool_version"),
                     "documented_version": store.manifest_version(db, args.databases_dir),
                     "explored_at": data.get("explored_at"), **(data.get("stats") or {})})
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            if r["status"] == "not explored":
                print(f"{r['database']}: not explored (run: pic-copilot explore {r['database']})")
                continue
            print(f"{r['database']}: {r['status']}, {r['tool']} {r['tool_version']} (database documents "
                  f"{r['documented_version']}), {r.get('explored_at', '')}: {r.get('targets_probed')} APIs probed, "
                  f"{r.get('with_observations')} with observations, {r.get('probes_done')}/{r.get('probes_planned')} probes "
                  f"({r.get('accepted')} accepted, {r.get('rejected')} rejected, {r.get('timeouts')} timeouts, "
                  f"{r.get('crashes')} crashes), {r.get('wall_seconds_total')} s"
                  + (f", {r['llm_explored']} LLM-explored" if r.get("llm_explored") else ""))
    return 0


def _show(args) -> int:
    from ..retrieval import observations as store

    name = args.show.strip()
    cands = [name]
    for short, full in (("gf.", "gdsfactory."), ("kdb.", "pya."), ("klayout.db.", "pya.")):
        if name.startswith(short):
            cands.append(full + name[len(short):])
    if not name.startswith(("gdsfactory.", "pya.", "gf.", "kdb.", "klayout.")):
        cands += [f"gdsfactory.components.{name}", f"gdsfactory.routing.{name}", f"gdsfactory.cross_section.{name}", f"pya.{name}"]
    try:
        from ..retrieval import symbol_index

        rec = symbol_index().lookup(name)
        if rec:
            cands.insert(0, rec.get("alias_of") or rec["name"])
    except Exception:  # noqa: BLE001
        pass
    for c in cands:
        sec = store.section(c, args.databases_dir)
        if sec:
            if args.json:
                print(json.dumps({"id": c, **sec}, indent=1))
            else:
                print(c)
                print(sec["text"])
            return 0
    print(f"no observations for {name!r} (explored APIs: pic-copilot explore --status)", file=sys.stderr)
    return 1


def handler(args) -> int:
    from .engine import DATABASES, ExploreError, explore_database

    if args.status:
        return _status(args)
    if args.show:
        return _show(args)
    dbs = args.databases or list(DATABASES)
    bad = [d for d in dbs if d not in DATABASES]
    if bad:
        print(f"error: cannot explore {', '.join(bad)}; explorable: {', '.join(DATABASES)}", file=sys.stderr)
        return 2
    reports = []
    try:
        if not args.llm_only:
            for db in dbs:
                rep = explore_database(db, root=args.databases_dir, state=args.state_dir, force=args.force, only=args.only,
                                       limit=args.limit, batch_size=args.batch_size, guard_s=args.probe_timeout,
                                       batch_timeout_s=args.batch_timeout, quiet=args.quiet, max_seconds=args.max_seconds,
                                       max_variants=args.max_variants, recompile_only=args.recompile)
                reports.append(rep)
                if not args.json:
                    if rep.get("skipped"):
                        print(rep["message"], file=sys.stderr)
                    else:
                        st = rep["stats"]
                        print(f"{db} {rep['tool_version']}: {st['targets_probed']}/{st['targets']} APIs probed, "
                              f"{st['with_observations']} with observations ({st['default_ok']} default calls ok); "
                              f"{st['probes_done']}/{st['probes_planned']} probes: {st['accepted']} accepted, {st['rejected']} rejected, "
                              f"{st['timeouts']} timeouts, {st['crashes']} crashes; {st['wall_seconds_this_run']} s "
                              f"-> {rep['path']}" + ("" if rep["complete"] else " (partial: rerun to continue)"),
                              file=sys.stderr)
        if args.llm or args.llm_only:
            from .guided import explore_llm

            if "gdsfactory" not in dbs:
                print("note: the LLM-guided part explores gdsfactory entries", file=sys.stderr)
            rep = explore_llm(root=args.databases_dir, budget_calls=args.budget_calls, budget_s=args.budget_s,
                              max_steps=args.max_steps, only=args.only, quiet=args.quiet or args.json)
            reports.append({"database": "gdsfactory", "llm": rep})
            if not args.json:
                print(f"LLM-guided: {rep['entries']} API(s) explored with {rep['experiments']} experiment(s), "
                      f"{rep['calls']} call(s), {rep['seconds']} s ({rep['stopped']})", file=sys.stderr)
    except ExploreError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: progress is saved; run the same command again to resume", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - LLM configuration/connection problems
        from ..llm import LLMError

        if isinstance(e, (LLMError, RuntimeError)):
            print(f"error: {e}", file=sys.stderr)
            return 2
        raise
    if args.json:
        print(json.dumps(reports, indent=1, default=str))
    return 0
