"""Retrieval evaluation: Recall@1, Recall@5, MRR@10 per mode, latency and load time.

    python -m pic_copilot.retrieval.evaluate --queries benchmark/retrieval/queries.jsonl
    pic-copilot eval-retrieval --queries benchmark/retrieval/queries.jsonl

Modes: ``dense-raw-unified`` (one database of the raw chunks of every source, dense only;
the baseline), ``dense`` and ``bm25`` (over summaries, all databases), ``hybrid`` (summary
dense + BM25 fused by weighted RRF), and ``hybrid+names`` (hybrid with the API names and code
line the configured LLM proposes for each query, :mod:`.expand`; the proposals are cached in
``build/retrieval-eval/expansions.json`` per prompt version and model, so reruns ask nothing). A query counts as found at k when any of its relevant
ids (alternatives that all answer it) is in the top k; MRR@10 uses the first relevant hit.
Raw-chunk embeddings for the baseline are cached under ``build/retrieval-eval/``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from .errors import RetrievalError
from .paths import REPO_ROOT

ALL_MODES = ("dense-raw-unified", "dense", "bm25", "hybrid")
#: modes that need an LLM: hybrid with the LLM's proposed API names fused in (issue 16 item 4)
LLM_MODES = ("hybrid+names",)
EXPANSION_CACHE = REPO_ROOT / "build" / "retrieval-eval" / "expansions.json"


def expansions_for(texts: list[str], cache_path: Path = EXPANSION_CACHE, client=None, progress: bool = True, workers: int = 1) -> dict:
    """The LLM's name proposals for each query (``expand_query`` over all databases), from the
    cache where the same prompt and model answered before; the others are asked now and cached.
    Returns {query: Expansion} and, under the key None, the seconds spent per new call."""
    from .expand import ExpansionCache, expand_query, prompt_key

    cache = ExpansionCache.load(cache_path)
    if client is None:
        from ..llm import make_client

        client = make_client()
    version = prompt_key(getattr(client.settings, "model", ""))
    out: dict = {}
    new_times = []
    todo = [t for t in dict.fromkeys(texts) if cache.get(version, t) is None]
    import threading
    from concurrent.futures import ThreadPoolExecutor

    lock = threading.Lock()

    def one(t: str) -> None:
        exp = expand_query(client, t, None)
        with lock:
            new_times.append(exp.seconds)
            if not exp.error:
                cache.put(version, t, None, exp)
            else:
                out[t] = exp
            if progress:
                sys.stderr.write(f"\rLLM name proposals: {len(new_times)}/{len(todo)} ({exp.seconds:.1f}s; mean {sum(new_times) / len(new_times):.1f}s)  ")

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        list(pool.map(one, todo))
    if progress and todo:
        sys.stderr.write("\n")
    for t in texts:
        out.setdefault(t, cache.get(version, t))
    out[None] = new_times
    return out


def load_queries(path: Path) -> list[dict]:
    if not Path(path).is_file():
        raise RetrievalError(f"queries file {path} not found")
    out = []
    for i, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
        except json.JSONDecodeError as e:
            raise RetrievalError(f"{path}:{i}: not JSON ({e})") from e
        if not q.get("query") or not q.get("relevant"):
            raise RetrievalError(f"{path}:{i}: needs 'query' and 'relevant'")
        out.append(q)
    return out


def _canon(idx, name: str) -> str:
    rec = idx.lookup(name)
    return (rec.get("alias_of") or rec["name"]) if rec else name


def _hit_rank(ids: list[str], relevant: set[str]) -> int | None:
    for r, i in enumerate(ids, 1):
        if i in relevant or i.split("#")[0] in relevant:
            return r
    return None


def raw_embeddings(retriever, cache_dir: Path, progress: bool = True) -> np.ndarray:
    """Embeddings of the raw chunks (content) of every entry, cached per database build."""
    from .embedder import get_embedder

    emb = get_embedder(retriever.model)
    mats = []
    for d in retriever.dbs:
        key = hashlib.sha256(f"{d.name}|{d.manifest.get('built_at')}|{d.manifest.get('entry_count')}|{emb.sha256}".encode()).hexdigest()[:16]
        f = cache_dir / f"raw-{d.name}-{emb.name}-{key}.npy"
        if f.exists():
            mats.append(np.load(f))
            continue
        texts = [d.entry(i)["content"] for i in range(len(d))]
        t0 = time.time()
        done = [0]

        def prog(n):
            done[0] += n
            if progress and done[0] % 512 < n:
                sys.stderr.write(f"\rraw embeddings {d.name}: {done[0]}/{len(texts)} {time.time() - t0:.0f}s")

        m = emb.embed(texts, progress=prog)
        if progress:
            sys.stderr.write("\n")
        cache_dir.mkdir(parents=True, exist_ok=True)
        np.save(f, m.astype(np.float16))
        mats.append(m.astype(np.float16))
    return np.concatenate(mats).astype(np.float32)


def measure_load_seconds(repeat: int = 3) -> dict:
    """Load all databases + the embedder in a fresh Python process (imports included / excluded)."""
    code = (
        "import time; t0=time.perf_counter();"
        "import numpy, onnxruntime, tokenizers; t1=time.perf_counter();"
        "from pic_copilot.retrieval import api; r=api.get_retriever(None); t2=time.perf_counter();"
        "import json; print(json.dumps({'imports': t1-t0, 'load': t2-t1, 'total': t2-t0}))"
    )
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ.copy())
        if out.returncode != 0:
            raise RetrievalError(f"load measurement failed: {out.stderr.strip()[-500:]}")
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return {k: round(statistics.median(r[k] for r in runs), 3) for k in runs[0]}


#: the tool of a query without a ``tool`` field, by the database of its expected ids (the names
#: benchmark/retrieval/*.jsonl use: gdsfactory, pya, klayout_db, sax)
DB_TOOL = {"gdsfactory": "gdsfactory", "pya": "pya", "klayout_db": "klayout_db", "sax": "sax"}


def _score(ranks: list[int | None]) -> dict:
    n = max(len(ranks), 1)
    return {"n": len(ranks),
            "recall@1": round(sum(1 for h in ranks if h and h <= 1) / n, 3),
            "recall@5": round(sum(1 for h in ranks if h and h <= 5) / n, 3),
            "mrr@10": round(sum(1.0 / h for h in ranks if h and h <= 10) / n, 3)}


def _groups(ranks: list[int | None], keys: list[str]) -> dict:
    out: dict[str, list] = {}
    for h, key in zip(ranks, keys):
        out.setdefault(key, []).append(h)
    return {key: _score(v) for key, v in sorted(out.items())}


def evaluate(queries: list[dict], modes: tuple[str, ...] = ALL_MODES, k_latency: int = 5, progress: bool = True,
             expansions: dict | None = None) -> dict:
    """Scores per mode, overall and per tool / per database of the expected entries, with the misses.

    A query's database is the one that holds its first expected id; its tool is the query's own
    ``tool`` field when it has one, else the tool of that database (:data:`DB_TOOL`).
    ``expansions`` ({query: Expansion}, see :func:`expansions_for`) feed the ``hybrid+names`` mode.
    """
    from . import api
    from .embedder import get_embedder
    from .hybrid import top_k

    r = api.get_retriever(None)
    idx = api.symbol_index()
    emb = get_embedder(r.model)
    db_of: dict[str, str] = {}
    for d in r.dbs:
        for i in d.ids:
            db_of.setdefault(i, d.name)
    problems = []
    qs = []
    for q in queries:
        rel_list = [_canon(idx, x) for x in q["relevant"]]
        missing = [x for x in rel_list if x not in db_of]
        if missing:
            problems.append({"query": q["query"], "unknown_ids": missing})
        rel_list = [x for x in rel_list if x in db_of]
        if rel_list:
            db = db_of[rel_list[0]]
            qs.append({"query": q["query"], "relevant": set(rel_list), "db": db, "tool": q.get("tool") or DB_TOOL.get(db, db)})
    results: dict = {"queries": len(qs), "skipped_queries": len(queries) - len(qs), "unknown_ids": problems, "modes": {}, "embedding_model": r.model,
                     "databases": {d.name: {"entries": len(d), "build_seconds": d.manifest.get("build_seconds"), "tool_version": d.manifest.get("tool_version"),
                                            "summaries": d.manifest.get("summaries")} for d in r.dbs}}
    raw = None
    for mode in modes:
        lat, ranks, misses, per_query = [], [], [], []
        for q in qs:
            text, rel = q["query"], q["relevant"]
            t0 = time.perf_counter()
            if mode == "dense-raw-unified":
                if raw is None:
                    raw = raw_embeddings(r, REPO_ROOT / "build" / "retrieval-eval", progress)
                    t0 = time.perf_counter()
                s = raw @ emb.embed_one(text)
                ids = [r.locate(int(i))[0].ids[r.locate(int(i))[1]] for i in top_k(s, 10)]
            elif mode == "hybrid+names":
                exp = (expansions or {}).get(text)
                ids = [x["id"] for x in api.search_apis(text, None, 10, names=exp.names if exp else None, code=exp.code if exp else "")]
            else:
                ids = [x["id"] for x in api.search_apis(text, None, 10, mode=mode)]
            lat.append((time.perf_counter() - t0) * 1000)
            h = _hit_rank(ids, rel)
            ranks.append(h)
            per_query.append({"query": text, "rank": h, "first": ids[0] if ids else None})
            if not h or h > 5:
                misses.append({"query": text, "relevant": sorted(rel), "db": q["db"], "tool": q["tool"], "rank": h, "top5": ids[:5]})
        lat_sorted = sorted(lat)
        results["modes"][mode] = {
            **{k: v for k, v in _score(ranks).items() if k != "n"},
            "latency_ms_p50": round(statistics.median(lat), 2) if lat else None,
            "latency_ms_p95": round(lat_sorted[int(0.95 * (len(lat_sorted) - 1))], 2) if lat else None,
            "by_tool": _groups(ranks, [q["tool"] for q in qs]),
            "by_db": _groups(ranks, [q["db"] for q in qs]),
            "misses_at_5": misses,
            "per_query": per_query,
        }
    # warm latency of the default call (hybrid, all databases, k=5), second pass
    if "hybrid" in modes:
        lat = []
        for q in qs:
            t0 = time.perf_counter()
            api.search_apis(q["query"], None, k_latency)
            lat.append((time.perf_counter() - t0) * 1000)
        lat.sort()
        results["hybrid_warm_k5"] = {"p50_ms": round(statistics.median(lat), 2), "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 2)}
    return results


def _main_mode(res: dict) -> str | None:
    """The mode whose misses are printed: the last hybrid variant run, else the last mode."""
    modes = list(res["modes"])
    hybrid = [m for m in modes if m.startswith("hybrid")]
    return (hybrid or modes or [None])[-1]


def format_table(res: dict, misses: bool = True) -> str:
    lines = [f"embedding model: {res['embedding_model']}; queries: {res['queries']} (skipped {res['skipped_queries']})", "",
             "| mode | Recall@1 | Recall@5 | MRR@10 | p50 ms | p95 ms |", "|---|---|---|---|---|---|"]
    for m, v in res["modes"].items():
        lines.append(f"| {m} | {v['recall@1']:.3f} | {v['recall@5']:.3f} | {v['mrr@10']:.3f} | {v['latency_ms_p50']} | {v['latency_ms_p95']} |")
    for group, title in (("by_tool", "tool"), ("by_db", "database")):
        lines += ["", f"| mode | {title} | queries | Recall@1 | Recall@5 | MRR@10 |", "|---|---|---|---|---|---|"]
        for m, v in res["modes"].items():
            for key, s in v.get(group, {}).items():
                lines.append(f"| {m} | {key} | {s['n']} | {s['recall@1']:.3f} | {s['recall@5']:.3f} | {s['mrr@10']:.3f} |")
    if "hybrid_warm_k5" in res:
        lines.append("")
        lines.append(f"hybrid, all databases, k=5, warm: p50 {res['hybrid_warm_k5']['p50_ms']} ms, p95 {res['hybrid_warm_k5']['p95_ms']} ms")
    if "load" in res:
        lines.append(f"load all databases + embedder in a fresh process: {res['load']['load']} s (+ {res['load']['imports']} s importing numpy/onnxruntime/tokenizers)")
    lines.append("")
    lines.append("| database | entries | summaries | build s | tool version |")
    lines.append("|---|---|---|---|---|")
    for n, d in res["databases"].items():
        lines.append(f"| {n} | {d['entries']} | {d.get('summaries')} | {d['build_seconds']} | {d['tool_version']} |")
    if res["unknown_ids"]:
        lines.append(f"\nWARNING: {len(res['unknown_ids'])} queries name ids not in the databases: {res['unknown_ids'][:5]}")
    mode = _main_mode(res)
    if misses and mode:
        ms = res["modes"][mode]["misses_at_5"]
        lines += ["", f"misses at 5 ({mode}): {len(ms)} of {res['queries']} (query | expected | rank of expected in top 10 | what came first)"]
        for x in ms:
            lines.append(f"- {x['query']} | {', '.join(x['relevant'])} | {x['rank'] or '-'} | {x['top5'][0] if x['top5'] else '(nothing)'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pic_copilot.retrieval.evaluate", description="retrieval evaluation")
    ap.add_argument("--queries", type=Path, default=REPO_ROOT / "benchmark" / "retrieval" / "queries.jsonl")
    ap.add_argument("--modes", default=",".join(ALL_MODES))
    ap.add_argument("--databases", type=Path, default=None, help="evaluate the databases in this folder (e.g. built with another embedding model)")
    ap.add_argument("--json", type=Path, default=None, help="write full results (incl. misses) as JSON")
    ap.add_argument("--no-load-time", action="store_true")
    ap.add_argument("--no-misses", action="store_true", help="do not print the misses")
    ap.add_argument("--workers", type=int, default=1, help="LLM calls in flight at once for hybrid+names (a server with parallel slots)")
    ap.add_argument("--expansion-cache", type=Path, default=EXPANSION_CACHE, help="cache of the LLM's name proposals (mode hybrid+names)")
    args = ap.parse_args(argv)
    if args.databases:
        os.environ["PIC_COPILOT_DATABASES"] = str(args.databases.resolve())
    try:
        modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
        bad = [m for m in modes if m not in ALL_MODES + LLM_MODES]
        if bad:
            raise RetrievalError(f"unknown mode(s) {bad}; known: {', '.join(ALL_MODES + LLM_MODES)}")
        queries = load_queries(args.queries)
        expansions = None
        if any(m in LLM_MODES for m in modes):
            expansions = expansions_for([q["query"] for q in queries], args.expansion_cache, workers=args.workers)
            new = expansions.pop(None)
            failed = sum(1 for e in expansions.values() if e is not None and e.error)
            if new:
                print(f"LLM name proposals: {len(new)} new calls, mean {sum(new) / len(new):.2f} s, p50 {statistics.median(new):.2f} s; {failed} failed", file=sys.stderr)
        res = evaluate(queries, modes, expansions=expansions)
        if not args.no_load_time:
            res["load"] = measure_load_seconds()
    except RetrievalError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(format_table(res, misses=not args.no_misses))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
