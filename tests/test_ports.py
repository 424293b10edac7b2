"""Ports: the embedded LLM's and the external-agent endpoint's port come from the environment, the
config file or the settings dialog; the defaults avoid the peers' ports; a taken port is a clear
message that names the setting, at once (never a hang)."""
from __future__ import annotations

import socket
import time

import pytest

from kl import KLAYOUT, ROOT, run_cases
from pic_copilot import config
from pic_copilot.llm import local_server


@pytest.fixture
def busy_port():
    """A port another program holds (a listening socket of this test)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    yield s.getsockname()[1]
    s.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_defaults_avoid_the_peer_ports(tmp_path):
    cfg = tmp_path / "none.toml"
    llm = config.llm_port(env={}, path=cfg)
    ep = config.endpoint_port(env={}, path=cfg)
    assert (llm.port, llm.explicit, llm.setting) == (18765, False, "the default")
    assert (ep.port, ep.explicit) == (0, False)   # a free port the system picks
    assert llm.port not in config.PEER_PORTS
    assert {8765, 8799, 8082} <= config.PEER_PORTS and 8800 not in config.PEER_PORTS


def test_environment_wins_over_the_config_file(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text("llm_port = 19001\nendpoint_port = 19002\n")
    assert config.llm_port(env={}, path=cfg).port == 19001
    c = config.endpoint_port(env={}, path=cfg)
    assert c.port == 19002 and c.explicit and c.setting == f"endpoint_port in {cfg}"
    c = config.llm_port(env={"PIC_COPILOT_LLM_PORT": "19003"}, path=cfg)
    assert c.port == 19003 and c.setting == "PIC_COPILOT_LLM_PORT"
    assert config.endpoint_port(env={"PIC_COPILOT_ENDPOINT_PORT": "19004"}, path=cfg).port == 19004


@pytest.mark.parametrize("value", ["abc", "70000", "-1", "80.5"])
def test_a_bad_port_names_its_setting(tmp_path, value):
    with pytest.raises(ValueError, match="PIC_COPILOT_LLM_PORT must be a port number"):
        config.llm_port(env={"PIC_COPILOT_LLM_PORT": value}, path=tmp_path / "none.toml")
    cfg = tmp_path / "config.toml"
    cfg.write_text('endpoint_port = "x"\n')
    with pytest.raises(ValueError, match="endpoint_port in .*config.toml must be a port number"):
        config.endpoint_port(env={}, path=cfg)


def test_embedded_llm_on_a_taken_port_is_a_clear_error(busy_port, monkeypatch, tmp_path):
    monkeypatch.setenv("PIC_COPILOT_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("PIC_COPILOT_LLM_PORT", str(busy_port))
    t0 = time.monotonic()
    with pytest.raises(local_server.LocalServerError) as e:
        local_server._port_to_use()
    assert time.monotonic() - t0 < 1.0
    msg = str(e.value)
    assert f"127.0.0.1:{busy_port}" in msg and "already in use" in msg
    assert "PIC_COPILOT_LLM_PORT" in msg and "llm_port" in msg and "settings dialog" in msg
    # the same port from the config file: the message names the file's key as the source
    monkeypatch.delenv("PIC_COPILOT_LLM_PORT")
    (tmp_path / "config.toml").write_text(f"llm_port = {busy_port}\n")
    with pytest.raises(local_server.LocalServerError, match=r"comes from llm_port in .*config.toml"):
        local_server._port_to_use()


def test_embedded_llm_uses_the_set_port_or_moves_off_a_taken_default(busy_port, monkeypatch, tmp_path):
    monkeypatch.setenv("PIC_COPILOT_CONFIG", str(tmp_path / "config.toml"))
    port = free_port()
    monkeypatch.setenv("PIC_COPILOT_LLM_PORT", str(port))
    assert local_server._port_to_use() == port
    # nothing set and the default taken by someone else: another free port, not an error
    monkeypatch.delenv("PIC_COPILOT_LLM_PORT")
    monkeypatch.setattr(local_server, "DEFAULT_PORT", busy_port)
    other = local_server._port_to_use()
    assert other != busy_port and other not in config.PEER_PORTS


@pytest.mark.klayout
@pytest.mark.skipif(KLAYOUT is None, reason="KLayout is not installed")
def test_endpoint_port_set_free_taken_and_default(busy_port, tmp_path):
    """The endpoint inside the real KLayout (klayout -b): the set port, a taken port, the default."""
    base = {"PIC_COPILOT_HOME": str(tmp_path / "home"), "PIC_COPILOT_CONFIG": str(tmp_path / "config.toml")}
    script = ROOT / "tests/klayout/endpoint_port_cases.py"
    port = free_port()
    res = run_cases(script, tmp_path, env={**base, "PIC_COPILOT_ENDPOINT_PORT": str(port)})
    assert res.get("port") == port and res["discovery_port"] == port, res

    res = run_cases(script, tmp_path, env={**base, "PIC_COPILOT_ENDPOINT_PORT": str(busy_port)})
    assert "error" in res and not res["running_after"], res
    assert f"127.0.0.1:{busy_port}" in res["error"] and "already in use" in res["error"]
    assert "PIC_COPILOT_ENDPOINT_PORT" in res["error"] and "endpoint_port" in res["error"]
    assert res["seconds"] < 1.0

    (tmp_path / "config.toml").write_text(f"endpoint_port = {busy_port}\n")
    res = run_cases(script, tmp_path, env=base)
    assert "comes from endpoint_port in" in res.get("error", ""), res

    (tmp_path / "config.toml").write_text("")
    res = run_cases(script, tmp_path, env=base)
    assert res.get("running") and res["port"] not in config.PEER_PORTS, res
