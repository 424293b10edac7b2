"""Runs inside ``klayout -b``: starts the remote endpoint under the port settings the test put in the
environment (PIC_COPILOT_ENDPOINT_PORT / the config file) and reports what happened.

-rd globals: root (package root), out (JSON result file).
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(root, "klayout_plugin"))  # noqa: F821 - `root` comes from -rd

from pic_copilot_plugin import bridge, remote  # noqa: E402

session = bridge.Session.headless()
ep = remote.RemoteEndpoint(lambda: session)
res = {}
t0 = time.monotonic()
try:
    res["port"] = ep.start()
    res["running"] = ep.running
    with open(remote.discovery_path()) as f:
        res["discovery_port"] = json.load(f)["port"]
except RuntimeError as e:
    res["error"] = str(e)
res["seconds"] = round(time.monotonic() - t0, 3)
res["running_after"] = ep.running
ep.stop()
with open(out, "w") as f:  # noqa: F821
    json.dump(res, f)
