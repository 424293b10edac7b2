"""execution.report.ExecutionReport: one typed report, built from what the runners deliver and given
back as the same dict (the JSON of the engine's messages, run records, ask --json, MCP results and
benchmark trial files)."""
from __future__ import annotations

import json
import shutil

import pytest

from pic_copilot.execution.report import (ExecutionReport, execution_summary, execution_text, failed_run,
                                          trial_record)
from pic_copilot.execution.routing import execute, run_in_sandbox

needs_klayout = pytest.mark.skipif(shutil.which("klayout") is None, reason="the KLayout application is not installed")

SCRIPT = "import json\nprint('made it')\njson.dump({'n': 3}, open('out.json', 'w'))\n"


def over_the_wire(d: dict) -> dict:
    """A dict as it arrives over JSON lines."""
    return json.loads(json.dumps(d))


def assert_same_dict(rep: ExecutionReport, d: dict) -> None:
    """to_dict gives back the very dict: the same keys, in the same order, the same values."""
    out = rep.to_dict()
    assert out == d and list(out) == list(d)
    assert json.dumps(out) == json.dumps(d)


def test_a_real_sandbox_report_round_trips():
    from pic_copilot.sandbox import default_sandbox

    raw = default_sandbox().run(SCRIPT, timeout_s=60).to_dict()
    rep = ExecutionReport.from_dict(raw)
    assert_same_dict(rep, raw)
    assert rep.ok and rep.exit_code == 0 and "made it" in rep.stdout and rep.file("out.json")["kind"] == "json"
    assert rep.written_names() == {"out.json"} and rep.extra == {} and rep.changes is None
    # the engine's report (routing.run_in_sandbox) is the sandbox's dict with where appended
    routed = run_in_sandbox(SCRIPT, timeout_s=60)
    assert list(routed.to_dict()) == [*raw, "where"] and routed.where == "sandbox"
    again = ExecutionReport.from_dict(over_the_wire(routed.to_dict()))
    assert again == routed and again.to_dict() == over_the_wire(routed.to_dict())
    assert execution_summary(again) == execution_summary(routed)


# what the KLayout plugin's bridge sends over JSON lines (klayout_plugin/pic_copilot_plugin/bridge.py, drc.py)
RUN_CODE = {"ok": True, "exception": None, "rolled_back": False, "rollback_exact": None, "undoable": True,
            "duration_s": 0.0123,
            "changes": {"cells_added": [], "cells_removed": [], "layers_added": ["2/0"], "shapes_delta": {"2/0": 1},
                        "bbox_before_um": [], "bbox_after_um": [0, 0, 10, 5], "changed": True},
            "summary": {"file": "unsaved", "dbu": 0.001, "top_cells": ["TOP"], "active_cell": "TOP", "cell_count": 1,
                        "cells": ["TOP"], "layers": [{"layer": 2, "datatype": 0, "name": "", "shapes": 1}],
                        "bbox_um": [0, 0, 10, 5], "cell_shapes": {"2/0": 1}, "selection": [], "editable": True},
            "stdout": "drew a box\n", "stderr": "", "workdir": "/tmp/pic-copilot-run-x"}
VIEWER_FAILURE = {"ok": False, "exception": {"type": "NameError", "message": "name 'q' is not defined",
                                             "traceback": "Traceback ...\nNameError: name 'q' is not defined\n"},
                  "rolled_back": True, "rollback_exact": True, "undoable": False, "duration_s": 0.001,
                  "changes": {"changed": False}, "summary": {"cells": []},
                  "note": "the layout is not editable, so this change cannot be undone (start KLayout in editing mode with -e)",
                  "stdout": "", "stderr": "", "workdir": "/tmp/w"}
INSERT = {"ok": True, "exception": None, "rolled_back": False, "rollback_exact": None, "undoable": True,
          "duration_s": 0.2, "changes": {"changed": True, "cells_added": ["straight"]}, "summary": {"cells": ["TOP"]},
          "inserted_cells": ["straight"], "stdout": "", "stderr": ""}
RUN_DECK = {"stdout": "wg.lyrdb: 2 marker(s): WG.W.1 = 1, WG.S.1 = 1", "stderr": "", "workdir": "/tmp/w", "files": [
    {"path": "wg.lyrdb", "kind": "rdb", "size": 900, "summary": {"categories": ["WG.W.1", "WG.S.1"], "items": 2,
                                                                   "items_per_category": {"WG.W.1": 1, "WG.S.1": 1}}},
    {"path": "deck.lydrc", "kind": "deck", "size": 400}], "report_shown": True, "ok": True, "exception": None,
    "duration_s": 0.5, "changes": {"changed": False}, "summary": {},
    "deck": {"file": "deck.lydrc", "input": "the open layout, cell TOP", "report": "wg.lyrdb",
             "categories": {"WG.W.1": 1, "WG.S.1": 1}, "items": 2},
    "deck_path": "/tmp/w/deck.lydrc", "report_path": "/tmp/w/wg.lyrdb"}
BRIDGE_FAILURE = {"ok": False, "exception": {"type": "RuntimeError", "message": "no KLayout", "traceback": ""}}


@pytest.mark.parametrize("d", [RUN_CODE, VIEWER_FAILURE, INSERT, RUN_DECK, BRIDGE_FAILURE],
                         ids=["run_code", "viewer-failure", "insert_files", "run_deck", "bridge-failure"])
