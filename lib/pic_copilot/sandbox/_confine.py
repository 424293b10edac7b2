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
import stat

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

# access rights: bit i is the i-th right of linux/landlock.h, in the kernel's order
# (FS_REFER from ABI 2, FS_TRUNCATE from ABI 3)
(FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR, FS_REMOVE_DIR, FS_REMOVE_FILE, FS_MAKE_CHAR, FS_MAKE_DIR,
 FS_MAKE_REG, FS_MAKE_SOCK, FS_MAKE_FIFO, FS_MAKE_BLOCK, FS_MAKE_SYM, FS_REFER, FS_TRUNCATE) = (1 << i for i in range(15))
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6


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
    # a process whose credentials changed (the worker switched uid) is not dumpable, and then
    # its /proc/self files are root's: writing the maps below would be refused
    _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
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


def setup_job_mounts(job_dir: str, *, mode: str = "run", disk_mb: int | None = 1024, tmp_mb: int = 256,
                     shm_mb: int = 64, keep: tuple[str, ...] = ()) -> tuple[list[str], int]:
    """In the job's own mount namespace (after ``unshare_job_namespaces(mount=True)``):
    private size-limited tmpfs on /tmp and /dev/shm, and a read-only tmpfs over the jobs root
    that holds only this job's directory, so a job cannot see, read or write its siblings nor
    its own ``ctl`` folder (the worker's control files are never visible to the job).

    ``mode="run"``: the job directory is a fresh tmpfs of ``disk_mb`` MiB holding ``work``,
    ``home`` and ``tmp`` (the job's whole disk budget); the caller copies the real work
    directory in and out (:func:`copy_tree_fd`, :func:`sync_tree_fd`). ``mode="summary"``:
    only the real ``work`` folder is bound (nothing is writable). Folders in ``keep`` that
    lie under /tmp (the engine's venv and code in a checkout under /tmp) are bound back
    (read-only, as in the outer sandbox).

    Returns (mounts made, an O_RDONLY descriptor of the real work directory)."""
    work_fd = os.open(os.path.join(job_dir, "work"), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | os.O_NOFOLLOW)
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
        if mode == "run":
            size = f"size={int(disk_mb)}m," if disk_mb else ""
            _mount("tmpfs", job_dir, "tmpfs", MS_NOSUID | MS_NODEV, f"{size}mode=0700")
            for d in ("work", "home", "tmp"):
                os.mkdir(os.path.join(job_dir, d), 0o700)
            done.append(f"{job_dir} (tmpfs {disk_mb} MiB)" if disk_mb else job_dir)
        else:
            os.mkdir(os.path.join(job_dir, "work"), 0o700)
            _mount(f"/proc/self/fd/{work_fd}", os.path.join(job_dir, "work"), None, MS_BIND | MS_REC)
        _mount(None, jobs_root, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, "size=64k,mode=0755")
        done.append(jobs_root)
    except BaseException:
        os.close(work_fd)
        raise
    finally:
        for _, fd in kept:
            os.close(fd)
    return done, work_fd


# --- copying a job's work folder in and out of its tmpfs, through descriptors only --------
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _copy_file_at(sfd: int, dfd: int, name: str, st: os.stat_result) -> int:
    fi = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=sfd)
    try:
        if not stat.S_ISREG(os.fstat(fi).st_mode):
            return -1
        try:
            os.unlink(name, dir_fd=dfd)
        except FileNotFoundError:
            pass
        fo = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     (st.st_mode & 0o777) | 0o600, dir_fd=dfd)
        n = 0
        try:
            while True:
                chunk = os.read(fi, 1 << 20)
                if not chunk:
                    break
                view = memoryview(chunk)
                while view:
                    w = os.write(fo, view)
                    view = view[w:]
                n += len(chunk)
            os.utime(fo, ns=(st.st_atime_ns, st.st_mtime_ns))
        finally:
            os.close(fo)
        return n
    finally:
        os.close(fi)


def _kind(st: os.stat_result) -> str:
    m = st.st_mode
    return "dir" if stat.S_ISDIR(m) else "file" if stat.S_ISREG(m) else "link" if stat.S_ISLNK(m) else "special"


