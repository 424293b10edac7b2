"""Host side of the sandbox: job directories, the (warm) worker process, cold runs, results.

See README.md in this folder for the isolation design and its residual risks.
"""
from __future__ import annotations

import json
import os
import queue
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import _confine
from .summary import snapshot

MAX_STREAM_CHARS = 20_000
KEEP_JOBS = 200
LIB_DIR = str(Path(__file__).resolve().parents[2])
# replaced by an empty tmpfs in every worker (host sockets in /run, other users' files in /tmp)
ALWAYS_TMPFS = ("/tmp", "/run", "/var/tmp")

_SIGNAL_NAMES = {int(s): s.name for s in signal.Signals}


@dataclass
class RunResult:
    ok: bool
    exit_code: int | None
    stdout: str
    stderr: str
    exception: dict | None
    timed_out: bool
    killed_reason: str | None
    duration_s: float
    workdir: str
    files: list[dict] = field(default_factory=list)
    warm: bool = False
    isolation: str = "unknown"          # "full" | "partial" | "rlimits-only"
    isolation_detail: dict = field(default_factory=dict)
    job_id: str = ""

    def to_dict(self) -> dict:
        return asdict(self)

    def file(self, path: str) -> dict | None:
        return next((f for f in self.files if f.get("path") == path), None)


class SandboxError(RuntimeError):
    pass


class WorkerDied(SandboxError):
    pass


# ------------------------------------------------------------------------------------------
# environment probing
_BWRAP_PROBE: dict | None = None
_PROBE_LOCK = threading.Lock()

BWRAP_NS_FLAGS = ["--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
                  "--unshare-uts", "--unshare-cgroup-try"]


def probe_bwrap() -> dict:
    """Can bubblewrap create the namespaces we need? Cached for the process."""
    global _BWRAP_PROBE
    with _PROBE_LOCK:
        if _BWRAP_PROBE is not None:
            return _BWRAP_PROBE
        exe = os.environ.get("PIC_COPILOT_BWRAP") or shutil.which("bwrap")
        res: dict = {"path": exe, "ok": False}
        if os.environ.get("PIC_COPILOT_SANDBOX_NO_BWRAP"):
            res["error"] = "disabled by PIC_COPILOT_SANDBOX_NO_BWRAP"
        elif not exe:
            res["error"] = "bwrap not found (apt-get install bubblewrap)"
        else:
            try:
                p = subprocess.run([exe, *BWRAP_NS_FLAGS, "--die-with-parent", "--cap-drop", "ALL",
                                    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                                    "--tmpfs", "/tmp", "true"],
                                   capture_output=True, text=True, timeout=20)
                res["ok"] = p.returncode == 0
                if p.returncode != 0:
                    res["error"] = (p.stderr or "").strip()[:500] or f"exit {p.returncode}"
            except Exception as e:  # noqa: BLE001
                res["error"] = f"{type(e).__name__}: {e}"
        _BWRAP_PROBE = res
        return res


def default_root() -> Path:
    env = os.environ.get("PIC_COPILOT_SANDBOX_ROOT")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isdir(xdg) and os.access(xdg, os.W_OK):
        return Path(xdg) / "pic-copilot-sandbox"
    return Path("/tmp") / f"pic-copilot-sandbox-{os.getuid()}"


def default_python() -> str:
    return os.environ.get("PIC_COPILOT_SANDBOX_PYTHON") or sys.executable


# ------------------------------------------------------------------------------------------
# process spawning from one long-lived thread: bwrap --die-with-parent uses PDEATHSIG, which
# fires when the *thread* that forked it exits, so never spawn from short-lived threads.
class _Spawner:
    def __init__(self) -> None:
        self._q: queue.Queue = queue.Queue()
        self._t = threading.Thread(target=self._loop, name="pic-copilot-sandbox-spawner", daemon=True)
        self._t.start()

    def _loop(self) -> None:
        while True:
            args, kwargs, box = self._q.get()
            try:
                box.put((subprocess.Popen(*args, **kwargs), None))
            except BaseException as e:  # noqa: BLE001
                box.put((None, e))

    def popen(self, *args, **kwargs) -> subprocess.Popen:
        box: queue.Queue = queue.Queue()
        self._q.put((args, kwargs, box))
        p, err = box.get()
        if err is not None:
            raise err
        return p


