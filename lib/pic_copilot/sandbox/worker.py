"""Sandbox worker: a long-lived process (normally inside bubblewrap) that executes jobs.

Protocol (JSON lines): the host writes one request per line to the worker's stdin and reads
one reply per line from its stdout. At start the worker writes ``{"op": "ready", ...}``.
Immediately after start, fds 0/1 are moved to private descriptors, fd 0 becomes /dev/null
and fd 1 points at fd 2 (so stray prints, e.g. loguru, never corrupt the protocol).

Warm mode (default): gdsfactory, the generic PDK, klayout.db and numpy are imported once;
each job is a ``fork()`` of this clean parent (the parent never runs user code).
Cold mode (``--no-preload --once``): one job, nothing pre-imported.

Process tree of one job (all forked from the worker)::

    worker ── A  setsid(); unshare(user, pid, net, ipc); waits for B, then exits
              └─ B  pid 1 of the job's pid namespace; reaps; reports C's status
                 └─ C  caps dropped, no_new_privs, Landlock (writes only beneath the
                       job's work/home/tmp), rlimits; runs the script as __main__

On timeout the worker SIGKILLs A's process group; B is pid 1 of the job's pid namespace, so
its death makes the kernel kill every process of the job, including ones that called
setsid(). After the run, a second confined child (same tree, no writable dirs at all)
summarises the files in the work directory, so untrusted GDS/CSV/JSON are never parsed by
the host process.
"""
from __future__ import annotations

import json
import os
import select
import signal
import sys
import time

# This module must stay importable without pic_copilot's heavy deps.
try:  # package import (python -m pic_copilot.sandbox.worker)
    from . import _confine
except ImportError:  # pragma: no cover - direct file execution
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from pic_copilot.sandbox import _confine  # type: ignore

MAX_PIPE_BYTES = 1 << 20
_PROTO_IN = None
_PROTO_OUT = None
_PROBE: dict = {}


# ------------------------------------------------------------------------------------------
# start-up
# the engine's interpreter, venv and code: kept readable in a job even when they lie under /tmp
ENGINE_DIRS = tuple({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                                    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))})

def _setup_fds() -> None:
    global _PROTO_IN, _PROTO_OUT
    pin, pout = os.dup(0), os.dup(1)
    os.set_inheritable(pin, False)
    os.set_inheritable(pout, False)
    _PROTO_IN = os.fdopen(pin, "r", encoding="utf-8", buffering=1)
    _PROTO_OUT = os.fdopen(pout, "w", encoding="utf-8", buffering=1)
    dn = os.open(os.devnull, os.O_RDONLY)
    os.dup2(dn, 0)
    os.close(dn)
    os.dup2(2, 1)


def _send(msg: dict) -> None:
    _PROTO_OUT.write(json.dumps(msg, default=str) + "\n")
    _PROTO_OUT.flush()


def _fix_loguru() -> None:
    """kfactory logs through loguru with ``enqueue=True`` (a writer *thread* plus a pipe).
    Threads do not survive fork(), and the forked job would push its log records into the
    worker's queue. Replace the sink by a synchronous one that writes to whatever
    sys.stdout is at the time (the job's stdout in a child)."""
    try:
        from loguru import logger
        import kfactory as kf
        from kfactory import conf as kconf
    except Exception:
        return
    try:
        logger.remove()
        logger.add(lambda m: (sys.stdout.write(str(m)), sys.stdout.flush()),
                   format=kconf.tracing_formatter, filter=kf.config.logfilter, backtrace=True,
                   enqueue=False)
    except Exception as e:  # pragma: no cover
        print(f"[worker] loguru reconfiguration failed: {e!r}", file=sys.stderr)


def _preload() -> dict:
    t0 = time.monotonic()
    info: dict = {}
    try:
        import numpy  # noqa: F401
        import gdsfactory as gf
        gf.gpdk.PDK.activate()
        info["gdsfactory"] = gf.__version__
    except Exception as e:  # still useful as a plain-Python worker
        import traceback
        info["preload_error"] = f"{type(e).__name__}: {e}"
        info["preload_tb"] = traceback.format_exc()[-1500:]
    try:
        import klayout.db  # noqa: F401
    except Exception:
        pass
    try:
        # SAX brings JAX: about 4 CPU-seconds of imports that every simulation job paid again;
        # importing starts no JAX thread, so forking after it is safe (its backends start lazily)
        import sax
        info["sax"] = getattr(sax, "__version__", "?")
    except Exception:
        pass
    from . import summary  # noqa: F401  (warm for the summariser child)
    _fix_loguru()
    import gc
    gc.collect()
    try:
        gc.freeze()  # fewer copy-on-write page faults in forked children
    except AttributeError:
        pass
    info["preload_s"] = round(time.monotonic() - t0, 3)
    return info


