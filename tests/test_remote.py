"""The remote endpoint inside the real KLayout app (klayout -b), with this test process as the client.

KLayout hosts klayout_plugin/pic_copilot_plugin/remote.py on a headless layout and pumps Qt
events (tests/klayout/remote_endpoint_host.py); the test steers it through a control file.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from kl import KLAYOUT, ROOT, private_home

pytestmark = [pytest.mark.klayout, pytest.mark.skipif(KLAYOUT is None, reason="KLayout is not installed")]

ADD_BOX = "li = layout.layer(1, 0)\ncell.shapes(li).insert(pya.DBox(0, 0, 10, 5))\nprint('added', cell.name)\n"


class Host:
    """A klayout -b process hosting the endpoint, steered through <ctl>/cmd.json."""

    def __init__(self, tmp: Path):
        self.ctl = tmp / "ctl"
        self.ctl.mkdir()
        self.home = tmp / "pic-home"
        env = dict(os.environ, KLAYOUT_HOME=str(private_home(tmp)), PIC_COPILOT_HOME=str(self.home))
        self.proc = subprocess.Popen([KLAYOUT, "-b", "-r", str(ROOT / "tests/klayout/remote_endpoint_host.py"),
                                      "-rd", f"root={ROOT}", "-rd", f"ctl={self.ctl}", "-rd", "timeout=240"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                     start_new_session=True)
        self.seq = 0
        self.wait_ack(0, 60)

    def wait_ack(self, seq: int, timeout: float = 20) -> dict:
        t0 = time.time()
        while time.time() - t0 < timeout:
            try:
                ack = json.loads((self.ctl / "ack.json").read_text())
                if ack.get("seq") == seq:
                    assert "error" not in ack, ack.get("traceback")
                    return ack
            except (OSError, ValueError):
                pass
            if self.proc.poll() is not None:
                raise AssertionError(f"KLayout exited {self.proc.returncode}: {self.proc.stdout.read()}")
            time.sleep(0.02)
        raise AssertionError(f"no ack for command {seq}")

    def __call__(self, cmd: str) -> dict:
        self.seq += 1
        tmp = self.ctl / "cmd.json.tmp"
        tmp.write_text(json.dumps({"seq": self.seq, "cmd": cmd}))
        os.replace(tmp, self.ctl / "cmd.json")
        return self.wait_ack(self.seq)

    def close(self):
        if self.proc.poll() is None:
            try:
                self("quit")
                self.proc.wait(10)
            except Exception:
                os.killpg(self.proc.pid, 9)
                self.proc.wait()


@pytest.fixture(scope="module")
def host(tmp_path_factory, monkeypatch_module):
    h = Host(tmp_path_factory.mktemp("remote"))
    monkeypatch_module.setenv("PIC_COPILOT_HOME", str(h.home))
    yield h
    h.close()


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def listening_addresses(port: int) -> list[str]:
    """Local addresses of every LISTEN socket on ``port`` (IPv4 and IPv6), from /proc/net."""
    found = []
    for name, width in (("tcp", 8), ("tcp6", 32)):
        try:
            lines = Path(f"/proc/net/{name}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            addr, prt = parts[1].split(":")
            if parts[3] == "0A" and int(prt, 16) == port:  # 0A = LISTEN
                if width == 8:
                    found.append(socket.inet_ntop(socket.AF_INET, bytes.fromhex(addr)[::-1]))
                else:
                    raw = bytes.fromhex(addr)
                    found.append(socket.inet_ntop(socket.AF_INET6, b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))))
    return found


def test_off_by_default_and_interactive_fails_clearly(host):
    from pic_copilot.bridges.remote_client import RemoteBridge, RemoteUnavailable

    assert not (host.home / "remote.json").exists()
    with pytest.raises(RemoteUnavailable, match="Allow external agents"):
        RemoteBridge()


def test_start_binds_loopback_only_and_writes_private_discovery_file(host):
    from pic_copilot.bridges.remote_client import discover

    ack = host("start")
    assert ack["running"] and ack["token_set"] and ack["changes"][-1] is True
    port = ack["port"]
    assert listening_addresses(port) == ["127.0.0.1"]
    if shutil.which("ss"):
        out = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True).stdout
        locals_ = [line.split()[3] for line in out.splitlines() if line.strip()]
        assert locals_ == [f"127.0.0.1:{port}"], out
    f = host.home / "remote.json"
    assert stat.S_IMODE(f.stat().st_mode) == 0o600
    info = discover()
    assert info.host == "127.0.0.1" and info.port == port and len(info.token) >= 40
    assert "token=***" in repr(info) and info.token not in repr(info)


def test_refused_without_or_with_wrong_token(host):
    from pic_copilot.bridges.remote_client import discover

    info = discover()
    url = f"http://127.0.0.1:{info.port}/v1/run_code"
    with httpx.Client(trust_env=False, timeout=10) as c:
        r = c.post(url, json={"code": ADD_BOX})
        assert r.status_code == 401 and "token" in r.json()["error"]
        r = c.post(url, json={"code": ADD_BOX}, headers={"Authorization": "Bearer " + info.token[:-1] + "x"})
        assert r.status_code == 401
        r = c.post(url, json={"code": ADD_BOX}, headers={"Authorization": f"Bearer {info.token}",
                                                          "Origin": "http://evil.example"})
        assert r.status_code == 403
        r = c.get(f"http://127.0.0.1:{info.port}/v1/nothing", headers={"Authorization": f"Bearer {info.token}"})
        assert r.status_code == 404
    assert host("count")["shapes_1_0"] == 0  # nothing ran


def test_works_with_token_and_is_undoable(host):
    from pic_copilot.bridges.remote_client import RemoteBridge

    with RemoteBridge(timeout_s=30) as b:
        st = b.status()
        assert st["ok"] and st["layout"] is not None and st["undoable"] is True
        r = b.run_code("import gdsfactory")
        assert not r["ok"] and r["exception"]["type"] == "ImportError" and "crash KLayout" in r["exception"]["message"]
        r = b.run_code(ADD_BOX)
        assert r["ok"] and r["stdout"].strip() == "added TOP" and r["changes"]["shapes_delta"] == {"1/0": 1}
        assert r["undoable"]
        r = b.run_code("cell.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 1, 1))\nraise ValueError('boom')")
        assert not r["ok"] and r["rolled_back"] and r["rollback_exact"] and r["exception"]["type"] == "ValueError"
    ack = host("count")
    assert ack["shapes_1_0"] == 1 and ack["requests"] == 3
    ack = host("undo")
    assert ack["undone"] and ack["shapes_1_0"] == 0


def test_failing_script_that_changed_nothing_keeps_the_previous_run(host):
    from pic_copilot.bridges.remote_client import RemoteBridge

    with RemoteBridge(timeout_s=30) as b:
        before = host("count")["shapes_1_0"]
        assert b.run_code(ADD_BOX)["ok"]
        r = b.run_code("raise ValueError('changed nothing')")
        after = host("count")["shapes_1_0"]
        if after == before + 1:
            host("undo")  # leave the layout as this test found it
        assert not r["ok"] and r["rollback_exact"] and after == before + 1


def test_interactive_execute_through_remote_bridge(host, tmp_path):
    """execution.routing.execute in interactive mode: pya scripts run in KLayout; gdsfactory ones are inserted."""
    from pic_copilot.execution.routing import execute
    from pic_copilot.bridges.remote_client import RemoteBridge

    with RemoteBridge(timeout_s=60) as b:
        rep = execute(ADD_BOX, "interactive", b)
        assert rep.ok and rep.where == "klayout"
        gds = tmp_path / "sq.gds"
        ly = __import__("klayout.db", fromlist=["Layout"]).Layout()
        top = ly.create_cell("SQUARE")
        top.shapes(ly.layer(2, 0)).insert(__import__("klayout.db", fromlist=["Box"]).Box(0, 0, 1000, 1000))
        ly.write(str(gds))
        r = b.insert_files([str(gds)])
        assert r["ok"] and r["inserted_cells"] == ["SQUARE"]


def test_no_open_layout_is_a_clear_error(host):
    from pic_copilot.bridges.remote_client import RemoteBridge, RemoteError

    host("nolayout")
    try:
        with RemoteBridge(timeout_s=10) as b, pytest.raises(RemoteError, match="no layout is open"):
            b.run_code("print(1)")
    finally:
        host("layout")


def test_mcp_run_code_interactive_reaches_klayout(host, tmp_path):
    """The MCP server's run_code(mode="interactive"): pya on the open layout; gdsfactory via sandbox + insert."""
    from test_mcp import data, server_env, session_run

    gf_code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.components.mmi1x2()\n"
               "c.write_gds('mmi.gds', with_metadata=False)\n")

    async def body(s):
        return (await s.call_tool("run_code", {"code": ADD_BOX, "mode": "interactive"}),
                await s.call_tool("run_code", {"code": gf_code, "mode": "interactive"}),
                await s.call_tool("run_code", {"code": "raise RuntimeError('nope')", "mode": "interactive"}))

    before = host("count")["shapes_1_0"]
    pya_res, gf_res, bad_res = session_run(server_env(tmp_path, PIC_COPILOT_HOME=str(host.home)), body)
    r = data(pya_res)
    assert r["ok"] and r["where"] == "klayout" and r["changes"]["shapes_delta"] == {"1/0": 1}
    r = data(gf_res)
    assert r["ok"] and r["where"] == "sandbox+insert" and r["inserted_cells"] and "mmi1x2" in r["inserted_cells"][0]
    r = data(bad_res)
    assert not r["ok"] and r["exception"]["type"] == "RuntimeError" and "nope" in r["traceback"]
    assert host("count")["shapes_1_0"] == before + 1


