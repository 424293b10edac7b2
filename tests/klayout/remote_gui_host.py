"""Runs inside the KLayout GUI (see tests/test_remote_gui.py): the panel's way of using RemoteEndpoint.

RemoteEndpoint(bridge.Session.current_gui) on a new unsaved layout in the main window; the test
process is the client and steers this script through <ctl>/cmd.json (answers in <ctl>/ack.json).
Commands: start, stop, undo (the main window's cm_undo), count, quit. -rd globals: root, ctl, out.
"""
import json
import os
import sys
import time
import traceback

import pya

sys.path.insert(0, os.path.join(root, "tests", "klayout"))  # noqa: F821 - `root` comes from -rd
from ctl_channel import serve, write_ack  # noqa: E402

res = {}


def count():
    view = pya.LayoutView.current()
    cv = view.active_cellview()
    li = cv.layout().find_layer(1, 0)
    return cv.cell.shapes(li).size() if li is not None and cv.cell is not None else 0


try:
    from pic_copilot_plugin import bridge, remote  # on sys.path through the autorun macro

    mw = pya.MainWindow.instance()
    mw.create_layout(1)
    cv0 = pya.LayoutView.current().active_cellview()
    cv0.cell = cv0.layout().create_cell("TOP")  # a designer's layout has a cell
    if globals().get("layer1") == "1":  # and layer 1/0 (a script that creates a new layer: see test_remote_gui)
        cv0.layout().layer(1, 0)
        pya.LayoutView.current().add_missing_layers()
    ep = remote.RemoteEndpoint(bridge.Session.current_gui)
    app = pya.Application.instance()
    write_ack(ctl, {"seq": 0, "ready": True,  # noqa: F821
                    "editable": pya.LayoutView.current().active_cellview().layout().is_editable()})

    def handle(cmd, ack):
        if cmd["cmd"] == "start":
            ack["port"] = ep.start()
        elif cmd["cmd"] == "stop":
            ep.stop()
        elif cmd["cmd"] == "undo":
            ack["has_undo"] = mw.manager().has_undo()  # a method in 0.28.5, not an attribute
            mw.call_menu("cm_undo")
            for _ in range(20):
                app.process_events()
                time.sleep(0.01)
        elif cmd["cmd"] == "quit":
            ep.stop()
        ack.update(shapes_1_0=count(), running=ep.running, status=ep.status_text(), has_undo_now=mw.manager().has_undo())

    serve(ctl, handle, app.process_events, 150)  # noqa: F821
    res["ok"] = True
except Exception:  # noqa: BLE001
    res["harness_error"] = traceback.format_exc()
with open(out, "w") as f:  # noqa: F821
    json.dump(res, f)
pya.Application.instance().exit(0)
