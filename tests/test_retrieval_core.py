"""Retrieval unit tests + a tiny database built end to end into tmp_path (no real tools needed)."""
from __future__ import annotations

import argparse
import json
import math

import numpy as np
import pytest

from pic_copilot.retrieval import api
from pic_copilot.retrieval.build import build_from_source, split_oversized
from pic_copilot.retrieval.errors import RetrievalError
from pic_copilot.retrieval.hybrid import Retriever, rrf
from pic_copilot.retrieval.sources import SourceResult
from pic_copilot.retrieval.store import Database
from pic_copilot.retrieval.tokenize import split_identifier, tokenize


# ---------------------------------------------------------------- tokenizer
def test_split_identifier_snake_camel_dotted():
    assert split_identifier("route_single") == ["route_single", "route", "single"]
    parts = split_identifier("CrossSection")
    assert parts[0] == "crosssection" and "cross" in parts and "section" in parts
    d = split_identifier("gf.routing.route_single")
    assert d[0] == "gf.routing.route_single"
    assert {"gf", "routing", "route_single", "route", "single"} <= set(d)


def test_tokenize_stems_and_drops_stopwords():
    toks = tokenize("Connect the two ports with waveguides")
    assert "the" not in toks and "with" not in toks
    assert tokenize("ports") == tokenize("port")
    assert tokenize("waveguides") == tokenize("waveguide")
    assert "um" in tokenize("0.4 µm")
    t = tokenize("pya.Region.width_check")
    assert "region" in t and "width" in t and "check" in t and "pya.region.width_check" in t


def test_boolean_words_in_capitals_name_the_operator_methods():
    """"AND", "OR", "NOT" are stop words in lower case; written in capitals they name the boolean
    operation, whose methods are __and__ / and_ and so on (query side only)."""
    from pic_copilot.retrieval.tokenize import operator_tokens

    assert operator_tokens("boolean AND of metal and via, then XOR") == ["__and__", "and_", "__xor__", "xor_"]
    assert operator_tokens("layer A minus layer B (NOT)") == ["__sub__", "not_"]
    assert operator_tokens("and or not xor Andorra") == []


# ---------------------------------------------------------------- fusion maths
def test_rrf_weighted_formula():
    res = dict(rrf([[1, 2, 3], [3, 1]], [0.7, 0.3], c=60))
    assert math.isclose(res[1], 0.7 / 61 + 0.3 / 62)
    assert math.isclose(res[2], 0.7 / 62)
    assert math.isclose(res[3], 0.7 / 63 + 0.3 / 61)
    order = [d for d, _ in rrf([[1, 2, 3], [3, 1]], [0.7, 0.3], c=60)]
    assert order == [1, 3, 2]
    # sparse-only evidence can win when its weight dominates
    assert rrf([[1, 2], [2]], [0.1, 0.9], c=1)[0][0] == 2


# ---------------------------------------------------------------- tiny database
def _fixture(tool="fixture", version="1.0") -> SourceResult:
    def e(i, kind, doc, params=()):
        return {"id": i, "kind": kind, "content": f"{kind} {i}\n\n{doc}", "metadata": {"module": i.rsplit(".", 1)[0], "signature": i + "(" + ", ".join(params) + ")",
                "parameters": [{"name": p, "description": f"the {p}"} for p in params], "source": "fixture", "version": version, "doc": doc}}
    ents = [
        e("toy.routing.route_single", "function", "Returns a Manhattan route between two ports of a component.", ["component", "port1", "port2"]),
        e("toy.components.mmi1x2", "function", "1x2 multimode interferometer splitter.", ["width", "length_mmi"]),
        e("toy.Region.width_check", "method", "Performs a width check: finds polygons narrower than d.", ["d"]),
        e("toy.Region.space_check", "method", "Performs a space check between polygons closer than d.", ["d"]),
        e("toy.Component.write_gds", "method", "Write component to GDS and returns gdspath.", ["gdspath"]),
        e("toy.guide#long", "guide", "\n\n".join(f"Paragraph {i} about layout databases and cells. " * 8 for i in range(12))),
    ]
    return SourceResult(tool=tool, tool_version=version, source="fixture", entries=ents, aliases={"toy.route_single": "toy.routing.route_single"})


