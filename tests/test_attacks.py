"""Attacks on the sandbox, tried as a generated script would: each test fails on the code before
issue 13 (commit 1ac8097) and passes after, and after each one a trivial job still works.

Real bubblewrap, real namespaces, real cgroups: nothing of the confinement is mocked.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap
import threading
import time
import uuid
from pathlib import Path

import pytest

from pic_copilot.sandbox import Sandbox, _confine

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def sb(tmp_path_factory):
    box = Sandbox(root=tmp_path_factory.mktemp("attackroot"))
    box.start()
    yield box
    box.close()


def _still_serving(sb) -> None:
    r = sb.run("print('still serving')")
    assert r.ok and r.stdout == "still serving\n", (r.stderr, r.exception)


def _run_bounded(sb, code: str, limit_s: float, **kw):
    """sb.run in a thread: a hang is a test failure, not a hung test run."""
    box: dict = {}
    t = threading.Thread(target=lambda: box.setdefault("r", sb.run(code, **kw)), daemon=True)
    t0 = time.monotonic()
    t.start()
    t.join(limit_s)
    return box.get("r"), time.monotonic() - t0, t


# ------------------------------------------------------------------------- control files
SWAP_CTL = textwrap.dedent("""\
    import os, json
    job = os.path.dirname(os.getcwd())
    res = {{}}
    for n in ("stdout", "stderr"):
        p = os.path.join(job, "ctl", n)
        try:
            if os.path.lexists(p):
                os.unlink(p)
            os.symlink({target!r}, p)
            res[n] = "swapped"
        except OSError as e:
            res[n] = type(e).__name__
    print("normal output", json.dumps(res), flush=True)
