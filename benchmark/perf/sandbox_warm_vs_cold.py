#!/usr/bin/env python
"""Warm vs cold sandbox run time of one gdsfactory script, measured in one run.

    .venv/bin/python benchmark/perf/sandbox_warm_vs_cold.py [-n 5] [--json out.json]

Cold: a fresh bubblewrap + interpreter per run that imports gdsfactory itself.
Warm: the same script forked from the long-lived worker that already imported gdsfactory.
Runs are interleaved (cold, warm, cold, warm, ...) so both see the same machine state.
Reported times are host wall-clock per ``Sandbox.run`` call (incl. output summaries).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from pic_copilot.sandbox import Sandbox

SCRIPT = """\
import gdsfactory as gf
gf.gpdk.PDK.activate()
c = gf.components.mmi1x2()
c.write_gds("mmi.gds", with_metadata=False)
print(len(c.ports))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=5)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    with Sandbox() as sb:
        t0 = time.monotonic()
        ready = sb.start()
        start_s = time.monotonic() - t0
        cold, warm, cold_in, warm_in = [], [], [], []
        for _ in range(a.n):
            for is_warm, bucket, inner in ((False, cold, cold_in), (True, warm, warm_in)):
                t = time.monotonic()
                r = sb.run(SCRIPT, warm=is_warm, timeout_s=120)
                bucket.append(time.monotonic() - t)
                inner.append(r.duration_s)
                if not r.ok or r.stdout.strip() != "3" or not r.file("mmi.gds"):
                    print("run failed:", r.to_dict(), file=sys.stderr)
                    return 1
        res = {
            "n": a.n, "isolation": r.isolation, "worker_start_s": round(start_s, 3),
            "worker_preload_s": ready.get("preload_s"),
            "cold_median_s": round(statistics.median(cold), 3),
            "warm_median_s": round(statistics.median(warm), 3),
            "cold_script_median_s": round(statistics.median(cold_in), 3),
            "warm_script_median_s": round(statistics.median(warm_in), 3),
            "cold_s": [round(x, 3) for x in cold], "warm_s": [round(x, 3) for x in warm],
        }
        res["ratio_cold_over_warm"] = round(res["cold_median_s"] / res["warm_median_s"], 2)
    print(f"isolation={res['isolation']}  n={a.n}  worker start {res['worker_start_s']} s "
          f"(gdsfactory preload {res['worker_preload_s']} s)")
    print(f"cold median {res['cold_median_s']:.3f} s  (script part {res['cold_script_median_s']:.3f} s)")
    print(f"warm median {res['warm_median_s']:.3f} s  (script part {res['warm_script_median_s']:.3f} s)")
    print(f"ratio cold/warm = {res['ratio_cold_over_warm']}x")
    print(json.dumps(res))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