_SPAWNER: _Spawner | None = None
_SPAWNER_LOCK = threading.Lock()


def _spawner() -> _Spawner:
    global _SPAWNER
    with _SPAWNER_LOCK:
        if _SPAWNER is None:
            _SPAWNER = _Spawner()
        return _SPAWNER


# ------------------------------------------------------------------------------------------
class _Worker:
    """One worker process (warm: long-lived; cold: one job)."""

    def __init__(self, cmd: list[str], env: dict, ready_timeout: float = 120.0) -> None:
        self.proc = _spawner().popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, start_new_session=True,
                                     close_fds=True)
        self._buf = b""
        self._err_chunks: list[bytes] = []
        self._err_thread = threading.Thread(target=self._pump_stderr, daemon=True)
        self._err_thread.start()
        t0 = time.monotonic()
        self.ready = self._read_msg(time.monotonic() + ready_timeout)
        self.start_s = time.monotonic() - t0
        if self.ready.get("op") != "ready":
            self.kill()
            raise WorkerDied(f"worker did not start: {self.ready} {self.stderr_tail()}")

    def _pump_stderr(self) -> None:
        try:
            for chunk in iter(lambda: self.proc.stderr.read1(65536), b""):
                self._err_chunks.append(chunk)
                if sum(map(len, self._err_chunks)) > 200_000:
                    self._err_chunks = self._err_chunks[-20:]
        except (ValueError, OSError):
            pass

    def stderr_tail(self, n: int = 2000) -> str:
        return b"".join(self._err_chunks)[-n:].decode("utf-8", "replace")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _read_msg(self, deadline: float) -> dict:
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            rem = deadline - time.monotonic()
            if rem <= 0:
                raise TimeoutError("sandbox worker did not answer in time")
            r, _, _ = select.select([fd], [], [], rem)
            if not r:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise WorkerDied(f"sandbox worker exited (code {self.proc.poll()}): {self.stderr_tail()}")
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line.decode("utf-8", "replace"))

    def request(self, req: dict, timeout: float) -> dict:
        try:
            self.proc.stdin.write((json.dumps(req) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise WorkerDied(f"sandbox worker is gone: {e}") from e
        deadline = time.monotonic() + timeout
        while True:
            msg = self._read_msg(deadline)
            if msg.get("id") == req.get("id"):
                return msg

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.proc.kill()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for s in (self.proc.stdin, self.proc.stdout):
            try:
                s.close()
            except Exception:
                pass

    def close(self) -> None:
        if self.alive():
            try:
                self.proc.stdin.write(b'{"op": "quit"}\n')
                self.proc.stdin.flush()
                self.proc.wait(timeout=3)
            except Exception:
                pass
        self.kill()


# ------------------------------------------------------------------------------------------
class Sandbox:
    """Runs untrusted Python scripts. Keeps one warm worker (gdsfactory imported) alive,
    restarts it when it died, serialises warm jobs (thread-safe). Cold runs start a fresh
    sandboxed interpreter per job and can run in parallel."""

    def __init__(self, root: str | Path | None = None, *, python: str | None = None,
                 use_bwrap: bool | None = None, preload: bool = True,
                 nproc: int = 256, fsize_mb: int = 2048, keep_jobs: int = KEEP_JOBS) -> None:
        self.root = Path(root) if root else default_root()
        self.jobs_root = self.root / "jobs"
        self.python = python or default_python()
        self.preload = preload
        self.nproc = nproc
        self.fsize_mb = fsize_mb
        self.keep_jobs = keep_jobs
        self._bwrap = probe_bwrap() if use_bwrap is not False else {"ok": False, "error": "disabled"}
        # The kernel never applies RLIMIT_NPROC to processes of the initial root uid, so when
        # the engine runs as root, fork bombs are bounded with a pids cgroup instead.
        self._cg_base = _confine.find_pids_cgroup_base() if os.getuid() == 0 else None
        self._cg_dirs: list[str] = []
        self._remove_stale_cgroups()
        _LIVE.add(self)
        if use_bwrap and not self._bwrap.get("ok"):
            raise SandboxError(f"bubblewrap unusable: {self._bwrap.get('error')}")
        self._lock = threading.RLock()
        self._worker: _Worker | None = None
        self.worker_starts = 0
        self._runs = 0
        self._closed = False
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o700)
        self.jobs_root.mkdir(exist_ok=True)
        # -wx: the owner may create/enter job dirs but cannot list them; a job that knows
        # only its own (random) name cannot enumerate its siblings.
        os.chmod(self.jobs_root, 0o300)
        self._cleanup_old_jobs()

    # -- configuration ---------------------------------------------------------------------
    @property
    def bwrap_ok(self) -> bool:
        return bool(self._bwrap.get("ok"))

    def _env(self) -> dict:
        venv_bin = os.path.dirname(self.python)
        return {
            "PATH": f"{venv_bin}:/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "HOME": "/tmp/worker-home" if self.bwrap_ok else str(self.root / "worker-home"),
            "MPLCONFIGDIR": "/tmp/worker-home/.mpl" if self.bwrap_ok else str(self.root / "worker-home" / ".mpl"),
            "MPLBACKEND": "Agg",
            "PYTHONPATH": LIB_DIR,
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
            "PYTHONUNBUFFERED": "1",
        }

    def _hidden_and_needed(self) -> tuple[list[str], list[str]]:
        home = os.path.realpath(os.path.expanduser("~"))
        hide: list[str] = []
        for h in sorted({home, "/root", "/home"}, key=len):
            if h in ("/", "") or not os.path.isdir(h):
                continue
            if any(h == x or h.startswith(x + "/") for x in hide):
                continue
            hide.append(h)
        py = os.path.abspath(self.python)
        needed = {os.path.dirname(os.path.dirname(py)),
                  os.path.dirname(os.path.dirname(os.path.realpath(py))), LIB_DIR}
        try:  # the venv's base interpreter and the site-packages it uses
            out = subprocess.run([self.python, "-c", "import sys,site;print(sys.base_prefix);"
                                  "print('\\n'.join(site.getsitepackages()))"],
                                 capture_output=True, text=True, timeout=30).stdout.split()
            needed.update(os.path.realpath(x) for x in out if x)
        except Exception:
            pass
        # needed folders under anything the sandbox replaces with an empty tmpfs (a checkout or venv
        # under /tmp, as CI may use) are mounted back read-only
        covered = [*hide, *ALWAYS_TMPFS]
        rebind = sorted(p for p in needed if any(p == h or p.startswith(h + "/") for h in covered))
        return hide, rebind

    def _remove_stale_cgroups(self) -> None:
        """Worker cgroups of engine processes that exited without close()."""
        if not self._cg_base:
            return
        try:
            entries = list(os.scandir(self._cg_base))
        except OSError:
            return
        for e in entries:
            parts = e.name.split("-")
            if not e.name.startswith("pic-copilot-sandbox-") or len(parts) < 5 or not parts[3].isdigit():
                continue
            if not os.path.exists(f"/proc/{parts[3]}"):
                _confine.cgroup_kill_and_remove(e.path, timeout=0.5)

    def _new_cgroup(self) -> str | None:
        if not self._cg_base:
            return None
        path = os.path.join(self._cg_base, f"pic-copilot-sandbox-{os.getpid()}-{uuid.uuid4().hex[:8]}")
        try:
            os.mkdir(path)
            with open(os.path.join(path, "pids.max"), "w") as f:
                f.write("8192")
        except OSError:
            return None
        self._cg_dirs.append(path)
        return path

    def _drop_cgroup(self, path: str | None) -> None:
        if path:
            if _confine.cgroup_kill_and_remove(path) and path in self._cg_dirs:
                self._cg_dirs.remove(path)

    def worker_cmd(self, writable: list[str], extra_args: list[str]) -> list[str]:
        base = [self.python, "-s", "-m", "pic_copilot.sandbox.worker", *extra_args]
        if not self.bwrap_ok:
            return base
        if not hasattr(self, "_hide_cache"):
            self._hide_cache = self._hidden_and_needed()
        hide, rebind = self._hide_cache
        # As host root, run as uid/gid 1000 inside: a process without CAP_SETFCAP may not map
        # the parent's uid 0 into the per-job user namespace (Linux >= 5.12).
        ids = ["--uid", "1000", "--gid", "1000"] if os.getuid() == 0 else []
        cmd = [self._bwrap["path"], *BWRAP_NS_FLAGS, *ids, "--die-with-parent", "--new-session",
               "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
               *(a for d in ALWAYS_TMPFS for a in ("--tmpfs", d))]
        for h in hide:
            cmd += ["--tmpfs", h]
        for p in rebind:
            if os.path.exists(p):
                cmd += ["--ro-bind", p, p]
        cmd += ["--dir", "/tmp/worker-home"]
        for w in writable:
            cmd += ["--bind", w, w]
        cmd += ["--chdir", "/", "--", *base]
        return cmd

    # -- worker lifecycle ------------------------------------------------------------------
    def start(self) -> dict:
        """Start (or keep) the warm worker; returns its ready message."""
        with self._lock:
            return self._ensure_worker().ready

    def _ensure_worker(self) -> _Worker:
        if self._closed:
            raise SandboxError("sandbox closed")
        if self._worker is None or not self._worker.alive():
            if self._worker is not None:
                self._worker.kill()
                self._drop_cgroup(getattr(self._worker, "cgroup", None))
            args = [] if self.preload else ["--no-preload"]
            cg = self._new_cgroup()
            self._worker = _Worker(self.worker_cmd([str(self.jobs_root)] + ([cg] if cg else []), args),
                                   self._env())
            self._worker.cgroup = cg
            self.worker_starts += 1
        return self._worker

    @property
    def worker_pid(self) -> int | None:
        """pid (host namespace) of the bwrap/worker process tree leader."""
        return self._worker.proc.pid if self._worker and self._worker.alive() else None

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._worker is not None:
                self._worker.close()
                self._drop_cgroup(getattr(self._worker, "cgroup", None))
                self._worker = None
            for cg in list(self._cg_dirs):
                self._drop_cgroup(cg)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- jobs ------------------------------------------------------------------------------
    def _new_job_dir(self) -> Path:
        jid = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:16]
        job = self.jobs_root / jid
        job.mkdir(mode=0o700)
        for d in ("work", "home", "tmp", "ctl"):
            (job / d).mkdir(mode=0o700)
        return job

    def _cleanup_old_jobs(self) -> None:
        try:
            os.chmod(self.jobs_root, 0o700)
            try:
                jobs = sorted(p for p in self.jobs_root.iterdir() if p.is_dir())
            finally:
                os.chmod(self.jobs_root, 0o300)
        except OSError:
            return
        for p in jobs[: max(0, len(jobs) - self.keep_jobs)]:
            _rmtree(p)

    def run(self, code: str, *, workdir: str | Path | None = None, timeout_s: float = 60,
            memory_mb: int = 4096, inputs: dict[str, bytes | str | Path] | None = None,
            warm: bool = True, env: dict | None = None, summarize: bool = True,
            summary_timeout_s: float = 30, nproc: int | None = None,
            pid_namespace: bool = True) -> RunResult:
        """Run ``code`` as ``script.py`` in a fresh job directory (or ``workdir``).

        ``pid_namespace=False`` runs the job in the worker's pid namespace instead of its own:
        KLayout finds itself through ``/proc/<getpid()>/exe`` and aborts when the job's own
        /proc cannot be mounted (see README, "KLayout in the sandbox"). Everything else
        (user/net/ipc/mount namespaces, Landlock, capabilities, rlimits) stays as it is.
        """
        job, external = self._prepare(workdir)
        work = job / "work"
        target = external if external is not None else work
        for name, data in (inputs or {}).items():
            dst = _safe_join(target, name)
            dst.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, Path):
                shutil.copyfile(data, dst)
            elif isinstance(data, bytes):
                dst.write_bytes(data)
            else:
                dst.write_text(str(data), encoding="utf-8")
        if external is not None:
            _copy_tree(external, work)
        (work / "script.py").write_text(code, encoding="utf-8")
        skip = snapshot(str(work))
        skip.pop("script.py", None)
        req = {"op": "run", "id": uuid.uuid4().hex, "job_dir": str(job),
               "timeout_s": float(timeout_s), "memory_mb": int(memory_mb),
               "nproc": int(nproc or self.nproc), "cpu_s": int(timeout_s) + 2,
               "fsize_mb": self.fsize_mb, "env": env or {}, "summarize": summarize,
               "summary_timeout_s": float(summary_timeout_s), "skip": skip,
               "pid_namespace": bool(pid_namespace)}
        budget = timeout_s + (summary_timeout_s if summarize else 0) + 30
        t0 = time.monotonic()
        reply, worker_info, died = None, {}, None
        if warm:
            with self._lock:
                try:
                    w = self._ensure_worker()
                    worker_info = w.ready
                    reply = w.request(dict(req, cgroup_dir=getattr(w, "cgroup", None)), budget)
                except (WorkerDied, TimeoutError) as e:
                    died = str(e)
                    if self._worker is not None:
                        self._worker.kill()
                        self._worker = None
        else:
            cg = self._new_cgroup()
            try:
                w = _Worker(self.worker_cmd([str(job)] + ([cg] if cg else []), ["--no-preload", "--once"]),
                            self._env())
                worker_info = w.ready
                try:
                    reply = w.request(dict(req, cgroup_dir=cg), budget)
                finally:
                    w.close()
            except (WorkerDied, TimeoutError) as e:
                died = str(e)
            finally:
                self._drop_cgroup(cg)
        wall = time.monotonic() - t0
        res = self._result(job, reply, worker_info, died, warm, wall, pid_namespace)
        if external is not None:
            _copy_back(work, external, skip)
            res.workdir = str(external)
        self._runs += 1
        if self._runs % 50 == 0:
            self._cleanup_old_jobs()
        return res

    def _prepare(self, workdir) -> tuple[Path, Path | None]:
        if workdir is None:
            return self._new_job_dir(), None
        wd = Path(workdir).resolve()
        jr = self.jobs_root.resolve()
        if wd.parent.parent == jr and wd.name == "work" and (wd.parent / "ctl").is_dir():
            return wd.parent, None  # re-use an earlier sandbox work directory in place
        wd.mkdir(parents=True, exist_ok=True)
        return self._new_job_dir(), wd

    def _result(self, job: Path, reply: dict | None, worker_info: dict, died: str | None,
                warm: bool, wall: float, pid_namespace: bool = True) -> RunResult:
        ctl = job / "ctl"
        stdout = _read_trunc(ctl / "stdout")
        stderr = _read_trunc(ctl / "stderr")
        run = (reply or {}).get("run") or {}
        msgs = run.get("messages", [])
        status = next((m for m in msgs if m.get("kind") == "status"), {})
        exc = next((m for m in msgs if m.get("kind") == "exception"), None)
        internal = [m for m in msgs if m.get("kind") == "internal"]
        ns = next((m.get("namespaces") for m in msgs if m.get("kind") == "ns"), [])
        mounts = next((m.get("mounts") for m in msgs if m.get("kind") == "ns"), [])
        warns = [m for m in msgs if m.get("kind") == "warn"]
        pids_limit = next((m.get("pids_limit") for m in msgs if m.get("kind") == "ns"), None)
        if pids_limit == "rlimit" and os.getuid() == 0:
            pids_limit = "none (RLIMIT_NPROC does not apply to host root)"
        confined = next((m for m in msgs if m.get("kind") == "confined"), {})
        timed_out = bool(run.get("timed_out"))
        exit_code = status.get("exit_code")
        sig = status.get("signal")
        if sig is not None:
            exit_code = -int(sig)
        exception = None
        if exc:
            exception = {k: exc.get(k) for k in ("type", "message", "traceback", "errno")}
        elif internal and not timed_out:
            exception = {"type": "SandboxInternalError", "message": internal[0].get("error"),
                         "traceback": internal[0].get("traceback", "")}
        if reply and reply.get("op") == "error":
            exception = {"type": "SandboxInternalError", "message": reply.get("error"),
                         "traceback": reply.get("traceback", "")}
        killed = _killed_reason(timed_out, exception, sig, exit_code, stderr, died)
        if died:
            stderr = (stderr + f"\n[sandbox] worker died during the job: {died}").lstrip()
        files: list[dict] = []
        summ = (reply or {}).get("summary") or {}
        for m in summ.get("messages", []):
            if m.get("kind") == "files":
                files = m.get("files") or []
        if summ and not files and summ.get("timed_out"):
            files = [{"path": "...", "kind": "error", "error": "file summary timed out"}]
        detail = {
            "bwrap": self.bwrap_ok, "bwrap_error": self._bwrap.get("error"),
            "job_namespaces": ns, "job_mounts": mounts, "warnings": warns, "pids_limit": pids_limit,
            "landlock_abi": confined.get("landlock_abi", 0),
            "landlock_scoped": confined.get("scoped", False),
            "landlock_net": confined.get("net", False),
            "caps_dropped": confined.get("caps_dropped", False),
            "worker_probe": worker_info.get("probe"),
        }
        need = {"user", "pid", "net", "mnt"}
        if not pid_namespace:
            # asked for: the job shares the worker's pid namespace (bwrap's, not the host's)
            detail["job_pid_namespace"] = "worker's (requested)"
            if self.bwrap_ok:
                need.discard("pid")
        if self.bwrap_ok and need <= set(ns) and len(mounts) >= 2 and pids_limit in ("rlimit", "cgroup") and detail["landlock_abi"] and detail["caps_dropped"]:
            isolation = "full"
        elif detail["landlock_abi"] or ns or self.bwrap_ok:
            isolation = "partial"
        else:
            isolation = "rlimits-only"
        ok = (exit_code == 0 and exception is None and not timed_out and not died)
        return RunResult(ok=ok, exit_code=exit_code, stdout=stdout, stderr=stderr,
                         exception=exception, timed_out=timed_out, killed_reason=killed,
                         duration_s=round(run.get("duration_s", wall), 4), workdir=str(job / "work"),
                         files=files, warm=warm, isolation=isolation, isolation_detail=detail,
                         job_id=job.name)


