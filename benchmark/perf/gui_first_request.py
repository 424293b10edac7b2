#!/usr/bin/env python
"""A new user's first request in the real KLayout GUI with the embedded LLM, n times (Xvfb).

    .venv/bin/python benchmark/perf/gui_first_request.py [--n 3] [--shots docs/screenshots] [--job mmi]

Each run starts KLayout (editing mode, a private KLAYOUT_HOME with this checkout in salt) and
types "draw a 10 um x 5 um rectangle on layer 1/0 with its lower-left corner at the origin" into
the panel twice: with no layout open (the panel opens one with TOP) and with a layout open
(benchmark/perf/gui_first_request_macro.py). It prints, per case, the time from Send to the
result, whether the rectangle is where it was asked in what the view shows, and the LLM calls;
screenshots of the last run go to --shots. A measurement, not a test: the model decides.

``--job mmi``: the main job's request instead ("create a 1x2 MMI splitter with gdsfactory and place
it in the open layout"), on an open layout, twice per KLayout session: cold (the engine's first
request) and warm (the same request again).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MACRO = Path(__file__).with_name("gui_first_request_macro.py")


def start_xvfb() -> tuple[subprocess.Popen, str]:
    for n in range(150, 190):
        if os.path.exists(f"/tmp/.X{n}-lock"):
            continue
        proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if os.path.exists(f"/tmp/.X11-unix/X{n}"):
                return proc, f":{n}"
            time.sleep(0.1)
        proc.kill()
    raise SystemExit("no X display could be started (is Xvfb installed?)")


CASES = {"rectangle": ("no_layout", "with_layout"), "mmi": ("cold", "warm")}


def one_run(display: str, shots: Path, job: str = "rectangle") -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="pic-gui-first-"))
    home = tmp / "klayout-home"
    (home / "salt").mkdir(parents=True)
    (home / "salt" / "pic-copilot").symlink_to(ROOT)
    (home / "klayoutrc").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<config>\n <tip-window-hidden>only-top-level-shown-by-default=3,'
        'macro-editor-basic-tips=0,editor-mode-switch-tip=0,editor-mode=0</tip-window-hidden>\n</config>\n')
    out = tmp / "result.json"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIC_COPILOT_BASE_URL", "PIC_COPILOT_PROVIDER", "OPENAI_", "PIC_COPILOT_PIPELINE"))}
    env.update(KLAYOUT_HOME=str(home), DISPLAY=display)
    env.pop("QT_QPA_PLATFORM", None)
    cmd = ["klayout", "-e", "-r", str(MACRO), "-rd", f"root={ROOT}", "-rd", f"out={out}", "-rd", f"shots={shots}",
           "-rd", f"job={job}"]
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1500)
    res = json.loads(out.read_text()) if out.exists() else {"harness_error": "no result written"}
    shutil.rmtree(tmp, ignore_errors=True)
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3)
    ap.add_argument("--shots", type=Path, default=ROOT / "test-output")
    ap.add_argument("--job", choices=sorted(CASES), default="rectangle")
    args = ap.parse_args(argv)
    args.shots.mkdir(parents=True, exist_ok=True)
    xvfb, display = start_xvfb()
    rows = []
    try:
        for i in range(args.n):
            res = one_run(display, args.shots, args.job)
            if "harness_error" in res:
                print(f"run {i}: harness error: {res['harness_error'][-800:]}")
                continue
            for case in CASES[args.job]:
                r = res[case]
                calls = (r.get("usage") or {}).get("calls")
                rows.append((case, r["seconds"], bool(r.get("ok") and r.get("correct")), calls))
                print(f"run {i} {case}: {r['seconds']} s, placed correctly: {rows[-1][2]}, LLM calls {calls}; "
                      f"{r.get('time_summary')}")
    finally:
        xvfb.kill()
    for case in CASES[args.job]:
        got = [r for r in rows if r[0] == case]
        if got:
            ok = sum(r[2] for r in got)
            print(f"{case}: {ok}/{len(got)} placed correctly; seconds {sorted(r[1] for r in got)}; "
                  f"under a minute and correct: {sum(r[2] and r[1] < 60 for r in got)}/{len(got)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