@pytest.fixture()
def tiny_db(tmp_path, monkeypatch):
    monkeypatch.setenv("PIC_COPILOT_DATABASES", str(tmp_path))
    api.reset_cache()
    m = build_from_source("toy", _fixture(), tmp_path, quiet=True)
    yield tmp_path
    api.reset_cache()


def test_build_load_search_details(tiny_db):
    man = json.loads((tiny_db / "toy" / "manifest.json").read_text())
    for key in ("source", "tool_version", "embedding_model", "embedding_sha256", "entry_count", "built_at", "build_seconds"):
        assert key in man
    assert man["entry_count"] > 6  # the long guide entry was split into parts
    res = api.search_apis("connect two ports", db="toy", k=3)
    assert res[0]["id"] == "toy.routing.route_single"
    assert res[0]["content"].startswith("function toy.routing.route_single")  # the ORIGINAL chunk
    assert set(res[0]) >= {"id", "db", "kind", "score", "summary", "content", "metadata"}
    assert api.search_apis("polygons narrower than a minimum width", db="toy", k=1)[0]["id"] == "toy.Region.width_check"
    d = api.get_api_details("toy.route_single")  # alias
    assert d["id"] == "toy.routing.route_single" and [p["name"] for p in d["metadata"]["parameters"]] == ["component", "port1", "port2"]
    g = api.get_api_details("toy.guide#long")
    assert g["content"].count("Paragraph 11 about") == 8 and g["content"].count("Paragraph 0 about") == 8  # parts joined back, once
    with pytest.raises(RetrievalError) as ei:
        api.get_api_details("toy.routing.route_singel")
    assert "toy.routing.route_single" in str(ei.value)


def test_bm25_matches_rank_bm25(tiny_db):
    from rank_bm25 import BM25Okapi

    db = Database.load(tiny_db / "toy")
    entries = [db.entry(i) for i in range(len(db))]
    ref = BM25Okapi([tokenize(e["summary"]) for e in entries], k1=1.5, b=0.75)
    r = Retriever([db])
    for q in ("route between two ports", "width check polygons", "gds"):
        np.testing.assert_allclose(r.bm25_scores(tokenize(q)), ref.get_scores(tokenize(q)), rtol=1e-4, atol=1e-5)


def test_split_oversized_points_to_parent():
    ents = split_oversized([{"id": "a.b", "kind": "guide", "content": ("x" * 100 + "\n\n") * 100, "metadata": {"signature": "a.b"}}], max_chars=1000)
    assert len(ents) > 1 and all(e["metadata"]["parent"] == "a.b" for e in ents[1:])
    assert ents[1]["id"] == "a.b#part2" and all(len(e["content"]) <= 1100 for e in ents)


def test_review_edits_survive_rebuild(tiny_db):
    (tiny_db / "toy" / "review.json").write_text(json.dumps({"toy.components.mmi1x2": {"status": "edited", "summary": "EDITED splitter summary"}}))
    build_from_source("toy", _fixture(), tiny_db, quiet=True)
    api.reset_cache()
    assert api.get_api_details("toy.components.mmi1x2")["summary"] == "EDITED splitter summary"
    assert (tiny_db / "toy" / "review.json").exists()


# ---------------------------------------------------------------- bad input
def test_empty_query_and_unknown_db(tiny_db):
    with pytest.raises(RetrievalError, match="empty query"):
        api.search_apis("   ")
    with pytest.raises(RetrievalError, match="unknown database 'nope'.*toy"):
        api.search_apis("x", db="nope")
    with pytest.raises(RetrievalError, match="k must be"):
        api.search_apis("x", db="toy", k=0)


