"""Runs inside ``klayout -b`` for KlayoutBatchBridge (stdlib + pya only, KLayout's Python 3.11).

Globals from -rd: root (package root), layout_file (GDS kept between calls; created if missing),
request (JSON file: {"action": "run_code"|"insert_files"|"run_deck", "code"?, "paths"?, "deck"?, "report"?,
"deck_file"?, "workdir"?}), out (result JSON file); optional: active (the active cell's name),
save ("0": never write the layout back, for a trial run on a copy). The request runs through the
plugin's ``bridge.dispatch``, like the panel's, the remote endpoint's and the benchmark's.
"""
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.join(root, "klayout_plugin"))  # noqa: F821 - `root` comes from -rd

result = None
try:
    import pya  # noqa: E402
    from pic_copilot_plugin import bridge  # noqa: E402

    with open(request) as f:  # noqa: F821
        req = json.load(f)
    mgr = pya.Manager()
    ly = pya.Layout(True, mgr)
    if os.path.exists(layout_file) and os.path.getsize(layout_file) > 0:  # noqa: F821
        ly.read(layout_file)  # noqa: F821
    session = bridge.Session(ly, manager=mgr, filename=layout_file)  # noqa: F821
    session.activate(globals().get("active", ""))
    result = bridge.dispatch(session, req["action"], req)
    if result.get("ok") and globals().get("save", "1") != "0" and req["action"] != "copy_layout":
        opts = pya.SaveLayoutOptions()
        opts.write_context_info = False
        ly.write(layout_file + ".tmp.gds", opts)  # noqa: F821
        os.replace(layout_file + ".tmp.gds", layout_file)  # noqa: F821
except BaseException as e:  # noqa: BLE001
    result = {"ok": False, "stdout": "", "stderr": "", "changes": {}, "summary": {},
              "exception": {"type": type(e).__name__, "message": str(e), "traceback": traceback.format_exc()},
              "runner_error": True}
with open(out, "w") as f:  # noqa: F821
    json.dump(result, f, default=str)
