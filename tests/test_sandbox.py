"""Sandbox runner tests: escapes are contained and reported, the engine keeps serving, and a
real gdsfactory script works warm and cold with output summaries."""
from __future__ import annotations

import json
import os
import socket
import textwrap
import threading
import time
from pathlib import Path

import pytest

from pic_copilot.sandbox import Sandbox, probe_bwrap, strip_metadata, summarize_file

REPO = Path(__file__).resolve().parents[1]

GF_SCRIPT = textwrap.dedent("""\
    import gdsfactory as gf
    gf.gpdk.PDK.activate()
    c = gf.components.mmi1x2()
    c.write_gds("mmi.gds")
    c.write_gds("mmi_nometa.gds", with_metadata=False)
    print("ports:", [p.name for p in c.ports])
""")


@pytest.fixture(scope="module")
def sb(tmp_path_factory):
    box = Sandbox(root=tmp_path_factory.mktemp("sbroot"))
    box.start()
    yield box
    box.close()


def _run_json(sb, code, **kw):
    r = sb.run(code, **kw)
    assert r.ok, (r.stderr, r.exception)
    return r, json.loads(r.stdout.strip().splitlines()[-1])


def _procs_with(marker: str) -> list[int]:
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmd:
            out.append(int(pid))
    return out


# --------------------------------------------------------------------------------------------
def test_full_isolation_on_this_machine(sb):
    assert probe_bwrap()["ok"], probe_bwrap()
    r = sb.run("print('hi')")
    assert r.ok and r.stdout == "hi\n"
    assert r.isolation == "full", r.isolation_detail
    d = r.isolation_detail
    assert {"user", "pid", "net", "mnt"} <= set(d["job_namespaces"])
    assert d["landlock_abi"] >= 1 and d["caps_dropped"]


@pytest.mark.parametrize("warm", [True, False], ids=["warm", "cold"])
def test_gdsfactory_script_and_layout_summary(sb, warm):
    r = sb.run(GF_SCRIPT, warm=warm, timeout_s=60)
    assert r.ok, (r.stderr, r.exception)
    assert r.warm is warm
    assert "ports: ['o1', 'o2', 'o3']" in r.stdout
    assert (Path(r.workdir) / "mmi.gds").is_file()
    for name, has_ports in (("mmi.gds", True), ("mmi_nometa.gds", False)):
        f = r.file(name)
        assert f and f["kind"] == "layout", r.files
        s = f["summary"]
        assert s["cells"] >= 1
        assert {"layer": 1, "datatype": 0, "shapes": 1} in s["layers"]
        top = s["top_cells"][0]
        assert top["name"].startswith("mmi1x2")
        assert top["bbox"] == pytest.approx([-10.0, -1.25, 15.5, 1.25])
        if has_ports:
            ports = {p["name"]: p for p in top["ports"]}
            assert set(ports) == {"o1", "o2", "o3"}
            assert ports["o1"]["x"] == pytest.approx(-10.0) and ports["o1"]["orientation"] == 180
            assert ports["o2"]["width"] == pytest.approx(0.5)
        else:
            assert "ports" not in top and s["metadata"] is False
    assert r.file("script.py") is None  # the script itself is not an output


def test_exception_is_reported_with_real_line_numbers(sb):
    r = sb.run("x = 1\ny = 2\nraise ValueError('bad value %d' % (x + y))\n")
    assert not r.ok and r.exit_code == 1
    assert r.exception["type"] == "ValueError"
    assert r.exception["message"] == "bad value 3"
    assert 'script.py", line 3' in r.exception["traceback"]
    assert "worker.py" not in r.exception["traceback"]
    r = sb.run("import sys\nprint('x')\nsys.exit(3)\n")
    assert r.exit_code == 3 and r.exception is None and not r.ok and r.stdout == "x\n"