def test_missing_and_corrupt_files(tiny_db):
    (tiny_db / "toy" / "bm25_docs.npy").unlink()
    api.reset_cache()
    with pytest.raises(RetrievalError, match="incomplete.*pic-copilot build-db toy"):
        api.search_apis("x", db="toy")
    build_from_source("toy", _fixture(), tiny_db, quiet=True)
    (tiny_db / "toy" / "embeddings.npy").write_bytes(b"garbage")
    api.reset_cache()
    with pytest.raises(RetrievalError, match="corrupt.*pic-copilot build-db toy"):
        api.search_apis("x", db="toy")
    build_from_source("toy", _fixture(), tiny_db, quiet=True)
    (tiny_db / "toy" / "index.json").write_text("{not json")
    api.reset_cache()
    with pytest.raises(RetrievalError, match="corrupt"):
        api.search_apis("x", db="toy")


def test_embedding_hash_mismatch(tiny_db):
    p = tiny_db / "toy" / "manifest.json"
    m = json.loads(p.read_text())
    m["embedding_sha256"] = "0" * 64
    p.write_text(json.dumps(m))
    api.reset_cache()
    with pytest.raises(RetrievalError, match="setup.assets embedding"):
        api.search_apis("x", db="toy")


def test_api_index_and_details_work_without_the_embedding_model(tiny_db, tmp_path, monkeypatch):
    """Only search needs the embedding model: with it missing, the evaluator's API check (the
    symbol index) and get_api_details still work, and search says how to install the model."""
    monkeypatch.setenv("PIC_COPILOT_MODELS", str(tmp_path / "no-models"))
    api.reset_cache()
    assert api.symbol_index().lookup("toy.route_single") is not None
    assert api.get_api_details("toy.route_single")["id"] == "toy.routing.route_single"
    with pytest.raises(RetrievalError, match="is missing; install it with: python -m pic_copilot.setup.assets embedding"):
        api.search_apis("connect two ports", db="toy")


def test_tool_version_mismatch(tmp_path, monkeypatch):
    monkeypatch.setenv("PIC_COPILOT_DATABASES", str(tmp_path))
    monkeypatch.delenv("PIC_COPILOT_SKIP_VERSION_CHECK", raising=False)
    api.reset_cache()
    build_from_source("sax", _fixture(tool="sax", version="0.0.1"), tmp_path, quiet=True)
    with pytest.raises(RetrievalError, match=r"sax 0\.0\.1 but .* installed.*pic-copilot build-db sax"):
        api.search_apis("x", db="sax")
    api.reset_cache()


def test_cli_exit_codes(tiny_db, capsys):
    from pic_copilot.retrieval.cli import register

    ap = argparse.ArgumentParser()
    register(ap.add_subparsers(dest="cmd"))
    args = ap.parse_args(["search", "--db", "nope", "anything"])
    assert args.func(args) == 2
    assert "unknown database" in capsys.readouterr().err
    args = ap.parse_args(["search", "--db", "toy", "--json", "two ports route"])
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["id"] == "toy.routing.route_single"
    args = ap.parse_args(["api", "toy.nothing_here"])
    assert args.func(args) == 2


def test_glossary_matching_and_file_errors(tmp_path):
    from pic_copilot.retrieval.hybrid import Glossary

    g = Glossary({"All-pass ring": ["a.ring_single"], "ring": ["a.ring_any"], "s bend": ["a.bend_s"]})
    assert g.entries_for("an ALL PASS ring, then an S-bend") == ["a.ring_single", "a.bend_s"]   # longest term wins
    assert g.entries_for("a rings list") == [] and g.entries_for("") == []
    assert Glossary.load(tmp_path / "none.toml").entries_for("all pass ring") == []
    bad = tmp_path / "glossary.toml"
    bad.write_text('[terms]\n"all pass ring" = "a.ring_single"\n')
    with pytest.raises(RetrievalError, match="needs a list of entry ids"):
        Glossary.load(bad)
    bad.write_text("[terms\n")
    with pytest.raises(RetrievalError, match="not valid TOML"):
        Glossary.load(bad)


