"""Low-level confinement primitives (Linux only), via ctypes.

Used inside the sandbox worker's forked children:
- per-job namespaces: ``unshare(CLONE_NEWUSER|CLONE_NEWPID|CLONE_NEWNET|CLONE_NEWIPC)``
- capability drop (bounding set, securebits, capset to zero, no_new_privs)
- Landlock: writes only beneath the job's own directories, no TCP, and (ABI >= 6)
  no signals / abstract unix sockets outside the job's Landlock domain
- rlimits: address space, processes (per-job user namespace counter), CPU, file size

Nothing here imports anything heavy; it must work in the warm worker and in the cold path.
"""
from __future__ import annotations

import ctypes
import errno
import os
import platform
import resource

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

PR_CAPBSET_DROP = 24
PR_SET_SECUREBITS = 28
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4

# securebits: NOROOT, NOROOT_LOCKED, NO_SETUID_FIXUP, NO_SETUID_FIXUP_LOCKED,
# KEEP_CAPS_LOCKED, NO_CAP_AMBIENT_RAISE, NO_CAP_AMBIENT_RAISE_LOCKED
SECUREBITS_ALL_LOCKED = 0x1 | 0x2 | 0x4 | 0x8 | 0x20 | 0x40 | 0x80

# --- Landlock ---------------------------------------------------------------------------
_SYSCALLS = {  # generic syscall table numbers (same on x86_64 and aarch64)
    "landlock_create_ruleset": 444,
    "landlock_add_rule": 445,
    "landlock_restrict_self": 446,
}
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1

FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_REMOVE_DIR = 1 << 4
FS_REMOVE_FILE = 1 << 5
FS_MAKE_CHAR = 1 << 6
FS_MAKE_DIR = 1 << 7
FS_MAKE_REG = 1 << 8
FS_MAKE_SOCK = 1 << 9
FS_MAKE_FIFO = 1 << 10
FS_MAKE_BLOCK = 1 << 11
FS_MAKE_SYM = 1 << 12
FS_REFER = 1 << 13  # ABI 2
FS_TRUNCATE = 1 << 14  # ABI 3
NET_BIND_TCP = 1 << 0  # ABI 4
NET_CONNECT_TCP = 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """Landlock ABI version of the running kernel, 0 if unavailable."""
    if platform.system() != "Linux":
        return 0
    r = _libc.syscall(_SYSCALLS["landlock_create_ruleset"], None, ctypes.c_size_t(0),
                      ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION))
    return int(r) if r > 0 else 0


def _err(what: str) -> OSError:
    e = ctypes.get_errno()
    return OSError(e, f"{what}: {os.strerror(e)}")


def landlock_restrict(writable: list[str], *, dev_files: tuple[str, ...] = ("/dev/null",),
                      abi: int | None = None) -> dict:
    """Restrict the calling process (and all its future children): write-type access only
    beneath ``writable``; no TCP bind/connect (ABI>=4); no signals or abstract unix sockets
    to processes outside the domain (ABI>=6). Reads and execution stay allowed.
    Requires no_new_privs (set here). Returns what was enforced."""
    abi = landlock_abi() if abi is None else abi
    if abi < 1:
        raise OSError(errno.ENOSYS, "Landlock not available")
    fs = (FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_CHAR | FS_MAKE_DIR
          | FS_MAKE_REG | FS_MAKE_SOCK | FS_MAKE_FIFO | FS_MAKE_BLOCK | FS_MAKE_SYM)
    if abi >= 2:
        fs |= FS_REFER
    if abi >= 3:
        fs |= FS_TRUNCATE
    net = (NET_BIND_TCP | NET_CONNECT_TCP) if abi >= 4 else 0
    scoped = (SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL) if abi >= 6 else 0
    attr = _RulesetAttr(fs, net, scoped)
    size = 24 if abi >= 6 else (16 if abi >= 4 else 8)
    rfd = _libc.syscall(_SYSCALLS["landlock_create_ruleset"], ctypes.byref(attr),
                        ctypes.c_size_t(size), ctypes.c_uint32(0))
    if rfd < 0:
        raise _err("landlock_create_ruleset")
    rfd = int(rfd)
    try:
        dir_access = fs & ~(FS_MAKE_CHAR | FS_MAKE_BLOCK)
        file_access = FS_WRITE_FILE | (FS_TRUNCATE if abi >= 3 else 0)
        for path, access in [(p, dir_access) for p in writable] + [(p, file_access) for p in dev_files]:
            try:
                pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                pb = _PathBeneathAttr(access, pfd)
                r = _libc.syscall(_SYSCALLS["landlock_add_rule"], ctypes.c_int(rfd),
                                  ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH), ctypes.byref(pb),
                                  ctypes.c_uint32(0))
                if r < 0:
                    raise _err(f"landlock_add_rule({path})")
            finally:
                os.close(pfd)
        set_no_new_privs()
        r = _libc.syscall(_SYSCALLS["landlock_restrict_self"], ctypes.c_int(rfd), ctypes.c_uint32(0))
        if r < 0:
            raise _err("landlock_restrict_self")
    finally:
        os.close(rfd)
    return {"landlock_abi": abi, "fs": bool(fs), "net": bool(net), "scoped": bool(scoped)}


