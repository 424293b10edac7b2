"""Runs inside ``klayout -b`` for the cookbook runner (stdlib + pya only, KLayout's Python 3.11).

Globals from -rd: root (package root), request (JSON file), out (JSON-lines result file).

The request is ``{"jobs": [...]}``; each job is one of
  - ``{"action": "edit", "id", "code", "fixture" (fixture .py path or ""), "workdir"}``: a fresh
    editable layout with its own undo manager and a TOP cell, filled by the fixture's
    ``build(pya, layout, top)``, then the recipe run exactly as the GUI runs a script: the plugin
    bridge's ``run_code`` action through ``bridge.dispatch`` (execution-context globals, one
    transaction, rollback on failure) with TOP as the active cell;
  - ``{"action": "read", "id", "paths"}``: each GDS/OAS read by this KLayout (0.28.5) and inserted
    under TOP of a fresh layout by the bridge's ``insert_files`` action (``bridge.dispatch``: what
    placing a gdsfactory component in the open layout does).
For every job a line ``{"start": id}`` is written before it runs and ``{"id", "result"}`` after,
flushed, so a crash or hang is pinned to its job by the caller.
"""
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.join(root, "klayout_plugin"))  # noqa: F821 - `root` comes from -rd

import pya  # noqa: E402
from pic_copilot_plugin import bridge  # noqa: E402


def _fresh_session(fixture):
    mgr = pya.Manager()
    ly = pya.Layout(True, mgr)
    top = ly.create_cell("TOP")
    if fixture:
        ns = {"__name__": "cookbook_fixture", "__file__": fixture}
        with open(fixture, encoding="utf-8") as f:
            exec(compile(f.read(), fixture, "exec"), ns)
        ns["build"](pya, ly, top)
    session = bridge.Session(ly, manager=mgr)
    session._headless_cell = top  # the active cell is TOP, as after File > New Layout
    return session


def _layout_facts(ly):
    layers = {}
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        n = sum(c.shapes(li).size() for c in ly.each_cell())
        layers[f"{info.layer}/{info.datatype}"] = n
    return {"cells": [c.name for c in ly.each_cell()], "layers": layers,
            "top_cells": [ly.cell(i).name for i in ly.each_top_cell()]}


def run_job(job):
    if job["action"] == "edit":
        try:
            session = _fresh_session(job.get("fixture") or "")
        except BaseException as e:  # noqa: BLE001
            return {"ok": False, "stdout": "", "stderr": "", "changes": {}, "summary": {},
                    "exception": {"type": "FixtureError", "message": f"{type(e).__name__}: {e}",
                                  "traceback": traceback.format_exc()}}
        os.makedirs(job["workdir"], exist_ok=True)
        return bridge.dispatch(session, "run_code", {"code": job["code"], "workdir": job["workdir"]})
    if job["action"] == "read":
        files = []
        for path in job["paths"]:
            entry = {"path": path}
            try:
                ly = pya.Layout()
                ly.read(path)
                entry.update(ok=True, **_layout_facts(ly))
            except BaseException as e:  # noqa: BLE001
                entry.update(ok=False, error=f"{type(e).__name__}: {e}")
            files.append(entry)
        session = _fresh_session("")
        ins = bridge.dispatch(session, "insert_files", {"paths": [f["path"] for f in files if f.get("ok")]})
        return {"ok": all(f["ok"] for f in files) and ins["ok"], "files": files, "insert_ok": ins["ok"],
                "insert_exception": ins.get("exception"), "inserted_cells": ins.get("inserted_cells", []),
                "open_layout": _layout_facts(session.layout)}
    return {"ok": False, "exception": {"type": "ValueError", "message": f"unknown action {job['action']!r}", "traceback": ""}}


with open(request) as f:  # noqa: F821 - `request` and `out` come from -rd
    jobs = json.load(f)["jobs"]
with open(out, "a") as sink:  # noqa: F821
    for job in jobs:
        sink.write(json.dumps({"start": job["id"]}) + "\n")
        sink.flush()
        try:
            result = run_job(job)
        except BaseException as e:  # noqa: BLE001
            result = {"ok": False, "exception": {"type": type(e).__name__, "message": str(e), "traceback": traceback.format_exc()}}
        sink.write(json.dumps({"id": job["id"], "result": result}, default=str) + "\n")
        sink.flush()