# --------------------------------------------------------------------------------------------
def test_write_outside_workdir_is_denied(sb, tmp_path):
    other = sb.run("open('mine.txt','w').write('job one')\n")
    assert other.ok
    home = Path(os.path.expanduser("~"))
    targets = {
        "repo": str(REPO / "SANDBOX_ESCAPE_PROBE.txt"),
        "repo_lib": str(REPO / "lib" / "pic_copilot" / "SANDBOX_ESCAPE_PROBE.py"),
        "home": str(home / ".pic_copilot_sandbox_escape_probe"),
        "host_tmp": str(tmp_path / "escape.txt"),
        "other_job_new": os.path.join(other.workdir, "evil.txt"),
        "other_job_existing": os.path.join(other.workdir, "mine.txt"),
        "etc": "/etc/pic_copilot_escape_probe",
        "sandbox_root": str(sb.root / "escape.txt"),
        "own_ctl": str(Path(other.workdir).parent.parent / "ctl_escape.txt"),
    }
    code = textwrap.dedent(f"""\
        import json, os
        targets = {targets!r}
        res = {{}}
        for k, p in targets.items():
            try:
                with open(p, "a") as f:
                    f.write("escaped")
                res[k] = "WROTE"
            except OSError as e:
                res[k] = type(e).__name__
        try:
            os.symlink("/etc/passwd", "link")
            res["symlink_in_workdir"] = "ok"
        except OSError as e:
            res["symlink_in_workdir"] = type(e).__name__
        open("inside.txt", "w").write("fine")
        open(os.path.expanduser("~/.cache_test"), "w").write("home is private")
        print(json.dumps(res))
    """)
    r, res = _run_json(sb, code)
    # paths under /tmp land in the job's private /tmp (a tmpfs that dies with the job);
    # everything else must be refused inside the sandbox
    assert all(v != "WROTE" for k, v in res.items()
               if not targets.get(k, "").startswith("/tmp/")), json.dumps(res)
    for k, p in targets.items():
        if k == "other_job_existing":
            assert Path(p).read_text() == "job one"
        else:
            assert not Path(p).exists(), (k, p)
    assert (Path(r.workdir) / "inside.txt").read_text() == "fine"
    assert not (home / ".cache_test").exists()
    link = r.file("link")
    assert link and link["kind"] == "symlink"  # reported, never followed


def test_job_cannot_see_sibling_jobs(sb):
    first = sb.run("open('secret.txt','w').write('s3cret')\n")
    code = textwrap.dedent(f"""\
        import json, os
        jobs = os.path.dirname(os.path.dirname(os.getcwd()))
        out = {{"siblings": sorted(os.listdir(jobs))}}
        try:
            out["read"] = open({os.path.join(first.workdir, 'secret.txt')!r}).read()
        except OSError as e:
            out["read"] = type(e).__name__
        print(json.dumps(out))
    """)
    r, out = _run_json(sb, code)
    assert out["siblings"] == [Path(r.workdir).parent.name]
    assert out["read"] != "s3cret"


def test_network_is_unreachable(sb):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(5)
    srv.settimeout(0.2)
    port = srv.getsockname()[1]
    accepted = []
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
                accepted.append(conn)
            except OSError:
                pass

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        # sanity: the server is reachable from the host
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        time.sleep(0.3)
        assert accepted, "test server not reachable from the host"
        accepted.clear()
        code = textwrap.dedent(f"""\
            import json, socket
            res = {{}}
            for host in ("127.0.0.1", "10.0.2.2", "1.1.1.1"):
                try:
                    socket.create_connection((host, {port}), timeout=2).close()
                    res[host] = "CONNECTED"
                except OSError as e:
                    res[host] = type(e).__name__
            try:
                socket.getaddrinfo("pypi.org", 443)
                res["dns"] = "RESOLVED"
            except OSError as e:
                res["dns"] = type(e).__name__
            print(json.dumps(res))
        """)
        r, res = _run_json(sb, code, timeout_s=20)
        assert "CONNECTED" not in res.values() and res["dns"] != "RESOLVED", res
        time.sleep(0.3)
        assert not accepted, "the sandbox reached the host's test server"
    finally:
        stop.set()
        t.join(2)
        srv.close()
        for c in accepted:
            c.close()


