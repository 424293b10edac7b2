"""The engine process: reads JSON-lines requests on stdin, writes events on stdout.

Started by the KLayout plugin (``QProcess``) as ``python -m pic_copilot.engine``. The message
types are documented in docs/PROTOCOL.md. The main thread reads stdin; each request runs in a
worker thread so that ``cancel`` and ``exec_result`` messages are handled while it works.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback
import uuid
from dataclasses import replace

from . import __version__
from .config import Settings, load_settings
from .llm import LLMError, make_client
from .pipeline_io import Outcome, Request

EXEC_TIMEOUT_S = 600.0


class Channel:
    """Writes protocol messages to stdout (one JSON object per line, thread-safe)."""

    def __init__(self, stream=None):
        self._out = stream or sys.stdout
        self._lock = threading.Lock()

    def send(self, msg: dict) -> None:
        line = json.dumps(msg, default=str)
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()


class PluginBridge:
    """The Bridge protocol over the JSON-lines channel: asks the plugin to run code in KLayout."""

    def __init__(self, channel: Channel, request_id: str, cancel: threading.Event):
        self.channel = channel
        self.request_id = request_id
        self.cancel = cancel
        self._waiting: dict[str, tuple[threading.Event, list]] = {}
        self._lock = threading.Lock()

    def _call(self, action: str, payload: dict) -> dict:
        exec_id = "x-" + uuid.uuid4().hex[:10]
        done, box = threading.Event(), []
        with self._lock:
            self._waiting[exec_id] = (done, box)
        self.channel.send({"type": "exec", "id": exec_id, "request": self.request_id, "action": action, **payload})
        deadline = time.monotonic() + EXEC_TIMEOUT_S
        while not done.wait(0.1):
            if self.cancel.is_set():
                raise CancelledError("request cancelled while KLayout was running the script")
            if time.monotonic() > deadline:
                raise TimeoutError(f"KLayout did not answer the {action} request within {EXEC_TIMEOUT_S:.0f} s")
        with self._lock:
            self._waiting.pop(exec_id, None)
        return box[0]

    def deliver(self, exec_id: str, result: dict) -> bool:
        with self._lock:
            entry = self._waiting.get(exec_id)
        if entry is None:
            return False
        entry[1].append(result)
        entry[0].set()
        return True

    def run_code(self, code: str) -> dict:
        return self._call("run_code", {"code": code})

    def insert_files(self, paths: list[str]) -> dict:
        return self._call("insert_files", {"paths": paths})


class CancelledError(RuntimeError):
    pass


class ChannelIO:
    """PipelineIO that turns pipeline events into protocol messages."""

    def __init__(self, channel: Channel, request_id: str, bridge: PluginBridge | None, cancel: threading.Event):
        self.channel = channel
        self.request_id = request_id
        self.bridge = bridge
        self.cancel = cancel

    def progress(self, stage: str, message: str, data: dict | None = None) -> None:
        msg = {"type": "progress", "id": self.request_id, "stage": stage, "message": message}
        if data is not None:
            msg["data"] = data
        self.channel.send(msg)

    def token(self, agent: str, text: str | None) -> None:
        self.channel.send({"type": "token", "id": self.request_id, "agent": agent, "text": text})

    def script(self, code: str, round_: int) -> None:
        self.channel.send({"type": "script", "id": self.request_id, "code": code, "round": round_})


def error_kind(exc: BaseException) -> str:
    """The protocol's error kind for an exception."""
    if isinstance(exc, LLMError):
        return "llm-" + exc.kind
    if isinstance(exc, CancelledError):
        return "cancelled"
    if isinstance(exc, (ValueError, KeyError)):
        return "bad-request"
    return "internal"


