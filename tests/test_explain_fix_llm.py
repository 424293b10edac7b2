"""Explain and fix a macro with the real embedded LLM, through the CLI (the same engine messages the
panel and the MCP tools use)."""
import subprocess
import sys

import pytest

from pic_copilot.llm import local_server

pytestmark = [pytest.mark.llm, pytest.mark.slow,
              pytest.mark.skipif(not local_server.runtime_available(),
                                 reason="the embedded LLM is not installed (scripts/setup.sh installs it)")]

BROKEN = ("import json\n\nwidths = [0.45, 0.5, 0.6]\n"
          "json.dump({'widest': max(widht for widht in widhts)}, open('widest.json', 'w'))\n"
          "print('widest', max(widths))\n")


def cli(*args, cwd):
    env_clean = {k: v for k, v in __import__("os").environ.items()
                 if not k.startswith(("PIC_COPILOT_BASE_URL", "PIC_COPILOT_PROVIDER", "OPENAI_", "PIC_COPILOT_PIPELINE"))}
    return subprocess.run([sys.executable, "-m", "pic_copilot.frontends.cli", *args], cwd=cwd, env=env_clean,
                          capture_output=True, text=True, timeout=900)


def test_explain_and_fix_a_broken_macro_with_the_embedded_model(tmp_path):
    f = tmp_path / "widest.py"
    f.write_text(BROKEN)
    exp = cli("explain", str(f), cwd=tmp_path)
    assert exp.returncode == 0, exp.stderr[-2000:]
    assert len(exp.stdout.strip()) > 40, exp.stdout
    fix = cli("fix", str(f), "--apply", "--quiet", cwd=tmp_path)
    out = fix.stdout + fix.stderr
    # the typo is a NameError when run: the engine must run it, revise it and only apply what ran
    assert fix.returncode in (0, 1), out[-3000:]
    if fix.returncode == 0:
        fixed = f.read_text()
        assert fixed != BROKEN and "widhts" not in fixed, fixed
        run = subprocess.run([sys.executable, str(f)], cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
    else:   # not fixed within the rounds: the file must be untouched
        assert f.read_text() == BROKEN
    print(out[-1500:])
