"""The engine process: reads JSON-lines requests on stdin, writes events on stdout.

Started by the KLayout plugin (``QProcess``) as ``python -m pic_copilot.frontends.engine``. The message
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

from .. import __version__
from ..config import Settings, load_settings
from ..llm import LLMError, make_client
from ..execution.report import ExecutionReport
from ..contracts import Request, SessionStore
from ..bridges.jsonlines import CancelledError, JsonLinesBridge, exec_result

EXEC_TIMEOUT_S = 600.0   # an exec the plugin has not answered by then fails the job


from ..redact import ScrubbingStream, known_secrets, scrub  # noqa: E402,F401 - the one scrubber


class Channel:
    """Writes protocol messages to stdout (one JSON object per line, thread-safe, secrets masked).

    Args:
        stream: where the lines go (default sys.stdout).
        secrets: the keys to mask; the list is kept, not copied, so a key appended later (one the
            settings dialog stores, :meth:`Engine.note_secret`) is masked here and wherever else the
            same list is used (the engine's stderr).
    """

    def __init__(self, stream=None, secrets: list[str] | None = None):
        self._out = stream or sys.stdout
        self._lock = threading.Lock()
        self.secrets = secrets if secrets is not None else []

    def send(self, msg: dict) -> None:
        line = scrub(json.dumps(msg, default=str), self.secrets)
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()


class ChannelIO:
    """PipelineIO that turns pipeline events into protocol messages."""

    def __init__(self, channel: Channel, request_id: str, bridge: JsonLinesBridge | None, cancel: threading.Event):
        self.channel = channel
        self.request_id = request_id
        self.bridge = bridge
        self.cancel = cancel

    def _send(self, msg: dict) -> None:
        if not self.cancel.is_set():  # after a cancel the panel has been told; stay quiet
            self.channel.send(msg)

    def progress(self, stage: str, message: str, data: dict | None = None) -> None:
        msg = {"type": "progress", "id": self.request_id, "stage": stage, "message": message}
        if data is not None:
            msg["data"] = data
        self._send(msg)

    def token(self, agent: str, text: str | None) -> None:
        self._send({"type": "token", "id": self.request_id, "agent": agent, "text": text})

    def script(self, code: str, round_: int) -> None:
        self._send({"type": "script", "id": self.request_id, "code": code, "round": round_})


def error_kind(exc: BaseException) -> str:
    """The protocol's error kind for an exception."""
    if isinstance(exc, LLMError):
        return "llm-" + exc.kind
    if isinstance(exc, CancelledError):
        return "cancelled"
    if isinstance(exc, (ValueError, KeyError)):
        return "bad-request"
    return "internal"


def decorate_execution(rep: ExecutionReport | None) -> dict | None:
    """A report as the panel gets it (its dict), with thumbnails/readable copies of written layout
    files (``previews``) and report databases (``reports``) added to a sandbox run's. Never raises."""
    if rep is None:
        return None
    if rep.files and rep.workdir:
        try:
            from ..execution import render

            rep.previews = render.layout_previews(rep.workdir, rep.files)
            rep.reports = render.report_files(rep.workdir, rep.files)
        except Exception as e:  # noqa: BLE001 - a missing renderer must not lose the result
            print(f"previews failed: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
    return rep.to_dict()


class Engine:
    """Dispatches protocol messages; one job (request, run, explain) runs at a time in a worker thread.

    What a request remembers for the designer's feedback (the request, its outcome, its agents) is
    in ``sessions``, the one per-request memory; ``_jobs`` only controls the running threads.

    Args:
        channel: where the answers go.
        settings: the effective settings, or None when they could not be loaded: then only
            ``settings`` (so the dialog can repair the file), ``ping`` and ``shutdown`` are served,
            and every job is refused with ``config_error``.
        config_error: why the settings could not be loaded.
    """

    JOBS = ("request", "feedback", "run", "explain", "fix")

    def __init__(self, channel: Channel, settings: Settings | None, config_error: str = ""):
        self.channel = channel
        self.settings = settings
        self.config_error = config_error
        self.sessions = SessionStore()
        self._client = None
        self._jobs: dict[str, dict] = {}   # id -> {"thread", "cancel", "bridge", "kind", "request" or "msg"}
        self._lock = threading.Lock()
        self._started_llm = False

    # -- resources
    def client(self):
        """The LLM client, created on first use (starts the embedded server if nothing is configured)."""
        if self._client is None:
            from ..llm import local_server

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
        elif t == "settings":
            self._settings(msg)
        elif t in self.JOBS and self.settings is None:
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request",
                               "message": f"configuration: {self.config_error} (fix it in the settings dialog)"})
        elif t == "request":
            self._start(msg)
        elif t == "feedback":
            self._feedback(msg)
        elif t == "run":
            self._start_job(msg, "run", self._run_code)
        elif t == "explain":
            self._start_job(msg, "explain", self._explain)
        elif t == "fix":
            self._start_job(msg, "fix", self._fix)
        elif t == "exec_result":
            for job in list(self._jobs.values()):
                if job["bridge"] is not None and job["bridge"].deliver(msg.get("exec_id", ""), msg.get("result") or {}):
                    break
        elif t == "cancel":
            self._cancel(str(msg.get("id", "")))
        elif t == "shutdown":
            for job in self._jobs.values():
                job["cancel"].set()
            if msg.get("stop_llm") and self._started_llm:
                from ..llm import local_server

                local_server.stop()
            return False
        else:
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request",
                               "message": f"unknown message type {t!r}"})
        return True

    def note_secret(self, key: str) -> None:
        """Mask ``key`` from now on in every line the engine writes (stdout and, in the engine process, stderr).

        Args:
            key: an API key the engine was just given.
        """
        key = (key or "").strip()
        if len(key) >= 4 and key not in self.channel.secrets:
            self.channel.secrets.append(key)
            self.channel.secrets.sort(key=len, reverse=True)

    def _settings(self, msg: dict) -> None:
        """``settings``: the settings dialog's content (``get``) or its saving (``save``), answered with
        ``settings_result`` at once (file work only, also while a job runs). The API key is never sent back."""
        from . import settings_form

        action = msg.get("action") or "get"
        reply = {"type": "settings_result", "id": msg.get("id"), "action": action, "ok": False}
        try:
            if action == "save":
                key = msg.get("api_key")
                if isinstance(key, str) and key:
                    self.note_secret(key)   # before anything could echo it
                reply["saved"] = str(settings_form.save(msg.get("values"), key))
            elif action != "get":
                raise ValueError(f"unknown settings action {action!r}; use get or save")
            reply["form"] = settings_form.load_form().to_dict()
            reply["ok"] = True
        except (ValueError, OSError) as e:
            reply["message"] = f"{type(e).__name__}: {e}" if isinstance(e, OSError) else str(e)
        self.channel.send(reply)

    def _cancel(self, job_id: str) -> None:
        """Stop a job: the panel is told at once; the worker stops at its next check and stays quiet."""
        job = self._jobs.get(job_id)
        if job is None or job["cancel"].is_set() or not job["thread"].is_alive():
            return
        job["cancel"].set()
        job["reported"] = True
        self.channel.send({"type": "error", "id": job_id, "kind": "cancelled", "message": "cancelled by the designer"})

    def _busy(self) -> bool:
        # a cancelled job may still wait on a slow endpoint, and an answered one may still be returning:
        # neither blocks new requests (a feedback sent the moment the result arrived is taken)
        return any(j["thread"].is_alive() and not j["cancel"].is_set() and not j.get("answered")
                   for j in self._jobs.values())

    def _final(self, job: dict, msg: dict) -> None:
        """Send a job's last message (its result or error); from then on the job no longer blocks new ones."""
        job["answered"] = True
        self.channel.send(msg)

    def _refuse_if_busy(self, msg: dict) -> bool:
        if self._busy():
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request",
                               "message": "a request is already running; wait for it or cancel it"})
            return True
        return False

    def _plugin_bridge(self, job_id: str, cancel: threading.Event) -> JsonLinesBridge:
        """The bridge of an interactive job: exec messages to the plugin, answered via handle("exec_result")."""
        return JsonLinesBridge(self.channel.send, job_id, cancel, timeout_s=EXEC_TIMEOUT_S)

    def _spawn(self, job_id: str, job: dict, target) -> None:
        for old_id, old in list(self._jobs.items()):   # finished jobs need no control any more
            if not old["thread"].is_alive():
                del self._jobs[old_id]
        job.setdefault("reported", False)
        job["thread"] = threading.Thread(target=target, args=(job,), daemon=True, name=f"{job['kind']}-{job_id}")
        self._jobs[job_id] = job
        job["thread"].start()

    def _start(self, msg: dict, request: Request | None = None) -> None:
        if self._refuse_if_busy(msg):
            return
        try:
            if request is None:
                context = msg.get("context")
                prompt = str(msg["prompt"]).strip()
                fb = msg.get("feedback") or []
                if isinstance(fb, str):
                    fb = [fb]
                request = Request(id=str(msg["id"]), prompt=prompt,
                                  mode=msg.get("mode", self.settings.mode),
                                  layout_context=context, max_rounds=msg.get("max_rounds"),
                                  config=msg.get("config") or os.environ.get("PIC_COPILOT_PIPELINE", "full"),
                                  feedback=[str(t) for t in fb if str(t).strip()],
                                  previous_script=msg.get("previous_script") or None)
            if not request.prompt:
                raise ValueError("the request is empty")
            if request.mode not in ("interactive", "sandbox"):
                raise ValueError(f"unknown mode {request.mode!r}")
        except (KeyError, ValueError) as e:
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request", "message": str(e)})
            return
        cancel = threading.Event()
        bridge = self._plugin_bridge(request.id, cancel) if request.mode == "interactive" else None
        job = {"cancel": cancel, "bridge": bridge, "request": request, "kind": "request"}
        self.sessions.started(request)   # remembered even if the run cannot begin (feedback retries it)
        self._spawn(request.id, job, self._run)

    def _start_job(self, msg: dict, kind: str, target) -> None:
        if self._refuse_if_busy(msg):
            return
        job_id = str(msg.get("id") or "")
        code = msg.get("code")
        if not job_id or not isinstance(code, str) or not code.strip():
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request",
                               "message": f"'{kind}' needs an id and the code"})
            return
        if kind == "fix" and msg.get("mode", self.settings.mode) not in ("interactive", "sandbox"):
            self.channel.send({"type": "error", "id": job_id, "kind": "bad-request",
                               "message": f"unknown mode {msg.get('mode')!r}; use sandbox or interactive"})
            return
        cancel = threading.Event()
        interactive = kind == "fix" and msg.get("mode", self.settings.mode) == "interactive"
        job = {"cancel": cancel, "bridge": self._plugin_bridge(job_id, cancel) if interactive else None,
               "request": None, "kind": kind, "msg": msg}
        self._spawn(job_id, job, target)

    def _feedback(self, msg: dict) -> None:
        text = str(msg.get("text") or "").strip()
        req = self.sessions.revision(str(msg.get("id")), text) if text else None
        if req is None:
            self.channel.send({"type": "error", "id": msg.get("id"), "kind": "bad-request",
                               "message": "feedback needs the id of a finished request and some text"})
            return
        self._start(msg, request=req)

    def _fail(self, job: dict, job_id: str, e: BaseException) -> None:
        kind = "cancelled" if job["cancel"].is_set() else error_kind(e)
        detail = "" if isinstance(e, (LLMError, CancelledError, ValueError)) else "\n" + traceback.format_exc()
        print(f"{job['kind']} {job_id} failed: {e}{detail}", file=sys.stderr, flush=True)
        if not job.get("reported"):
            self._final(job, {"type": "error", "id": job_id, "kind": kind, "message": str(e) or type(e).__name__})

    def _run(self, job: dict) -> None:
        from ..agents import run_request

        req: Request = job["request"]
        io = ChannelIO(self.channel, req.id, job["bridge"], job["cancel"])
        try:
            io.progress("llm", f"using {self.settings.provider} model {self.settings.model}")
            outcome = run_request(req, io, settings=self.settings, client=self.client(), sessions=self.sessions)
            if job.get("reported"):
                return
            execution = decorate_execution(outcome.execution)
            self._final(job, {"type": "result", "id": req.id, "ok": outcome.ok, "script": outcome.script,
                               "rounds": outcome.rounds, "execution": execution, "usage": outcome.usage,
                               "record": outcome.record_path, "message": outcome.message,
                               "timings": outcome.timings, "time_summary": outcome.time_line()})
        except BaseException as e:  # noqa: BLE001 - report every failure as a protocol error
            self._fail(job, req.id, e)

    def _run_code(self, job: dict) -> None:
        """``run``: execute the given script in the sandbox (no LLM) and report it with previews."""
        from ..execution.drc_deck import is_deck, run_deck_in_sandbox
        from ..execution.routing import run_in_sandbox

        msg = job["msg"]
        job_id = str(msg["id"])
        io = ChannelIO(self.channel, job_id, None, job["cancel"])
        try:
            io.progress("execute", "running the script in the sandbox")
            timeout = float(msg.get("timeout_s") or 120)
            # a KLayout DRC deck runs with KLayout's DRC engine (on an empty layout: no input is given)
            rep = run_deck_in_sandbox(msg["code"], timeout_s=timeout) if is_deck(msg["code"]) else \
                run_in_sandbox(msg["code"], timeout_s=timeout)
            if job.get("reported"):
                return
            execution = decorate_execution(rep)
            io.progress("execute", "ran ok" if rep.ok else "the run failed")
            self._final(job, {"type": "run_result", "id": job_id, "ok": bool(rep.ok), "execution": execution})
        except BaseException as e:  # noqa: BLE001
            self._fail(job, job_id, e)

    def _explain(self, job: dict) -> None:
        """``explain``: a plain-language explanation of a script (streamed), then ``explanation``."""
        from ..agents import explain_fix

        msg = job["msg"]
        job_id = str(msg["id"])
        io = ChannelIO(self.channel, job_id, None, job["cancel"])
        try:
            io.progress("llm", f"explaining {msg.get('name') or 'the macro'} with {self.settings.provider} model "
                               f"{self.settings.model}")
            io.token("explainer", None)
            text = explain_fix.explain(self.client(), msg["code"], name=str(msg.get("name") or ""),
                                       question=str(msg.get("question") or ""), cancel=job["cancel"],
                                       on_token=lambda t: io.token("explainer", t))
            if not job.get("reported"):
                self._final(job, {"type": "explanation", "id": job_id, "text": text})
        except BaseException as e:  # noqa: BLE001
            self._fail(job, job_id, e)

    def _fix(self, job: dict) -> None:
        """``fix``: run the script as it is, then revise it with what went wrong; answered by ``fix_result``."""
        from ..agents import explain_fix

        msg = job["msg"]
        job_id = str(msg["id"])
        io = ChannelIO(self.channel, job_id, job["bridge"], job["cancel"])
        try:
            io.progress("llm", f"fixing {msg.get('name') or 'the macro'} with {self.settings.provider} model "
                               f"{self.settings.model}")
            out = explain_fix.fix(msg["code"], io, self.settings, self.client, job_id,
                                  name=str(msg.get("name") or ""), complaint=str(msg.get("complaint") or ""),
                                  mode=msg.get("mode") or self.settings.mode,
                                  config=msg.get("config") or os.environ.get("PIC_COPILOT_PIPELINE", "full"),
                                  max_rounds=msg.get("max_rounds"), layout_context=msg.get("context"))
            if not job.get("reported"):
                reply = out.to_message(job_id)
                reply["execution"] = decorate_execution(out.execution)
                self._final(job, reply)
        except BaseException as e:  # noqa: BLE001
            self._fail(job, job_id, e)


