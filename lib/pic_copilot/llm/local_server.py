"""The embedded default LLM: a llama.cpp OpenAI-compatible server on 127.0.0.1.

The server is started on demand, reused when one is already healthy (by any process that
left its state file), and stopped only when asked. Its state lives in
``<data home>/llm-server.json``: pid, port, model path, who started it.
"""
from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from ..config import data_home, llm_port
from ..setup_assets import llm_model_path

DEFAULT_PORT = 18765
N_CTX = 8192


class LocalServerError(RuntimeError):
    """The embedded LLM cannot be started; the message says which set-up step fixes it."""


@dataclass
class ServerInfo:
    """A running embedded server."""

    pid: int
    port: int
    model: str
    started_by_us: bool = False

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def _state_file() -> Path:
    return data_home() / "llm-server.json"


def runtime_python() -> Path:
    """The python of the venv that holds llama-cpp-python[server]."""
    return data_home() / "llm-venv" / "bin" / "python"


def is_healthy(port: int, timeout: float = 2.0) -> bool:
    """True if an OpenAI-compatible server answers /v1/models on this port."""
    try:
        r = httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=timeout)
        return r.status_code == 200
    except httpx.HTTPError:
        return False


def _accepts_connections(port: int, timeout: float = 2.0) -> bool:
    """True if something listens on 127.0.0.1:port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_to_use() -> int:
    """The port a new server listens on: the configured one (PIC_COPILOT_LLM_PORT / ``llm_port``), which
    must be free, else the default 18765, or any free port when something else holds the default."""
    try:
        choice = llm_port(default=DEFAULT_PORT)
    except ValueError as e:
        raise LocalServerError(str(e)) from None
    if choice.port and _port_free(choice.port):
        return choice.port
    if choice.explicit and choice.port:
        raise LocalServerError(choice.in_use_message("the embedded LLM server"))
    return _free_port()


def _is_our_server(pid: int) -> bool:
    """True if the process is a llama.cpp server serving a model from our data folder."""
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    text = [c.decode("utf-8", "replace") for c in cmd]
    return "llama_cpp.server" in text and any(c.startswith(str(data_home())) for c in text)


def _recorded() -> dict | None:
    """The state file's record if its process is still our server, else None (and the file is removed)."""
    try:
        st = json.loads(_state_file().read_text())
    except (OSError, json.JSONDecodeError):
        return None
    if _pid_alive(st.get("pid", -1)) and _is_our_server(st["pid"]):
        return st
    _state_file().unlink(missing_ok=True)
    return None


def is_running() -> bool:
    """True if our server process is alive (it may be too busy to answer a health check)."""
    return _recorded() is not None


def status(timeout: float = 2.0) -> ServerInfo | None:
    """The running, answering embedded server, or None.

    A busy server on a loaded machine may take seconds to answer: callers that must not start a
    second one use :func:`start`, which waits for a recorded live server instead.
    """
    st = _recorded()
    if st is not None and is_healthy(st["port"], timeout=timeout):
        return ServerInfo(pid=st["pid"], port=st["port"], model=st.get("model", ""))
    return None


def start(timeout_s: float = 120.0, port: int | None = None) -> ServerInfo:
    """Return a healthy embedded server, starting one if none is running.

    Several engines (panel, command line, MCP server) may ask at once: a file lock makes sure
    only one server is started and the others reuse it.

    Raises:
        LocalServerError: runtime or model missing (run scripts/setup.sh), or the server did not
            become healthy in time (the log path is in the message).
    """
    lock_path = data_home() / "llm-server.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _start_locked(timeout_s, port)


def _start_locked(timeout_s: float, port: int | None) -> ServerInfo:
    st = _recorded()
    if st is not None:  # alive: wait for it rather than start a second copy that competes for the cores
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            # a server busy generating for other clients may not answer HTTP for minutes (its requests
            # queue); that it is ours, alive and accepting connections is enough: our request queues too
            if _accepts_connections(st["port"]):
                return ServerInfo(pid=st["pid"], port=st["port"], model=st.get("model", ""))
            if not _pid_alive(st["pid"]):
                break
            time.sleep(0.5)
        else:
            raise LocalServerError(f"the embedded LLM server (pid {st['pid']}) is running but has not answered "
                                   f"for {timeout_s:.0f} s; see {data_home() / 'llm-server.log'}")
    py = runtime_python()
    model = llm_model_path(data_home())
    if not py.exists():
        raise LocalServerError(f"the embedded LLM runtime is not installed ({py} missing); run scripts/setup.sh")
    if not model.exists():
        raise LocalServerError(f"the embedded LLM model is not installed ({model} missing); run scripts/setup.sh")
    if port is None:
        port = _port_to_use()
    log = data_home() / "llm-server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    threads = str(max(1, min(4, os.cpu_count() or 2)))
    cmd = [str(py), "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
           "--n_ctx", str(N_CTX), "--n_threads", threads, "--n_threads_batch", threads,
           # queue concurrent requests (panel, CLI, MCP share one server) instead of cutting one off
           "--interrupt_requests", "False"]
    with open(log, "ab") as lf:
        proc = subprocess.Popen(cmd, stdout=lf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            if not _port_free(port):  # taken since we looked: say which setting moves it
                raise LocalServerError(llm_port().in_use_message("the embedded LLM server"))
            raise LocalServerError(f"the embedded LLM server exited with code {proc.returncode}; see {log}")
        if is_healthy(port, timeout=1.0):
            info = ServerInfo(pid=proc.pid, port=port, model=str(model), started_by_us=True)
            _state_file().write_text(json.dumps({"pid": proc.pid, "port": port, "model": str(model),
                                                 "started": time.time()}))
            return info
        time.sleep(0.25)
    proc.kill()
    raise LocalServerError(f"the embedded LLM server did not become healthy within {timeout_s:.0f} s; see {log}")


def _reap(pid: int) -> None:
    """Collect the exit status if the server is our child (so it does not linger as a zombie)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def stop() -> bool:
    """Stop the embedded server recorded in the state file. Returns True if one was stopped."""
    st = _recorded()
    if st is None:
        return False
    pid = st["pid"]
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    for _ in range(50):
        _reap(pid)
        if not _pid_alive(pid):
            break
        time.sleep(0.1)
    else:  # uvicorn waits for requests in flight on SIGTERM: do not wait for other clients' answers
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for _ in range(30):  # SIGKILL is delivered asynchronously
            _reap(pid)
            if not _pid_alive(pid):
                break
            time.sleep(0.1)
    _state_file().unlink(missing_ok=True)
    return True