""")


def test_ctl_stdout_swapped_for_a_link_to_a_host_file(sb, tmp_path):
    marker = f"HOST-SECRET-{uuid.uuid4().hex}"
    secret = tmp_path / "secret.txt"
    secret.write_text(marker + "\n")
    secret.chmod(0o600)
    r, took, _ = _run_bounded(sb, SWAP_CTL.format(target=str(secret)), 60, timeout_s=20)
    assert r is not None, "the host hung on the job's control files"
    assert marker not in r.stdout and marker not in r.stderr, "the host returned a host file as the job's output"
    assert "normal output" in r.stdout, r.stdout
    assert r.ok, (r.stderr, r.exception)
    _still_serving(sb)


def test_ctl_stdout_swapped_for_a_link_to_a_fifo(sb, tmp_path):
    fifo = tmp_path / "trap.fifo"
    os.mkfifo(fifo)
    try:
        r, took, t = _run_bounded(sb, SWAP_CTL.format(target=str(fifo)), 45, timeout_s=20)
        assert r is not None, f"the host blocked on a FIFO the job linked as its stdout ({took:.0f} s)"
        assert "normal output" in r.stdout and took < 40
        _still_serving(sb)
    finally:
        try:  # release a host thread blocked in open() on the FIFO (old code)
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        except OSError:
            pass


def test_job_cannot_write_its_control_folder(sb):
    code = textwrap.dedent("""\
        import os, json
        job = os.path.dirname(os.getcwd())
        res = {"listing": sorted(os.listdir(job))}
        for p in (os.path.join(job, "ctl", "x"), os.path.join(job, "x")):
            try:
                open(p, "w").write("x")
                res[p[len(job):]] = "WROTE"
            except OSError as e:
                res[p[len(job):]] = type(e).__name__
        print(json.dumps(res))
    """)
    r = sb.run(code)
    assert r.ok, (r.stderr, r.exception)
    res = json.loads(r.stdout)
    assert "ctl" not in res["listing"], res
    assert res["/ctl/x"] != "WROTE", res
    # the job's view of its folder is its own tmpfs: anything outside work/ dies with it
    assert not (Path(r.workdir).parent / "ctl" / "x").exists() and not (Path(r.workdir).parent / "x").exists()


def test_output_files_that_are_links_or_fifos_are_not_followed_by_the_host(sb, tmp_path):
    from pic_copilot.execution.routing import _compatible_copies
    from pic_copilot.execution.render import layout_previews

    host_gds = tmp_path / "designer_ip.gds"
    import klayout.db as db
    ly = db.Layout()
    top = ly.create_cell("SECRET_IP_CELL")
    top.shapes(ly.layer(1, 0)).insert(db.Box(0, 0, 1000, 1000))
    ly.write(str(host_gds))
    code = textwrap.dedent(f"""\
        import os
        os.symlink({str(host_gds)!r}, "stolen.gds")
        os.mkfifo("hang.gds")
        os.mkdir("d")
        os.symlink("/etc", "d/etc")
    """)
    r = sb.run(code)
    assert r.ok, (r.stderr, r.exception)
    kinds = {f["path"]: f.get("kind") for f in r.files}
    assert kinds.get("stolen.gds") == "symlink"
    out = tmp_path / "out"
    out.mkdir()
    # each file on its own: a link is refused, a FIFO is refused without blocking
    for name in ("stolen.gds", "hang.gds"):
        t0 = time.monotonic()
        with pytest.raises(Exception) as ei:
            _compatible_copies(r.workdir, [{"path": name, "kind": "layout"}], out)
        assert time.monotonic() - t0 < 5
        assert "SECRET_IP_CELL" not in str(ei.value)
    assert not any("SECRET_IP_CELL".encode() in p.read_bytes() for p in out.iterdir() if p.is_file())
    previews = layout_previews(r.workdir, r.files, out_dir=tmp_path / "prev")
    assert all(p["compat"] is None for p in previews if p["path"] == "stolen.gds")
    _still_serving(sb)


# ------------------------------------------------------------------------- host secrets
@pytest.mark.skipif(os.getuid() != 0, reason="the root-host case: the tests run as root here and in CI")
def test_host_root_secrets_are_unreadable_from_a_job(sb, tmp_path):
    marker = f"SECRET-{uuid.uuid4().hex}"
    # a designer-like home in a folder the sandbox shows (read-only): only the uid protects it
    visible = REPO / "test-output" / f"fakehome-{uuid.uuid4().hex[:8]}"
    (visible / ".ssh").mkdir(parents=True)
    try:
        os.chmod(visible, 0o700)
        key = visible / ".ssh" / "id_ed25519"
        key.write_text(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{marker}\n")
        key.chmod(0o600)
        # the pic-copilot credentials file, written the way the engine writes it (mode 0600)
        monkey_env = {"PIC_COPILOT_CONFIG": str(visible / "config.toml")}
        old_env = {k: os.environ.get(k) for k in monkey_env}
        os.environ.update(monkey_env)
        try:
            from pic_copilot import config
            config.write_api_key_file(marker)
        finally:
            for k, v in old_env.items():
                os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
        creds = visible / "credentials"
        assert creds.read_text() == marker
        # a host process with a secret in its environment
        holder = subprocess.Popen(["sleep", "120"], env={"PATH": "/usr/bin:/bin", "HOLDER_SECRET": marker})
        home = os.path.realpath(os.path.expanduser("~"))
        targets = {"shadow": "/etc/shadow", "gshadow": "/etc/gshadow", "ssh_key": str(key),
                   "credentials": str(creds), "home_listing": home,
                   "holder_environ": f"/proc/{holder.pid}/environ"}
        others = [str(p) for p in Path("/home").iterdir()] if Path("/home").is_dir() else []
        code = textwrap.dedent(f"""\
            import json, os
            targets = {targets!r}
            res = {{}}
            for k, p in targets.items():
                try:
                    res[k] = os.listdir(p) if os.path.isdir(p) else open(p, "rb").read().decode("utf-8", "replace")
                except OSError as e:
                    res[k] = type(e).__name__
            for p in {others!r}:
                try:
                    res["other_home:" + p] = os.listdir(p)
                except OSError as e:
                    res["other_home:" + p] = type(e).__name__
            found = []
            for pid in os.listdir("/proc"):
                if pid.isdigit():
                    try:
                        if {marker!r}.encode() in open(f"/proc/{{pid}}/environ", "rb").read():
                            found.append(pid)
                    except OSError:
                        pass
            res["environ_scan"] = found
            res["uid"] = os.getuid()
            print(json.dumps(res))
        """)
        try:
            r = sb.run(code)
        finally:
            holder.kill()
            holder.wait()
        assert r.ok, (r.stderr, r.exception)
        assert marker not in r.stdout, "a secret of the host reached the job's output"
        res = json.loads(r.stdout)
        shadow = res["shadow"]
        assert shadow in ("PermissionError", "FileNotFoundError"), "job read /etc/shadow: " + str(shadow)[:40]
        for k in ("ssh_key", "credentials", "gshadow"):
            assert res[k] in ("PermissionError", "FileNotFoundError"), (k, str(res[k])[:40])
        assert res["environ_scan"] == [] and res["holder_environ"] != marker
        # the home folder is an empty tmpfs except for the engine's own interpreter bound back read-only
        engine = {Path(p).relative_to(home).parts[0] for p in sb._hidden_and_needed()[1] if p.startswith(home + "/")}
        listing = res["home_listing"]
        assert listing in ("FileNotFoundError", "PermissionError") or set(listing) <= engine, (listing, engine)
        for k, v in res.items():
            if k.startswith("other_home:"):
                assert v in ([], "FileNotFoundError", "PermissionError"), (k, v)
        assert r.isolation_detail["job_uid"] != 0
        _still_serving(sb)
    finally:
        shutil.rmtree(visible, ignore_errors=True)


# ------------------------------------------------------------------------- memory and disk
def _memory_cgroup_or_skip():
    if _confine.find_cgroup_base("memory") is None:
        pytest.skip("no writable memory cgroup on this host (the README says what applies then)")


def test_forked_children_share_one_memory_limit(sb):
    """Three children of 300 MiB each under a 512 MiB job limit: the sum is bounded (the
    original attack was 3 x 3 GiB; the sizes are small so the test is fast and safe)."""
    _memory_cgroup_or_skip()
    code = textwrap.dedent("""\
        import os, time
        r, w = os.pipe()
        kids = []
        for i in range(3):
            pid = os.fork()
            if pid == 0:
                os.close(r)
                b = bytearray(300 << 20)
                for j in range(0, len(b), 4096):
                    b[j] = 1
                os.write(w, b"held\\n")
                time.sleep(4)
                os._exit(0)
            kids.append(pid)
        os.close(w)
        data = b""
        while True:
            chunk = os.read(r, 100)
            if not chunk:
                break
            data += chunk
        codes = [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in kids]
        print("held", data.count(b"held"), codes)
    """)
    t0 = time.monotonic()
    r = sb.run(code, memory_mb=512, timeout_s=60)
    took = time.monotonic() - t0
    assert r.killed_reason == "memory", (r.killed_reason, r.stdout, r.stderr[-500:])
    assert not r.ok and "memory limit" in r.stderr
    held = int(r.stdout.split()[1]) if r.stdout.startswith("held") else 0
    assert held < 3, r.stdout
    peak = r.isolation_detail.get("memory_peak_mb")
    assert peak is None or peak <= 512 + 1, peak
    assert took < 30, took
    _still_serving(sb)


def test_job_cannot_write_more_than_its_disk_limit(sb, tmp_path):
    code = textwrap.dedent("""\
        import os
        n = 0
        for i in range(10):
            with open(f"f{i}.bin", "wb") as f:
                for _ in range(20):
                    f.write(b"x" * (1 << 20))
                    n += 1
        print("wrote", n)
    """)
    t0 = time.monotonic()
    r = sb.run(code, disk_mb=64, timeout_s=60)
    took = time.monotonic() - t0
    assert r.killed_reason == "disk", (r.killed_reason, r.exception, r.stderr[-300:])
    assert not r.ok and r.exception and r.exception.get("errno") == 28
    kept = sum(p.stat().st_size for p in Path(r.workdir).iterdir() if p.is_file())
    assert kept <= 64 << 20, kept
    assert took < 30
    # the same through a staged caller folder: nothing beyond the limit reaches it
    wd = tmp_path / "staged"
    r = sb.run(code, disk_mb=64, timeout_s=60, workdir=wd)
    assert r.killed_reason == "disk"
    assert sum(p.stat().st_size for p in wd.iterdir() if p.is_file()) <= 64 << 20
    _still_serving(sb)


def test_old_job_folders_are_pruned_by_age_and_total_size(tmp_path):
    box = Sandbox(root=tmp_path / "pruneroot", keep_days=1, keep_total_mb=5, preload=False)
    try:
        big = "open('big.bin','wb').write(b'x' * (3 << 20))"
        first = box.run(big)
        second = box.run(big)
        assert first.ok and second.ok
        assert not Path(first.workdir).exists(), "total size above keep_total_mb: the oldest goes"
        assert Path(second.workdir).exists()
        old = Path(second.workdir).parent
        past = time.time() - 3 * 86400
        os.utime(old, (past, past))
        third = box.run("print(3)")
        assert not old.exists() and Path(third.workdir).exists()
    finally:
        box.close()