def test_infinite_loop_times_out_and_whole_group_is_killed(sb):
    marker = f"sbmarker{os.getpid()}x{time.time_ns()}"
    code = textwrap.dedent(f"""\
        import os, subprocess, sys
        subprocess.Popen(["sleep", "987", "{marker}"])
        if os.fork() == 0:
            os.setsid()  # tries to leave the process group
            os.execvp("sleep", ["sleep", "988", "{marker}"])
        print("looping", flush=True)
        while True:
            pass
    """)
    t0 = time.monotonic()
    r = sb.run(code, timeout_s=2)
    elapsed = time.monotonic() - t0
    assert r.timed_out and r.killed_reason == "timeout" and not r.ok
    assert r.duration_s < 2 + 2 and elapsed < 2 + 2 + 3, (r.duration_s, elapsed)
    assert "looping" in r.stdout
    time.sleep(0.3)
    assert _procs_with(marker) == [], "processes of the job survived the timeout"
    assert sb.run("print(1)").ok


def test_allocating_20_gb_is_contained(sb):
    r = sb.run("x = bytearray(20 * 1024**3)\nprint('allocated')\n", memory_mb=2048)
    assert not r.ok and r.killed_reason == "memory", (r.killed_reason, r.stderr[-500:])
    assert r.exception["type"] == "MemoryError" and "allocated" not in r.stdout
    # touching memory chunk by chunk is stopped at the limit, not by the host OOM killer
    code = "chunks = []\nwhile True:\n    chunks.append(b'x' * (128 << 20))\n"
    t0 = time.monotonic()
    r = sb.run(code, memory_mb=1024, timeout_s=30)
    assert r.killed_reason == "memory" and not r.timed_out, (r.killed_reason, r.stderr[-500:])
    assert time.monotonic() - t0 < 20
    assert sb.run("print(1)").ok


def test_fork_bomb_is_contained(sb):
    before = len(_procs_with("pic_copilot.sandbox.worker"))
    code = textwrap.dedent("""\
        import os, time
        t_end = time.time() + 3
        while time.time() < t_end:
            try:
                os.fork()
            except OSError:
                pass
    """)
    t0 = time.monotonic()
    r = sb.run(code, timeout_s=5, nproc=64)
    assert time.monotonic() - t0 < 5 + 2 + 3
    assert not r.ok or r.exit_code == 0  # either way: contained and reported
    time.sleep(0.5)
    assert len(_procs_with("pic_copilot.sandbox.worker")) <= before
    # the plain fork bomb hits the process limit and is reported as such
    r = sb.run("import os\nwhile True:\n    os.fork()\n", timeout_s=5, nproc=64)
    assert r.killed_reason in ("pids", "timeout"), (r.killed_reason, r.exception)
    assert r.killed_reason == "pids", r.exception
    time.sleep(0.5)
    assert len(_procs_with("pic_copilot.sandbox.worker")) <= before
    assert sb.run("print(1)").ok


def test_killing_the_parent_is_reported_and_engine_keeps_serving(sb):
    code = textwrap.dedent("""\
        import os, signal, json
        res = {"ppid": os.getppid()}
        for name, pid in (("pid1", 1), ("ppid", os.getppid())):
            try:
                os.kill(pid, signal.SIGKILL)
                res[name] = "sent"
            except OSError as e:
                res[name] = type(e).__name__
        print(json.dumps(res), flush=True)
        os.kill(os.getppid(), signal.SIGKILL)
    """)
    starts = sb.worker_starts
    r = sb.run(code, timeout_s=10)
    assert not r.ok and not r.timed_out  # reported, not hung
    if r.isolation_detail["landlock_scoped"]:  # Landlock ABI >= 6: signals are scoped
        res = json.loads(r.stdout.strip().splitlines()[0])
        assert res["pid1"] == "PermissionError" and res["ppid"] == "PermissionError", res
        assert r.exception["type"] == "PermissionError"
        assert sb.worker_starts == starts
    else:  # the worker may have died: reported, and restarted below
        assert r.killed_reason in (None, "signal:SIGKILL", "worker-died"), r.killed_reason
    r2 = sb.run("print('still serving')")
    assert r2.ok and r2.stdout == "still serving\n"


