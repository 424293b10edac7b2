"""CLI subcommands: search, api, build-db, eval-retrieval.

The lead's ``pic_copilot/frontends/cli.py`` calls :func:`register` on its argparse subparsers; each
handler returns an exit code (0 ok, 2 for a RetrievalError, whose message is printed).
"""
from __future__ import annotations

import json
import sys
import textwrap

from .errors import RetrievalError


def _fail(e: RetrievalError) -> int:
    print(f"error: {e}", file=sys.stderr)
    return 2


def cmd_search(args) -> int:
    from .api import search_apis

    try:
        res = search_apis(" ".join(args.query) if isinstance(args.query, list) else args.query, db=args.db, k=args.k, mode=args.mode)
    except RetrievalError as e:
        return _fail(e)
    if args.json:
        print(json.dumps(res, indent=1, ensure_ascii=False))
        return 0
    for i, r in enumerate(res, 1):
        print(f"{i}. {r['id']}  [{r['db']}, {r['kind']}, score {r['score']:.4f}]")
        print(textwrap.indent(textwrap.fill(r["summary"], 100), "   "))
        if args.content:
            print(textwrap.indent(r["content"], "   | "))
        print()
    if not res:
        print("no results")
    return 0


def cmd_api(args) -> int:
    from .api import get_api_details

    try:
        d = get_api_details(args.name)
    except RetrievalError as e:
        return _fail(e)
    if args.json:
        print(json.dumps(d, indent=1, ensure_ascii=False))
        return 0
    md = d.get("metadata", {})
    print(f"{d['id']}  [{d.get('db')}, {d['kind']}]")
    if md.get("signature"):
        print(f"signature: {md['signature']}")
    if md.get("parameters"):
        print("parameters: " + ", ".join(p["name"] for p in md["parameters"]))
    if md.get("source"):
        print(f"source: {md['source']}")
    print()
    print(d["content"])
    if d.get("members") and d["kind"] != "namespace":
        print("\nmembers: " + ", ".join(d["members"]))
    if (d.get("observed") or {}).get("text"):
        print("\nobserved behaviour:\n" + d["observed"]["text"])
    return 0


def cmd_build(args) -> int:
    from .api import reset_cache
    from .build import build_all
    from .paths import databases_dir

    try:
        done = build_all(args.names or None, args.out, args.if_missing, args.model or __import__("pic_copilot.retrieval.embedder", fromlist=["x"]).DEFAULT_MODEL, args.summaries, args.quiet)
    except RetrievalError as e:
        return _fail(e)
    reset_cache()
    if not args.quiet:
        for m in done:
            where = (args.out or databases_dir()) / m["name"] / ("_index" if m["name"] == "cookbook" else "")
            print(f"{m['name']}: {m['entry_count']} entries, {m['tool']} {m['tool_version']}, {m['build_seconds']} s -> {where}")
        if not done:
            print("nothing to build (all present)")
    return 0


def cmd_summarise(args) -> int:
    from .api import reset_cache
    from .build import summarise_with_llm
    from .llm_summaries import estimate
    from .paths import databases_dir

    names = args.names or ["gdsfactory", "pya", "sax"]
    try:
        for n in names:
            if args.estimate:
                print(json.dumps(estimate(n, databases_dir() / n)))
                continue
            if args.review_sample:
                from .llm_summaries import review_sample

                for r in review_sample(databases_dir() / n, args.review_sample, args.seed):
                    print(f"=== {r['id']}\nLLM: {r['llm']}\n--- doc:\n{r['doc']}\n")
                continue
            m = summarise_with_llm(n, limit=args.limit, ids=args.ids, quiet=args.quiet, refresh=not args.no_refresh, workers=args.workers)
            reset_cache()
            print(json.dumps({"db": n, **m["llm_run"], "summary_counts": m.get("summary_counts")}))
    except RetrievalError as e:
        return _fail(e)
    return 0