def test_what_the_plugin_sends_round_trips(d):
    rep = ExecutionReport.from_dict(over_the_wire(d))
    assert_same_dict(rep, d)
    assert ExecutionReport.from_dict(over_the_wire(rep.to_dict())) == rep


def test_keys_the_report_does_not_name_are_kept_and_fields_set_later_are_appended():
    rep = ExecutionReport.from_dict(RUN_DECK)
    assert rep.extra == {"report_shown": True, "deck_path": "/tmp/w/deck.lydrc", "report_path": "/tmp/w/wg.lyrdb"}
    assert rep.deck_categories() == {"WG.W.1": 1, "WG.S.1": 1} and not rep.changed_layout
    rep.where = "klayout-drc"
    assert list(rep.to_dict()) == [*RUN_DECK, "where"]
    # a field never set is not written: a KLayout report has no exit_code, timed_out, ...
    k = ExecutionReport.from_dict(RUN_CODE)
    assert not k.has("exit_code") and "exit_code" not in k.to_dict() and k.has("rollback_exact")
    k.where = "klayout"
    assert k.changed_layout
    # set to None is still set (the dict had the key with null)
    k.files = None
    assert k.to_dict()["files"] is None and list(k.to_dict())[-2:] == ["where", "files"]


def test_summaries_read_the_typed_report():
    rep = ExecutionReport.from_dict({**RUN_CODE, "where": "klayout"})
    s = execution_summary(rep)
    assert s == {"ran": True, "where": "klayout", "ok": True, "timed_out": False, "exit_code": None,
                 "duration_s": 0.0123, "exception": None, "stdout": "drew a box", "stderr": "", "files": [],
                 "changes": RUN_CODE["changes"]}
    assert execution_text(rep).startswith("ok; printed: drew a box; layout changes: ")
    assert execution_summary(None) == {"ran": False}
    failed = ExecutionReport.from_dict(VIEWER_FAILURE)
    assert execution_summary(failed)["exception"] == {"type": "NameError", "message": "name 'q' is not defined"}


def test_trial_record_keeps_what_the_report_has():
    raw = {"ok": True, "exit_code": 0, "stdout": "x" * 5000, "stderr": "", "exception": None, "timed_out": False,
           "killed_reason": None, "duration_s": 1.0, "workdir": "/w", "files": [{"path": "a.gds"}], "warm": True}
    rec = trial_record(ExecutionReport.from_dict(raw))
    assert rec == {"ok": True, "exception": None, "timed_out": False, "killed_reason": None, "duration_s": 1.0,
                   "exit_code": 0, "stdout": "x" * 4000 + "\n... [1000 more characters cut]", "stderr": "",
                   "files": ["a.gds"]}
    assert trial_record(None) == {"stdout": "", "stderr": ""}
    assert trial_record(ExecutionReport.from_dict(INSERT))["inserted_cells"] == ["straight"]


def test_a_report_made_in_the_engine_has_the_keys_it_was_given():
    rep = failed_run("DRCError", "no deck", where="sandbox", stdout="", stderr="", files=[])
    assert rep.to_dict() == {"ok": False, "where": "sandbox", "stdout": "", "stderr": "", "files": [],
                             "exception": {"type": "DRCError", "message": "no deck", "traceback": ""}}
    assert ExecutionReport(ok=False, exception={"type": "X"}).to_dict() == {"ok": False, "exception": {"type": "X"}}


@needs_klayout
def test_a_real_klayout_report_round_trips(tmp_path):
    """klayout -b runs the plugin's bridge.execute and sends its dict back as JSON."""
    from pic_copilot.bridges.klayout_batch import KlayoutBatchBridge

    bridge = KlayoutBatchBridge(workdir=tmp_path / "work")
    try:
        raw = bridge.run_code("li = layout.layer(2, 0)\ncell.shapes(li).insert(pya.DBox(0, 0, 10, 5))\nprint('box')\n")
        rep = execute("li = layout.layer(2, 0)\ncell.shapes(li).insert(pya.DBox(0, 0, 10, 5))\nprint('box')\n",
                      "interactive", bridge)
    finally:
        bridge.close()
    assert_same_dict(ExecutionReport.from_dict(raw), raw)
    assert raw["ok"] and rep.ok and rep.where == "klayout" and rep.changed_layout and rep.stdout.strip() == "box"
    assert list(rep.to_dict())[:len(raw)] == list(raw)


@needs_klayout
def test_a_file_an_earlier_run_left_in_the_shared_work_folder_is_not_the_next_runs_output(tmp_path):
    """Every candidate of a request runs in the bridge's one work folder; a later script that writes
    nothing must not be credited with the JSON an earlier one wrote (a06 was accepted that way)."""
    from pic_copilot.bridges.klayout_batch import KlayoutBatchBridge

    work = tmp_path / "work"
    work.mkdir()
    (work / "input.csv").write_text("a,b\n1,2\n")
    bridge = KlayoutBatchBridge(workdir=work)
    try:
        first = execute("import json\njson.dump({'n': 1}, open('drc.json', 'w'))\n", "interactive", bridge)
        second = execute("print(len(list(layout.each_cell())))\n", "interactive", bridge)
        third = execute("import json\njson.dump({'n': 1}, open('drc.json', 'w'))\n", "interactive", bridge)
    finally:
        bridge.close()
    assert [f["path"] for f in first.files] == ["drc.json"]     # the input the folder held is not output
    assert second.ok and second.files == []
    assert [f["path"] for f in third.files] == ["drc.json"]     # rewritten with the same content: this run's