def test_cli_run_ask_and_status_use_the_running_klayout(host, tmp_path):
    import sys

    from pic_copilot.testing.scripted_llm import ScriptedLLM

    exe = str(Path(sys.executable).with_name("pic-copilot"))
    env = dict(os.environ, PIC_COPILOT_HOME=str(host.home), PIC_COPILOT_HISTORY=str(tmp_path / "history"),
               PIC_COPILOT_CONFIG=str(tmp_path / "none.toml"), PIC_COPILOT_MODEL="scripted-model")
    p = subprocess.run([exe, "klayout", "status", "--json"], capture_output=True, text=True, env=env, timeout=60)
    st = json.loads(p.stdout)
    assert p.returncode == 0 and st["reachable"] and st["port"] == json.loads((host.home / "remote.json").read_text())["port"]
    assert "token" not in p.stdout.lower()
    before = host("count")["shapes_1_0"]
    script = tmp_path / "box.py"
    script.write_text(ADD_BOX)
    p = subprocess.run([exe, "run", str(script), "--mode", "interactive", "--json"], capture_output=True, text=True,
                       env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["where"] == "klayout" and "using the layout open in KLayout" in p.stderr
    with ScriptedLLM([{"content": "```python\n" + ADD_BOX + "```"}]) as srv:
        env["PIC_COPILOT_BASE_URL"] = srv.base_url
        p = subprocess.run([exe, "ask", "add a 10x5 box on layer 1/0", "--mode", "interactive", "--config", "zero-shot",
                            "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    out = json.loads(p.stdout)
    assert out["ok"] and out["execution"]["where"] == "klayout"
    assert host("count")["shapes_1_0"] == before + 2


def test_refused_when_switched_off_and_new_token_on_restart(host):
    from pic_copilot.bridges.remote_client import RemoteBridge, RemoteUnavailable, discover

    old = discover()
    ack = host("stop")
    assert not ack["running"] and ack["changes"][-1] is False
    assert not (host.home / "remote.json").exists()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", old.port), timeout=3).close()
    with pytest.raises(RemoteUnavailable, match="Allow external agents"):
        RemoteBridge()
    stale = RemoteBridge(old, timeout_s=5)  # a client that kept the old address
    with pytest.raises(RemoteUnavailable, match="does not answer"):
        stale.run_code("print(1)")
    host("start")
    new = discover()
    assert new.token != old.token
    with pytest.raises(RemoteUnavailable, match="refused the token"):
        RemoteBridge(type(old)(host="127.0.0.1", port=new.port, token=old.token), timeout_s=5).run_code("print(1)")
    with RemoteBridge(timeout_s=10) as b:
        assert b.run_code("print('again')")["stdout"].strip() == "again"


def test_stale_discovery_file_is_reported(tmp_path, monkeypatch):
    from pic_copilot.bridges.remote_client import RemoteUnavailable, discover

    monkeypatch.setenv("PIC_COPILOT_HOME", str(tmp_path))
    (tmp_path / "remote.json").write_text(json.dumps({"host": "127.0.0.1", "port": 1, "token": "t", "pid": 2 ** 22 + 7}))
    with pytest.raises(RemoteUnavailable, match="no longer running"):
        discover()
    (tmp_path / "remote.json").write_text(json.dumps({"host": "10.0.0.1", "port": 1, "token": "t"}))
    with pytest.raises(RemoteUnavailable, match="only 127.0.0.1"):
        discover()
