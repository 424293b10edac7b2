"""Sandbox runner: run untrusted (generated) Python with the engine venv, isolated.

    from pic_copilot.sandbox import run_script
    r = run_script("import gdsfactory as gf\\n...", timeout_s=60)
    r.ok, r.stdout, r.exception, r.files

See README.md in this folder for the isolation design.
"""
from .runner import (JobFileError, RunResult, Sandbox, SandboxError, WorkerDied, default_root, default_sandbox,
                     probe_bwrap, read_job_file, run_script)
from .summary import summarize_file
from .gds_compat import strip_metadata

__all__ = ["JobFileError", "read_job_file", "RunResult", "Sandbox", "SandboxError", "WorkerDied", "default_root", "default_sandbox",
           "probe_bwrap", "run_script", "summarize_file", "strip_metadata"]
