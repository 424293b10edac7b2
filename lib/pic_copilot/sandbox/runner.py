"""Host side of the sandbox: job directories, the (warm) worker process, cold runs, results.

See README.md in this folder for the isolation design and its residual risks.
"""
from __future__ import annotations

import errno
import json
import os
import stat
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
KEEP_DAYS = 7.0          # job folders older than this are removed ...
KEEP_TOTAL_MB = 4096     # ... and the oldest ones while all together take more than this
DEFAULT_MEMORY_MB = 4096  # one job, all its processes together (memory cgroup) and each one (RLIMIT_AS)
DEFAULT_DISK_MB = 1024    # one job's work + home + tmp folders (a size-limited tmpfs)
NOBODY = 65534
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
    """``$PIC_COPILOT_SANDBOX_ROOT``, else ``$XDG_RUNTIME_DIR/pic-copilot-sandbox``, else
    ``/tmp/pic-copilot-sandbox-<uid>``; as root, the folder's name also says which uid the
    jobs run as (``...-as65534``): its jobs folder belongs to that uid."""
    env = os.environ.get("PIC_COPILOT_SANDBOX_ROOT")
    if env:
        return Path(env)
    ids = sandbox_ids()
    tag = f"-as{ids[0]}" if ids else ""
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isdir(xdg) and os.access(xdg, os.W_OK):
        return Path(xdg) / f"pic-copilot-sandbox{tag}"
    return Path("/tmp") / f"pic-copilot-sandbox-{os.getuid()}{tag}"


def default_python() -> str:
    return os.environ.get("PIC_COPILOT_SANDBOX_PYTHON") or sys.executable


def _env_num(name: str, default: float) -> float:
    try:
        v = float(os.environ.get(name, "") or default)
    except ValueError:
        return default
    return v if v > 0 else default


def sandbox_ids() -> tuple[int, int] | None:
    """(uid, gid) the sandbox runs as when the engine runs as root: ``PIC_COPILOT_SANDBOX_UID``
    (and ``_GID``), default 65534 (nobody/nogroup). None when the engine is not root (the
    sandbox then runs as the engine's own user)."""
    if os.getuid() != 0:
        return None
    uid = int(_env_num("PIC_COPILOT_SANDBOX_UID", NOBODY))
    gid = int(_env_num("PIC_COPILOT_SANDBOX_GID", uid if uid != NOBODY else NOBODY))
    return uid, gid


def _cgroups_wanted() -> bool:
    return not os.environ.get("PIC_COPILOT_SANDBOX_NO_CGROUPS")


def _cgroup_bases() -> list[tuple[str, str, tuple[str, ...]]]:
    """Writable cgroup folders of this process for the pids and memory controllers, as
    (folder, "v1"|"v2", controllers); one entry per folder (cgroup v2 has both in one)."""
    found: dict[str, tuple[str, list[str]]] = {}
    for ctrl in ("pids", "memory"):
        hit = _confine.find_cgroup_base(ctrl)
        if hit:
            base, version = hit
            found.setdefault(base, (version, []))[1].append(ctrl)
    return [(base, v, tuple(k)) for base, (v, k) in found.items()]


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


def _map_bwrap_userns(info_r: int, block_w: int, ids: tuple[int, int], proc: subprocess.Popen,
                      timeout: float = 20.0) -> None:
    """bwrap --userns-block-fd: read the sandbox's pid from --info-fd, write its user
    namespace's uid/gid map (sandbox 1000 -> host ``ids``; only a process privileged in the
    parent namespace may map another uid than its own), then let bwrap go on."""
    try:
        data = b""
        end = time.monotonic() + timeout
        while b"child-pid" not in data or b"}" not in data:
            rem = end - time.monotonic()
            if rem <= 0 or proc.poll() is not None:
                raise WorkerDied(f"bwrap did not report its sandbox (exit {proc.poll()})")
            r, _, _ = select.select([info_r], [], [], min(rem, 0.5))
            if r:
                chunk = os.read(info_r, 4096)
                if not chunk:
                    break
                data += chunk
        pid = int(json.loads(data.decode())["child-pid"])
        uid, gid = ids
        # uid 0 stays mapped for bwrap's own set-up (it creates its mount points as root) and
        # its pid-1 reaper; the worker leaves it for 1000 before anything else runs
        with open(f"/proc/{pid}/uid_map", "w") as f:
            f.write(f"0 0 1\n1000 {uid} 1\n")
        with open(f"/proc/{pid}/gid_map", "w") as f:
            f.write(f"0 0 1\n1000 {gid} 1\n")
        os.write(block_w, b"1")
    except (OSError, ValueError, KeyError) as e:
        raise WorkerDied(f"cannot map the sandbox's user namespace: {e}") from None
    finally:
        os.close(info_r)
        os.close(block_w)


