"""Runs inside ``klayout -b``: hosts a RemoteEndpoint on a headless layout and pumps Qt events.

-rd globals: root (package root), ctl (control folder). The test process is the client. It steers
this script through ``<ctl>/cmd.json`` ({"seq": n, "cmd": ...}); each command is answered in
``<ctl>/ack.json`` ({"seq": n, ...}). Commands: start, stop, undo, count, nolayout, layout, quit.
In ``klayout -b`` there is no running event loop, so QCoreApplication.processEvents() drives the
QTcpServer (``Application.process_events`` does not, in batch mode).
"""
import json
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.join(root, "klayout_plugin"))  # noqa: F821 - `root` comes from -rd

import pya  # noqa: E402

from pic_copilot_plugin import bridge, remote  # noqa: E402


def write_ack(obj):
    tmp = os.path.join(ctl, "ack.json.tmp")  # noqa: F821
    with open(tmp, "w") as f:
        json.dump(obj, f)
    os.replace(tmp, os.path.join(ctl, "ack.json"))  # noqa: F821


session = bridge.Session.headless()
session.cell  # creates TOP
state = {"layout": True}
ep = remote.RemoteEndpoint(lambda: session if state["layout"] else None)
changes = []
ep.on_change = lambda e: changes.append(e.running)
done_seq = 0
deadline = time.time() + float(globals().get("timeout", "120"))
write_ack({"seq": 0, "ready": True, "pid": os.getpid()})
while time.time() < deadline:
    pya.QCoreApplication.processEvents()
    time.sleep(0.003)
    try:
        with open(os.path.join(ctl, "cmd.json")) as f:  # noqa: F821
            cmd = json.load(f)
    except (OSError, ValueError):
        continue
    if cmd.get("seq", 0) <= done_seq:
        continue
    done_seq = cmd["seq"]
    ack = {"seq": done_seq}
    try:
        c = cmd["cmd"]
        if c == "start":
            ack["port"] = ep.start()
        elif c == "stop":
            ep.stop()
        elif c == "undo":
            ack["undone"] = session.undo()
        elif c == "nolayout":
            state["layout"] = False
        elif c == "layout":
            state["layout"] = True
        elif c == "quit":
            ep.stop()
            ack["quit"] = True
        li = session.layout.find_layer(1, 0)
        ack["shapes_1_0"] = session.cell.shapes(li).size() if li is not None else 0
        ack.update(running=ep.running, requests=ep.requests, changes=changes, status=ep.status_text(),
                   token_set=ep.token is not None)
    except Exception as e:  # noqa: BLE001
        ack["error"] = f"{type(e).__name__}: {e}"
        ack["traceback"] = traceback.format_exc()
    write_ack(ack)
    if cmd["cmd"] == "quit":
        break
ep.stop()
