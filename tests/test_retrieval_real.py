"""Retrieval tests on the real, committed databases in databases/ (skipped if not built)."""
from __future__ import annotations

import json

import pytest

from pic_copilot.retrieval import api
from pic_copilot.retrieval.errors import RetrievalError
from pic_copilot.retrieval.paths import REPO_ROOT

pytestmark = pytest.mark.skipif(not (REPO_ROOT / "databases" / "gdsfactory" / "manifest.json").exists(), reason="databases not built (pic-copilot build-db)")


@pytest.fixture(scope="module", autouse=True)
def real_dbs():
    import os

    old = os.environ.pop("PIC_COPILOT_DATABASES", None)
    api.reset_cache()
    yield
    api.reset_cache()
    if old is not None:
        os.environ["PIC_COPILOT_DATABASES"] = old


def test_list_databases():
    names = {d["name"]: d for d in api.list_databases()}
    assert {"gdsfactory", "pya", "klayout_db", "sax"} <= set(names)
    assert names["pya"]["tool_version"] == "0.28.5" and names["pya"]["entry_count"] > 3000


def test_symbol_index_lookups():
    idx = api.symbol_index()
    assert idx.has("gdsfactory.components.mmi1x2")
    assert {"width_mmi", "length_mmi", "gap_mmi", "cross_section"} <= set(idx.params("gdsfactory.components.mmi1x2"))
    assert idx.has("gf.components.mmi1x2")  # gf. prefix
    assert not idx.has("gdsfactory.write_gds")
    assert "gdsfactory.Component.write_gds" in idx.suggest("gdsfactory.write_gds")
    assert not idx.has("gdsfactory.routing.get_route")
    assert "route_single" in idx.members("gdsfactory.routing") and "route_bundle" in idx.members("gf.routing")
    assert "add_ref" in idx.members("gdsfactory.Component")
    assert "width_check" in idx.members("pya.Region")
    assert "d" in idx.params("pya.Region.width_check")
    assert idx.has("klayout.db.Region.width_check") and idx.has("kdb.Region.area")  # pip klayout, falls back to pya
    assert idx.suggest("pya.Region.widthcheck")[0] == "pya.Region.width_check"


def test_get_api_details_unknown_has_suggestions():
    with pytest.raises(RetrievalError) as ei:
        api.get_api_details("gdsfactory.write_gds")
    assert "did you mean" in str(ei.value) and "gdsfactory.Component.write_gds" in ei.value.suggestions
    d = api.get_api_details("gf.components.mmi1x2")
    assert d["id"] == "gdsfactory.components.mmi1x2" and "MultiMode" in d["content"]


@pytest.mark.parametrize("query,expected", [
    ("connect two ports with a waveguide", "gdsfactory.routing.route_single"),
    ("create a 1x2 MMI splitter", "gdsfactory.components.mmi1x2"),
    ("save the layout to a GDS file", "gdsfactory.Component.write_gds"),
])
def test_real_queries_top5(query, expected):
    ids = [r["id"] for r in api.search_apis(query, k=5)]
    assert expected in ids, ids


def test_exact_api_name_in_query_ranks_that_entry_first():
    """An identifier written verbatim beats longer relatives whose summaries read closer."""
    from pic_copilot.retrieval import search_apis

    ids = [h["id"] for h in search_apis("mmi1x2", db="gdsfactory", k=3)]
    assert ids[0] == "gdsfactory.components.mmi1x2", ids
    ids = [h["id"] for h in search_apis("Region width_check", db="pya", k=3)]
    assert ids[0] == "pya.Region.width_check", ids


def test_glossary_terms_name_entries_that_exist_and_rank_them():
    """Every id in databases/glossary.toml is in a database (a typo would silently do nothing),
    and a designer's term finds the entry its manual summary does not word that way."""
    from pic_copilot.retrieval import search_apis
    from pic_copilot.retrieval.hybrid import Glossary
    from pic_copilot.retrieval.paths import databases_dir

    known = set()
    for db in ("gdsfactory", "pya", "klayout_db", "sax", "drc_ref"):
        known |= {json.loads(line)["id"].split("#")[0] for line in (databases_dir() / db / "entries.jsonl").open()}
    ids = {e for entries in Glossary.load().terms.values() for e in entries}
    assert len(ids) >= 20 and sorted(ids - known) == []
    q = "Create an all-pass ring resonator with a 10 um ring radius and a 0.2 um coupling gap, write ring.gds"
    assert [h["id"] for h in search_apis(q, db="gdsfactory", k=3)][0] == "gdsfactory.components.ring_single"
    q = "Add a rectangle 10 um wide and 5 um tall on layer 2/0 to the current cell"
    assert {"pya.DBox", "pya.Shapes.insert"} <= {h["id"].split("#")[0] for h in search_apis(q, db="pya", k=4)}


def test_drc_ref_holds_the_installed_klayouts_drc_language():
    """databases/drc_ref: one entry per DSL method/global function of the DRC reference (usage lines,
    options), from the same KLayout version as pya; designer words find the rule checks."""
    from pic_copilot.retrieval import search_apis
    from pic_copilot.retrieval.sources.pya_help import installed_version

    names = {d["name"]: d for d in api.list_databases()}
    assert names["drc_ref"]["tool_version"] == names["pya"]["tool_version"] == (installed_version() or "0.28.5")
    assert names["drc_ref"]["entry_count"] > 300
    d = api.get_api_details("drc.Layer.width")
    assert "layer.width(value [, options])" in d["content"] and "projection" in d["content"]
    for name in ("drc.Layer.space", "drc.Layer.separation", "drc.Layer.enclosing", "drc.Layer.sized",
                 "drc.Layer.op_and", "drc.Layer.not", "drc.global.input", "drc.global.report", "drc.global.source",
                 "drc.Layer.polygons", "drc.Layer.edges", "drc.Layer.output", "drc.Layer.with_area"):
        assert api.symbol_index().has(name), name
    assert "euclidian" in api.symbol_index().params("drc.Layer.width")
    assert api.symbol_index().has("drc.Layer.enc")   # the short form of enclosing, from its usage line
    for q, want in (("minimum waveguide width check", "drc.Layer.width"),
                    ("metal must enclose the via by 0.2 um", "drc.Layer.enclosing"),
                    ("grow a layer by 0.5 um", "drc.Layer.sized"),
                    ("spacing between shapes of two different layers", "drc.Layer.separation"),
                    ("write a DRC deck for these rules", "drc.global.report")):
        ids = [h["id"].split("#")[0] for h in search_apis(q, db="drc_ref", k=3)]
        assert want in ids, (q, ids)


def test_a_boolean_named_in_capitals_finds_the_region_operator_first():
    """The query side maps "AND" to the operator methods: Region.__and__ comes first in pya (it was
    second, behind a compound-operation node, with "AND" dropped as a stop word)."""
    hits = api.search_apis("boolean AND between the metal and the via regions", db="pya", k=5)
    assert hits[0]["id"] == "pya.Region.__and__", [h["id"] for h in hits]