# --- namespaces / caps -------------------------------------------------------------------
def set_no_new_privs() -> None:
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise _err("prctl(NO_NEW_PRIVS)")


def unshare_job_namespaces(net: bool = True, mount: bool = True, pid: bool = True) -> list[str]:
    """New user + pid + ipc (+ net, mount) namespaces for the calling (single-threaded)
    process. The *next* child becomes pid 1 of the new pid namespace. Raises OSError if the
    user namespace cannot be created. ``pid=False`` keeps the worker's pid namespace (for
    programs that look themselves up as ``/proc/<getpid()>/exe``, such as KLayout, where the
    job's own /proc cannot be mounted).

    Inside, the job runs as a non-root uid (the caller's uid, or 1000 when the caller is
    root): mapping uid 0 would need CAP_SETFCAP in the parent namespace (Linux >= 5.12),
    and a non-root uid gains no capabilities on exec."""
    uid, gid = os.geteuid(), os.getegid()
    inner_uid = uid if uid != 0 else 1000
    inner_gid = gid if gid != 0 else 1000
    flags = (CLONE_NEWUSER | (CLONE_NEWPID if pid else 0) | CLONE_NEWIPC | (CLONE_NEWNET if net else 0)
             | (CLONE_NEWNS if mount else 0))
    if _libc.unshare(flags) != 0:
        raise _err("unshare")
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write(f"{inner_uid} {uid} 1\n")
    with open("/proc/self/gid_map", "w") as f:
        f.write(f"{inner_gid} {gid} 1\n")
    return ["user"] + (["pid"] if pid else []) + ["ipc"] + (["net"] if net else []) + (["mnt"] if mount else [])


MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18


def _mount(src, target, fstype, flags, data=None) -> None:
    enc = lambda x: None if x is None else str(x).encode()
    if _libc.mount(enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)) != 0:
        raise _err(f"mount {target}")


