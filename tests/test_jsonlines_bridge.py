"""The one JSON-lines bridge (pic_copilot.bridges.jsonlines) and its two users: the engine process
(answered by the plugin) and the benchmark worker (answered by benchmark/bench.py), with one
message shape: ``exec`` {id, exec_id, action, ...fields} and ``exec_result`` {id, exec_id, result}."""
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pic_copilot.bridges.jsonlines import CancelledError, JsonLinesBridge, exec_result

ROOT = Path(__file__).resolve().parents[1]


def _answer_in_thread(bridge, sent, result, delay=0.05):
    """Play the KLayout side: deliver ``result`` to the first exec the bridge sends."""
    def run():
        while not sent:
            time.sleep(0.01)
        time.sleep(delay)
        bridge.deliver(sent[0]["exec_id"], result)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


# ------------------------------------------------------------------------------ the class itself
def test_each_action_is_one_exec_message_of_the_one_shape():
    sent = []
    answers = iter([{"ok": True, "n": i} for i in range(4)])

    def receive():
        return exec_result(sent[-1], next(answers))

    b = JsonLinesBridge(sent.append, "job7", receive=receive)
    assert b.run_code("print(1)")["n"] == 0
    assert b.insert_files([Path("/tmp/a.gds")])["n"] == 1
    assert b.undo()["n"] == 2
    assert b.run_deck("report('x')", report="r.lyrdb", deck_file="d.lydrc")["n"] == 3
    fields = [{k: v for k, v in m.items() if k not in ("type", "id", "exec_id", "action")} for m in sent]
    assert [m["action"] for m in sent] == ["run_code", "insert_files", "undo", "run_deck"]
    assert fields == [{"code": "print(1)"}, {"paths": ["/tmp/a.gds"]}, {},
                      {"deck": "report('x')", "report": "r.lyrdb", "deck_file": "d.lydrc"}]
    assert all(m["type"] == "exec" and m["id"] == "job7" for m in sent)
    assert len({m["exec_id"] for m in sent}) == 4   # every call has its own exec_id
    assert exec_result(sent[0], {"ok": True}) == {"type": "exec_result", "id": "job7",
                                                  "exec_id": sent[0]["exec_id"], "result": {"ok": True}}


def test_a_reading_call_skips_other_messages_and_fails_when_the_channel_ends():
    sent = []
    incoming = queue.Queue()
    b = JsonLinesBridge(sent.append, 3, receive=lambda: incoming.get(timeout=5))
    incoming.put({"type": "exec_result", "exec_id": "someone-else", "result": {"ok": False}})
    incoming.put({"op": "noise"})
    incoming.put({"type": "exec_result", "exec_id": None, "result": {"ok": False}})

    def answer():
        while not sent:
            time.sleep(0.01)
        incoming.put(exec_result(sent[0], {"ok": True, "stdout": "1\n"}))
    threading.Thread(target=answer, daemon=True).start()
    assert b.run_code("print(1)") == {"ok": True, "stdout": "1\n"}
    ended = JsonLinesBridge(sent.append, 3, receive=lambda: None)
    with pytest.raises(RuntimeError, match="the KLayout driver closed the pipe"):
        ended.undo()


def test_a_delivered_answer_reaches_its_waiting_call_only():
    sent = []
    b = JsonLinesBridge(sent.append, "r1", threading.Event(), timeout_s=10)
    assert not b.deliver("x-nobody", {"ok": True})   # nobody waits for it
    _answer_in_thread(b, sent, {"ok": True, "changes": {"changed": True}})
    assert b.run_code("x = 1") == {"ok": True, "changes": {"changed": True}}
    assert not b.deliver(sent[0]["exec_id"], {"ok": False})   # a late duplicate goes nowhere


def test_cancel_and_timeout_end_a_waiting_call_with_the_old_messages():
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(CancelledError, match="^request cancelled$"):
        JsonLinesBridge(lambda m: None, "r1", cancel).run_code("x = 1")

    cancel = threading.Event()
    b = JsonLinesBridge(lambda m: threading.Timer(0.2, cancel.set).start(), "r1", cancel, timeout_s=30)
    t0 = time.monotonic()
    with pytest.raises(CancelledError, match="while KLayout was running the script"):
        b.run_code("x = 1")
    assert time.monotonic() - t0 < 5 and not b._waiting

    b = JsonLinesBridge(lambda m: None, "r1", threading.Event(), timeout_s=0.3)
    with pytest.raises(TimeoutError, match="KLayout did not answer the insert_files request within 0 s"):
        b.insert_files(["a.gds"])
    assert not b._waiting


