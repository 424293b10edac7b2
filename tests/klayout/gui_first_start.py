"""Runs inside the KLayout GUI started as a new designer would (viewer mode, no layout, the window
size KLayout picks on a screen without a window manager): see tests/test_gui_first_start.py.

Measures how much of the window the panel takes and how many transcript lines show, takes a
screenshot of the whole screen (``import -window root``), then sends a request with no layout open
(a new editable layout with a TOP cell must be opened first), checks the streamed answer reads as
text with the script in the Script tab, and measures Stop on a slow request.

Globals from -rd: root, out (JSON result file), shots (folder for PNGs).
"""
import json
import os
import subprocess
import time
import traceback

import pya

RESULTS = {}
MW = pya.MainWindow.instance()


def wait_until(cond, timeout):
    def ok():
        try:
            return bool(cond())
        except Exception:  # noqa: BLE001
            return False
    if ok():
        return True
    loop = pya.QEventLoop()
    t0 = time.monotonic()

    def check():
        if ok() or time.monotonic() - t0 > timeout:
            loop.quit()
    t = pya.QTimer()
    t.interval = 10
    t.timeout = check
    t.start()
    loop.exec_()
    t.stop()
    return ok()


def pump(seconds):
    wait_until(lambda: False, seconds)


def v(obj, name):
    x = getattr(obj, name)
    return x() if callable(x) else x


def geometry(w):
    g = w.geometry
    g = g() if callable(g) else g
    return [v(g, "x"), v(g, "y"), v(g, "width"), v(g, "height")]


def root_shot(name):
    path = os.path.join(shots, name)  # noqa: F821
    MW.repaint()
    pump(0.5)
    subprocess.run(["import", "-window", "root", path], timeout=30, check=False)
    return path


import pic_copilot_plugin.gui as gui  # noqa: E402
from pic_copilot_plugin import bridge  # noqa: E402

P = gui.panel()
CTL = P.controller

try:
    pump(2.0)   # let the window settle (the panel fits itself 0.3 s after it shows)
    mw_w = v(MW, "width")
    dock_geo = geometry(P.dock)
    tr = P.transcript
    spacing = v(pya.QFontMetrics(tr.font), "lineSpacing")
    viewport = v(tr, "viewport")
    RESULTS["layout"] = {
        "window": [mw_w, v(MW, "height")], "dock": dock_geo, "dock_share": round(dock_geo[2] / mw_w, 3),
        "dock_visible": bool(P.dock.visible), "transcript_height": v(viewport, "height"),
        "transcript_lines": v(viewport, "height") // spacing, "line_spacing": spacing,
        "splitter_sizes": list(v(P.splitter, "sizes")), "editable_app": pya.Application.instance().is_editable(),
        "views": MW.views(),
    }
    RESULTS["layout"]["screenshot"] = root_shot("first_start.png")

    # a request with no layout open: a new editable layout with a TOP cell first, then the pya edit
    P.mode.setCurrentText("interactive")
    P.prompt.setPlainText("draw a 10 um x 5 um rectangle on layer 1/0 with its lower-left corner at the origin")
    t0 = time.monotonic()
    P.send()
    r = {"session_right_after_send": bridge.Session.current_gui() is not None}
    r["finished"] = wait_until(lambda: CTL.finished, 120)
    r["seconds"] = round(time.monotonic() - t0, 2)
    res = CTL.last_result or {}
    r["result"] = {k: res.get(k) for k in ("type", "ok", "message", "kind")}
    session = bridge.Session.current_gui()
    if session is not None:
        ly, cell = session.layout, session.cell
        li = ly.find_layer(1, 0)
        r["editable"] = ly.is_editable()
        r["cell"] = cell.name
        r["top_cells"] = [ly.cell(i).name for i in ly.each_top_cell()]
        r["boxes"] = [str(s.dbbox()) for s in cell.shapes(li).each()] if li is not None else []
        r["undoable"] = session.undoable
    r["views"] = MW.views()
    r["transcript"] = P.transcript.toPlainText()
    r["script_tab"] = P.script.toPlainText()
    r["screenshot"] = root_shot("first_start_request.png")
    P.undo_last()
    r["boxes_after_undo"] = ([str(s.dbbox()) for s in session.cell.shapes(li).each()]
                             if session is not None and li is not None else None)
    RESULTS["no_layout"] = r

    # Stop on a slow request: the status shows the step and the time; Stop answers within a second
    s = {}
    P.prompt.setPlainText("slow request: draw a ring")
    P.send()
    pump(2.5)
    s["status_while_busy"] = P.status.text
    s["stop_enabled"] = bool(P.stop_btn.enabled)
    t0 = time.monotonic()
    P.stop()
    wait_until(lambda: CTL.finished, 5)
    s["cancel_s"] = round(time.monotonic() - t0, 3)
    s["last"] = CTL.last_result
    pump(0.3)
    s["status"] = P.status.text
    s["send_enabled"] = bool(P.send_btn.enabled)
    RESULTS["stop"] = s
    CTL.shutdown()
except Exception:  # noqa: BLE001
    RESULTS["harness_error"] = traceback.format_exc()
with open(out, "w") as f:  # noqa: F821
    json.dump(RESULTS, f, indent=1, default=str)
os._exit(0)
