"""Shared fixtures: a virtual X display for GUI tests, the test output folder."""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "test-output"


@pytest.fixture(scope="session")
def test_output() -> Path:
    """Folder for screenshots and reports that a person can look at after the run."""
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT


@pytest.fixture(scope="session")
def xdisplay():
    """An Xvfb display (started for the session), or skip if Xvfb is not installed."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb is not installed (scripts/setup.sh installs it)")
    for n in range(90, 120):
        if not os.path.exists(f"/tmp/.X{n}-lock"):
            break
    proc = subprocess.Popen([xvfb, f":{n}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        if os.path.exists(f"/tmp/.X11-unix/X{n}"):
            break
        time.sleep(0.1)
    yield f":{n}"
    proc.kill()
    proc.wait()


@pytest.fixture(scope="session", autouse=True)
def _stop_llm_server_started_by_tests():
    """Tests may start the embedded LLM server on demand; stop it at the end if they did."""
    from pic_copilot.llm import local_server

    running_before = local_server.is_running()
    yield
    if not running_before and local_server.is_running():
        local_server.stop()