def test_evaluate_reports_per_tool_and_database_and_the_misses(tiny_db):
    """eval-retrieval: overall and per-tool/per-database scores, and each miss with its query,
    expected ids and what came first."""
    from pic_copilot.retrieval.evaluate import evaluate, format_table

    qs = [{"query": "connect two ports with a route", "relevant": ["toy.routing.route_single"]},
          {"query": "polygons narrower than a minimum width", "relevant": ["toy.Region.width_check"], "tool": "klayout"},
          {"query": "completely unrelated banana", "relevant": ["toy.guide#long"]},
          {"query": "x", "relevant": ["toy.does_not_exist"]}]
    res = evaluate(qs, modes=("hybrid",), progress=False)
    assert res["queries"] == 3 and res["skipped_queries"] == 1 and res["unknown_ids"][0]["unknown_ids"] == ["toy.does_not_exist"]
    h = res["modes"]["hybrid"]
    assert h["by_db"]["toy"]["n"] == 3 and set(h["by_tool"]) == {"toy", "klayout"}
    assert h["by_tool"]["klayout"] == {"n": 1, "recall@1": 1.0, "recall@5": 1.0, "mrr@10": 1.0}
    text = format_table(res)
    assert "| hybrid | klayout | 1 |" in text and "misses at 5 (hybrid)" in text
    for m in h["misses_at_5"]:
        assert m["query"] in text and m["top5"][0] in text


# ---------------------------------------------------------------- LLM name expansion
def test_code_names_and_clean_names():
    from pic_copilot.retrieval.expand import clean_names, code_names

    assert code_names("ref = c.add_ref(gf.components.mmi1x2(width_mmi=3))") == ["c.add_ref", "gf.components.mmi1x2"]
    assert code_names("r = pya.Region(cell.begin_shapes_rec(li)).sized(1000)") == ["pya.Region.sized", "cell.begin_shapes_rec"]
    assert code_names("not python at all (x.y") == ["x.y"]          # regex fallback
    assert code_names("") == []
    assert clean_names(["gf.components.mmi1x2(width=1)", " Region . sized ", "", "gf.components.mmi1x2", 3]) == ("gf.components.mmi1x2", "Region.sized")


def test_search_with_proposed_names(tiny_db):
    """Proposed names join the fusion through the suffix/fuzzy index: an existing name lifts its
    entry, a name nothing resembles changes nothing."""
    base = [h["id"] for h in api.search_apis("write the result", db="toy", k=6)]
    r = api.get_retriever("toy")
    assert [r.locate(x)[0].ids[r.locate(x)[1]] for x in r.resolve_name("toy.Region.width_check")] == ["toy.Region.width_check"]
    assert r.resolve_name("gf.Region.space_check") and r.resolve_name("region.space_check") == r.resolve_name("space_check")
    assert r.resolve_name("toy.routing.route_singel") == r.resolve_name("route_single")   # fuzzy last part
    assert r.resolve_name("completely_made_up_name") == [] and r.resolve_name("toy.nothing.zzz") == []
    assert api.search_apis("write the result", db="toy", k=6, names=["completely_made_up_name"]) == api.search_apis("write the result", db="toy", k=6)
    hits = [h["id"] for h in api.search_apis("write the result", db="toy", k=3, names=["Region.space_check"])]
    assert hits[0] == "toy.Region.space_check", (hits, base)
    hits = [h["id"] for h in api.search_apis("write the result", db="toy", k=3, code="x = comp.write_gds('a.gds')")]
    assert hits[0] == "toy.Component.write_gds"
    with pytest.raises(RetrievalError, match="names must be a list"):
        api.search_apis("x", db="toy", names="toy.Region.width_check")


