"""Helpers for tests that run inside the real KLayout application."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KLAYOUT = shutil.which("klayout")


def private_home(tmp: Path) -> Path:
    """A KLAYOUT_HOME with the package linked into salt and the tip dialogs switched off."""
    home = tmp / "klayout-home"
    (home / "salt").mkdir(parents=True, exist_ok=True)
    link = home / "salt" / "pic-copilot"
    if not link.exists():
        link.symlink_to(ROOT)
    (home / "klayoutrc").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<config>\n'
        " <tip-window-hidden>only-top-level-shown-by-default=3,macro-editor-basic-tips=0,editor-mode-switch-tip=0,editor-mode=0</tip-window-hidden>\n"
        " <macro-editor-stop-on-exception>false</macro-editor-stop-on-exception>\n</config>\n")
    return home


def run_batch(script: Path, tmp: Path, timeout: float = 120, env: dict | None = None,
              **defs) -> subprocess.CompletedProcess:
    """Run ``klayout -b -r script`` with ``-rd`` definitions, a private KLAYOUT_HOME and extra ``env``."""
    cmd = [KLAYOUT, "-b", "-r", str(script), "-rd", f"root={ROOT}"]
    for k, v in defs.items():
        cmd += ["-rd", f"{k}={v}"]
    full_env = dict(os.environ, KLAYOUT_HOME=str(private_home(tmp)))
    full_env.update(env or {})
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=full_env)


def run_cases(script: Path, tmp: Path, env: dict | None = None, **defs) -> dict:
    """Run a KLayout-side case script that writes a JSON dict to the file given as `out`."""
    out = tmp / (script.stem + ".json")
    out.unlink(missing_ok=True)
    proc = run_batch(script, tmp, env=env, out=out, **defs)
    if not out.exists():
        raise AssertionError(f"KLayout case script failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return json.loads(out.read_text())


def run_gui(script: Path, tmp: Path, display: str, env: dict | None = None, timeout: float = 180,
            editing: bool = True, **defs) -> tuple[dict, subprocess.CompletedProcess | None]:
    """Run the KLayout GUI (editing mode, or viewer mode with ``editing=False``) with the package
    installed and ``-r script``.

    The script writes a JSON dict to the file given as `out`. KLayout may ignore SIGTERM, so
    on timeout the process group is killed with SIGKILL.
    """
    out = tmp / (script.stem + ".json")
    cmd = [KLAYOUT] + (["-e"] if editing else []) + ["-r", str(script), "-rd", f"root={ROOT}", "-rd", f"out={out}"]
    for k, v in defs.items():
        cmd += ["-rd", f"{k}={v}"]
    full_env = dict(os.environ, KLAYOUT_HOME=str(private_home(tmp)), DISPLAY=display,
                    PIC_COPILOT_HOME=str(tmp / "pic-home"))
    full_env.pop("QT_QPA_PLATFORM", None)
    full_env.update(env or {})
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=full_env,
                            start_new_session=True)
    try:
        stdout, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        stdout, _ = proc.communicate()
        raise AssertionError(f"KLayout GUI did not finish within {timeout} s:\n{stdout[-3000:]}")
    if not out.exists():
        raise AssertionError(f"KLayout GUI script wrote no result (exit {proc.returncode}):\n{stdout[-3000:]}")
    return json.loads(out.read_text()), proc
