"""The independent retrieval evaluation set is well formed and every judged id exists.

benchmark/retrieval/independent.jsonl was written by an author who did not tune the retrieval.
These tests only check its form against the committed databases (databases/<db>/entries.jsonl):
they never run the retrieval. A relevant id that a database rebuild renamed or dropped fails here.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INDEPENDENT = ROOT / "benchmark" / "retrieval" / "independent.jsonl"
DATABASES = ROOT / "databases"

# tool of a query -> the database its relevant ids live in
TOOL_DATABASE = {"gdsfactory": "gdsfactory", "pya": "pya", "klayout_db": "klayout_db", "sax": "sax"}
MIN_QUERIES = 150


def load_ids(databases: Path = DATABASES) -> dict[str, set[str]]:
    """Entry ids per database, read from databases/<db>/entries.jsonl.

    Args:
        databases: folder holding one sub-folder per database.
    """
    ids: dict[str, set[str]] = {}
    for name in sorted(set(TOOL_DATABASE.values())):
        path = databases / name / "entries.jsonl"
        with path.open(encoding="utf-8") as fh:
            ids[name] = {json.loads(line)["id"] for line in fh if line.strip()}
    return ids


def load_set(path: Path) -> list[dict]:
    """The records of a query set, one JSON object per non-empty line.

    Args:
        path: a .jsonl query set.
    """
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def problems(records: list[dict], ids: dict[str, set[str]], min_queries: int = MIN_QUERIES) -> list[str]:
    """Everything wrong with a query set; an empty list means it is well formed.

    Args:
        records: query records ({"query", "relevant", "tool", "source"}).
        ids: entry ids per database (see load_ids).
        min_queries: the least number of queries the set must hold.
    """
    out: list[str] = []
    if len(records) < min_queries:
        out.append(f"only {len(records)} queries, need at least {min_queries}")
    all_ids = set().union(*ids.values()) if ids else set()
    seen: dict[str, int] = {}
    for n, rec in enumerate(records, 1):
        where = f"line {n}"
        extra = set(rec) - {"query", "relevant", "tool", "source"}
        if extra:
            out.append(f"{where}: unknown keys {sorted(extra)}")
        query = rec.get("query")
        if not isinstance(query, str) or not query.strip():
            out.append(f"{where}: missing query")
            continue
        key = " ".join(query.lower().split())
        if key in seen:
            out.append(f"{where}: duplicate of line {seen[key]}: {query!r}")
        seen.setdefault(key, n)
        tool = rec.get("tool")
        if tool not in TOOL_DATABASE:
            out.append(f"{where}: tool {tool!r} is not one of {sorted(TOOL_DATABASE)}")
        source = rec.get("source")
        if not isinstance(source, str) or not source.strip():
            out.append(f"{where}: missing source")
        relevant = rec.get("relevant")
        if not isinstance(relevant, list) or not relevant or not all(isinstance(i, str) for i in relevant):
            out.append(f"{where}: relevant must be a non-empty list of ids")
            continue
        if len(set(relevant)) != len(relevant):
            out.append(f"{where}: repeated id in relevant")
        for rid in relevant:
            if rid not in all_ids:
                out.append(f"{where}: id {rid!r} is in no database ({query!r})")
            elif tool in TOOL_DATABASE and rid not in ids[TOOL_DATABASE[tool]]:
                out.append(f"{where}: id {rid!r} is not in the {TOOL_DATABASE[tool]} database of tool {tool!r}")
    return out


@pytest.fixture(scope="module")
def ids() -> dict[str, set[str]]:
    return load_ids()


def test_independent_set_is_well_formed(ids):
    records = load_set(INDEPENDENT)
    found = problems(records, ids)
    assert not found, "\n".join(found)


def test_independent_set_covers_every_tool(ids):
    tools = {rec["tool"] for rec in load_set(INDEPENDENT)}
    assert tools == set(TOOL_DATABASE)


def test_checker_rejects_a_missing_id(ids):
    records = load_set(INDEPENDENT)
    broken = [dict(rec) for rec in records]
    broken[0]["relevant"] = broken[0]["relevant"] + ["gdsfactory.components.no_such_component_xyz"]
    found = problems(broken, ids)
    assert any("no_such_component_xyz" in p for p in found)


def test_checker_rejects_wrong_database_duplicates_and_short_sets(ids):
    rec = {"query": "bloat a layer", "relevant": ["pya.Region.sized"], "tool": "gdsfactory", "source": "x"}
    found = problems([rec, dict(rec, query="Bloat  a LAYER")], ids, min_queries=3)
    assert any("only 2 queries" in p for p in found)
    assert any("not in the gdsfactory database" in p for p in found)
    assert any("duplicate of line 1" in p for p in found)
    assert any("missing source" in p for p in problems([dict(rec, tool="pya", source="")], ids, 1))
    assert any("tool" in p for p in problems([dict(rec, tool="matlab")], ids, 1))