class _LineSink:
    """A text stream that hands each complete JSON line to a callback (an in-process Channel's stdout)."""

    def __init__(self, on_message):
        self.on_message = on_message
        self._buf = ""

    def write(self, text: str) -> int:
        self._buf += text
        while "\n" in self._buf:
            line, self._buf = self._buf.split("\n", 1)
            if line.strip():
                self.on_message(json.loads(line))
        return len(text)

    def flush(self) -> None:
        pass


TERMINAL = ("result", "run_result", "explanation", "fix_result", "error")


def run_job(msg: dict, bridge=None, on_event=None, settings: Settings | None = None,
            timeout_s: float | None = None) -> dict:
    """Run one protocol message (``explain``, ``fix``, ``request``, ``run``) in this process and return
    its answer: the same engine, messages and secret masking the KLayout panel gets, for the command
    line and the MCP server.

    Args:
        msg: the message, with an ``id``.
        bridge: answers the engine's ``exec`` messages (a bridges.Bridge: the running KLayout's
            endpoint, or klayout -b); None refuses them.
        on_event: called with every other message (progress, tokens, scripts) as it comes.
        settings: engine settings (default: load_settings()).
        timeout_s: give up (and cancel the job) after this long; None waits.

    Returns:
        the job's final message (type in TERMINAL). KeyboardInterrupt cancels the job and re-raises.
    """
    import queue

    inbox: queue.Queue = queue.Queue()
    settings = settings or load_settings()
    engine = Engine(Channel(_LineSink(inbox.put), known_secrets(settings)), settings)
    job_id = str(msg["id"])
    engine.handle(msg)
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    try:
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                engine.handle({"type": "cancel", "id": job_id})
                raise TimeoutError(f"the {msg.get('type')} job did not finish within {timeout_s:.0f} s")
            try:
                m = inbox.get(timeout=0.2 if left is None else min(0.2, left))
            except queue.Empty:
                continue
            if m.get("type") == "exec":
                engine.handle(exec_result(m, _answer_exec(bridge, m)))
                continue
            if m.get("type") in TERMINAL and m.get("id") in (job_id, None):
                return m
            if on_event is not None:
                on_event(m)
    except KeyboardInterrupt:
        engine.handle({"type": "cancel", "id": job_id})
        raise