def _probe_userns() -> dict:
    """Fork a throw-away child that tries the per-job namespaces and Landlock."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        res = {}
        try:
            os.close(r)
            try:
                res["userns"] = _confine.unshare_job_namespaces(mount=True)
            except OSError as e:
                res["userns_error"] = str(e)
            abi = _confine.landlock_abi()
            res["landlock_abi"] = abi
            if abi:
                try:
                    _confine.landlock_restrict([])
                    res["landlock"] = True
                except OSError as e:
                    res["landlock_error"] = str(e)
            os.write(w, json.dumps(res).encode())
        finally:
            os._exit(0)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    try:
        return json.loads(data.decode() or "{}")
    except ValueError:
        return {"probe_error": data[:500].decode(errors="replace")}


# ------------------------------------------------------------------------------------------
# job children
def _close_fds_except(keep: set[int]) -> None:
    try:
        fds = [int(x) for x in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, 1024))
    for fd in fds:
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _child_A(req: dict, w_fd: int, u_fd: int, out_fd: int, err_fd: int) -> None:
    """Runs in the fork; never returns. ``w_fd``: the trusted message pipe (A and B only);
    ``u_fd``: the job's own message pipe (C); ``out_fd``/``err_fd``: the job's stdout/stderr
    pipes (read by the worker; the job cannot redirect them)."""
    code = 70
    try:
        os.setsid()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        ns: list[str] = []
        mounts: list[str] = []
        limits = {"pids": "rlimit", "memory": "rlimit (per process)"}
        for cg in req.get("cgroups") or []:
            kinds = tuple(cg.get("kinds") or ())
            try:
                _confine.job_cgroup_enter(cg["dir"], req["_cg_name"], int(req.get("nproc") or 256),
                                          kinds=kinds, version=cg.get("version", "v1"),
                                          memory_bytes=int(req.get("memory_mb") or 0) << 20)
                for k in kinds:
                    limits[k] = f"cgroup {cg.get('version', 'v1')}"
            except OSError as e:
                for k in kinds:
                    limits[k] = "none" if k == "pids" else limits[k]
                _pipe_msg(w_fd, {"kind": "warn", "what": "cgroup", "kinds": list(kinds), "error": str(e)})
        try:
            ns = _confine.unshare_job_namespaces(net=True, mount=True, pid=bool(req.get("pid_namespace", True)))
        except OSError as e:
            _pipe_msg(w_fd, {"kind": "warn", "what": "userns", "error": str(e)})
        work_fd = None
        mode = req.get("mode", "run")
        if "mnt" in ns:
            try:
                mounts, work_fd = _confine.setup_job_mounts(req["job_dir"], mode=mode,
                                                            disk_mb=req.get("disk_mb"), keep=ENGINE_DIRS)
            except OSError as e:
                import traceback
                _pipe_msg(w_fd, {"kind": "warn", "what": "mounts", "error": str(e), "tb": traceback.format_exc()[-600:]})
        req = dict(req, _private_tmp=("/tmp" in mounts))
        _pipe_msg(w_fd, {"kind": "ns", "namespaces": ns, "mounts": mounts, "pids_limit": limits["pids"].split()[0],
                         "limits": limits, "disk_limit_mb": req.get("disk_mb") if work_fd is not None and mode == "run" else None})
        if work_fd is not None and mode == "run":
            try:  # the job's work folder lives in its own size-limited tmpfs
                st = _confine.copy_tree_fd(work_fd, os.path.join(req["job_dir"], "work"))
                _pipe_msg(w_fd, {"kind": "copy_in", **st})
            except OSError as e:
                _pipe_msg(w_fd, {"kind": "copy_in", "error": str(e), "errno": e.errno})
                os._exit(75)
        if "pid" in ns:
            b = os.fork()  # becomes pid 1 of the job's pid namespace
            if b == 0:
                if "/tmp" in mounts:
                    _confine.mount_proc()
                _supervise(req, w_fd, u_fd, out_fd, err_fd, work_fd)
            for fd in (u_fd, out_fd, err_fd):
                os.close(fd)
            _, st = os.waitpid(b, 0)
            code = os.waitstatus_to_exitcode(st)
            code = code if code >= 0 else 128 - code
        else:
            _supervise(req, w_fd, u_fd, out_fd, err_fd, work_fd)
    except BaseException as e:  # pragma: no cover
        _report_internal(w_fd, "A", e)
    finally:
        os._exit(code)


class _JobTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _JobTimeout()


def _supervise(req: dict, w_fd: int, u_fd: int, out_fd: int, err_fd: int, work_fd: int | None) -> None:
    """B: fork C, reap everything until C is gone (or its time is up), kill what is left of the
    job, copy the job's work folder out of its tmpfs, report C's status. Never returns."""
    try:
        c = os.fork()
        if c == 0:
            _child_C(req, u_fd, out_fd, err_fd)
        for fd in (u_fd, out_fd, err_fd):
            os.close(fd)
        timed_out = False
        status = None
        signal.signal(signal.SIGALRM, _on_alarm)
        if req.get("timeout_s"):
            signal.setitimer(signal.ITIMER_REAL, max(0.01, float(req["timeout_s"])))
        try:
            while True:
                try:
                    pid, st = os.waitpid(-1, 0)
                except ChildProcessError:
                    break
                if pid == c:
                    status = st
                    break
        except _JobTimeout:
            timed_out = True
        signal.setitimer(signal.ITIMER_REAL, 0)
        _kill_rest(c)
        if status is None:
            try:
                _, status = os.waitpid(c, 0)
            except ChildProcessError:
                pass
        msg: dict = {"kind": "status", "timed_out": timed_out}
        if status is not None:
            if os.WIFEXITED(status):
                msg["exit_code"] = os.WEXITSTATUS(status)
            elif os.WIFSIGNALED(status):
                msg["signal"] = os.WTERMSIG(status)
        if work_fd is not None and req.get("mode", "run") == "run":
            try:
                src = os.open(os.path.join(req["job_dir"], "work"), _confine._DIR_FLAGS)
                try:
                    _pipe_msg(w_fd, {"kind": "copy_out", **_confine.sync_tree_fd(src, work_fd)})
                finally:
                    os.close(src)
            except OSError as e:
                _pipe_msg(w_fd, {"kind": "copy_out", "error": str(e), "errno": e.errno})
        _pipe_msg(w_fd, msg)
    except BaseException as e:  # pragma: no cover
        _report_internal(w_fd, "B", e)
    finally:
        os._exit(0)


def _kill_rest(c: int) -> None:
    """B: nothing of the job may still run (or write) once C is gone or out of time."""
    if os.getpid() == 1:  # pid 1 of the job's pid namespace: -1 is every other process in it
        targets = [lambda: os.kill(-1, signal.SIGKILL)]
    else:
        targets = [lambda: os.kill(c, signal.SIGKILL)]
    for f in targets:
        try:
            f()
        except OSError:
            pass
    end = time.monotonic() + 5
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.01)


def _pipe_msg(w_fd: int, msg: dict) -> None:
    data = (json.dumps(msg, default=str) + "\n").encode("utf-8", "replace")
    try:
        os.write(w_fd, data)
    except OSError:
        pass


def _report_internal(w_fd: int, process: str, e: BaseException) -> None:
    """Tell the runner that a sandbox process failed in its own code; never raises (it runs on the way out).

    Args:
        w_fd: the message pipe.
        process: which process failed ("A", "B"), as the message's first word.
        e: what it raised.
    """
    try:
        _pipe_msg(w_fd, {"kind": "internal", "error": f"{process}: {type(e).__name__}: {e}"})
    except Exception:
        pass


def _confine_self(req: dict, writable: list[str]) -> dict:
    """Caps, Landlock, rlimits for the calling process (C)."""
    applied: dict = {}
    try:
        _confine.drop_all_capabilities()
        applied["caps_dropped"] = _confine.effective_caps() == 0
    except OSError as e:
        applied["caps_error"] = str(e)
    _confine.set_no_new_privs()
    if req.get("landlock", True) and _confine.landlock_abi() > 0:
        applied.update(_confine.landlock_restrict(writable))
    elif req.get("require_landlock"):
        raise OSError("Landlock required but unavailable")
    _confine.limit_malloc_arenas(2)
    _confine.set_rlimits(memory_mb=req.get("memory_mb"), nproc=req.get("nproc"),
                         cpu_s=req.get("cpu_s"), fsize_mb=req.get("fsize_mb"),
                         as_base_bytes=_confine.address_space_bytes())
    return applied


def _child_C(req: dict, w_fd: int, out_fd: int, err_fd: int) -> None:
    """C: confine and run. Never returns."""
    rc = 1
    runner_pid = os.getpid()
    try:
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        dn = os.open(os.devnull, os.O_RDONLY)
        os.dup2(dn, 0)
        os.close(dn)
        _close_fds_except({w_fd})
        os.set_inheritable(w_fd, False)
        import io
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin
        job = req["job_dir"]
        work, home, tmp = (os.path.join(job, d) for d in ("work", "home", "tmp"))
        mode = req.get("mode", "run")
        writable = [work, home, tmp] if mode == "run" else []
        if mode == "run" and req.get("_private_tmp"):
            writable += ["/tmp", "/dev/shm"]
        env = {
            "HOME": home, "TMPDIR": tmp, "TMP": tmp, "TEMP": tmp,
            "MPLCONFIGDIR": os.path.join(home, ".mpl"), "MPLBACKEND": "Agg",
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
            "USER": "sandbox", "LOGNAME": "sandbox",
        }
        env.update({str(k): str(v) for k, v in (req.get("env") or {}).items()})
        os.environ.clear()
        os.environ.update(env)
        import tempfile
        tempfile.tempdir = None
        os.chdir(work)
        applied = _confine_self(req, writable)
        if mode == "run":
            _pipe_msg(w_fd, {"kind": "confined", **applied})
            rc = _run_script(work, w_fd, runner_pid)
        else:
            from . import summary
            res = summary.summarize_dir(work, skip=req.get("skip") or {},
                                        max_files=req.get("max_files", 200))
            _pipe_msg(w_fd, {"kind": "files", "files": res})
            rc = 0
    except BaseException as e:
        if os.getpid() == runner_pid:
            import traceback
            _pipe_msg(w_fd, {"kind": "internal",
                             "error": f"C: {type(e).__name__}: {e}",
                             "traceback": traceback.format_exc()[-4000:]})
    finally:
        for s in (sys.stdout, sys.stderr):
            try:
                s.flush()
            except Exception:
                pass
        os._exit(rc)


def _run_script(work: str, w_fd: int, runner_pid: int) -> int:
    import builtins
    import types
    script = os.path.join(work, "script.py")
    sys.argv = ["script.py"]
    sys.path[0:0] = [work]
    mod = types.ModuleType("__main__")
    mod.__file__ = script
    mod.__builtins__ = builtins
    sys.modules["__main__"] = mod
    try:
        with open(script, "rb") as f:
            src = f.read()
        code = compile(src, script, "exec", dont_inherit=True)
        exec(code, mod.__dict__)
        return 0
    except SystemExit as e:
        if os.getpid() != runner_pid:
            os._exit(_exit_code(e))
        rc = _exit_code(e)
        if rc != 0 and e.code is not None and not isinstance(e.code, int):
            print(e.code, file=sys.stderr)
        return rc
    except BaseException as e:  # noqa: BLE001 - report everything the script raised
        if os.getpid() != runner_pid:
            os._exit(1)
        tb_text = ""
        try:
            import traceback
            tb = e.__traceback__
            if tb is not None and tb.tb_next is not None:
                tb = tb.tb_next  # drop this runner's frame
            tb_text = "".join(traceback.format_exception(type(e), e, tb))
            sys.stderr.write(tb_text)
        except BaseException:  # e.g. MemoryError while formatting
            tb_text = f"{type(e).__name__}: <traceback unavailable>"
        try:
            message = str(e)
        except BaseException:
            message = "<unprintable>"
        _pipe_msg(w_fd, {"kind": "exception", "type": type(e).__name__,
                         "module": type(e).__module__, "message": message[:4000],
                         "errno": getattr(e, "errno", None),
                         "traceback": tb_text[-12000:]})
        return 1
    finally:
        if os.getpid() == runner_pid:
            _finalize(mod)
            for s in (sys.stdout, sys.stderr):
                try:
                    s.flush()
                except BaseException:
                    pass


def _finalize(mod) -> None:
    """What a normal interpreter exit does for the script before the job's os._exit: atexit
    handlers run and the script's objects are released, so a file it never closed
    (``w = csv.writer(open("t.csv", "w"))`` held in a global) is flushed, not left empty."""
    import atexit
    import gc
    try:
        atexit._run_exitfuncs()
    except BaseException:  # noqa: BLE001 - a failing handler must not change the result
        pass
    try:
        mod.__dict__.clear()
        gc.collect()
    except BaseException:  # noqa: BLE001
        pass


def _exit_code(e: SystemExit) -> int:
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code & 0xFF
    return 1


# ------------------------------------------------------------------------------------------
STREAM_HEAD = 10_000   # bytes of a job's stdout/stderr kept from the start ...
STREAM_TAIL = 10_000   # ... and from the end


class _Stream:
    """The first and last bytes of a stream, and its total size (bounded memory)."""

    def __init__(self) -> None:
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = STREAM_HEAD - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > STREAM_TAIL:
                del self.tail[: len(self.tail) - STREAM_TAIL]

    def text(self) -> str:
        if self.total <= STREAM_HEAD + STREAM_TAIL:
            return (bytes(self.head) + bytes(self.tail)).decode("utf-8", "replace")
        return (f"{self.head.decode('utf-8', 'replace')}\n[... truncated: {self.total} bytes in total ...]\n"
                f"{self.tail.decode('utf-8', 'replace')}")


class _Sink:
    def __init__(self, limit: int = MAX_PIPE_BYTES) -> None:
        self.data = bytearray()
        self.limit = limit

    def feed(self, chunk: bytes) -> None:
        if len(self.data) < self.limit:
            self.data.extend(chunk[: self.limit - len(self.data)])


def _parse_msgs(data: bytes) -> list[dict]:
    msgs = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            m = json.loads(line)
        except ValueError:
            continue
        if isinstance(m, dict):
            msgs.append(m)
    return msgs


def _write_ctl(path: str, text: str) -> None:
    """A copy of the captured stream for a person to look at; the host never reads it back."""
    try:
        os.unlink(path)
    except OSError:
        pass
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        return
    with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as f:
        f.write(text)


COPY_GRACE_S = 20.0  # beyond the job's timeout: copying its work folder in and out


def _run_confined(req: dict, timeout_s: float) -> dict:
    ctl = os.path.join(req["job_dir"], "ctl")
    suffix = "" if req.get("mode", "run") == "run" else "." + req["mode"]
    r_fd, w_fd = os.pipe()      # A and B report here (trusted)
    u_r, u_w = os.pipe()        # the job's own reports (exception, file summaries)
    o_r, o_w = os.pipe()        # the job's stdout ...
    e_r, e_w = os.pipe()        # ... and stderr
    for s in (sys.stdout, sys.stderr):
        s.flush()
    cg_name = f"job-{os.getpid()}-{time.monotonic_ns()}"
    req = dict(req, _cg_name=cg_name, timeout_s=timeout_s)
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        for fd in (r_fd, u_r, o_r, e_r):
            os.close(fd)
        _child_A(req, w_fd, u_w, o_w, e_w)
    for fd in (w_fd, u_w, o_w, e_w):
        os.close(fd)
    trusted, job, out, err = _Sink(), _Sink(), _Stream(), _Stream()
    hard_timeout = _wait(pid, {r_fd: trusted, u_r: job, o_r: out, e_r: err}, t0 + timeout_s + COPY_GRACE_S)
    duration = time.monotonic() - t0
    cg_stats: dict = {}
    for cg in req.get("cgroups") or []:
        path = os.path.join(cg["dir"], cg_name)
        if "memory" in (cg.get("kinds") or ()):
            cg_stats.update(_confine.job_cgroup_stats(path, cg.get("version", "v1")))
        _confine.cgroup_kill_and_remove(path)
    msgs = _parse_msgs(bytes(trusted.data))
    status = next((m for m in msgs if m.get("kind") == "status"), {})
    _write_ctl(os.path.join(ctl, "stdout" + suffix), out.text())
    _write_ctl(os.path.join(ctl, "stderr" + suffix), err.text())
    return {"timed_out": hard_timeout or bool(status.get("timed_out")), "duration_s": duration,
            "messages": msgs, "job_messages": _parse_msgs(bytes(job.data)),
            "stdout": out.text(), "stderr": err.text(), "stdout_bytes": out.total, "stderr_bytes": err.total,
            "memory": cg_stats, "pipe_truncated": len(job.data) >= MAX_PIPE_BYTES}


def _kill_job(pid: int) -> None:
    for f in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            f()
        except OSError:
            pass


def _wait(pid: int, sinks: dict, deadline: float) -> bool:
    """Read the job's pipes until A exits (SIGKILLing A's group at ``deadline``), then drain
    them briefly. Returns True if the deadline was hit."""
    pidfd = os.pidfd_open(pid)
    for fd in sinks:
        os.set_blocking(fd, False)
    open_fds = set(sinks)
    timed_out = False
    try:
        while True:
            rem = deadline - time.monotonic()
            if rem <= 0 and not timed_out:
                timed_out = True
                _kill_job(pid)
            ready, _, _ = select.select([pidfd, *open_fds], [], [], 1.0 if timed_out else max(0.0, min(rem, 1.0)))
            for fd in ready:
                if fd in open_fds and not _drain(fd, sinks[fd]):
                    open_fds.discard(fd)
            if pidfd in ready:
                break
        os.waitpid(pid, 0)
        # A is gone, so B (pid 1) is gone and the kernel killed the rest of the job;
        # the pipes reach EOF shortly.
        end = time.monotonic() + 2.0
        while open_fds and time.monotonic() < end:
            ready, _, _ = select.select(list(open_fds), [], [], 0.2)
            for fd in ready:
                if not _drain(fd, sinks[fd]):
                    open_fds.discard(fd)
    finally:
        os.close(pidfd)
        for fd in sinks:
            os.close(fd)
    try:  # in case something survived (no pid namespace available)
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    return timed_out


def _drain(fd: int, sink) -> bool:
    for _ in range(64):  # at most 4 MiB per call, so no pipe starves the others
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        sink.feed(chunk)
    return True


def handle(req: dict) -> dict:
    t0 = time.monotonic()
    run = _run_confined(dict(req, mode="run"), float(req.get("timeout_s", 60)))
    summ = None
    if req.get("summarize", True):
        sreq = dict(req, mode="summary", env={}, cpu_s=int(req.get("summary_timeout_s", 30)) + 1)
        summ = _run_confined(sreq, float(req.get("summary_timeout_s", 30)))
    return {"op": "result", "id": req.get("id"), "run": run, "summary": summ,
            "worker_s": time.monotonic() - t0, "worker_pid": os.getpid()}


def _drop_to(spec: str) -> None:
    """As host root, bwrap starts the worker with CAP_SETUID/CAP_SETGID only, as a uid that is
    not mapped in the sandbox: become the mapped, unprivileged uid and drop every capability."""
    uid, gid = (int(x) for x in spec.split(":"))
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    _confine.drop_all_capabilities()
    if os.getuid() != uid or _confine.effective_caps() != 0:
        raise SystemExit(f"worker: could not switch to uid {uid} without capabilities")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--drop-to" in argv:
        _drop_to(argv[argv.index("--drop-to") + 1])
    preload = "--no-preload" not in argv
    once = "--once" in argv
    _setup_fds()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    info = _preload() if preload else {}
    probe = _probe_userns()
    _send({"op": "ready", "pid": os.getpid(), "preload": preload, **info, "probe": probe})
    for line in _PROTO_IN:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            _send({"op": "error", "error": "bad json"})
            continue
        if req.get("op") == "quit":
            break
        if req.get("op") == "ping":
            _send({"op": "pong", "id": req.get("id")})
            continue
        try:
            _send(handle(req))
        except Exception as e:
            import traceback
            _send({"op": "error", "id": req.get("id"), "error": f"{type(e).__name__}: {e}",
                   "traceback": traceback.format_exc()})
        if once:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
