"""The `pic-copilot` command line: help for every command, --json outputs, exit codes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pic_copilot.frontends import cli
from pic_copilot.testing.scripted_llm import ScriptedLLM

EXE = str(Path(sys.executable).with_name("pic-copilot"))


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("PIC_COPILOT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PIC_COPILOT_HISTORY", str(tmp_path / "history"))
    monkeypatch.setenv("PIC_COPILOT_CONFIG", str(tmp_path / "no-config.toml"))
    for k in ("PIC_COPILOT_BASE_URL", "OPENAI_BASE_URL", "PIC_COPILOT_PROVIDER"):
        monkeypatch.delenv(k, raising=False)


def commands() -> dict:
    ap = cli.build_parser()
    sub = next(a for a in ap._actions if a.__class__.__name__ == "_SubParsersAction")
    return sub.choices


def test_every_command_is_listed_and_documented():
    cmds = commands()
    for name in ("search", "api", "build-db", "ask", "run", "bench", "explore", "llm", "klayout", "serve-mcp"):
        assert name in cmds, name
    ap = cli.build_parser()
    sub = next(a for a in ap._actions if a.__class__.__name__ == "_SubParsersAction")
    helped = {a.dest for a in sub._choices_actions if a.help}
    assert set(cmds) <= helped, set(cmds) - helped


def test_top_level_help_documents_exit_codes(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for line in ("0    ok", "1    the work ran but failed", "2    bad input or set-up problem", "130  interrupted"):
        assert line in out
    assert cli.main(["--version"]) == 0


@pytest.mark.parametrize("name", sorted(commands()))
def test_help_for_every_command(name, capsys):
    assert cli.main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: pic-copilot " + name) and len(out) > 150


def test_bad_usage_exits_2(capsys):
    assert cli.main([]) == 2
    assert cli.main(["no-such-command"]) == 2
    assert cli.main(["llm", "restart"]) == 2
    assert cli.main(["search"]) == 2
    capsys.readouterr()


def test_search_json_and_empty_query(capsys):
    assert cli.main(["search", "waveguide", "bend", "-k", "2", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert len(res) == 2 and {"id", "db", "score", "summary"} <= set(res[0])
    assert cli.main(["search", "   "]) == 2
    assert "empty query" in capsys.readouterr().err
    assert cli.main(["search", "waveguide", "--db", "nosuchdb"]) == 2
    assert "unknown database" in capsys.readouterr().err


def test_api_json_and_unknown_name(capsys):
    assert cli.main(["api", "gf.components.mmi1x2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "gdsfactory.components.mmi1x2"
    assert cli.main(["api", "gf.components.nothing_like_this"]) == 2
    assert "unknown API" in capsys.readouterr().err


def test_run_json_and_exit_codes(tmp_path, capsys):
    ok, bad = tmp_path / "ok.py", tmp_path / "bad.py"
    ok.write_text("print('hi')\n")
    bad.write_text("raise KeyError('k')\n")
    assert cli.main(["run", str(ok), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stdout"].strip() == "hi"
    assert cli.main(["run", str(bad), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["exception"]["type"] == "KeyError"
    assert cli.main(["run", str(tmp_path / "missing.py")]) == 2


def test_llm_status_json(capsys):
    assert cli.main(["llm", "status", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"running": False}  # a fresh PIC_COPILOT_HOME has no server state
    assert cli.main(["llm", "stop", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"stopped": False}


def test_llm_start_without_runtime_is_setup_error(capsys):
    assert cli.main(["llm", "start"]) == 2
    assert "scripts/setup.sh" in capsys.readouterr().err


def test_klayout_status_when_off(capsys):
    assert cli.main(["klayout", "status", "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["reachable"] is False and "Allow external agents" in out["message"]


def test_bench_bad_config_exits_2(capsys):
    assert cli.main(["bench", "--config", "nonsense"]) == 2
    assert "unknown config" in capsys.readouterr().err


def test_interrupt_exits_130(monkeypatch, capsys):
    def boom(_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_llm", boom)
    assert cli.main(["llm", "status"]) == 130


def test_ask_json_with_scripted_llm_and_llm_down(tmp_path):
    """The installed entry point, end to end: ask --json parses; an unreachable endpoint is reported."""
    steps = [{"content": "```python\nprint('zero-shot says hi')\n```"}]
    env = dict(os.environ, PIC_COPILOT_MODEL="scripted-model")
    with ScriptedLLM(steps) as srv:
        env["PIC_COPILOT_BASE_URL"] = srv.base_url
        p = subprocess.run([EXE, "ask", "print a greeting", "--mode", "sandbox", "--config", "zero-shot", "--json"],
                           capture_output=True, text=True, env=env, timeout=180)
    assert p.returncode == 0, p.stderr[-2000:]
    out = json.loads(p.stdout)
    assert out["ok"] and "zero-shot says hi" in out["script"] and out["execution"]["stdout"].strip() == "zero-shot says hi"
    env["PIC_COPILOT_BASE_URL"] = "http://127.0.0.1:9/v1"
    p = subprocess.run([EXE, "ask", "print a greeting", "--mode", "sandbox", "--config", "zero-shot", "--json"],
                       capture_output=True, text=True, env=env, timeout=180)
    err = json.loads(p.stdout)["error"]
    assert p.returncode == 3 and err["kind"] == "connection" and "127.0.0.1:9" in err["message"]


def test_run_on_a_binary_file_exits_2_with_a_message(tmp_path, capsys):
    blob = tmp_path / "layout.gds"
    blob.write_bytes(b"\x00\x06\x00\x02\x02X\xff\xfe binary")
    assert cli.main(["run", str(blob), "--json"]) == 2
    err = capsys.readouterr().err
    assert "not a Python script" in err and "Traceback" not in err
    latin = tmp_path / "latin1.py"
    latin.write_bytes("print('caf\xe9')\n".encode("latin-1"))
    assert cli.main(["run", str(latin)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


def test_run_json_reports_the_sandbox_limit_that_stopped_the_script(tmp_path):
    script = tmp_path / "fill.py"
    script.write_text("for i in range(8):\n    open(f'f{i}', 'wb').write(b'x' * (8 << 20))\n")
    env = dict(os.environ, PIC_COPILOT_SANDBOX_DISK_MB="32", PIC_COPILOT_SANDBOX_ROOT=str(tmp_path / "sb"),
               PYTHONPATH=str(Path(cli.__file__).resolve().parents[1]))
    p = subprocess.run([sys.executable, "-m", "pic_copilot.frontends.cli", "run", str(script), "--json"], env=env,
                       capture_output=True, text=True, timeout=180)
    assert p.returncode == 1, (p.stdout[-500:], p.stderr[-500:])
    out = json.loads(p.stdout)
    assert out["killed_reason"] == "disk" and not out["ok"], out
    assert "disk" in out["stderr"], out["stderr"]