def test_expand_query_with_a_scripted_llm(tiny_db, tmp_path):
    """expand_query asks for JSON names + code; a failing endpoint gives an empty expansion with
    the error, not an exception; the cache keys on the prompt version and the need."""
    from pic_copilot.config import Settings
    from pic_copilot.llm import LLMClient
    from pic_copilot.retrieval.expand import Expansion, ExpansionCache, expand_query, prompt_key
    from pic_copilot.testing.scripted_llm import ScriptedLLM

    answer = json.dumps({"names": ["pya.Region.sized", "Region.size(1)"], "code": "r2 = r.sized(1000)\nprint(r2)"})
    with ScriptedLLM([{"content": answer}]) as srv:
        client = LLMClient(Settings(provider="openai", base_url=srv.base_url, model="m", max_retries=0))
        exp = expand_query(client, "grow every shape by 1 um", ["pya"])
        sent = srv.requests[-1]["messages"]
    assert exp.names == ("pya.Region.sized", "Region.size") and exp.code == "r2 = r.sized(1000)" and not exp.error
    assert "Need: grow every shape by 1 um" in sent[-1]["content"] and "pya" in sent[0]["content"] and "$" not in sent[0]["content"]
    with ScriptedLLM([{"status": 500}]) as srv:
        client = LLMClient(Settings(provider="openai", base_url=srv.base_url, model="m", max_retries=0))
        bad = expand_query(client, "anything", None)
    assert bad.names == () and bad.error
    cache = ExpansionCache.load(tmp_path / "x.json")
    v = prompt_key("m")
    assert cache.get(v, "grow", ["pya"]) is None
    cache.put(v, "grow", ["pya"], exp)
    again = ExpansionCache.load(tmp_path / "x.json").get(v, "grow", ["pya"])
    assert again.names == exp.names and again.code == exp.code
    assert ExpansionCache.load(tmp_path / "x.json").get(prompt_key("other-model"), "grow", ["pya"]) is None
    from pic_copilot.retrieval.expand import expanded_search

    hits, used = expanded_search(None, "write the result", "toy", 3, expansion=Expansion(("Region.space_check",)))
    assert hits[0]["id"] == "toy.Region.space_check" and used.names == ("Region.space_check",)
    assert Expansion.from_dict(exp.to_dict()).names == exp.names


def test_entries_stand_on_their_own():
    """A member entry names its class's purpose; a class lists its most used members (plumbing
    that most classes share and underscore names left out); other text, version notes included, stays."""
    from collections import Counter

    from pic_copilot.retrieval.standalone import stand_alone

    def cls(i, doc, members):
        return {"id": i, "kind": "class", "content": f"class {i}\n\n{doc}\n\nMore about it.\n\nMembers: " + ", ".join(members),
                "metadata": {"doc": doc, "members": members}}

    def meth(c, name, doc):
        return {"id": f"{c}.{name}", "kind": "method", "content": f"method {c}.{name}\n\n{doc}\n\nThis method has been introduced in version 0.27.",
                "metadata": {"class": c, "doc": doc}}

    ents = [cls("t.Region", "A set of polygons.", ["sized", "smoothed", "dup", "_create"]),
            meth("t.Region", "sized", "Returns the sized region"), meth("t.Region", "smoothed", "Returns the smoothed region")]
    ents += [cls(f"t.C{i}", f"Class {i}.", ["dup", "x"]) for i in range(10)]
    stand_alone(ents, Counter({"smoothed": 1, "sized": 40, "dup": 99}))
    region, sized = ents[0], ents[1]
    assert region["metadata"]["most_used"] == ["sized", "smoothed"]
    assert region["content"].startswith("class t.Region\n\nA set of polygons.\n\nMost used members:\n- sized: Returns the sized region\n- smoothed:")
    assert "More about it." in region["content"] and "_create" not in region["content"]
    assert sized["content"].splitlines()[:2] == ["method t.Region.sized", "Member of t.Region: A set of polygons."]
    assert "introduced in version 0.27" in sized["content"] and sized["metadata"]["class_purpose"] == "A set of polygons"


