"""The remote endpoint in the real KLayout GUI (Xvfb): Session.current_gui, the main window's undo."""
from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from kl import KLAYOUT, ROOT, private_home
from test_remote import ADD_BOX, listening_addresses

pytestmark = [pytest.mark.gui, pytest.mark.skipif(KLAYOUT is None, reason="KLayout is not installed")]


class GuiHost:
    """``klayout -e`` running tests/klayout/remote_gui_host.py, steered through <ctl>/cmd.json."""

    def __init__(self, tmp, display, **defs):
        self.ctl = tmp / "ctl"
        self.ctl.mkdir()
        self.home = tmp / "pic-home"
        self.out = tmp / "out.json"
        env = dict(os.environ, KLAYOUT_HOME=str(private_home(tmp)), PIC_COPILOT_HOME=str(self.home), DISPLAY=display)
        env.pop("QT_QPA_PLATFORM", None)
        cmd = [KLAYOUT, "-e", "-r", str(ROOT / "tests/klayout/remote_gui_host.py"), "-rd", f"root={ROOT}",
               "-rd", f"ctl={self.ctl}", "-rd", f"out={self.out}"]
        for k, v in defs.items():
            cmd += ["-rd", f"{k}={v}"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                     start_new_session=True)
        self.seq = 0
        self.ready = self.wait(0, 90)

    def wait(self, n, timeout=60):
        t0 = time.time()
        while time.time() - t0 < timeout:
            try:
                ack = json.loads((self.ctl / "ack.json").read_text())
                if ack.get("seq") == n:
                    assert "error" not in ack, ack.get("traceback")
                    return ack
            except (OSError, ValueError):
                pass
            assert self.proc.poll() is None, self.proc.stdout.read()[-3000:]
            time.sleep(0.05)
        raise AssertionError(f"no ack {n}")

    def __call__(self, c):
        self.seq += 1
        (self.ctl / "cmd.tmp").write_text(json.dumps({"seq": self.seq, "cmd": c}))
        os.replace(self.ctl / "cmd.tmp", self.ctl / "cmd.json")
        return self.wait(self.seq)

    def close(self):
        try:
            if self.proc.poll() is None:
                self("quit")
                self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, 9)
                self.proc.wait()


def test_endpoint_on_the_gui_layout(tmp_path, xdisplay, monkeypatch):
    from pic_copilot.bridges.remote_client import RemoteBridge, RemoteUnavailable

    host = GuiHost(tmp_path, xdisplay, layer1="1")
    monkeypatch.setenv("PIC_COPILOT_HOME", str(host.home))
    try:
        assert host.ready["editable"]
        with pytest.raises(RemoteUnavailable):
            RemoteBridge()
        port = host("start")["port"]
        assert listening_addresses(port) == ["127.0.0.1"]
        with RemoteBridge(timeout_s=30) as b:
            st = b.status()
            assert st["undoable"] and st["filename"] == "" and st["klayout"].startswith("KLayout")
            r = b.run_code(ADD_BOX + "print(view is not None, cellview is not None)\n")
            assert r["ok"] and r["stdout"].split() == ["added", "TOP", "True", "True"], r
            r = b.run_code("cell.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 1, 1))\nraise ValueError('boom')")
            assert not r["ok"] and r["rolled_back"] and r["rollback_exact"], r
        ack = host("count")
        assert ack["shapes_1_0"] == 1 and ack["has_undo_now"], ack
        ack = host("undo")
        assert ack["shapes_1_0"] == 0, ack  # one Ctrl+Z in the GUI reverts the outside tool's run
        ack = host("stop")
        assert not ack["running"] and "off" in ack["status"] and not (host.home / "remote.json").exists()
        with pytest.raises(RemoteUnavailable):
            RemoteBridge()
        host.close()
        assert json.loads(host.out.read_text()).get("ok")
    finally:
        host.close()


def test_script_that_creates_a_layer_is_undoable_in_the_gui(tmp_path, xdisplay, monkeypatch):
    from pic_copilot.bridges.remote_client import RemoteBridge

    """A script that creates a new layer stays one undoable step (the view's layer list is updated inside it)."""
    host = GuiHost(tmp_path, xdisplay)
    monkeypatch.setenv("PIC_COPILOT_HOME", str(host.home))
    try:
        host("start")
        with RemoteBridge(timeout_s=30) as b:
            assert b.run_code(ADD_BOX)["ok"]
        assert host("count")["has_undo_now"]
        assert host("undo")["shapes_1_0"] == 0
    finally:
        host.close()
