"""The API key never leaves the credentials file / environment: not in the engine's protocol output,
its stderr log, the history, the config file, or anything else under the copilot's folders -- even
when the endpoint echoes the key back in an error."""
import json
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

from pic_copilot.testing.scripted_llm import ScriptedLLM

ROOT = Path(__file__).resolve().parents[1]


def _run_engine(tmp: Path, env: dict, messages: list[dict], until_ids: set[str], timeout: float = 90) -> tuple[str, str]:
    full = dict(os.environ, PIC_COPILOT_HOME=str(tmp / "home"), PIC_COPILOT_CONFIG=str(tmp / "cfg" / "config.toml"),
                PYTHONUNBUFFERED="1", PIC_COPILOT_PIPELINE="zero-shot", **env)
    for v in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        full.pop(v, None)
    err_path = tmp / "engine-stderr.log"
    with open(err_path, "w") as err:
        p = subprocess.Popen([sys.executable, "-m", "pic_copilot.frontends.engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=err, text=True, env=full)
        out_lines = [p.stdout.readline()]
        for m in messages:
            p.stdin.write(json.dumps(m) + "\n")
        p.stdin.flush()
        done: set[str] = set()
        t0 = time.monotonic()
        while done != until_ids and time.monotonic() - t0 < timeout:
            line = p.stdout.readline()
            if not line:
                break
            out_lines.append(line)
            msg = json.loads(line)
            if msg.get("type") in ("result", "error", "explanation", "run_result") and msg.get("id") in until_ids:
                done.add(msg["id"])
        p.stdin.write(json.dumps({"type": "shutdown"}) + "\n")
        p.stdin.close()
        p.wait(10)
    assert done == until_ids, out_lines[-5:]
    return "".join(out_lines), err_path.read_text()


def _scan(root: Path, keys: list[str], skip: set[Path]) -> int:
    n = 0
    for d, _dirs, files in os.walk(root):
        for f in files:
            p = Path(d) / f
            if p in skip or p.is_symlink():
                continue
            data = p.read_bytes()
            n += 1
            for k in keys:
                assert k.encode() not in data, f"API key found in {p}"
    return n


def test_key_from_environment_never_written_even_when_echoed(tmp_path):
    key = "sk-envtest-" + secrets.token_hex(16)
    steps = [{"match": "echo please", "status": 400, "message": f"bad request from key {key}"},
             {"match": "explain", "content": f"Your key is {key}. The script prints one."},
             {"content": "```python\nprint('hello')\n```"}]
    with ScriptedLLM(steps) as llm:
        out, err = _run_engine(tmp_path, {"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": key},
                               [{"type": "request", "id": "r1", "prompt": "echo please", "mode": "sandbox"},
                                ], {"r1"})
        out2, err2 = _run_engine(tmp_path, {"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": key},
                                 [{"type": "explain", "id": "e1", "code": "print(1)\n", "question": "explain"},
                                  ], {"e1"})
        out3, err3 = _run_engine(tmp_path, {"PIC_COPILOT_BASE_URL": llm.base_url, "PIC_COPILOT_API_KEY": key},
                                 [{"type": "request", "id": "r2", "prompt": "print hello", "mode": "sandbox"}], {"r2"})
    text = out + out2 + out3
    assert '"kind": "llm-' in out, out          # the endpoint's error arrived ...
    assert key not in text and key not in err + err2 + err3   # ... with the key masked
    assert "***" in out + out2
    assert '"type": "result"' in out3
    assert any((tmp_path / "home" / "history").iterdir())
    assert _scan(tmp_path, [key], set()) >= 2


def test_key_from_credentials_file_is_used_and_never_written(tmp_path):
    key = "sk-credtest-" + secrets.token_hex(16)
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    (cfg / "config.toml").write_text('provider = "openai"\nmodel = "m"\n')
    cred = cfg / "credentials"
    env = dict(os.environ, PIC_COPILOT_CONFIG=str(cfg / "config.toml"))
    subprocess.run([sys.executable, "-c", f"from pic_copilot.config import write_api_key_file; write_api_key_file({key!r})"],
                   env=env, check=True)
    assert oct(cred.stat().st_mode & 0o777) == "0o600"
    with ScriptedLLM([{"status": 401, "message": f"invalid api key {key}"}]) as llm:
        (cfg / "config.toml").write_text(f'provider = "openai"\nbase_url = "{llm.base_url}"\nmodel = "m"\n')
        out, err = _run_engine(tmp_path, {"PIC_COPILOT_API_KEY": ""},
                               [{"type": "request", "id": "r1", "prompt": "draw", "mode": "sandbox"}], {"r1"})
    assert "llm-auth" in out, out
    assert key not in out and key not in err
    assert _scan(tmp_path, [key], {cred}) >= 2


def test_cli_never_prints_a_key_an_endpoint_echoes_in_an_error_body(tmp_path):
    """`pic-copilot ask` against an endpoint that quotes the Authorization header in 400/500 bodies."""
    key = "sk-clitest-" + secrets.token_hex(16)
    env = dict(os.environ, PIC_COPILOT_HOME=str(tmp_path / "home"), PIC_COPILOT_CONFIG=str(tmp_path / "c.toml"),
               PIC_COPILOT_API_KEY=key, PIC_COPILOT_MAX_ROUNDS="0", PIC_COPILOT_TIMEOUT="20",
               PYTHONPATH=str(ROOT / "lib"))
    for status in (400, 500):
        with ScriptedLLM([{"status": status, "echo_auth": True}]) as llm:
            env["PIC_COPILOT_BASE_URL"] = llm.base_url
            for extra in ([], ["--json"]):
                p = subprocess.run([sys.executable, "-m", "pic_copilot.frontends.cli", "ask", "draw a ring", "--mode",
                                    "sandbox", "--config", "zero-shot", *extra], env=env, capture_output=True,
                                   text=True, timeout=120)
                both = p.stdout + p.stderr
                assert p.returncode != 0 and "Authorization" in both, both[-800:]
                assert key not in both and "***" in both
    assert _scan(tmp_path, [key], set()) >= 1
