"""The engine child process, driven with QProcess and JSON lines (stdlib + pya only).

QProcess signals arrive on KLayout's main thread, so the GUI never blocks and no Python
thread is needed (Python threads starve inside the KLayout GUI). In batch mode (klayout -b)
there is no event loop: call :meth:`EngineProcess.pump` to wait for messages.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pya

from . import GRAIN_ROOT
from .paths import data_folder


def engine_python() -> str:
    """The engine venv's python: PIC_COPILOT_PYTHON, else <grain>/.venv/bin/python."""
    explicit = os.environ.get("PIC_COPILOT_PYTHON")
    if explicit:
        return explicit
    return str(GRAIN_ROOT / ".venv" / "bin" / "python")


def engine_process() -> "pya.QProcess":
    """A QProcess for the engine venv's Python: KLayout's PYTHONPATH/PYTHONHOME removed (they would
    mix KLayout's interpreter into the venv), the grain's own ``lib`` on the path, and unbuffered
    output, so lines arrive as written."""
    p = pya.QProcess()
    env = pya.QProcessEnvironment.systemEnvironment()
    for var in ("PYTHONPATH", "PYTHONHOME"):
        env.remove(var)
    # this grain's engine code first: the venv's own install of pic_copilot may be another checkout's
    env.insert("PYTHONPATH", str(GRAIN_ROOT / "lib"))
    env.insert("PYTHONUNBUFFERED", "1")
    p.setProcessEnvironment(env)
    return p


def log_dir() -> Path:
    """Where the engine's stderr log is written."""
    return data_folder("logs")


class EngineProcess:
    """Starts ``python -m pic_copilot.frontends.engine`` and exchanges protocol messages with it.

    Args:
        on_message: called with each decoded message dict (on the main thread).
        on_exit: called with (exit_code, reason) when the process ends unexpectedly.
    """

    def __init__(self, on_message, on_exit=None):
        self.on_message = on_message
        self.on_exit = on_exit
        self.proc = None
        self._buf = b""
        self._stopping = False
        self.ready = False
        self.stderr_log = str(log_dir() / "engine.log")
        # PIC_COPILOT_PROTOCOL_LOG=path: append every protocol line (both directions) there (tests, debugging)
        self.protocol_log = os.environ.get("PIC_COPILOT_PROTOCOL_LOG") or None

    def _log(self, direction: str, line: bytes) -> None:
        if self.protocol_log:
            try:
                with open(self.protocol_log, "ab") as f:
                    f.write(direction.encode() + b" " + line.rstrip(b"\n") + b"\n")
            except OSError:
                pass

    def start(self) -> None:
        """Start the engine (no-op if it runs). Raises RuntimeError with a clear reason if it cannot."""
        if self.running():
            return
        py = engine_python()
        if not os.path.exists(py):
            raise RuntimeError(f"the pic-copilot engine is not installed ({py} missing): run "
                               f"{GRAIN_ROOT}/scripts/setup.sh")
        self._buf = b""
        self._stopping = False
        self.ready = False
        p = engine_process()
        p.setStandardErrorFile(self.stderr_log, pya.QIODevice.Append)
        p.readyReadStandardOutput = self._on_ready_read
        p.finished = self._on_finished
        p.start(py, ["-m", "pic_copilot.frontends.engine"])
        self.proc = p
        if not p.waitForStarted(10000):
            self.proc = None
            raise RuntimeError(f"the pic-copilot engine did not start ({py}); see {self.stderr_log}")

    def running(self) -> bool:
        return self.proc is not None and self.proc.state() != pya.QProcess.NotRunning

    def send(self, msg: dict) -> None:
        if not self.running():
            raise RuntimeError("the pic-copilot engine is not running")
        data = (json.dumps(msg) + "\n").encode("utf-8")
        # the settings dialog's key goes to the engine, never into the protocol log
        self._log(">", data if not msg.get("api_key") else (json.dumps({**msg, "api_key": "***"}) + "\n").encode("utf-8"))
        self.proc.write(data)

    def pump(self, timeout_s: float) -> None:
        """Batch mode: wait up to timeout_s for output and dispatch it."""
        if self.proc is None:
            return
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.waitForReadyRead(50):
                self._on_ready_read()
                return
            if self.proc.state() == pya.QProcess.NotRunning:
                self._on_ready_read()
                self._on_finished(self.proc.exitCode(), None)
                return

    def stop(self, stop_llm: bool = False) -> None:
        """Ask the engine to exit; kill it if it does not within 3 s."""
        if not self.running():
            return
        self._stopping = True
        try:
            self.send({"type": "shutdown", "stop_llm": stop_llm})
            self.proc.closeWriteChannel()
        except RuntimeError:
            pass
        if not self.proc.waitForFinished(3000):
            self.proc.kill()
            self.proc.waitForFinished(1000)

    def kill(self) -> None:
        """Stop the engine at once (it did not answer a cancel); the next job starts a new one."""
        if not self.running():
            return
        self._stopping = True
        self.proc.kill()
        self.proc.waitForFinished(1000)

    # -- signal handlers
    def _on_ready_read(self, *args) -> None:
        if self.proc is None:
            return
        data = self.proc.readAllStandardOutput()
        self._buf += bytes(data) if not isinstance(data, bytes) else data
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            line = line.strip()
            if not line:
                continue
            self._log("<", line)
            try:
                msg = json.loads(line.decode("utf-8", "replace"))
            except ValueError:
                msg = {"type": "error", "id": None, "kind": "internal",
                       "message": "engine wrote a line that is not JSON: " + line[:200].decode("utf-8", "replace")}
            if msg.get("type") == "ready":
                self.ready = True
            self.on_message(msg)

    def _on_finished(self, code=None, status=None) -> None:
        if self._stopping or self.on_exit is None:
            return
        self._stopping = True
        self.on_exit(code, f"the pic-copilot engine stopped unexpectedly (exit code {code}); see {self.stderr_log}")
