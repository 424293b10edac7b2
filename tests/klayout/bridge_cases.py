"""Runs inside `klayout -b` (see tests/test_bridge.py): exercises the bridge on a real layout.

Writes a JSON object {case: {...observations...}} to the file named by the global `out`.
"""
import json
import os
import sys
import traceback

sys.path.insert(0, root + "/klayout_plugin")  # noqa: F821 - `root` comes from -rd
from pic_copilot_plugin import bridge  # noqa: E402

results = {}


def case(fn):
    try:
        results[fn.__name__] = fn()
    except Exception:  # noqa: BLE001
        results[fn.__name__] = {"harness_error": traceback.format_exc()}
    return fn


def fresh():
    s = bridge.Session.headless()
    ly, top = s.layout, s.cell
    l1 = ly.layer(1, 0)
    top.shapes(l1).insert(pya.Box(0, 0, 1000, 500))  # noqa: F821
    return s


@case
def adds_shapes_then_undo():
    s = fresh()
    h0 = bridge.layout_fingerprint(s.layout)
    r = s and bridge.execute(s, "l = layout.layer(2, 0)\nfor i in range(5):\n"
                                "    cell.shapes(l).insert(pya.DBox(i*2, 0, i*2+1, 1))\n"
                                "sub = layout.create_cell('SUB')\ncell.insert(pya.CellInstArray(sub.cell_index(), pya.Trans()))\n"
                                "print('added', cell.shapes(l).size())")
    h1 = bridge.layout_fingerprint(s.layout)
    n_after = s.cell.shapes(s.layout.layer(2, 0)).size()
    undone = s.undo()
    h2 = bridge.layout_fingerprint(s.layout)
    return {"ok": r["ok"], "stdout": r["stdout"], "changed": h0 != h1, "n_after": n_after, "undone": undone,
            "restored": h2 == h0, "changes": r["changes"]}


@case
def placement_grid_in_the_summary():
    s = fresh()
    r = bridge.execute(s, "u = layout.create_cell('UNIT')\nu.shapes(layout.layer(1, 0)).insert(pya.Box(0, 0, 100, 100))\n"
                          "cell.insert(pya.DCellInstArray(u.cell_index(), pya.DTrans(), pya.DVector(20, 0), "
                          "pya.DVector(0, 15), 4, 3))\n"
                          "u.shapes(layout.layer(10, 0)).insert(pya.DText('U0', pya.DTrans(0, 0)))\n"
                          "cell.shapes(layout.layer(10, 0)).insert(pya.DText('TOP', pya.DTrans(1, 1)))\n")
    return {"ok": r["ok"], "grid": (r.get("summary") or {}).get("placement_grid"),
            "boxes": (r.get("summary") or {}).get("shape_boxes"), "texts": (r.get("summary") or {}).get("texts"),
            "origins": (r.get("summary") or {}).get("instance_origins")}


def failing_run(code):
    """Run a script that must fail on a fresh session: the result and what the layout looks like after."""
    s = fresh()
    h0 = bridge.layout_fingerprint(s.layout)
    cells0 = len(list(s.layout.each_cell()))
    r = bridge.execute(s, code)
    return {"ok": r["ok"], "exception": r["exception"], "rolled_back": r["rolled_back"],
            "rollback_exact": r["rollback_exact"], "same_hash": bridge.layout_fingerprint(s.layout) == h0,
            "cells": len(list(s.layout.each_cell())), "cells0": cells0, "tops": [c.name for c in s.layout.top_cells()]}


@case
def raising_script_leaves_layout_unchanged():
    return failing_run("l = layout.layer(7, 0)\ncell.shapes(l).insert(pya.Box(0,0,10,10))\n"
                       "layout.create_cell('JUNK')\ncell.shapes(layout.layer(1,0)).clear()\n"
                       "raise ValueError('boom at the end')")


@case
def recursive_hierarchy_is_rolled_back():
    return failing_run("pad = layout.create_cell('PAD')\n"
                       "cell.insert(pya.CellInstArray(pad.cell_index(), pya.Trans()))\n"
                       "pad.insert(pya.CellInstArray(cell.cell_index(), pya.Trans()))\n")


@case
def syntax_error_reported():
    s = fresh()
    h0 = bridge.layout_fingerprint(s.layout)
    r = bridge.execute(s, "def broken(:\n  pass")
    return {"ok": r["ok"], "type": r["exception"]["type"], "same_hash": bridge.layout_fingerprint(s.layout) == h0}


@case
def gdsfactory_import_refused():
    s = fresh()
    r = bridge.execute(s, "import gdsfactory as gf\n")
    return {"ok": r["ok"], "type": r["exception"]["type"], "message": r["exception"]["message"]}


@case
def sys_exit_does_not_kill_klayout():
    s = fresh()
    h0 = bridge.layout_fingerprint(s.layout)
    r = bridge.execute(s, "cell.shapes(layout.layer(3,0)).insert(pya.Box(0,0,5,5))\nimport sys\nsys.exit(4)")
    return {"ok": r["ok"], "type": r["exception"]["type"], "same_hash": bridge.layout_fingerprint(s.layout) == h0}


