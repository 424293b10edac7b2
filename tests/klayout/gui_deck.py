"""Runs inside the KLayout GUI (see tests/test_gui_deck.py): DRC decks on the open layout.

1. ``panel_run``: a deck in the panel's Script tab, the panel's Run button -> KLayout's DRC engine runs
   it on the open cell, the report opens in the marker browser; a screenshot of the whole screen
   (``import -window root``) shows the layout, the markers and the browser.
2. ``request``: a request through the panel and the engine (scripted LLM, zero-shot): the engine asks
   the controller for ``run_deck``; the result carries the report's counts.
3. ``broken``: a deck with a typo -> the panel shows KLayout's error with the line; the layout is unchanged.
4. ``save``: "Open as macro" saves the deck as a .lydrc in the DRC macro folder, and it runs as it is.

Globals from -rd: root, out (JSON), shot (PNG path), deck (file with the deck text), work (folder).
"""
import json
import os
import subprocess
import time
import traceback

import pya

RESULTS = {}
MW = pya.MainWindow.instance()
MW.resize(980, 960)
MW.move(0, 0)
MW.set_config("macro-editor-debugging-enabled", "false")


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


def pump(seconds=0.3):
    wait_until(lambda: False, seconds)


import pic_copilot_plugin.gui as gui  # noqa: E402 - put on sys.path by the autorun macro
from pic_copilot_plugin import bridge, drc  # noqa: E402

P = gui.panel()
CTL = P.controller
DECK = open(deck).read()  # noqa: F821


def kids(w):
    c = w.children
    return list(c() if callable(c) else c or [])


def child(w, name, depth=0):
    """The first descendant widget with this objectName (breadth by recursion, 10 levels)."""
    for c in kids(w):
        n = c.objectName() if callable(c.objectName) else c.objectName
        if n == name:
            return c
    if depth < 10:
        for c in kids(w):
            found = child(c, name, depth + 1)
            if found is not None:
                return found
    return None


def picture_layout(view, mb):
    """For the screenshot: a wide canvas (side docks hidden, the panel narrower), the marker browser
    beside the main window with its categories open and every marker selected (highlighted)."""
    for c in kids(MW):
        if "Dock" not in type(c).__name__:
            continue
        title = c.windowTitle() if callable(c.windowTitle) else c.windowTitle
        if title in ("Cells", "Libraries", "Layer Toolbox", "Layers"):
            c.hide()
    try:
        MW.resizeDocks([P.dock], [400], pya.Qt.Horizontal)
    except Exception:  # noqa: BLE001 - only the picture's proportions
        pass
    if mb is None:
        return
    mb.resize(620, 960)
    mb.move(980, 0)
    tree = child(mb, "directory_tree")
    if tree is not None:
        tree.expandAll()
        tree.resizeColumnToContents(0)
        model = tree.model() if callable(tree.model) else tree.model
        everything = model.index(2, 0)   # By Cell, By Category, All
        tree.setCurrentIndex(everything)
        pump(0.5)
        markers = child(mb, "markers_list")
        if markers is not None:
            markers.selectAll()
            markers.resizeColumnToContents(0)


def marker_browser():
    for w in pya.QApplication.topLevelWidgets():
        if w.isVisible() and w is not MW and "arker" in (w.windowTitle or ""):
            return w
    return None


def chip():
    """Waveguides on 1/0 (one 0.35 um wide, two 0.15 um apart), heaters on 11/0 (one too close to a
    waveguide), in a new layout's TOP cell."""
    MW.create_layout(1)
    view = pya.LayoutView.current()
    session = bridge.Session.current_gui()
    ly, top = session.layout, session.cell
    wg, ht = ly.layer(1, 0), ly.layer(11, 0)
    for y, w in ((0, 0.5), (3, 0.35), (6, 0.5), (6.65, 0.5)):
        top.shapes(wg).insert(pya.DBox(0, y - w / 2, 40, y + w / 2))
    top.shapes(wg).insert(pya.DPath([pya.DPoint(0, 10), pya.DPoint(15, 10), pya.DPoint(25, 16), pya.DPoint(40, 16)], 0.5))
    top.shapes(ht).insert(pya.DBox(5, -3.0, 35, -1.0))    # 0.75 um from the first waveguide: too close
    top.shapes(ht).insert(pya.DBox(5, 12.5, 12, 14.5))    # far enough
    view.add_missing_layers()
    view.zoom_fit()
    view.max_hier()
    return view, session