# ---------------------------------------------------------------- LLM summaries
def test_llm_summaries_are_stored_reused_and_go_stale(tiny_db):
    """summarise writes the LLM's text into llm_summaries.json after each entry and re-embeds; a
    rebuild reuses it while the entry's docs are unchanged, falls back to extractive when they
    change; a review edit wins over both; a failed call keeps the extractive summary."""
    from pic_copilot.config import Settings
    from pic_copilot.llm import LLMClient
    from pic_copilot.retrieval.build import summarise_with_llm
    from pic_copilot.retrieval.llm_summaries import STORE_FILE, load_store
    from pic_copilot.testing.scripted_llm import ScriptedLLM

    answer = {"does": "**Creates** a 1x2 splitter (power divider) that splits light into two outputs", "use_it": "for one input and two outputs.",
              "search_words": ["power divider", "y splitter", "power divider"], "key_parameters": "width (um), length_mmi (um)"}
    steps = [{"match": "mmi1x2", "content": json.dumps(answer)},
             {"match": "route_single", "status": 500}]
    with ScriptedLLM(steps) as srv:
        client = LLMClient(Settings(provider="openai", base_url=srv.base_url, model="m", max_retries=0))
        m = summarise_with_llm("toy", tiny_db, client, ids=["toy.components.mmi1x2", "toy.routing.route_single"], quiet=True)
        prompt = next(r["messages"][-1]["content"] for r in srv.requests if "mmi1x2" in r["messages"][-1]["content"])
    assert m["llm_run"]["written"] == 1 and m["llm_run"]["failed"] == 1 and m["summary_counts"]["llm"] == 1
    assert "1x2 multimode interferometer splitter" in prompt and "$" not in prompt
    store = load_store(tiny_db / "toy")
    assert list(store) == ["toy.components.mmi1x2"]
    assert store["toy.components.mmi1x2"]["text"] == ("Creates a 1x2 splitter (power divider) that splits light into two outputs. For one input and two outputs. "
                                                      "Search words: power divider, y splitter. Key parameters: width (um), length_mmi (um).")
    api.reset_cache()
    s = api.get_api_details("toy.components.mmi1x2")["summary"]
    assert s.startswith("toy.components.mmi1x2(width, length_mmi): Creates a 1x2 splitter (power divider)") and "the width" in s
    assert "Creates" not in api.get_api_details("toy.routing.route_single")["summary"]
    assert api.search_apis("power divider", db="toy", k=1)[0]["id"] == "toy.components.mmi1x2"
    build_from_source("toy", _fixture(), tiny_db, quiet=True)        # a rebuild keeps and reuses it
    api.reset_cache()
    assert (tiny_db / "toy" / STORE_FILE).exists() and "power divider" in api.get_api_details("toy.components.mmi1x2")["summary"]
    changed = _fixture()
    changed.entries[1]["metadata"]["doc"] = "A different 1x2 splitter doc."
    build_from_source("toy", changed, tiny_db, quiet=True)           # docs changed: stale, extractive
    api.reset_cache()
    assert "power divider" not in api.get_api_details("toy.components.mmi1x2")["summary"]
    build_from_source("toy", _fixture(), tiny_db, quiet=True)
    (tiny_db / "toy" / "review.json").write_text(json.dumps({"toy.components.mmi1x2": {"status": "edited", "summary": "HUMAN"},
                                                            "toy.routing.route_single": {"status": "corrected", "summary": "Routes a waveguide."}}))
    build_from_source("toy", _fixture(), tiny_db, quiet=True)
    api.reset_cache()
    assert api.get_api_details("toy.components.mmi1x2")["summary"] == "HUMAN"
    fixed = api.get_api_details("toy.routing.route_single")["summary"]   # a corrected LLM text keeps the signature and manual words
    assert fixed.startswith("toy.routing.route_single(component, port1, port2): Routes a waveguide.") and "Manhattan route" in fixed