@case
def context_contract():
    s = fresh()
    r = bridge.execute(s, "print(type(layout).__name__, type(cell).__name__, view, cellview, dbu, selection, bool(workdir))")
    return {"ok": r["ok"], "stdout": r["stdout"].strip()}


@case
def insert_gds_file():
    s = fresh()
    # a GDS written by KLayout itself stands in for a gdsfactory output rewritten without metadata
    src = pya.Layout()  # noqa: F821
    c = src.create_cell("MMI_TEST")
    c.shapes(src.layer(1, 0)).insert(pya.Box(-10000, -1250, 15500, 1250))  # noqa: F821
    path = out + ".mmi.gds"  # noqa: F821
    src.write(path)
    h0 = bridge.layout_fingerprint(s.layout)
    r = bridge.insert_layout_files(s, [path])
    bbox = s.cell.dbbox()
    undone = s.undo()
    return {"ok": r["ok"], "inserted": r["inserted_cells"], "bbox": [bbox.left, bbox.bottom, bbox.right, bbox.top],
            "undo_restores": undone and bridge.layout_fingerprint(s.layout) == h0}


@case
def insert_bad_file_rolls_back():
    s = fresh()
    h0 = bridge.layout_fingerprint(s.layout)
    bad = out + ".bad.gds"  # noqa: F821
    with open(bad, "w") as f:
        f.write("not a gds")
    r = bridge.insert_layout_files(s, [bad])
    return {"ok": r["ok"], "has_exception": r["exception"] is not None,
            "same_hash": bridge.layout_fingerprint(s.layout) == h0}


@case
def undo_copilot_change_leaves_designer_edits_alone():
    s = fresh()
    h0 = bridge.layout_fingerprint(s.layout)
    r = bridge.execute(s, "cell.shapes(layout.layer(2, 0)).insert(pya.Box(0, 0, 10, 10))")
    # the designer edits the layout after the copilot's run
    s.manager.transaction("designer edit")
    s.cell.shapes(s.layout.layer(3, 0)).insert(pya.Box(0, 0, 5, 5))  # noqa: F821
    s.manager.commit()
    refused = s.undo_copilot_change()
    designer_shape_kept = s.cell.shapes(s.layout.layer(3, 0)).size() == 1
    s.undo()  # the designer undoes their own edit
    allowed = s.undo_copilot_change()
    return {"ran": r["ok"], "refused": not refused["ok"], "refused_msg": refused["message"],
            "designer_shape_kept": designer_shape_kept, "allowed": allowed["ok"],
            "restored": bridge.layout_fingerprint(s.layout) == h0}


@case
def dispatch_runs_every_action():
    """bridge.dispatch: the one entry of the controller, the remote endpoint, the batch runner and bench.py."""
    s = fresh()
    h0 = bridge.layout_fingerprint(s.layout)
    work = out + ".dispatch"  # noqa: F821
    os.makedirs(work, exist_ok=True)
    ran = bridge.dispatch(s, "run_code", {"code": "import os\nprint(os.getcwd() == workdir)\n"
                                                  "cell.shapes(layout.layer(2, 0)).insert(pya.Box(0, 0, 9, 9))",
                                          "workdir": work, "description": "pic-copilot dispatch test"})
    named = s.manager.transaction_for_undo()
    src = pya.Layout()  # noqa: F821
    src.create_cell("INS").shapes(src.layer(4, 0)).insert(pya.Box(0, 0, 5, 5))  # noqa: F821
    src.write(out + ".ins.gds")  # noqa: F821
    inserted = bridge.dispatch(s, "insert_files", {"paths": [out + ".ins.gds"]})  # noqa: F821
    undo_insert = bridge.dispatch(s, "undo", {})
    undo_run = bridge.dispatch(s, "undo", {"ignored": True})
    deck = bridge.dispatch(s, "run_deck", {"deck": "source($input)\nreport('t', $report)\n"
                                                   "input(1, 0).width(2.um).output('W', 'narrow')\n",
                                           "workdir": work + "-drc", "report": "t.lyrdb"})
    unknown = bridge.dispatch(s, "format_disk", {})
    msg = {"type": "exec", "id": "r3", "exec_id": "x-1", "action": "undo"}
    return {"ran": ran["ok"], "stdout": ran["stdout"], "named": named, "inserted": inserted["inserted_cells"],
            "undo_insert": undo_insert["ok"], "undo_run": undo_run["ok"], "restored": bridge.layout_fingerprint(s.layout) == h0,
            "deck_ok": deck["ok"], "deck_report": deck.get("report_path"), "deck_exception": deck.get("exception"),
            "unknown": unknown, "answer": bridge.exec_result(msg, {"ok": True})}


with open(out, "w") as f:  # noqa: F821
    json.dump(results, f, indent=1)