class Engine:
    """Dispatches protocol messages; one request runs at a time in a worker thread."""

    def __init__(self, channel: Channel, settings: Settings):
        self.channel = channel
        self.settings = settings
        self._client = None
        self._jobs: dict[str, dict] = {}   # request id -> {"thread", "cancel", "bridge", "request", "outcome"}
        self._lock = threading.Lock()
        self._started_llm = False

    # -- resources
    def client(self):
        """The LLM client, created on first use (starts the embedded server if nothing is configured)."""
        if self._client is None:
            from .llm import local_server

            was_running = self.settings.provider == "local" and local_server.status() is not None
            self._client = make_client(self.settings)
            self._started_llm = self.settings.provider == "local" and not was_running
        return self._client

    # -- message handling
    def handle(self, msg: dict) -> bool:
        """Handle one message; returns False when the engine should exit."""
        t = msg.get("type")
        if t == "ping":
            self.channel.send({"type": "pong"})
        elif t == "request":
            self._start(msg)
        elif t == "feedback":
            self._feedback(msg)
        elif t == "exec_result":
            for job in list(self._jobs.values()):
                if job["bridge"] is not None and job["bridge"].deliver(msg.get("id", ""), msg.get("result") or {}):
                    break
        elif t == "cancel":
            job = self._jobs.get(msg.get("id", ""))
            if job:
                job["cancel"].set()
        elif t == "shutdown":
            for job in self._jobs.values():
                job["cancel"].set()
            if msg.get("stop_llm") and self._started_llm:
                from .llm import local_server

                local_server.stop()
            return False
        else:
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request",
                               "message": f"unknown message type {t!r}"})
        return True

    def _busy(self) -> bool:
        return any(j["thread"].is_alive() for j in self._jobs.values())

    def _start(self, msg: dict, request: Request | None = None) -> None:
        if self._busy():
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request",
                               "message": "a request is already running; wait for it or cancel it"})
            return
        try:
            request = request or Request(id=str(msg["id"]), prompt=str(msg["prompt"]).strip(),
                                         mode=msg.get("mode", self.settings.mode),
                                         layout_context=msg.get("context"), max_rounds=msg.get("max_rounds"),
                                         config=msg.get("config") or os.environ.get("PIC_COPILOT_PIPELINE", "full"))
            if not request.prompt:
                raise ValueError("the request is empty")
            if request.mode not in ("interactive", "sandbox"):
                raise ValueError(f"unknown mode {request.mode!r}")
        except (KeyError, ValueError) as e:
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request", "message": str(e)})
            return
        cancel = threading.Event()
        bridge = PluginBridge(self.channel, request.id, cancel) if request.mode == "interactive" else None
        job = {"cancel": cancel, "bridge": bridge, "request": request, "outcome": None}
        job["thread"] = threading.Thread(target=self._run, args=(job,), daemon=True, name=f"request-{request.id}")
        self._jobs[request.id] = job
        job["thread"].start()

    def _feedback(self, msg: dict) -> None:
        old = self._jobs.get(str(msg.get("id")))
        text = str(msg.get("text") or "").strip()
        if old is None or not text:
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request",
                               "message": "feedback needs the id of a finished request and some text"})
            return
        prev: Request = old["request"]
        outcome: Outcome | None = old["outcome"]
        req = replace(prev, feedback=[*prev.feedback, text],
                      previous_script=outcome.script if outcome else prev.previous_script)
        self._start(msg, request=req)

    def _run(self, job: dict) -> None:
        from .agents import run_request

        req: Request = job["request"]
        io = ChannelIO(self.channel, req.id, job["bridge"], job["cancel"])
        try:
            io.progress("llm", f"using {self.settings.provider} model {self.settings.model}")
            outcome = run_request(req, io, settings=self.settings, client=self.client())
            job["outcome"] = outcome
            self.channel.send({"type": "result", "id": req.id, "ok": outcome.ok, "script": outcome.script,
                               "rounds": outcome.rounds, "execution": outcome.execution, "usage": outcome.usage,
                               "record": outcome.record_path, "message": outcome.message})
        except BaseException as e:  # noqa: BLE001 - report every failure as a protocol error
            kind = "cancelled" if job["cancel"].is_set() else error_kind(e)
            detail = "" if isinstance(e, (LLMError, CancelledError, ValueError)) else "\n" + traceback.format_exc()
            print(f"request {req.id} failed: {e}{detail}", file=sys.stderr, flush=True)
            self.channel.send({"type": "error", "id": req.id, "kind": kind, "message": str(e) or type(e).__name__})


def main() -> int:
    # stdout belongs to the protocol: anything else printed by libraries goes to stderr
    out = sys.stdout
    sys.stdout = sys.stderr
    channel = Channel(out)
    try:
        settings = load_settings()
    except ValueError as e:
        channel.send({"type": "error", "id": None, "kind": "bad-request", "message": f"configuration: {e}"})
        return 2
    engine = Engine(channel, settings)
    channel.send({"type": "ready", "version": __version__, "provider": settings.provider, "model": settings.model,
                  "pid": os.getpid()})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("a message must be a JSON object")
        except ValueError as e:
            channel.send({"type": "error", "id": None, "kind": "bad-request", "message": f"invalid message: {e}"})
            continue
        if not engine.handle(msg):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
