"""End to end with the real embedded LLM: the README's main-job request, headless in `klayout -b`."""
import os
import subprocess
import time

import pytest

from kl import KLAYOUT, ROOT, private_home
from pic_copilot.llm import local_server

pytestmark = [pytest.mark.llm, pytest.mark.slow,
              pytest.mark.skipif(KLAYOUT is None, reason="KLayout is not installed"),
              pytest.mark.skipif(not local_server.runtime_available(),
                                 reason="the embedded LLM is not installed (scripts/setup.sh installs it)")]


def test_main_job_request_places_an_mmi_in_the_open_layout(tmp_path, test_output):
    out_gds = test_output / "main_job_mmi.gds"
    out_gds.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIC_COPILOT_BASE_URL", "PIC_COPILOT_PROVIDER", "OPENAI_", "PIC_COPILOT_PIPELINE"))}
    env["KLAYOUT_HOME"] = str(private_home(tmp_path))
    t0 = time.monotonic()
    proc = subprocess.run([KLAYOUT, "-b", "-r", str(ROOT / "klayout_plugin/run_headless.py"),
                           "-rd", "request=create a 1x2 MMI splitter with gdsfactory and place it in the open layout",
                           "-rd", "mode=interactive", "-rd", f"out={out_gds}"],
                          capture_output=True, text=True, timeout=1500, env=env)
    elapsed = time.monotonic() - t0
    log = proc.stdout + proc.stderr
    (test_output / "main_job_transcript.txt").write_text(log)
    assert proc.returncode == 0, log[-4000:]
    assert "===== generated script =====" in log and "gdsfactory" in log
    assert out_gds.exists()
    # the MMI is now a cell instance under TOP of the (unsaved) open layout, with waveguide shapes on 1/0
    check = tmp_path / "check.py"
    check.write_text(
        "ly = pya.Layout(); ly.read(path)\n"
        "top = ly.cell('TOP')\n"
        "assert top is not None and top.child_cells() >= 1, 'no instance under TOP'\n"
        "names = [ly.cell(i).name for i in top.each_child_cell()]\n"
        "assert any('mmi' in n.lower() for n in names), names\n"
        "b = top.dbbox()\n"
        "assert 5 < b.width() < 100 and 1 < b.height() < 30, str(b)\n"
        "assert ly.find_layer(1, 0) is not None\n")
    r = subprocess.run([KLAYOUT, "-b", "-r", str(check), "-rd", f"path={out_gds}"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    print(f"main-job request took {elapsed:.1f} s")