def setup_job_mounts(job_dir: str, *, tmp_mb: int = 256, shm_mb: int = 64, keep: tuple[str, ...] = ()) -> list[str]:
    """In the job's own mount namespace (after ``unshare_job_namespaces(mount=True)``):
    private size-limited tmpfs on /tmp and /dev/shm, and a tmpfs over the jobs root that
    contains only this job's directory (bind-mounted back), so a job cannot see, read or
    write its siblings. Folders in ``keep`` that lie under /tmp (the engine's venv and code
    in a checkout under /tmp) are bound back (read-only, as in the outer sandbox). Returns the list of mounts made."""
    jfd = os.open(job_dir, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    kept = [(p, os.open(p, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC))
            for p in sorted(set(keep)) if p.startswith("/tmp/") and os.path.isdir(p)]
    done = []
    try:
        _mount(None, "/", None, MS_REC | MS_PRIVATE)
        _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"size={tmp_mb}m,mode=1777")
        done.append("/tmp")
        for path, fd in kept:
            os.makedirs(path, exist_ok=True)
            # the copy keeps the outer sandbox's read-only flag (a remount is refused in a user namespace);
            # Landlock also allows no writes there
            _mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
            done.append(path)
        if os.path.isdir("/dev/shm"):
            _mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                   f"size={shm_mb}m,mode=1777")
            done.append("/dev/shm")
        jobs_root = os.path.dirname(os.path.abspath(job_dir))
        os.makedirs(jobs_root, exist_ok=True)
        _mount("tmpfs", jobs_root, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=0755")
        os.mkdir(job_dir, 0o700)
        _mount(f"/proc/self/fd/{jfd}", job_dir, None, MS_BIND | MS_REC)
        _mount(None, jobs_root, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, "size=64k,mode=0755")
        done.append(jobs_root)
    finally:
        os.close(jfd)
        for _, fd in kept:
            os.close(fd)
    return done


def mount_proc() -> bool:
    """pid 1 of the job's pid namespace: a /proc that shows only the job's processes."""
    try:
        _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        return True
    except OSError:
        return False


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_all_capabilities() -> None:
    """Lock securebits (root gains nothing on exec), empty the bounding and ambient sets,
    then clear effective/permitted/inheritable. Best effort for steps that need caps."""
    _libc.prctl(PR_SET_SECUREBITS, SECUREBITS_ALL_LOCKED, 0, 0, 0)
    for cap in range(0, 64):
        if _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == errno.EINVAL:
            break
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    hdr = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    if _libc.capset(ctypes.byref(hdr), data) != 0:
        raise _err("capset")


def effective_caps() -> int:
    for line in open("/proc/self/status"):
        if line.startswith("CapEff:"):
            return int(line.split()[1], 16)
    return -1


def set_rlimits(*, memory_mb: int | None, nproc: int | None, cpu_s: int | None,
                fsize_mb: int | None, nofile: int | None = 1024) -> None:
    def _set(res, v):
        if v is None:
            return
        soft, hard = resource.getrlimit(res)
        v = int(v)
        if hard != resource.RLIM_INFINITY:
            v = min(v, hard)
        resource.setrlimit(res, (v, v))

    if memory_mb:
        _set(resource.RLIMIT_AS, memory_mb * 1024 * 1024)
    if nproc:
        _set(resource.RLIMIT_NPROC, nproc)
    if cpu_s:
        _set(resource.RLIMIT_CPU, cpu_s)
    if fsize_mb:
        _set(resource.RLIMIT_FSIZE, fsize_mb * 1024 * 1024)
    if nofile:
        _set(resource.RLIMIT_NOFILE, nofile)
    _set(resource.RLIMIT_CORE, 0)


def limit_malloc_arenas(n: int = 2) -> None:
    """glibc creates up to 8*cores 64 MiB arenas for threads; under RLIMIT_AS that wastes
    address space. M_ARENA_MAX = -8."""
    try:
        _libc.mallopt(-8, n)
    except Exception:
        pass


# --- pids cgroup (needed when the host uid is 0: the kernel never applies RLIMIT_NPROC to
# processes whose real uid is the initial root, whatever the user namespace) ---------------
def find_pids_cgroup_base() -> str | None:
    """Directory of the calling process's cgroup in a *writable* pids hierarchy (v1 ``pids``
    controller, or v2 with ``pids`` available), or None."""
    try:
        mounts = open("/proc/self/mountinfo").read().splitlines()
        own = open("/proc/self/cgroup").read().splitlines()
    except OSError:
        return None
    v1_path = v2_path = None
    for line in own:
        hid, ctrls, path = line.split(":", 2)
        if "pids" in ctrls.split(","):
            v1_path = path
        if hid == "0":
            v2_path = path
    for m in mounts:
        left, _, right = m.partition(" - ")
        fields, rfields = left.split(), right.split()
        if len(rfields) < 3:
            continue
        fstype, opts = rfields[0], rfields[2].split(",")
        mnt_root, mnt_point = fields[3], fields[4]
        if fstype == "cgroup" and "pids" in opts and v1_path is not None:
            rel = os.path.relpath(v1_path, mnt_root) if mnt_root != "/" else v1_path.lstrip("/")
            base = os.path.normpath(os.path.join(mnt_point, rel))
        elif fstype == "cgroup2" and v2_path is not None:
            rel = os.path.relpath(v2_path, mnt_root) if mnt_root != "/" else v2_path.lstrip("/")
            base = os.path.normpath(os.path.join(mnt_point, rel))
            try:
                if "pids" not in open(os.path.join(base, "cgroup.subtree_control")).read().split():
                    continue
            except OSError:
                continue
        else:
            continue
        if os.access(base, os.W_OK):
            return base
    return None


def job_cgroup_enter(parent: str, name: str, pids_max: int) -> str:
    """Create ``parent/name`` with pids.max and move the calling process into it."""
    path = os.path.join(parent, name)
    os.mkdir(path)
    with open(os.path.join(path, "pids.max"), "w") as f:
        f.write(str(int(pids_max)))
    with open(os.path.join(path, "cgroup.procs"), "w") as f:
        f.write(str(os.getpid()))
    return path


def cgroup_kill_and_remove(path: str, timeout: float = 2.0) -> bool:
    import signal
    import time
    end = time.monotonic() + timeout
    while True:
        try:  # child cgroups first (cgroup v1 refuses to remove a parent)
            for sub in os.scandir(path):
                if sub.is_dir(follow_symlinks=False):
                    cgroup_kill_and_remove(sub.path, timeout=max(0.0, end - time.monotonic()))
        except OSError:
            pass
        try:
            os.rmdir(path)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            pass
        try:
            pids = [int(x) for x in open(os.path.join(path, "cgroup.procs")).read().split()]
        except OSError:
            pids = []
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