# ------------------------------------------------------------------------------------------
def _killed_reason(timed_out, exception, sig, exit_code, stderr, died) -> str | None:
    if timed_out:
        return "timeout"
    etype = (exception or {}).get("type") or ""
    emsg = ((exception or {}).get("message") or "") + ((exception or {}).get("traceback") or "")
    if etype == "MemoryError" or "std::bad_alloc" in emsg:
        return "memory"
    if (etype in ("BlockingIOError", "OSError") and (exception or {}).get("errno") == 11) or \
            "can't start new thread" in emsg:
        return "pids"
    if sig is not None:
        if sig == signal.SIGXCPU:
            return "cpu"
        if sig == signal.SIGXFSZ:
            return "file-size"
        if any(s in stderr for s in ("MemoryError", "bad_alloc", "Cannot allocate memory",
                                     "out of memory")):
            return "memory"
        return f"signal:{_SIGNAL_NAMES.get(int(sig), sig)}"
    if died:
        return "worker-died"
    if exit_code not in (0, None) and exception is None:
        if "MemoryError" in stderr:
            return "memory"
        if "Resource temporarily unavailable" in stderr and "fork" in stderr:
            return "pids"
    return None


def _read_trunc(path: Path, limit: int = MAX_STREAM_CHARS) -> str:
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            if size <= limit * 2:
                text = f.read().decode("utf-8", "replace")
                if len(text) <= limit:
                    return text
                head, tail = text[: limit // 2], text[-limit // 2:]
            else:
                head = f.read(limit).decode("utf-8", "replace")[: limit // 2]
                f.seek(max(0, size - limit))
                tail = f.read().decode("utf-8", "replace")[-limit // 2:]
        return f"{head}\n[... truncated: {size} bytes in total ...]\n{tail}"
    except OSError:
        return ""


def _safe_join(base: Path, rel: str) -> Path:
    p = (base / rel).resolve()
    if p != base.resolve() and base.resolve() not in p.parents:
        raise ValueError(f"input path escapes the work directory: {rel!r}")
    return p


def _copy_tree(src: Path, dst: Path) -> None:
    for dirpath, dirs, files in os.walk(src, followlinks=False):
        rel = os.path.relpath(dirpath, src)
        tdir = dst / rel if rel != "." else dst
        tdir.mkdir(parents=True, exist_ok=True)
        for fn in files:
            s = Path(dirpath) / fn
            if s.is_symlink() or not s.is_file():
                continue
            shutil.copy2(s, tdir / fn)


def _copy_back(work: Path, dst: Path, before: dict) -> None:
    """Copy new/changed regular files (never symlinks or special files) back to ``dst``."""
    after = snapshot(str(work))
    for rel, st in after.items():
        if before.get(rel) == st:
            continue
        s = work / rel
        if s.is_symlink() or not s.is_file():
            continue
        t = dst / rel
        try:
            t.parent.mkdir(parents=True, exist_ok=True)
            if t.is_symlink():
                t.unlink()
            shutil.copyfile(s, t, follow_symlinks=False)
        except OSError:
            continue


def _rmtree(p: Path) -> None:
    def onerror(func, path, exc):
        try:
            os.chmod(os.path.dirname(path), 0o700)
            os.chmod(path, 0o700)
            func(path)
        except OSError:
            pass
    shutil.rmtree(p, onerror=onerror)


# ------------------------------------------------------------------------------------------
import atexit
import weakref

_LIVE: "weakref.WeakSet[Sandbox]" = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for sb in list(_LIVE):
        try:
            sb.close()
        except Exception:
            pass


_DEFAULT: Sandbox | None = None
_DEFAULT_LOCK = threading.Lock()


def default_sandbox() -> Sandbox:
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None or _DEFAULT._closed:
            _DEFAULT = Sandbox()
        return _DEFAULT


def run_script(code: str, *, workdir: str | Path | None = None, timeout_s: float = 60,
               memory_mb: int = 4096, inputs: dict[str, bytes | str | Path] | None = None,
               warm: bool = True, env: dict | None = None) -> RunResult:
    return default_sandbox().run(code, workdir=workdir, timeout_s=timeout_s, memory_mb=memory_mb,
                                 inputs=inputs, warm=warm, env=env)