def sc_panel_run(r):
    view, session = chip()
    before = bridge.layout_fingerprint(session.layout)
    P.script.setPlainText(DECK)
    P._update_buttons(busy=False)
    P.run_script()
    r["status"] = P.status.text
    r["rdbs_in_view"] = view.num_rdbs()
    rdb = view.rdb(view.num_rdbs() - 1) if view.num_rdbs() else None
    r["rdb_items"] = rdb.num_items() if rdb else None
    r["rdb_categories"] = {c.name(): c.num_items() for c in rdb.each_category()} if rdb else {}
    r["layout_unchanged"] = bridge.layout_fingerprint(session.layout) == before
    r["transcript_tail"] = P.transcript.toPlainText()[-600:]
    wait_until(lambda: marker_browser() is not None, 10)
    mb = marker_browser()
    r["marker_browser"] = mb.windowTitle if mb else None
    picture_layout(view, mb)
    view.zoom_fit()
    pump(1.5)
    MW.repaint()
    pump(0.5)
    p = subprocess.run(["import", "-window", "root", shot], capture_output=True, text=True, timeout=60)  # noqa: F821
    r["shot_rc"], r["shot_err"] = p.returncode, p.stderr[-300:]
    r["shot"] = shot  # noqa: F821
    if mb is not None:
        mb.hide()


def sc_request(r):
    view, session = chip()
    P.pipeline_config = "zero-shot"
    P.mode.setCurrentText("interactive")
    P.prompt.setPlainText("Write a DRC deck for the waveguide rules of my open cell")
    P.send()
    wait_until(lambda: CTL.finished, 120)
    res = CTL.last_result or {}
    ex = res.get("execution") or {}
    r["ok"] = bool(res.get("ok"))
    r["where"] = ex.get("where")
    r["deck"] = ex.get("deck")
    r["message"] = res.get("message")
    r["exec_result_deck"] = (CTL.last_exec or {}).get("deck")
    r["script_shown"] = P.script.toPlainText()[:400]
    r["rdbs_in_view"] = view.num_rdbs()
    mb = marker_browser()
    if mb is not None:
        mb.hide()


def sc_broken(r):
    view, session = chip()
    before = bridge.layout_fingerprint(session.layout)
    P.script.setPlainText(DECK.replace(".space(", ".spase("))
    P.run_script()
    r["status"] = P.status.text
    r["layout_unchanged"] = bridge.layout_fingerprint(session.layout) == before
    mb = marker_browser()
    if mb is not None:
        mb.hide()


def sc_save(r):
    P.script.setPlainText(DECK)
    P._update_buttons(busy=False)
    path = P.open_as_macro()
    r["path"] = path
    r["in_drc_folder"] = bool(path) and os.path.dirname(path) == str(drc.drc_macro_dir())
    r["starts_xml"] = bool(path) and open(path).read().startswith("<?xml")
    r["text_kept"] = bool(path) and drc.deck_text(open(path).read()) == DECK
    r["status"] = P.status.text
    saved = P.save_as(path=os.path.join(work, "saved.lydrc"))  # noqa: F821
    r["save_as_xml"] = bool(saved) and open(saved).read().startswith("<?xml")
    from pic_copilot_plugin import macro_ide
    dlg = macro_ide.dialog()
    if dlg:
        dlg.hide()


try:
    for name, fn in (("panel_run", sc_panel_run), ("request", sc_request), ("broken", sc_broken), ("save", sc_save)):
        entry = {}
        try:
            fn(entry)
        except Exception:  # noqa: BLE001
            entry["harness_error"] = traceback.format_exc()
        RESULTS[name] = entry
        if CTL.busy:
            CTL.cancel()
            wait_until(lambda: CTL.finished, 5)
        P.purpose = None
        with open(out, "w") as f:  # noqa: F821
            json.dump(RESULTS, f, indent=1, default=str)
    CTL.shutdown()
except Exception:  # noqa: BLE001
    RESULTS["harness_error"] = traceback.format_exc()
with open(out, "w") as f:  # noqa: F821
    json.dump(RESULTS, f, indent=1, default=str)
os._exit(0)