def cmd_eval(args) -> int:
    from .evaluate import main as eval_main

    argv = ["--queries", str(args.queries)]
    if args.modes:
        argv += ["--modes", args.modes]
    if args.json:
        argv += ["--json", str(args.json)]
    if args.no_misses:
        argv.append("--no-misses")
    return eval_main(argv)


def register(subparsers) -> None:
    """Add search / api / build-db / eval-retrieval to an argparse subparsers object."""
    from pathlib import Path

    p = subparsers.add_parser("search", help="search the tool manuals (hybrid retrieval)", description="Search the tool-manual databases; prints the top-k entries.")
    p.add_argument("query", nargs="+", help="what you are looking for, in your words")
    p.add_argument("--db", default=None, help="database name(s), comma separated (default: all)")
    p.add_argument("-k", type=int, default=5, help="number of results (default 5)")
    p.add_argument("--mode", default="hybrid", choices=["hybrid", "dense", "bm25"])
    p.add_argument("--json", action="store_true", help="print JSON (id, db, kind, score, summary, content, metadata)")
    p.add_argument("--content", action="store_true", help="also print the original chunk")
    p.set_defaults(func=cmd_search)

    p = subparsers.add_parser("api", help="details of one API name", description="Show the full documentation entry for an API name (gf./kdb. prefixes accepted).")
    p.add_argument("name")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_api)

    p = subparsers.add_parser("build-db", help="build the tool-manual databases from the installed tools")
    p.add_argument("names", nargs="*", help="databases to build (default: all): gdsfactory pya klayout_db sax cookbook")
    p.add_argument("--if-missing", action="store_true", help="only build databases that do not exist yet (and the cookbook when its recipes changed)")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.add_argument("--summaries", default="auto", choices=["auto", "extractive", "llm"],
                   help="auto (default): the committed LLM summaries where they match, extractive elsewhere; llm: also write the missing ones with the configured LLM (slow); extractive: none of the LLM's")
    p.add_argument("--model", default=None, help="embedding model (default: the evaluated best)")
    p.add_argument("--out", type=Path, default=None, help="databases folder (default: databases/)")
    p.set_defaults(func=cmd_build)

    p = subparsers.add_parser("summarise", help="write LLM summaries of the entries designers need (resumable), then re-embed",
                              description="Summarise the designer subset of built databases with the configured LLM (the embedded model by "
                                          "default) into databases/<db>/llm_summaries.json, one entry at a time (an interrupted run resumes), "
                                          "then re-embed the database.")
    p.add_argument("names", nargs="*", help="databases (default: gdsfactory pya sax)")
    p.add_argument("--limit", type=int, default=None, help="at most this many entries per database")
    p.add_argument("--ids", nargs="*", default=None, help="only these entry ids (rewrites their summaries)")
    p.add_argument("--estimate", action="store_true", help="only count the subset and what is still to do")
    p.add_argument("--no-refresh", action="store_true", help="do not re-embed afterwards")
    p.add_argument("--review-sample", type=int, default=0, metavar="N", help="print N random stored summaries with their docs, to check by hand")
    p.add_argument("--seed", type=int, default=0, help="seed of --review-sample")
    p.add_argument("--workers", type=int, default=1, help="requests in flight at once (only for a server with parallel slots; default 1)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=cmd_summarise)

    p = subparsers.add_parser("eval-retrieval", help="retrieval evaluation: Recall@1/5, MRR@10 overall, per tool and per database, latency, and the misses")
    p.add_argument("--queries", type=Path, default=Path(__file__).resolve().parents[3] / "benchmark" / "retrieval" / "queries.jsonl")
    p.add_argument("--modes", default=None, help="comma-separated: dense-raw-unified,dense,bm25,hybrid (default: all four), "
                   "hybrid+names (asks the configured LLM for API names per query; answers cached in build/retrieval-eval/)")
    p.add_argument("--json", type=Path, default=None, help="also write the results as JSON here")
    p.add_argument("--no-misses", action="store_true", help="do not print the misses (query, expected ids, what came first)")
    p.set_defaults(func=cmd_eval)