def test_worker_death_is_recovered(sb):
    starts = sb.worker_starts
    sb.start()
    import signal as _s
    os.killpg(sb.worker_pid, _s.SIGKILL)
    time.sleep(0.2)
    r = sb.run("print('back')")
    assert r.ok and r.stdout == "back\n"
    assert sb.worker_starts == starts + 1
    # worker dies *during* a job: reported, next job works
    import threading as _t
    killer = _t.Timer(1.0, lambda: os.killpg(sb.worker_pid, _s.SIGKILL))
    sb.start()
    killer.start()
    r = sb.run("import time\ntime.sleep(5)\n", timeout_s=10)
    killer.join()
    assert not r.ok and r.killed_reason == "worker-died"
    assert sb.run("print(2)").ok


# --------------------------------------------------------------------------------------------
def test_inputs_workdir_and_table_json_rdb_summaries(sb, tmp_path):
    wd = tmp_path / "wd"
    code = textwrap.dedent("""\
        import csv, json
        rows = [r for r in csv.reader(open("in.csv"))]
        with open("out.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["wavelength", "power"])
            for i in range(5):
                w.writerow([1.5 + i * 0.01, i])
        json.dump({"n_in": len(rows), "items": [1, 2, 3]}, open("out.json", "w"))
        open("report.lyrdb", "w").write('''<?xml version="1.0" encoding="utf-8"?>
        <report-database><categories>
          <category><name>width</name><categories/></category>
          <category><name>space</name></category></categories>
          <cells><cell><name>TOP</name></cell></cells>
          <items>
            <item><category>'width'</category><cell>TOP</cell><values/></item>
            <item><category>'width'</category><cell>TOP</cell><values/></item>
            <item><category>'space'</category><cell>TOP</cell><values/></item>
          </items></report-database>''')
    """)
    r = sb.run(code, workdir=wd, inputs={"in.csv": "a,b\n1,2\n3,4\n", "data/blob.bin": b"\x00\x01"})
    assert r.ok, (r.stderr, r.exception)
    assert r.workdir == str(wd)
    assert (wd / "out.csv").is_file() and (wd / "in.csv").is_file() and (wd / "script.py").is_file()
    paths = {f["path"] for f in r.files}
    assert "in.csv" not in paths and "data/blob.bin" not in paths  # unchanged inputs
    csv_s = r.file("out.csv")["summary"]
    assert csv_s["rows"] == 5 and csv_s["columns"] == 2 and csv_s["header"] == ["wavelength", "power"]
    js = r.file("out.json")["summary"]
    assert js["type"] == "dict" and js["keys"] == ["n_in", "items"]
    assert json.loads((wd / "out.json").read_text())["n_in"] == 3
    rdb = r.file("report.lyrdb")["summary"]
    assert rdb["categories"] == ["width", "space"] and rdb["items"] == 3
    assert rdb["items_per_category"] == {"width": 2, "space": 1}
    # a second run in the same sandbox work directory sees the first run's files
    r2 = sb.run("print(open('out.json').read()[:6])", workdir=wd)
    assert r2.ok and r2.stdout.startswith('{"n_in')


def test_reuse_of_sandbox_workdir_in_place(sb):
    r1 = sb.run("open('a.txt','w').write('A')")
    r2 = sb.run("print(open('a.txt').read())", workdir=r1.workdir)
    assert r2.ok and r2.stdout == "A\n" and r2.workdir == r1.workdir


def test_output_is_truncated(sb):
    r = sb.run("import sys\nsys.stdout.write('x' * 100000)\nsys.stderr.write('e' * 100000)\n")
    assert r.ok and len(r.stdout) < 21000 and "truncated" in r.stdout and "truncated" in r.stderr


def test_strip_metadata(sb, tmp_path):
    r = sb.run(GF_SCRIPT)
    src = Path(r.workdir) / "mmi.gds"
    dst = tmp_path / "mmi_clean.gds"
    strip_metadata(src, dst)
    import klayout.db as db
    ly = db.Layout()
    ly.read(str(dst))
    assert not any(m.name.startswith("kfactory:") for c in ly.each_cell() for m in c.each_meta_info())
    assert b"kfactory" in src.read_bytes() and b"kfactory" not in dst.read_bytes()
    s = summarize_file(dst)["summary"]
    assert s["top_cells"][0]["bbox"] == pytest.approx([-10.0, -1.25, 15.5, 1.25])
