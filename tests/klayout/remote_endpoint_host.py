"""Runs inside ``klayout -b``: hosts a RemoteEndpoint on a headless layout and pumps Qt events.

-rd globals: root (package root), ctl (control folder). The test process is the client. It steers
this script through ``<ctl>/cmd.json`` ({"seq": n, "cmd": ...}); each command is answered in
``<ctl>/ack.json`` ({"seq": n, ...}). Commands: start, stop, undo, count, nolayout, layout, quit.
In ``klayout -b`` there is no running event loop, so QCoreApplication.processEvents() drives the
QTcpServer (``Application.process_events`` does not, in batch mode).
"""
import os
import sys

sys.path.insert(0, os.path.join(root, "klayout_plugin"))  # noqa: F821 - `root` comes from -rd
sys.path.insert(0, os.path.join(root, "tests", "klayout"))  # noqa: F821

import pya  # noqa: E402

from ctl_channel import serve, write_ack  # noqa: E402
from pic_copilot_plugin import bridge, remote  # noqa: E402

session = bridge.Session.headless()
session.cell  # creates TOP
state = {"layout": True}
ep = remote.RemoteEndpoint(lambda: session if state["layout"] else None)
changes = []
ep.on_change = lambda e: changes.append(e.running)
write_ack(ctl, {"seq": 0, "ready": True, "pid": os.getpid()})  # noqa: F821


def handle(cmd, ack):
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


serve(ctl, handle, pya.QCoreApplication.processEvents, float(globals().get("timeout", "120")))  # noqa: F821
ep.stop()
