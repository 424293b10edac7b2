"""Runs inside the KLayout GUI (see tests/test_gui.py): sends a request through the real panel.

Globals from -rd: root, out (JSON result file), shot (PNG path), prompt, mode, wait_s.
"""
import json
import time
import traceback

import pya

res = {}
try:
    import pic_copilot_plugin.gui as gui  # put on sys.path by the autorun macro

    mw = pya.MainWindow.instance()
    p = gui.panel()
    res["panel_installed"] = p is not None
    mw.create_layout(1)  # a new, unsaved, editable layout
    view = pya.LayoutView.current()
    res["editable"] = view.active_cellview().layout().is_editable()
    p.prompt.setPlainText(prompt)  # noqa: F821
    p.mode.setCurrentText(mode)  # noqa: F821
    p.send()
    app = pya.Application.instance()
    t0 = time.monotonic()
    # 20 ms timer: measures how responsive the GUI stays while the engine works
    ticks = []
    timer = pya.QTimer()
    timer.interval = 20
    timer.timeout = lambda: ticks.append(time.monotonic())
    timer.start()
    while not p.controller.finished and time.monotonic() - t0 < float(wait_s):  # noqa: F821
        app.process_events()
        time.sleep(0.005)
    timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    res["worst_timer_gap_ms"] = round(max(gaps) * 1000, 1) if gaps else None
    res["finished"] = p.controller.finished
    res["result"] = p.controller.last_result
    ly = view.active_cellview().layout()
    res["shapes"] = sum(c.shapes(li).size() for c in ly.each_cell() for li in ly.layer_indexes())
    res["cells"] = [c.name for c in ly.each_cell()]
    res["script_shown"] = p.script.toPlainText()
    res["status"] = p.status.text
    res["transcript"] = p.transcript.toPlainText()
    for _ in range(20):
        app.process_events()
        time.sleep(0.01)
    mw.grab().save(shot)  # noqa: F821
    p.controller.shutdown()
except Exception:
    res["harness_error"] = traceback.format_exc()
with open(out, "w") as f:  # noqa: F821
    json.dump(res, f, indent=1, default=str)
app = pya.Application.instance()
app.exit(0)