def _answer_exec(bridge, m: dict) -> dict:
    """Run an ``exec`` message's action on a Bridge; failures become a failed bridge result."""
    try:
        if bridge is None:
            raise RuntimeError("no KLayout to run this on (use the sandbox mode, or open KLayout)")
        action = m.get("action")
        if action == "insert_files":
            return bridge.insert_files(list(m.get("paths") or []))
        if action == "undo":
            return bridge.undo()
        if action == "run_deck":
            return bridge.run_deck(m.get("deck", ""), report=m.get("report") or "drc_report.lyrdb",
                                   deck_file=m.get("deck_file") or "deck.lydrc")
        if action == "copy_layout" and hasattr(bridge, "copy_layout"):
            return bridge.copy_layout(m.get("path", ""))
        if action == "run_code":
            return bridge.run_code(m.get("code", ""))
        return {"ok": False, "exception": {"type": "BadRequest", "traceback": "",
                                           "message": f"this bridge does not do {action!r}"}}
    except Exception as e:  # noqa: BLE001 - reported to the pipeline as a failed run
        return {"ok": False, "exception": {"type": type(e).__name__, "message": str(e), "traceback": ""}}


def main() -> int:
    # stdout belongs to the protocol: anything else printed by libraries goes to stderr
    out = sys.stdout
    secrets = known_secrets()
    sys.stderr = ScrubbingStream(sys.stderr, secrets)
    sys.stdout = sys.stderr
    channel = Channel(out, secrets)
    try:
        settings, problem = load_settings(), ""
    except ValueError as e:
        # no jobs with a broken configuration, but the settings dialog can still read and repair it
        settings, problem = None, str(e)
        channel.send({"type": "error", "id": None, "kind": "bad-request", "message": f"configuration: {e}"})
    for k in known_secrets(settings):
        if k not in secrets:
            secrets.append(k)
    secrets.sort(key=len, reverse=True)
    engine = Engine(channel, settings, config_error=problem)
    if settings is not None:
        channel.send({"type": "ready", "version": __version__, "provider": settings.provider,
                      "model": settings.model, "pid": os.getpid()})
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
    return 0 if settings is not None else 2


if __name__ == "__main__":
    sys.exit(main())
