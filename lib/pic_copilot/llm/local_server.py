"""The embedded default LLM: llama.cpp's OpenAI-compatible ``llama-server`` on 127.0.0.1.

The server is started on demand, reused when one is already healthy (by any process that
left its state file), and stopped only when asked. Its state lives in
``<data home>/llm-server.json``: pid, port, model path, runtime, slots.

Runtime: the ``llama-server`` binary that ``scripts/setup.sh`` builds from the llama.cpp source in
the pinned llama-cpp-python sdist (:mod:`pic_copilot.setup.runtime`, verified by its stamp, no
network). It runs :data:`N_SLOTS` parallel slots with continuous batching: concurrent clients (panel,
command line, MCP, several candidates of one prompt) run side by side or queue for a slot, and none
cuts another off; each slot keeps its own prompt cache, and idle slots' prompts are kept in RAM
(``--cache-ram``) to be restored when a later prompt shares their prefix. docs/RUNTIME.md has the
measurements behind these choices.

A machine set up before the switch still has llama-cpp-python's server (``<data home>/llm-venv``);
it is used only while no verified ``llama-server`` is installed, and a running one is replaced by
``llama-server`` on the next start once that is installed.
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
from ..setup.assets import llm_model_path

DEFAULT_PORT = 18765
N_CTX = 8192          # context of one request (one slot)
N_SLOTS = 4           # parallel slots: three candidates of one prompt plus one other client
CACHE_RAM_MIB = 2048  # RAM for the prompts of idle slots (an 8k-token prompt's state is ~230 MB)
#: draftless speculative decoding: the last 6 tokens are looked up in the prompt and the answer so far,
#: and the 16 tokens that followed them there are checked in one batch. A script adapted from a
#: worked example copies long runs of it, and checking a batch costs little more than one token on
#: this CPU; docs/RUNTIME.md has the measurement. PIC_COPILOT_LLM_SPEC=off turns it off.
NGRAM_SPECULATION = ["--spec-type", "ngram-simple", "--spec-ngram-simple-size-n", "6",
                     "--spec-ngram-simple-size-m", "16"]
LLAMA_SERVER = "llama-server"
LEGACY = "llama-cpp-python"


class LocalServerError(RuntimeError):
    """The embedded LLM cannot be started; the message says which set-up step fixes it."""


@dataclass
class ServerInfo:
    """A running embedded server."""

    pid: int
    port: int
    model: str
    started_by_us: bool = False
    runtime: str = LLAMA_SERVER
    slots: int = 1

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def _state_file() -> Path:
    return data_home() / "llm-server.json"


def runtime_python() -> Path:
    """The python of the venv that holds llama-cpp-python[server] (the runtime before issue 14)."""
    return data_home() / "llm-venv" / "bin" / "python"


def installed_runtime() -> tuple[str, Path] | None:
    """The runtime to start: ("llama-server", binary) when set-up built and verified one, else
    ("llama-cpp-python", python) on a machine set up before the switch, else None."""
    from ..setup.runtime import verified_binary

    binary = verified_binary(data_home())
    if binary is not None:
        return LLAMA_SERVER, binary
    if runtime_python().exists():
        return LEGACY, runtime_python()
    return None


def runtime_available() -> bool:
    """True if an embedded LLM runtime is installed (tests skip without one)."""
    return installed_runtime() is not None


def default_threads() -> int:
    """CPU threads of the embedded server: ``PIC_COPILOT_LLM_THREADS`` if set; else the cores (at most 4)
    when the machine is quiet at start, one thread when its cores are already busy.

    llama.cpp's threads wait for each other at every step of a token: on 2 cores with other work running,
    one thread answered 5-10x faster than two (docs/RUNTIME.md); on a quiet machine two are faster.
    """
    env = os.environ.get("PIC_COPILOT_LLM_THREADS", "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            raise LocalServerError(f"PIC_COPILOT_LLM_THREADS={env!r} is not a number of threads") from None
    cores = max(1, min(4, os.cpu_count() or 2))
    try:
        busy = os.getloadavg()[0] > cores - 0.5
    except OSError:
        busy = False
    return 1 if busy else cores


def speculation_enabled() -> bool:
    """False when PIC_COPILOT_LLM_SPEC is "off" (or 0/false/no): for comparisons and as an escape hatch."""
    return os.environ.get("PIC_COPILOT_LLM_SPEC", "").strip().lower() not in ("off", "0", "false", "no")


def llama_server_command(binary: Path, model: Path, port: int, *, draft: Path | None = None,
                         threads: int | None = None, ngram: bool | None = None) -> list[str]:
    """The command line of the embedded ``llama-server`` (also used by benchmark/perf/runtime_ab.py).

    Args:
        binary: the llama-server executable.
        model: the GGUF file.
        port: 127.0.0.1 port.
        draft: a draft model for speculative decoding (measured slower here, see docs/RUNTIME.md).
        threads: CPU threads (default: :func:`default_threads`).
        ngram: n-gram speculative decoding (:data:`NGRAM_SPECULATION`; default:
            :func:`speculation_enabled`); not combined with a draft model.
    """
    t = str(threads or default_threads())
    cmd = [str(binary), "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
           "--alias", model.stem, "--ctx-size", str(N_CTX * N_SLOTS), "--parallel", str(N_SLOTS),
           "--no-kv-unified",   # every slot gets its own N_CTX: one long prompt cannot starve the others
           "--threads", t, "--threads-batch", t, "--cache-ram", str(CACHE_RAM_MIB),
           "--no-webui", "--metrics"]
    if draft is not None:
        cmd += ["--model-draft", str(draft), "--threads-draft", t]
    elif speculation_enabled() if ngram is None else ngram:
        cmd += NGRAM_SPECULATION
    return cmd


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
    kind = ("llama_cpp.server" in text) or (bool(text) and Path(text[0]).name == LLAMA_SERVER)
    return kind and any(c.startswith(str(data_home())) for c in text)


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
        return _info(st)
    return None


def _info(st: dict, started_by_us: bool = False) -> ServerInfo:
    return ServerInfo(pid=st["pid"], port=st["port"], model=st.get("model", ""), started_by_us=started_by_us,
                      runtime=st.get("runtime", LEGACY), slots=int(st.get("slots", 1)))


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
    runtime = installed_runtime()
    if st is not None and st.get("runtime", LEGACY) == LEGACY and runtime is not None and runtime[0] == LLAMA_SERVER:
        # a server started before the switch to llama-server: replace it (its clients reconnect to the new one)
        _log_line(f"replacing the llama-cpp-python server (pid {st['pid']}) by llama-server")
        _stop_recorded(st)
        st = None
    if st is not None:  # alive: wait for it rather than start a second copy that competes for the cores
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            # a server busy generating for other clients may not answer HTTP for minutes (its requests
            # queue); that it is ours, alive and accepting connections is enough: our request queues too
            if _accepts_connections(st["port"]):
                return _info(st)
            if not _pid_alive(st["pid"]):
                break
            time.sleep(0.5)
        else:
            raise LocalServerError(f"the embedded LLM server (pid {st['pid']}) is running but has not answered "
                                   f"for {timeout_s:.0f} s; see {data_home() / 'llm-server.log'}")
    model = llm_model_path(data_home())
    if runtime is None:
        from ..setup.runtime import runtime_problem

        raise LocalServerError(f"the embedded LLM runtime is not installed ({runtime_problem(data_home())}); "
                               "run scripts/setup.sh")
    if not model.exists():
        raise LocalServerError(f"the embedded LLM model is not installed ({model} missing); run scripts/setup.sh")
    if port is None:
        port = _port_to_use()
    log = data_home() / "llm-server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    kind, exe = runtime
    if kind == LLAMA_SERVER:
        cmd, slots = llama_server_command(exe, model, port), N_SLOTS
    else:
        threads = str(default_threads())
        cmd = [str(exe), "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
               "--n_ctx", str(N_CTX), "--n_threads", threads, "--n_threads_batch", threads,
               # queue concurrent requests (panel, CLI, MCP share one server) instead of cutting one off
               "--interrupt_requests", "False"]
        slots = 1
    _log_line(f"starting {kind} on port {port}: {' '.join(cmd)}")
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
            st = {"pid": proc.pid, "port": port, "model": str(model), "runtime": kind, "slots": slots,
                  "started": time.time()}
            _state_file().write_text(json.dumps(st))
            return _info(st, started_by_us=True)
        time.sleep(0.25)
    proc.kill()
    raise LocalServerError(f"the embedded LLM server did not become healthy within {timeout_s:.0f} s; see {log}")


def _reap(pid: int) -> None:
    """Collect the exit status if the server is our child (so it does not linger as a zombie)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def _log_line(text: str) -> None:
    try:
        with open(data_home() / "llm-server.log", "a") as f:
            f.write(f"[pic-copilot {time.strftime('%Y-%m-%d %H:%M:%S')}] {text}\n")
    except OSError:
        pass


def stop() -> bool:
    """Stop the embedded server recorded in the state file. Returns True if one was stopped."""
    st = _recorded()
    if st is None:
        return False
    _stop_recorded(st)
    return True


def _stop_recorded(st: dict) -> None:
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