def _entries(fd: int) -> dict[str, os.stat_result]:
    out = {}
    with os.scandir(fd) as it:
        for e in it:
            try:
                out[e.name] = os.stat(e.name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
    return out


def sync_tree_fd(src_fd: int, dst_fd: int, *, delete: bool = True, stats: dict | None = None,
                 depth: int = 0) -> dict:
    """Make the directory ``dst_fd`` hold what ``src_fd`` holds: directories, regular files
    (unchanged ones, same size and mtime, are skipped; mtimes are kept) and symlinks (copied as
    links, never followed). FIFOs, sockets and devices are skipped and counted. Every access is
    relative to a descriptor opened without following links, so a name swapped for a link
    cannot redirect it. ``delete`` removes what ``src`` does not have."""
    import shutil
    stats = stats if stats is not None else {"files": 0, "bytes": 0, "links": 0, "skipped": 0}
    if depth > 64:
        stats["skipped"] += 1
        return stats
    src, dst = _entries(src_fd), _entries(dst_fd)
    if delete:
        for name, dst_st in dst.items():
            s = src.get(name)
            if s is not None and _kind(s) == _kind(dst_st) and _kind(s) in ("dir", "file"):
                continue
            if _kind(dst_st) == "dir":
                shutil.rmtree(name, dir_fd=dst_fd)
            else:
                os.unlink(name, dir_fd=dst_fd)
    for name, st in src.items():
        kind = _kind(st)
        if kind == "dir":
            try:
                os.mkdir(name, 0o700, dir_fd=dst_fd)
            except FileExistsError:
                pass
            sub_s = os.open(name, _DIR_FLAGS, dir_fd=src_fd)
            try:
                sub_d = os.open(name, _DIR_FLAGS, dir_fd=dst_fd)
                try:
                    sync_tree_fd(sub_s, sub_d, delete=delete, stats=stats, depth=depth + 1)
                finally:
                    os.close(sub_d)
            finally:
                os.close(sub_s)
        elif kind == "file":
            d = dst.get(name) if delete else None
            if d is not None and _kind(d) == "file" and d.st_size == st.st_size and d.st_mtime_ns == st.st_mtime_ns:
                continue
            n = _copy_file_at(src_fd, dst_fd, name, st)
            if n < 0:
                stats["skipped"] += 1
            else:
                stats["files"] += 1
                stats["bytes"] += n
        elif kind == "link":
            target = os.readlink(name, dir_fd=src_fd)
            try:
                os.unlink(name, dir_fd=dst_fd)
            except FileNotFoundError:
                pass
            os.symlink(target, name, dir_fd=dst_fd)
            stats["links"] += 1
        else:
            stats["skipped"] += 1
    return stats


def copy_tree_fd(src_fd: int, dst_path: str) -> dict:
    """Copy the tree under ``src_fd`` into the (empty) directory ``dst_path``."""
    dfd = os.open(dst_path, _DIR_FLAGS)
    try:
        return sync_tree_fd(src_fd, dfd, delete=False)
    finally:
        os.close(dfd)


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


def address_space_bytes() -> int:
    """Virtual size of the calling process (VmSize), 0 if unknown."""
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def set_rlimits(*, memory_mb: int | None, nproc: int | None, cpu_s: int | None,
                fsize_mb: int | None, nofile: int | None = 1024, as_base_bytes: int = 0) -> None:
    """Apply the job's rlimits. ``RLIMIT_AS`` is ``as_base_bytes`` (what the warm worker had
    mapped when the job was forked) plus ``memory_mb``: a job may add that much address space."""
    def _set(res, v):
        if v is None:
            return
        soft, hard = resource.getrlimit(res)
        v = int(v)
        if hard != resource.RLIM_INFINITY:
            v = min(v, hard)
        resource.setrlimit(res, (v, v))

    if memory_mb:
        _set(resource.RLIMIT_AS, memory_mb * 1024 * 1024 + int(as_base_bytes))
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


# --- cgroups: a pids limit (needed when the host uid is 0: the kernel never applies
# RLIMIT_NPROC to processes whose real uid is the initial root, whatever the user namespace)
# and a memory limit for the whole job (RLIMIT_AS bounds one process, not the sum) ----------
def find_cgroup_base(controller: str) -> tuple[str, str] | None:
    """(directory, "v1" | "v2") of the calling process's cgroup in a *writable* hierarchy that
    has ``controller`` ("pids" or "memory"): a v1 hierarchy of that controller, or the v2
    hierarchy when the controller is enabled for its children; None if there is none."""
    try:
        mounts = open("/proc/self/mountinfo").read().splitlines()
        own = open("/proc/self/cgroup").read().splitlines()
    except OSError:
        return None
    v1_path = v2_path = None
    for line in own:
        hid, ctrls, path = line.split(":", 2)
        if controller in ctrls.split(","):
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
        if fstype == "cgroup" and controller in opts and v1_path is not None:
            rel = os.path.relpath(v1_path, mnt_root) if mnt_root != "/" else v1_path.lstrip("/")
            base, version = os.path.normpath(os.path.join(mnt_point, rel)), "v1"
        elif fstype == "cgroup2" and v2_path is not None:
            rel = os.path.relpath(v2_path, mnt_root) if mnt_root != "/" else v2_path.lstrip("/")
            base, version = os.path.normpath(os.path.join(mnt_point, rel)), "v2"
            try:
                if controller not in open(os.path.join(base, "cgroup.subtree_control")).read().split():
                    continue
            except OSError:
                continue
        else:
            continue
        if os.access(base, os.W_OK):
            return base, version
    return None


def find_pids_cgroup_base() -> str | None:
    """Directory of the calling process's cgroup in a writable pids hierarchy, or None."""
    found = find_cgroup_base("pids")
    return found[0] if found else None


def _write(path: str, value: str, *, optional: bool = False) -> None:
    try:
        with open(path, "w") as f:
            f.write(value)
    except OSError:
        if not optional:
            raise


def job_cgroup_enter(parent: str, name: str, pids_max: int | None = None, *, kinds: tuple[str, ...] = ("pids",),
                     version: str = "v1", memory_bytes: int | None = None) -> str:
    """Create ``parent/name`` with its limit and move the calling process into it.

    Args:
        parent: the worker's cgroup directory (made by the host).
        name: the job's cgroup name.
        pids_max: process limit.
        kinds: the controllers of this hierarchy to limit ("pids", "memory").
        version: "v1" or "v2".
        memory_bytes: memory limit of the whole job, swap included (swap is not allowed).
    """
    path = os.path.join(parent, name)
    os.mkdir(path)
    if "pids" in kinds and pids_max:
        _write(os.path.join(path, "pids.max"), str(int(pids_max)))
    if "memory" in kinds and memory_bytes:
        if version == "v1":
            _write(os.path.join(path, "memory.limit_in_bytes"), str(int(memory_bytes)))
            # memory+swap (present when swap accounting is on): no swap beyond the limit
            _write(os.path.join(path, "memory.memsw.limit_in_bytes"), str(int(memory_bytes)), optional=True)
        else:
            _write(os.path.join(path, "memory.max"), str(int(memory_bytes)))
            _write(os.path.join(path, "memory.swap.max"), "0", optional=True)
    with open(os.path.join(path, "cgroup.procs"), "w") as f:
        f.write(str(os.getpid()))
    return path


def job_cgroup_stats(path: str, version: str = "v1") -> dict:
    """OOM kills and peak memory (bytes) of a job's memory cgroup, as far as the kernel says."""
    out: dict = {}
    try:
        if version == "v1":
            for line in open(os.path.join(path, "memory.oom_control")):
                k, _, v = line.partition(" ")
                if k == "oom_kill":
                    out["oom_kills"] = int(v)
            out["peak_bytes"] = int(open(os.path.join(path, "memory.max_usage_in_bytes")).read())
        else:
            for line in open(os.path.join(path, "memory.events")):
                k, _, v = line.partition(" ")
                if k == "oom_kill":
                    out["oom_kills"] = int(v)
            try:
                out["peak_bytes"] = int(open(os.path.join(path, "memory.peak")).read())
            except OSError:
                pass
    except (OSError, ValueError):
        pass
    return out


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
