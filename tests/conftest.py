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


def _stale_x_lock(n: int) -> bool:
    """True if display :n has a lock file whose X server is gone (a killed earlier run)."""
    try:
        pid = int(open(f"/tmp/.X{n}-lock").read().strip())
    except (OSError, ValueError):
        return True
    return not os.path.exists(f"/proc/{pid}")


@pytest.fixture(scope="session")
def xdisplay():
    """An Xvfb display (started for the session), or skip if Xvfb is not installed. Locks left by
    killed runs are cleared; a display whose server does not come up is skipped for the next."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb is not installed (scripts/setup.sh installs it)")
    for n in range(90, 190):
        lock, sock = f"/tmp/.X{n}-lock", f"/tmp/.X11-unix/X{n}"
        if os.path.exists(lock):
            if not _stale_x_lock(n):
                continue
            for stale in (lock, sock):
                try:
                    os.unlink(stale)
                except OSError:
                    pass
        proc = subprocess.Popen([xvfb, f":{n}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if os.path.exists(sock) or proc.poll() is not None:
                break
            time.sleep(0.1)
        if proc.poll() is None and os.path.exists(sock):
            break
        proc.kill()
        proc.wait()
    else:
        pytest.fail("no X display could be started with Xvfb on :90-:189")
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
