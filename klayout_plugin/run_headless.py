"""Run one copilot request headlessly inside `klayout -b`, through the same engine and bridge as the GUI.

    klayout -b -r klayout_plugin/run_headless.py -rd request="create a 1x2 MMI ..." \
        [-rd mode=interactive|sandbox] [-rd out=result.gds] [-rd timeout=900] [-rd config=full]

Prints the pipeline transcript, the generated script and what happened to the layout.
Exits 0 only if the final script ran (and was accepted), 1 otherwise.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pic_copilot_plugin import bridge, guard  # noqa: E402
from pic_copilot_plugin.controller import Controller  # noqa: E402
from pic_copilot_plugin.transcript import describe  # noqa: E402

guard.install()
g = globals()
prompt = g.get("request") or "create a 1x2 MMI splitter with gdsfactory and place it in the open layout"
mode = g.get("mode") or "interactive"
out_path = g.get("out") or ""
timeout_s = float(g.get("timeout") or 1200)
config = g.get("config") or None

session = bridge.Session.headless()
session.cell  # an empty open layout with a TOP cell, like a new unsaved layout in the GUI
events = []


def on_event(msg):
    events.append(msg)
    line = describe(msg)
    if line:
        print(line, flush=True)


ctl = Controller(lambda: session, on_event)
t0 = time.monotonic()
print(f"[request] {prompt}  (mode={mode})", flush=True)
try:
    ctl.send_request(prompt, mode=mode, config=config)
except RuntimeError as e:
    print(f"[error] {e}", flush=True)
    sys.exit(1)
while not ctl.finished and time.monotonic() - t0 < timeout_s:
    ctl.engine.pump(0.5)
final = ctl.last_result or {}
ctl.shutdown()
elapsed = time.monotonic() - t0
if not ctl.finished:
    print(f"[error] no result within {timeout_s:.0f} s", flush=True)
    sys.exit(1)
if final.get("type") == "result":
    print("\n===== generated script =====\n" + (final.get("script") or "") + "\n============================")
    summary = bridge.layout_summary(session)
    print(f"[layout] active cell {summary['active_cell']}, {summary['cell_count']} cells, layers "
          + ", ".join(f"{l['layer']}/{l['datatype']}:{l['shapes']}" for l in summary["layers"])
          + f", bbox {summary['bbox_um']} um")
    if out_path:
        session.layout.write(out_path)
        print(f"[layout] written to {out_path}")
    print(f"[done] ok={final.get('ok')} rounds={final.get('rounds')} time={elapsed:.1f}s "
          f"record={final.get('record')}", flush=True)
    sys.exit(0 if final.get("ok") else 1)
print(f"[done] failed after {elapsed:.1f}s: {final.get('message')}", flush=True)
sys.exit(1)
