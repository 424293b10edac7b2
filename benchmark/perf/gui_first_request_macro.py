"""Runs inside the KLayout GUI with the real embedded LLM (run by benchmark/perf/gui_first_request.py).

A new user's first request, as typed into the panel: once with no layout open (the panel opens an
editable layout with TOP first) and once with a layout open. For each, the time from Send to the
result, whether the rectangle is where it was asked (10 x 5 um on 1/0, lower-left at the origin)
and a screenshot. Globals from -rd: root, out (JSON result file), shots (folder for PNGs), and
job: "rectangle" (the default, above) or "mmi": the main job's request ("create a 1x2 MMI splitter
with gdsfactory and place it in the open layout") on an open layout, sent twice in the same
session: "cold" (the engine's first request) and "warm" (the same request again, the engine, its
sandbox worker and the LLM's prompt cache already warm); it is placed when the active cell gained
an instance.
"""
import json
import time
import traceback

import pya

JOB = globals().get("job") or "rectangle"
REQUEST = {"rectangle": "draw a 10 um x 5 um rectangle on layer 1/0 with its lower-left corner at the origin",
           "mmi": "create a 1x2 MMI splitter with gdsfactory and place it in the open layout"}[JOB]
APP = pya.Application.instance()
MW = pya.MainWindow.instance()
MW.resize(1600, 1000)
MW.move(0, 0)
RESULTS = {"request": REQUEST, "job": JOB}


def wait_until(cond, timeout):
    loop_end = time.monotonic() + timeout
    while time.monotonic() < loop_end:
        APP.process_events()
        if cond():
            return True
        time.sleep(0.02)
    return cond()


def shot(name):
    MW.repaint()
    wait_until(lambda: False, 0.5)
    path = f"{shots}/{name}"  # noqa: F821 - from -rd
    pix = pya.QGuiApplication.primaryScreen().grabWindow(MW.winId() if callable(MW.winId) else MW.winId)
    if pix.isNull():
        MW.grab().save(path)
    else:
        pix.save(path)
    return path


def active_cell_instances() -> int:
    """Instances in the cell the view shows (0 without a view or a cell: a new layout has none)."""
    view = pya.LayoutView.current()
    cell = view.active_cellview().cell if view is not None and view.active_cellview().is_valid() else None
    return cell.child_instances() if cell is not None else 0


def rectangle_on_1_0(cv) -> dict:
    """The shapes on 1/0 the view shows: the active cell and what it instantiates, in um (a box
    drawn into some other, unplaced top cell is not what the designer sees)."""
    layout, top = cv.layout(), cv.cell
    if top is None:
        return {"boxes": [], "correct": False, "active_cell": None, "top_cells": [c.name for c in layout.top_cells()]}
    li = layout.find_layer(1, 0)
    boxes = []
    if li is not None:
        it = top.begin_shapes_rec(li)
        while not it.at_end():
            b = it.shape().dbbox().transformed(it.dtrans())
            boxes.append([round(b.left, 4), round(b.bottom, 4), round(b.right, 4), round(b.top, 4)])
            it.next()
    return {"boxes": boxes, "correct": [0.0, 0.0, 10.0, 5.0] in boxes, "active_cell": top.name,
            "top_cells": [c.name for c in layout.top_cells()]}


import pic_copilot_plugin.gui as gui  # noqa: E402 - put on sys.path by the autorun macro

P = gui.panel()
CTL = P.controller


def one(name: str, open_layout: bool) -> dict:
    r = {"open_layout_before": open_layout}
    if open_layout:
        MW.create_layout(1)
        wait_until(lambda: False, 0.3)
    r["views_before"] = MW.views()
    instances_before = active_cell_instances()
    P.mode.setCurrentText("interactive")
    P.prompt.setPlainText(REQUEST)
    t0 = time.monotonic()
    P.send()
    r["finished"] = wait_until(lambda: CTL.finished, 600)
    r["seconds"] = round(time.monotonic() - t0, 1)
    res = CTL.last_result or {}
    r["ok"] = res.get("ok")
    r["message"] = str(res.get("message") or "")[:400]
    r["script"] = res.get("script")
    r["usage"] = res.get("usage")
    r["time_summary"] = res.get("time_summary")
    view = pya.LayoutView.current()
    r["views_after"] = MW.views()
    if view is not None and view.active_cellview().is_valid():
        view.zoom_fit()
        r.update(rectangle_on_1_0(view.active_cellview()))
        r["instances"] = active_cell_instances()
        if JOB == "mmi":
            r["correct"] = r["instances"] > instances_before
    r["transcript_tail"] = P.transcript.toPlainText()[-1500:] if hasattr(P, "transcript") else ""
    r["screenshot"] = shot(name)
    return r


try:
    if JOB == "mmi":
        RESULTS["cold"] = one("gui_mmi_cold.png", open_layout=True)
        RESULTS["warm"] = one("gui_mmi_warm.png", open_layout=False)
    else:
        RESULTS["no_layout"] = one("gui_rectangle_no_layout.png", open_layout=False)
        MW.close_all()
        wait_until(lambda: False, 0.3)
        RESULTS["with_layout"] = one("gui_rectangle_with_layout.png", open_layout=True)
except Exception:  # noqa: BLE001 - the test reads the traceback from the JSON
    RESULTS["harness_error"] = traceback.format_exc()
with open(out, "w") as f:  # noqa: F821 - from -rd
    json.dump(RESULTS, f, indent=1, default=str)
APP.exit(0)