# ------------------------------------------------------------------------------------------
class _Worker:
    """One worker process (warm: long-lived; cold: one job)."""

    def __init__(self, cmd: list[str], env: dict, ready_timeout: float = 120.0,
                 popen_kw: dict | None = None) -> None:
        kw = dict(popen_kw or {})
        fds = kw.pop("_close_after", ())
        userns = kw.pop("_userns", None)
        try:
            self.proc = _spawner().popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, env=env, start_new_session=True,
                                         close_fds=True, **kw)
        finally:
            for fd in fds:  # bwrap has its own copies
                try:
                    os.close(fd)
                except OSError:
                    pass
        if userns is not None:
            try:
                _map_bwrap_userns(*userns, proc=self.proc)
            except BaseException:
                self.kill()
                raise
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
    sandboxed interpreter per job and can run in parallel.

    Args:
        root: folder for job directories (default :func:`default_root`).
        python: interpreter of the worker (default: the engine's).
        use_bwrap: None = use bubblewrap when it works; False = never; True = require it.
        preload: import gdsfactory in the warm worker.
        nproc: processes per job.
        fsize_mb: largest single file a job may write.
        keep_jobs / keep_days / keep_total_mb: old job folders are removed beyond this many,
            older than this, and (oldest first) while all together take more than this.
        memory_mb: default memory limit of one job (``run(memory_mb=...)`` overrides);
            env ``PIC_COPILOT_SANDBOX_MEMORY_MB``.
        disk_mb: size of one job's work+home+tmp (a tmpfs); env ``PIC_COPILOT_SANDBOX_DISK_MB``.
    """

    def __init__(self, root: str | Path | None = None, *, python: str | None = None,
                 use_bwrap: bool | None = None, preload: bool = True,
                 nproc: int = 256, fsize_mb: int = 2048, keep_jobs: int = KEEP_JOBS,
                 keep_days: float | None = None, keep_total_mb: int | None = None,
                 memory_mb: int | None = None, disk_mb: int | None = None) -> None:
        self.root = Path(root) if root else default_root()
        self.jobs_root = self.root / "jobs"
        self.python = python or default_python()
        self.preload = preload
        self.nproc = nproc
        self.fsize_mb = fsize_mb
        self.keep_jobs = keep_jobs
        self.keep_days = float(keep_days if keep_days is not None else _env_num("PIC_COPILOT_SANDBOX_KEEP_DAYS", KEEP_DAYS))
        self.keep_total_mb = int(keep_total_mb if keep_total_mb is not None
                                 else _env_num("PIC_COPILOT_SANDBOX_KEEP_MB", KEEP_TOTAL_MB))
        self.memory_mb = int(memory_mb or _env_num("PIC_COPILOT_SANDBOX_MEMORY_MB", DEFAULT_MEMORY_MB))
        self.disk_mb = int(disk_mb or _env_num("PIC_COPILOT_SANDBOX_DISK_MB", DEFAULT_DISK_MB))
        self._bwrap = probe_bwrap() if use_bwrap is not False else {"ok": False, "error": "disabled"}
        # As host root, the worker (and so every job) runs as an unprivileged host uid, so
        # root-only files stay unreadable (a uid 1000 mapped back to root would read them).
        self.job_ids = sandbox_ids() if self._bwrap.get("ok") else None
        # Per-job cgroups: pids (the kernel never applies RLIMIT_NPROC to the initial root
        # uid) and memory (the sum of all of a job's processes).
        self._cg_bases = _cgroup_bases() if _cgroups_wanted() else []
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
        self._sizes: dict[str, int] = {}
        self._active: set[str] = set()   # job folders in use (never pruned)
        self.root.mkdir(parents=True, exist_ok=True)
        # as root: others may only traverse it (the unprivileged worker reaches jobs/ through it)
        os.chmod(self.root, 0o711 if self.job_ids else 0o700)
        self.jobs_root.mkdir(exist_ok=True)
        if self.job_ids:
            os.chown(self.jobs_root, *self.job_ids)
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
        for base, _version, _kinds in self._cg_bases:
            try:
                entries = list(os.scandir(base))
            except OSError:
                continue
            for e in entries:
                parts = e.name.split("-")
                if not e.name.startswith("pic-copilot-sandbox-") or len(parts) < 5 or not parts[3].isdigit():
                    continue
                if not os.path.exists(f"/proc/{parts[3]}"):
                    _confine.cgroup_kill_and_remove(e.path, timeout=0.5)

    def _new_cgroup(self) -> list[dict]:
        """One cgroup per hierarchy for a worker; the worker makes one child per job in it."""
        out = []
        name = f"pic-copilot-sandbox-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        for base, version, kinds in self._cg_bases:
            path = os.path.join(base, name)
            try:
                os.mkdir(path)
                if "pids" in kinds:
                    with open(os.path.join(path, "pids.max"), "w") as f:
                        f.write("8192")
                if version == "v2":
                    with open(os.path.join(path, "cgroup.subtree_control"), "w") as f:
                        f.write(" ".join(f"+{k}" for k in kinds))
                if self.job_ids:  # the unprivileged worker makes and joins the job cgroups
                    for f in ("", "cgroup.procs", "tasks"):
                        if os.path.exists(os.path.join(path, f)):
                            os.chown(os.path.join(path, f), *self.job_ids)
            except OSError:
                _confine.cgroup_kill_and_remove(path, timeout=0.5)
                continue
            self._cg_dirs.append(path)
            out.append({"dir": path, "version": version, "kinds": list(kinds)})
        return out

    def _drop_cgroup(self, cgs: list[dict] | None) -> None:
        for cg in cgs or []:
            path = cg["dir"]
            if _confine.cgroup_kill_and_remove(path) and path in self._cg_dirs:
                self._cg_dirs.remove(path)

    def worker_cmd(self, writable: list[str], extra_args: list[str]) -> tuple[list[str], dict]:
        """The worker's command line and the extra arguments for :class:`_Worker`."""
        base = [self.python, "-s", "-m", "pic_copilot.sandbox.worker", *extra_args]
        if not self.bwrap_ok:
            return base, {}
        if not hasattr(self, "_hide_cache"):
            self._hide_cache = self._hidden_and_needed()
        hide, rebind = self._hide_cache
        kw: dict = {}
        ids: list[str] = []
        if self.job_ids:
            # As host root: bwrap sets up the sandbox (as root, so it can bind folders under
            # /root), the host writes the user namespace's map itself (sandbox uid 1000 =
            # host uid 65534, see sandbox_ids), and the worker switches to uid 1000 first thing
            # and drops the two capabilities it kept for that. Without this, the sandbox's uid
            # maps back to host root and every root-only file is readable from a job.
            info_r, info_w = os.pipe()
            block_r, block_w = os.pipe()
            kw = {"pass_fds": (info_w, block_r), "_close_after": (info_w, block_r),
                  "_userns": (info_r, block_w, self.job_ids)}
            ids = ["--uid", "1000", "--gid", "1000", "--userns-block-fd", str(block_r),
                   "--info-fd", str(info_w)]
            base = [*base[:4], "--drop-to", "1000:1000", *base[4:]]
        cmd = [self._bwrap["path"], *BWRAP_NS_FLAGS, *ids, "--die-with-parent", "--new-session",
               "--cap-drop", "ALL", *(["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"] if ids else []),
               "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
               *(a for d in ALWAYS_TMPFS for a in ([*(["--perms", "01777"] if self.job_ids else []), "--tmpfs", d]))]
        if self.job_ids:  # bwrap's /dev/shm is root's; the worker needs it (semaphores)
            cmd += ["--perms", "01777", "--tmpfs", "/dev/shm"]
        for h in hide:
            cmd += ["--tmpfs", h]
        covered = [*hide, *ALWAYS_TMPFS]
        made: set[str] = set()

        def parents(dest: str) -> list[str]:
            # bwrap makes missing mount points 0700 (root's): the unprivileged worker could not
            # walk through them, so the folders above a bind inside a tmpfs are made 0755 first
            if not self.job_ids:
                return []
            out = []
            for a in reversed(Path(dest).parents):
                a = str(a)
                if a not in made and a not in covered and any(a.startswith(c + "/") for c in covered):
                    made.add(a)
                    out += ["--perms", "0755", "--dir", a]
            return out

        for p in rebind:
            if os.path.exists(p):
                cmd += [*parents(p), "--ro-bind", p, p]
        cmd += (["--perms", "0777"] if self.job_ids else []) + ["--dir", "/tmp/worker-home"]
        for w in writable:
            cmd += [*parents(w), "--bind", w, w]
        cmd += ["--chdir", "/", "--", *base]
        return cmd, kw

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
                self._drop_cgroup(getattr(self._worker, "cgroups", None))
            args = [] if self.preload else ["--no-preload"]
            cgs = self._new_cgroup()
            cmd, kw = self.worker_cmd([str(self.jobs_root)] + [c["dir"] for c in cgs], args)
            try:
                self._worker = _Worker(cmd, self._env(), popen_kw=kw)
            except BaseException:
                self._drop_cgroup(cgs)
                raise
            self._worker.cgroups = cgs
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
                self._drop_cgroup(getattr(self._worker, "cgroups", None))
                self._worker = None
            for cg in list(self._cg_dirs):
                self._drop_cgroup([{"dir": cg}])

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
        self._give_to_job(job)
        return job

    def _give_to_job(self, path: Path) -> None:
        """As root: the unprivileged sandbox uid owns the job's folders (never anything else)."""
        if not self.job_ids:
            return
        os.lchown(path, *self.job_ids)
        for dirpath, dirs, files in os.walk(path, followlinks=False):
            for n in dirs + files:
                os.lchown(os.path.join(dirpath, n), *self.job_ids)

    def _cleanup_old_jobs(self, full: bool = True) -> None:
        """Remove job folders beyond ``keep_jobs``, older than ``keep_days``, and, oldest first,
        while all of them together take more than ``keep_total_mb``."""
        try:
            os.chmod(self.jobs_root, 0o700)
            try:
                jobs = sorted(p.name for p in os.scandir(self.jobs_root) if p.is_dir(follow_symlinks=False))
            finally:
                os.chmod(self.jobs_root, 0o300)
        except OSError:
            return
        now = time.time()
        keep: list[str] = []
        for name in jobs:
            if name in self._active:
                continue
            p = self.jobs_root / name
            try:
                age_days = (now - os.lstat(p).st_mtime) / 86400
            except OSError:
                continue
            if age_days > self.keep_days:
                _rmtree(p)
                self._sizes.pop(name, None)
            else:
                keep.append(name)
        for name in keep:
            if full or name not in self._sizes:
                self._sizes[name] = _tree_bytes(self.jobs_root / name)
        active = [n for n in jobs if n in self._active]  # in use: counted, never removed
        total = sum(self._sizes.get(n, 0) for n in keep + active)
        limit = self.keep_total_mb << 20
        while keep and (len(keep) + len(active) > self.keep_jobs or total > limit):
            name = keep.pop(0)
            total -= self._sizes.pop(name, 0)
            _rmtree(self.jobs_root / name)

    def run(self, code: str, *, workdir: str | Path | None = None, timeout_s: float = 60,
            memory_mb: int | None = None, inputs: dict[str, bytes | str | Path] | None = None,
            warm: bool = True, env: dict | None = None, summarize: bool = True,
            summary_timeout_s: float = 30, nproc: int | None = None,
            disk_mb: int | None = None, pid_namespace: bool = True) -> RunResult:
        """Run ``code`` as ``workdir/script.py`` in a fresh confined job.

        Args:
            code: the script.
            workdir: a caller's folder (staged: copied in, changes copied back) or an earlier
                ``RunResult.workdir`` (re-used in place); None = a new job folder.
            timeout_s: wall-time limit.
            memory_mb: memory of the whole job (default: the sandbox's ``memory_mb``).
            inputs: files to put in the work folder first (name -> bytes, text or Path).
            warm: fork from the warm worker (fast) or start a fresh interpreter.
            env: extra environment variables for the script.
            summarize: summarise the files the script wrote.
            summary_timeout_s: time limit of the summary.
            nproc: process limit (default: the sandbox's).
            disk_mb: the job's disk (work+home+tmp) in MiB (default: the sandbox's ``disk_mb``).
            pid_namespace: False runs the job in the worker's pid namespace instead of its own:
                KLayout finds itself through ``/proc/<getpid()>/exe`` and aborts when the job's own
                /proc cannot be mounted (see README, "KLayout in the sandbox"); everything else
                (user/net/ipc/mount namespaces, Landlock, capabilities, limits) stays as it is.
        """
        memory_mb = int(memory_mb or self.memory_mb)
        disk_mb = int(disk_mb or self.disk_mb)
        job, external = self._prepare(workdir)
        self._active.add(job.name)
        try:
            return self._run_job(job, external, code, timeout_s=timeout_s, memory_mb=memory_mb, inputs=inputs,
                                 warm=warm, env=env, summarize=summarize, summary_timeout_s=summary_timeout_s,
                                 nproc=nproc, disk_mb=disk_mb, pid_namespace=pid_namespace)
        finally:
            self._active.discard(job.name)

    def _run_job(self, job: Path, external: Path | None, code: str, *, timeout_s, memory_mb, inputs, warm, env,
                 summarize, summary_timeout_s, nproc, disk_mb, pid_namespace=True) -> RunResult:
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
        script = work / "script.py"
        if script.is_symlink() or script.exists():
            script.unlink()
        script.write_text(code, encoding="utf-8")
        self._give_to_job(work)
        skip = snapshot(str(work))
        skip.pop("script.py", None)
        req = {"op": "run", "id": uuid.uuid4().hex, "job_dir": str(job),
               "timeout_s": float(timeout_s), "memory_mb": memory_mb, "disk_mb": disk_mb,
               "nproc": int(nproc or self.nproc), "cpu_s": int(timeout_s) + 2,
               "fsize_mb": min(self.fsize_mb, disk_mb), "env": env or {}, "summarize": summarize,
               "summary_timeout_s": float(summary_timeout_s), "skip": skip,
               "pid_namespace": bool(pid_namespace)}
        budget = timeout_s + (summary_timeout_s if summarize else 0) + 60
        t0 = time.monotonic()
        reply, worker_info, died = None, {}, None
        if warm:
            with self._lock:
                try:
                    w = self._ensure_worker()
                    worker_info = w.ready
                    reply = w.request(dict(req, cgroups=getattr(w, "cgroups", None)), budget)
                except (WorkerDied, TimeoutError) as e:
                    died = str(e)
                    if self._worker is not None:
                        self._worker.kill()
                        self._worker = None
        else:
            cgs = self._new_cgroup()
            try:
                cmd, kw = self.worker_cmd([str(job)] + [c["dir"] for c in cgs], ["--no-preload", "--once"])
                w = _Worker(cmd, self._env(), popen_kw=kw)
                worker_info = w.ready
                try:
                    reply = w.request(dict(req, cgroups=cgs), budget)
                finally:
                    w.close()
            except (WorkerDied, TimeoutError) as e:
                died = str(e)
            finally:
                self._drop_cgroup(cgs)
        wall = time.monotonic() - t0
        res = self._result(job, reply, worker_info, died, warm, wall, memory_mb=memory_mb, disk_mb=disk_mb,
                           pid_namespace=pid_namespace)
        if external is not None:
            _copy_back(work, external, skip)
            res.workdir = str(external)
        self._runs += 1
        self._sizes[job.name] = _tree_bytes(job)
        self._cleanup_old_jobs(full=self._runs % 50 == 0)  # this job is still in _active: kept
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
                warm: bool, wall: float, *, memory_mb: int = 0, disk_mb: int = 0,
                pid_namespace: bool = True) -> RunResult:
        run = (reply or {}).get("run") or {}
        # the job's stdout/stderr came over pipes the job cannot redirect; the host never opens
        # a file in the job folder to get them
        stdout = _clip(run.get("stdout") or "")
        stderr = _clip(run.get("stderr") or "")
        msgs = run.get("messages", [])           # from the worker's own children A and B
        job_msgs = run.get("job_messages", [])   # from the confined job itself
        status = next((m for m in msgs if m.get("kind") == "status"), {})
        exc = next((m for m in job_msgs if m.get("kind") == "exception"), None)
        internal = [m for m in msgs + job_msgs if m.get("kind") == "internal"]
        nsmsg = next((m for m in msgs if m.get("kind") == "ns"), {})
        ns, mounts = nsmsg.get("namespaces", []), nsmsg.get("mounts", [])
        warns = [m for m in msgs if m.get("kind") == "warn"]
        pids_limit = nsmsg.get("pids_limit")
        if pids_limit == "rlimit" and os.getuid() == 0:
            pids_limit = "none (RLIMIT_NPROC does not apply to host root)"
        confined = next((m for m in job_msgs if m.get("kind") == "confined"), {})
        copy_in = next((m for m in msgs if m.get("kind") == "copy_in"), {})
        copy_out = next((m for m in msgs if m.get("kind") == "copy_out"), {})
        mem = run.get("memory") or {}
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
        limits = nsmsg.get("limits") or {}
        notes = []
        if copy_in.get("error"):
            killed = "disk" if copy_in.get("errno") in (errno.ENOSPC, errno.EDQUOT) else killed or "sandbox-error"
            exception = {"type": "DiskLimitExceeded" if killed == "disk" else "SandboxInternalError",
                         "message": f"the work folder's files do not fit in the job's disk ({disk_mb} MiB): "
                                    f"{copy_in['error']}", "traceback": "", "errno": copy_in.get("errno")}
        if mem.get("oom_kills"):
            killed = "memory"
            notes.append(f"[sandbox] killed: the job's processes together exceeded its memory limit "
                         f"({memory_mb} MiB; {mem['oom_kills']} process(es) killed by the kernel)")
        if killed == "disk" and not copy_in.get("error"):
            notes.append(f"[sandbox] the job ran out of disk: its work, home and tmp folders together may "
                         f"hold {disk_mb} MiB")
        if copy_out.get("error"):
            notes.append(f"[sandbox] the job's files could not all be kept: {copy_out['error']}")
        if died:
            notes.append(f"[sandbox] worker died during the job: {died}")
        if notes:
            stderr = (stderr + "\n" + "\n".join(notes)).lstrip()
        files: list[dict] = []
        summ = (reply or {}).get("summary") or {}
        for m in summ.get("job_messages", []):
            if m.get("kind") == "files":
                files = m.get("files") or []
                break
        if summ and not files and summ.get("timed_out"):
            files = [{"path": "...", "kind": "error", "error": "file summary timed out"}]
        detail = {
            "bwrap": self.bwrap_ok, "bwrap_error": self._bwrap.get("error"),
            "job_namespaces": ns, "job_mounts": mounts, "warnings": warns, "pids_limit": pids_limit,
            "memory_limit": (f"{memory_mb} MiB for the whole job ({limits['memory']}) and per process (RLIMIT_AS)"
                             if str(limits.get("memory", "")).startswith("cgroup")
                             else f"{memory_mb} MiB per process only (RLIMIT_AS; no memory cgroup)"),
            "memory_peak_mb": round(mem["peak_bytes"] / 2 ** 20, 1) if mem.get("peak_bytes") else None,
            "disk_limit": (f"{disk_mb} MiB (tmpfs for work+home+tmp)" if nsmsg.get("disk_limit_mb")
                           else f"none beyond {min(self.fsize_mb, disk_mb)} MiB per file (RLIMIT_FSIZE)"),
            "job_uid": self.job_ids[0] if self.job_ids else os.getuid(),
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
        ok = (exit_code == 0 and exception is None and not timed_out and not died and killed is None)
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
    if (exception or {}).get("errno") in (errno.ENOSPC, errno.EDQUOT) or "No space left on device" in emsg:
        return "disk"
    if (exception or {}).get("errno") == errno.EFBIG:
        return "file-size"
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
        if "No space left on device" in stderr:
            return "disk"
    return None


def _clip(text: str, limit: int = MAX_STREAM_CHARS + 200) -> str:
    """The worker already keeps only the head and tail of a stream; a last bound here."""
    if len(text) <= limit:
        return text
    return f"{text[: limit // 2]}\n[... truncated ...]\n{text[-limit // 2:]}"


class JobFileError(SandboxError):
    """A file in a job folder is not what the host expected (a link, FIFO, device, too big)."""


def read_job_file(path: str | Path, max_bytes: int = 256 << 20) -> bytes:
    """Read a file a job wrote, safely: the last component is opened without following a link
    and without blocking (a FIFO or device never hangs the host), it must be a regular file,
    and at most ``max_bytes`` are read. Raises JobFileError otherwise."""
    try:
        fd = os.open(str(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise JobFileError(f"{path} is a symbolic link (not followed)") from None
        raise JobFileError(f"cannot open {path}: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise JobFileError(f"{path} is not a regular file")
        if st.st_size > max_bytes:
            raise JobFileError(f"{path} is larger than {max_bytes} bytes")
        chunks, n = [], 0
        while n <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - n))
            if not chunk:
                break
            chunks.append(chunk)
            n += len(chunk)
        if n > max_bytes:
            raise JobFileError(f"{path} is larger than {max_bytes} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _tree_bytes(path: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(path, followlinks=False):
        for fn in files:
            try:
                total += os.lstat(os.path.join(dirpath, fn)).st_blocks * 512
            except OSError:
                pass
    return total


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
    """Copy new/changed regular files (never symlinks or special files) back to ``dst``.
    Sources are opened without following links or blocking and must be regular files (see
    :func:`read_job_file`); a target that is a link is replaced, never written through."""
    after = snapshot(str(work))
    dst_real = dst.resolve()
    for rel, st in after.items():
        if before.get(rel) == st:
            continue
        s = work / rel
        t = dst / rel
        try:
            fi = os.open(str(s), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            if not stat.S_ISREG(os.fstat(fi).st_mode):
                continue
            t.parent.mkdir(parents=True, exist_ok=True)
            parent = t.parent.resolve()
            if parent != dst_real and dst_real not in parent.parents:
                continue
            if t.is_symlink() or (t.exists() and not t.is_file()):
                t.unlink()
            fo = os.open(str(t), os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            try:
                while True:
                    chunk = os.read(fi, 1 << 20)
                    if not chunk:
                        break
                    os.write(fo, chunk)
            finally:
                os.close(fo)
        except OSError:
            continue
        finally:
            os.close(fi)


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
               memory_mb: int | None = None, inputs: dict[str, bytes | str | Path] | None = None,
               warm: bool = True, env: dict | None = None) -> RunResult:
    return default_sandbox().run(code, workdir=workdir, timeout_s=timeout_s, memory_mb=memory_mb,
                                 inputs=inputs, warm=warm, env=env)
