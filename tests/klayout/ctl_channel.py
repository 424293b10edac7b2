"""The command channel between a test process and a script it runs inside KLayout.

The test writes ``<ctl>/cmd.json`` ({"seq": n, "cmd": ...}); the KLayout side answers each new
command in ``<ctl>/ack.json`` ({"seq": n, ...}) and pumps Qt events between polls, so a
QTcpServer in the same interpreter keeps serving. Files, not sockets: the channel must not use
the event loop it is there to drive.
"""
import json
import os
import time
import traceback


def write_ack(ctl: str, obj: dict) -> None:
    """Replace <ctl>/ack.json atomically (the test never reads half a file)."""
    tmp = os.path.join(ctl, "ack.json.tmp")
    with open(tmp, "w") as f:
        json.dump(obj, f)
    os.replace(tmp, os.path.join(ctl, "ack.json"))


def serve(ctl: str, handle, pump, timeout_s: float) -> None:
    """Answer commands until `handle` says quit or `timeout_s` passes.

    Args:
        ctl: the control folder.
        handle: f(cmd: dict, ack: dict) -> bool; fills `ack`, returns True to stop after answering.
            An exception is answered as {"error", "traceback"}.
        pump: f() that processes pending Qt events (it differs between batch and GUI mode).
        timeout_s: give up after this long (a test that died must not leave KLayout running).
    """
    done_seq = 0
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        pump()
        time.sleep(0.003)
        try:
            with open(os.path.join(ctl, "cmd.json")) as f:
                cmd = json.load(f)
        except (OSError, ValueError):
            continue
        if cmd.get("seq", 0) <= done_seq:
            continue
        done_seq = cmd["seq"]
        ack = {"seq": done_seq}
        quit_ = cmd.get("cmd") == "quit"
        try:
            quit_ = bool(handle(cmd, ack)) or quit_
        except Exception as e:  # noqa: BLE001
            ack["error"] = f"{type(e).__name__}: {e}"
            ack["traceback"] = traceback.format_exc()
        write_ack(ctl, ack)
        if quit_:
            return
