"""The Bridge protocol over JSON lines: each call is one ``exec`` message answered by one ``exec_result``.

Two engine-side processes reach KLayout this way, with the same class and the same messages:

- the engine process (:mod:`pic_copilot.frontends.engine`), answered by the plugin's controller
  (klayout_plugin/pic_copilot_plugin/controller.py) on the designer's open layout;
- the benchmark worker (:mod:`pic_copilot.bench.worker`), answered by the benchmark driver
  (benchmark/bench.py) on a task's headless layout.

The message shape (docs/PROTOCOL.md)::

    {"type": "exec", "id": <job>, "exec_id": <call>, "action": "run_code"|"insert_files"|"undo"|"run_deck",
     ...the action's fields: "code" | "paths" | "deck", "report", "deck_file"}
    {"type": "exec_result", "id": <job>, "exec_id": <call>, "result": <bridge result>}

``id`` is the job the call belongs to (an engine request, fix or benchmark op), as on every other
message of both channels; ``exec_id`` pairs an answer with its call. The KLayout side runs the
action with ``bridge.dispatch(session, action, message)`` and answers with ``bridge.exec_result``.
stdlib only.
"""
from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable

class CancelledError(RuntimeError):
    """The job was cancelled before or while KLayout ran one of its calls."""


def exec_result(exec_msg: dict, result: dict) -> dict:
    """The ``exec_result`` message answering ``exec_msg`` with a bridge result."""
    return {"type": "exec_result", "id": exec_msg.get("id"), "exec_id": exec_msg.get("exec_id"), "result": result}


class JsonLinesBridge:
    """A Bridge whose calls are ``exec`` messages on a JSON-lines channel, answered by ``exec_result``.

    An answer reaches the waiting call in one of two ways:

    - ``receive`` given: the call reads the channel itself until its ``exec_result`` comes and skips
      every other message (the benchmark worker: one thread, which is the channel's only reader
      while an op runs; the driver on the other end bounds the time);
    - otherwise the process's reader hands each ``exec_result`` to :meth:`deliver` while the call
      waits in the job's thread, checking ``cancel`` and ``timeout_s`` (the engine: its main thread
      reads stdin).

    Args:
        send: writes one message to the channel (safe to call from the job's thread).
        job_id: the job the calls belong to; every ``exec`` carries it as ``id``.
        cancel: set when the job is cancelled; a call then raises :class:`CancelledError`.
        timeout_s: a call not answered within this long raises TimeoutError (None: wait).
        receive: reads the next message from the channel, None at its end.
    """

    def __init__(self, send: Callable[[dict], None], job_id: str, cancel: threading.Event | None = None,
                 timeout_s: float | None = None, receive: Callable[[], dict | None] | None = None):
        self.send = send
        self.job_id = job_id
        self.cancel = cancel if cancel is not None else threading.Event()
        self.timeout_s = timeout_s
        self.receive = receive
        self._waiting: dict[str, tuple[threading.Event, list]] = {}   # exec_id -> (answered, [result])
        self._lock = threading.Lock()

    def call(self, action: str, **fields) -> dict:
        """Ask KLayout to run one action (run_code, insert_files, undo, run_deck) and return its bridge result."""
        if self.cancel.is_set():
            raise CancelledError("request cancelled")
        exec_id = "x-" + uuid.uuid4().hex[:10]   # unique: a late answer never reaches a newer call
        msg = {"type": "exec", "id": self.job_id, "exec_id": exec_id, "action": action, **fields}
        if self.receive is not None:
            self.send(msg)
            return self._read_answer(exec_id)
        answered, box = threading.Event(), []
        with self._lock:
            self._waiting[exec_id] = (answered, box)
        try:
            self.send(msg)
            deadline = None if self.timeout_s is None else time.monotonic() + self.timeout_s
            while not answered.wait(0.1):
                if self.cancel.is_set():
                    raise CancelledError("request cancelled while KLayout was running the script")
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeoutError(f"KLayout did not answer the {action} request within {self.timeout_s:.0f} s")
        finally:
            with self._lock:
                self._waiting.pop(exec_id, None)
        return box[0]

    def _read_answer(self, exec_id: str) -> dict:
        while True:
            msg = self.receive()
            if msg is None:
                raise RuntimeError("the KLayout driver closed the pipe")
            if msg.get("type") == "exec_result" and msg.get("exec_id") == exec_id:
                return msg.get("result") or {}

    def deliver(self, exec_id: str, result: dict) -> bool:
        """Hand an ``exec_result`` to the call waiting for it; False if no call of this bridge waits for it."""
        with self._lock:
            entry = self._waiting.get(exec_id)
        if entry is None:
            return False
        entry[1].append(result)
        entry[0].set()
        return True

    # -- the Bridge protocol
    def run_code(self, code: str) -> dict:
        return self.call("run_code", code=code)

    def insert_files(self, paths: list[str]) -> dict:
        return self.call("insert_files", paths=[str(p) for p in paths])

    def undo(self) -> dict:
        return self.call("undo")

    def run_deck(self, deck: str, report: str, deck_file: str) -> dict:
        return self.call("run_deck", deck=deck, report=report, deck_file=deck_file)

    def copy_layout(self, path: str) -> dict:
        return self.call("copy_layout", path=str(path))