def test_llm_summary_subset_and_prompt():
    """The designer subset (issue 16) and what the summariser is shown: units, the class's purpose
    and the siblings to tell apart."""
    from pic_copilot.retrieval.llm_summaries import in_subset, render_prompt, siblings

    def e(i, kind="function", **md):
        return {"id": i, "kind": kind, "content": f"{kind} {i}\n\nDoc of {i}.", "metadata": {"doc": f"Doc of {i}.", **md}}

    assert in_subset("gdsfactory", e("gdsfactory.components.bend_euler"))
    assert in_subset("gdsfactory", e("gdsfactory.Component.add_ref", "method", **{"class": "gdsfactory.Component"}))
    assert not in_subset("gdsfactory", e("gdsfactory.samples.x", "sample")) and not in_subset("gdsfactory", e("gdsfactory.read.from_yaml"))
    assert in_subset("pya", e("pya.Region.sized", "method", **{"class": "pya.Region"})) and in_subset("pya", e("pya.Region", "class"))
    assert not in_subset("pya", e("pya.Region.dup", "method")) and not in_subset("pya", e("pya.Region._create", "method"))
    assert not in_subset("pya", e("pya.Region.old", "method", deprecated=True)) and not in_subset("pya", e("pya.Netlist.purge", "method"))
    assert not in_subset("pya", e("pya.LayoutView.zoom_box", "method", _basics=["zoom_fit"]))
    assert in_subset("pya", e("pya.LayoutView.zoom_fit", "method", _basics=["zoom_fit"]))
    assert not in_subset("pya", e("pya.Region.sized#part2", "method")) and in_subset("sax", e("sax.models.coupler"))
    ents = [e("gdsfactory.components.bend_euler"), e("gdsfactory.components.bend_circular"), e("gdsfactory.components.mmi1x2"),
            e("gdsfactory.components.bend_s")]
    by_parent = {"gdsfactory.components": ents}
    sibs = [x["id"] for x in siblings(ents[0], by_parent)]
    assert sibs == ["gdsfactory.components.bend_s", "gdsfactory.components.bend_circular"]
    text = render_prompt("gdsfactory", ents[0], siblings(ents[0], by_parent))
    assert "micrometres" in text and "gdsfactory.components.bend_s: Doc of" in text and "$" not in text
    m = e("pya.Region.sized", "method", **{"class": "pya.Region", "class_purpose": "A set of polygons"})
    assert "It belongs to pya.Region: A set of polygons." in render_prompt("pya", m, [])


def test_eval_with_llm_name_proposals_is_cached(tiny_db, tmp_path):
    """hybrid+names asks the LLM once per query; a rerun reads the cache and asks nothing."""
    from pic_copilot.config import Settings
    from pic_copilot.llm import LLMClient
    from pic_copilot.retrieval.evaluate import evaluate, expansions_for
    from pic_copilot.testing.scripted_llm import ScriptedLLM

    qs = [{"query": "store my design on disk", "relevant": ["toy.Component.write_gds"]}]
    cache = tmp_path / "exp.json"
    with ScriptedLLM([{"content": json.dumps({"names": ["toy.Component.write_gds"], "code": "c.write_gds('a.gds')"})}]) as srv:
        client = LLMClient(Settings(provider="openai", base_url=srv.base_url, model="m", max_retries=0))
        exps = expansions_for([q["query"] for q in qs], cache, client, progress=False)
        assert len(srv.requests) == 1 and len(exps.pop(None)) == 1
        again = expansions_for([q["query"] for q in qs], cache, client, progress=False)
        assert len(srv.requests) == 1 and again.pop(None) == []
    res = evaluate(qs, modes=("hybrid+names",), progress=False, expansions=again)
    assert res["modes"]["hybrid+names"]["recall@1"] == 1.0
