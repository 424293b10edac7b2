"""A trial run of a pya script on a copy of the open layout, before it runs in the designer's KLayout.

A script that runs on the open layout runs in KLayout's own interpreter: an exception there is
rolled back, but a crash of KLayout's C++ core (a real benchmark candidate segfaulted KLayout
0.28.5 in ``Region(RecursiveShapeIterator)``) or a loop that never ends takes the designer's
session, and its unsaved layout, with it. So the bridge writes the open layout to a file
(``copy_layout``), and the script first runs on that copy in a ``klayout -b`` process of its own,
inside the sandbox (time, memory, disk, network confined), through the same bridge code
(``klayout_batch_runner.py`` -> ``bridge.dispatch``). A crash or a timeout there is the script's
result and it never reaches the open layout; anything else (success, or an exception that the open
layout might not raise: the copy has no GUI view, no selection and an empty work folder) lets the
real run go ahead.

Bridges without ``copy_layout`` get no trial run: ``klayout_batch`` runs every script in a process
of its own anyway; the remote endpoint does not offer it yet.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from ..config import project_root
from .report import ExecutionReport, failed_run

#: signals that mean KLayout itself broke (a memory limit's SIGKILL is not judged: the real run decides)
CRASH_SIGNALS = {4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 11: "SIGSEGV"}

DRIVER = r'''
import json, os, re, subprocess, sys
ARGS = json.loads(%(args)r)
CRASH_SIGNALS = %(signals)r

class KLayoutCrash(Exception):
    """The script crashed KLayout on a copy of the open layout."""

class TrialTimeout(Exception):
    """The script did not finish on a copy of the open layout."""

os.environ["KLAYOUT_HOME"] = os.path.join(os.environ.get("HOME") or os.getcwd(), ".klayout")
os.makedirs(os.environ["KLAYOUT_HOME"], exist_ok=True)
os.makedirs("trial_work", exist_ok=True)
with open("candidate.py") as f:
    code = f.read()
with open("request.json", "w") as f:
    json.dump({"action": "run_code", "code": code, "workdir": os.path.abspath("trial_work")}, f)
cmd = ["klayout", "-b", "-r", "runner.py", "-rd", "root=" + os.getcwd(), "-rd", "layout_file=open_layout.gds",
       "-rd", "request=request.json", "-rd", "out=result.json", "-rd", "active=" + ARGS["active"], "-rd", "save=0"]
try:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=ARGS["timeout_s"])
except subprocess.TimeoutExpired:
    raise TrialTimeout("the script did not finish within %%d s on a copy of the open layout" %% ARGS["timeout_s"])
sys.stderr.write(p.stderr[-3000:])
m = re.search(r"Signal number: (\d+)", p.stderr)
sig = -p.returncode if p.returncode < 0 else int(m.group(1)) if m else None
if sig in CRASH_SIGNALS:
    frames = []
    for name in re.findall(r"libklayout_db\.so\S* \+0x[0-9a-f]+ (\S+)", p.stderr):
        if name.startswith("_Z"):   # mangled: the length-prefixed words of a nested name, 2db5Shape...
            words, rest = [], re.sub(r"^_ZN?K?", "", name)
            while re.match(r"\d+", rest):
                k = re.match(r"\d+", rest).group(0)
                words.append(rest[len(k):len(k) + int(k)])
                rest = rest[len(k) + int(k):]
            name = "::".join(words)
        name = name.split("(")[0]
        if name.startswith("db::") and name not in frames:   # the layout database's own code
            frames.append(name)
    raise KLayoutCrash("%%s%%s" %% (CRASH_SIGNALS[sig], (" in " + ", ".join(frames[:3])) if frames else ""))
'''


def _job_files(code: str, layout_copy: Path) -> dict:
    """What the trial job's folder holds: the candidate, the layout copy, and the KLayout-side code
    that runs it (the batch runner and the plugin's bridge, copied in so the job reads nothing
    outside its folder)."""
    root = project_root()
    plugin = root / "klayout_plugin" / "pic_copilot_plugin"
    return {"candidate.py": code, "open_layout.gds": layout_copy,
            "runner.py": root / "lib" / "pic_copilot" / "bridges" / "klayout_batch_runner.py",
            "klayout_plugin/pic_copilot_plugin/__init__.py": "",
            "klayout_plugin/pic_copilot_plugin/bridge.py": plugin / "bridge.py",
            "klayout_plugin/pic_copilot_plugin/guard.py": plugin / "guard.py"}


def trial_run(code: str, bridge, timeout_s: float = 60, sandbox=None) -> ExecutionReport | None:
    """Run ``code`` on a copy of the open layout first; a report when that run proves the script
    must not run in the designer's KLayout, else None.

    Args:
        code: a pya script for the open layout.
        bridge: the bridge to the open layout; without ``copy_layout`` there is no trial (None).
        timeout_s: the script's time limit on the copy.
        sandbox: a :class:`pic_copilot.sandbox.Sandbox` (the default one when None).

    Returns:
        A failed report (where "klayout-copy"; exception ``KLayoutCrash`` or ``TrialTimeout``) when the
        script crashed KLayout or did not finish on the copy; None when the real run may go ahead
        (the copy ran, failed with an ordinary exception, or could not be made).
    """
    copy = getattr(bridge, "copy_layout", None)
    if copy is None:
        return None
    from ..sandbox import default_sandbox

    with tempfile.TemporaryDirectory(prefix="pic-copilot-trial-") as tmp:
        layout_copy = Path(tmp) / "open_layout.gds"
        made = copy(str(layout_copy))
        if not made.get("ok") or not layout_copy.is_file():
            return None
        args = {"active": str(made.get("active_cell") or ""), "timeout_s": max(5, int(timeout_s))}
        driver = DRIVER % {"args": json.dumps(args), "signals": CRASH_SIGNALS}
        res = (sandbox or default_sandbox()).run(driver, inputs=_job_files(code, layout_copy), timeout_s=timeout_s + 30,
                                                 pid_namespace=False, summarize=False)
    rep = ExecutionReport.from_dict(res.to_dict())
    exc = rep.exception or {}
    if exc.get("type") == "KLayoutCrash":
        return failed_run("KLayoutCrash", f"the script crashed KLayout ({exc.get('message', '')}) when it was tried on a "
                          "copy of the open layout, so it was not run on the open layout; rewrite the part that "
                          "builds or iterates shapes with plainer calls", exc.get("traceback", ""), where="klayout-copy",
                          stdout="", stderr="", files=[])
    if exc.get("type") == "TrialTimeout":
        return failed_run("TimeoutError", f"{exc.get('message', '')}, so it was not run on the open layout (an endless "
                          "loop would freeze KLayout)", "", where="klayout-copy", stdout="", stderr="", files=[])
    return None