# ------------------------------------------------------------------ user 1: the engine process
def test_engine_asks_the_plugin_with_exec_and_takes_its_exec_result(tmp_path, monkeypatch):
    """An interactive ``fix`` as the panel sees it: the probe runs through exec, its change is undone
    through exec, and only the exec_result with the right exec_id is taken."""
    from pic_copilot.config import load_settings
    from pic_copilot.frontends import engine as eng

    monkeypatch.setenv("PIC_COPILOT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PIC_COPILOT_CONFIG", str(tmp_path / "none.toml"))
    out = queue.Queue()
    engine = eng.Engine(eng.Channel(eng._LineSink(out.put)), load_settings())

    def next_message():
        while True:
            m = out.get(timeout=30)
            if m["type"] not in ("progress", "token"):
                return m

    engine.handle({"type": "fix", "id": "f9", "code": "print('fine')\n", "name": "fine", "mode": "interactive"})
    copy = next_message()   # the trial run on a copy asks for the copy first; no copy: no trial
    assert copy["type"] == "exec" and copy["action"] == "copy_layout" and copy["path"].endswith("open_layout.gds")
    engine.handle(exec_result(copy, {"ok": False, "exception": {"type": "NoLayout", "message": "none"}}))
    run = next_message()
    assert run == {"type": "exec", "id": "f9", "exec_id": run["exec_id"], "action": "run_code",
                   "code": "print('fine')\n"}
    engine.handle({"type": "exec_result", "id": "f9", "exec_id": "x-other", "result": {"ok": False}})  # not its
    engine.handle(exec_result(run, {"ok": True, "undoable": True, "changes": {"changed": True}, "stdout": "fine\n"}))
    undo = next_message()
    assert undo["type"] == "exec" and undo["action"] == "undo" and undo["id"] == "f9"
    assert undo["exec_id"] != run["exec_id"]
    engine.handle(exec_result(undo, {"ok": True, "message": "undone"}))
    done = next_message()
    assert done["type"] == "fix_result" and done["ok"] and not done["needed"], done


def test_engine_cancel_stops_a_job_waiting_for_klayout(tmp_path, monkeypatch):
    from pic_copilot.config import load_settings
    from pic_copilot.frontends import engine as eng

    monkeypatch.setenv("PIC_COPILOT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PIC_COPILOT_CONFIG", str(tmp_path / "none.toml"))
    out = queue.Queue()
    engine = eng.Engine(eng.Channel(eng._LineSink(out.put)), load_settings())
    engine.handle({"type": "fix", "id": "f10", "code": "print('x')\n", "mode": "interactive"})
    while out.get(timeout=30)["type"] != "exec":
        pass
    engine.handle({"type": "cancel", "id": "f10"})
    m = out.get(timeout=5)
    assert m == {"type": "error", "id": "f10", "kind": "cancelled", "message": "cancelled by the designer"}
    engine._jobs["f10"]["thread"].join(5)
    assert not engine._jobs["f10"]["thread"].is_alive()
    assert engine._jobs["f10"]["bridge"]._waiting == {}


# -------------------------------------------------------------- user 2: the benchmark worker
def test_bench_worker_asks_the_driver_with_the_same_exec_shape(tmp_path):
    """``python -m pic_copilot.bench.worker`` runs an interactive candidate through the same bridge:
    the exec carries the op's id, the driver's exec_result (bench.py's shape) answers it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "lib"), PIC_COPILOT_HOME=str(tmp_path / "home"))
    p = subprocess.Popen([sys.executable, "-m", "pic_copilot.bench.worker"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=str(ROOT))

    def send(msg):
        p.stdin.write(json.dumps(msg) + "\n")
        p.stdin.flush()

    try:
        send({"op": "execute", "id": 4, "code": "print('hi')\n", "mode": "interactive", "timeout_s": 30})
        copy = json.loads(p.stdout.readline())
        assert copy["type"] == "exec" and copy["id"] == 4 and copy["action"] == "copy_layout", copy
        send(exec_result(copy, {"ok": False}))
        ask = json.loads(p.stdout.readline())
        assert ask == {"type": "exec", "id": 4, "exec_id": ask["exec_id"], "action": "run_code", "code": "print('hi')\n"}
        send({"type": "exec_result", "id": 4, "exec_id": "x-stale", "result": {"ok": False}})   # skipped
        send(exec_result(ask, {"ok": True, "stdout": "hi\n", "stderr": "", "undoable": True,
                               "changes": {"changed": False}}))
        reply = json.loads(p.stdout.readline())
        assert reply["type"] == "reply" and reply["id"] == 4, reply
        assert reply["result"]["ok"] and reply["result"]["stdout"] == "hi\n" and reply["result"]["where"] == "klayout"
        send({"op": "shutdown", "id": 5})
        assert json.loads(p.stdout.readline())["type"] == "reply"
        p.wait(20)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
