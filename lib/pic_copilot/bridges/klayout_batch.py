"""A Bridge that runs scripts in ``klayout -b`` on a layout kept in a GDS file between calls.

Used by ``pic-copilot ask --mode interactive`` when no KLayout GUI is attached. Each call starts
``klayout -b -r klayout_batch_runner.py`` (about 2.6 s), which loads the layout file, runs the script
through the plugin's bridge (one transaction, exact rollback on failure), saves the layout back when
the script succeeded, and returns the bridge's result dict as JSON through a file.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..config import project_root

RUNNER = Path(__file__).with_name("klayout_batch_runner.py")


class KlayoutBatchBridge:
    """Bridge protocol (run_code, insert_files) over ``klayout -b``.

    Args:
        layout_file: the GDS file that holds the layout between calls (created empty if missing).
        klayout: the KLayout executable (default: ``klayout`` on PATH).
        timeout_s: wall-time limit per call.
        workdir: folder scripts may write to (a temporary one by default).
    """

    def __init__(self, layout_file: str | Path | None = None, klayout: str | None = None, timeout_s: float = 180,
                 workdir: str | Path | None = None):
        self.klayout = klayout or shutil.which("klayout")
        if not self.klayout:
            raise RuntimeError("KLayout is not installed (no `klayout` on PATH); use --mode sandbox")
        self._tmp = Path(tempfile.mkdtemp(prefix="pic-copilot-batch-"))
        self.layout_file = Path(layout_file) if layout_file else self._tmp / "layout.gds"
        self.workdir = Path(workdir) if workdir else self._tmp / "work"
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.timeout_s = timeout_s
        self.home = self._tmp / "klayout-home"
        self.home.mkdir(exist_ok=True)
        self._undo: list[Path | None] = []   # layout copies before each change, newest last

    def _call(self, req: dict) -> dict:
        """Run one request; keeps a copy of the layout before each change for :meth:`undo`."""
        before = self._tmp / f"undo-{len(self._undo) + 1}.gds"
        existed = self.layout_file.exists()
        if existed:
            shutil.copyfile(self.layout_file, before)
        result = self._run(req)
        if result.get("ok") and (result.get("changes") or {}).get("changed"):
            self._undo.append(before if existed else None)
        elif existed:
            before.unlink(missing_ok=True)
        return result

    def undo(self) -> dict:
        """Restore the layout as it was before the last change made through this bridge."""
        if not self._undo:
            return {"ok": False, "message": "there is nothing to undo"}
        before = self._undo.pop()
        if before is None:
            self.layout_file.unlink(missing_ok=True)
        else:
            os.replace(before, self.layout_file)
        return {"ok": True, "message": "undone: the layout file is as before the last change"}

    def _run(self, req: dict) -> dict:
        fd, req_path = tempfile.mkstemp(suffix=".json", dir=self._tmp)
        os.close(fd)
        out_path = Path(req_path).with_suffix(".out.json")
        Path(req_path).write_text(json.dumps(req))
        cmd = [self.klayout, "-b", "-r", str(RUNNER), "-rd", f"root={project_root()}",
               "-rd", f"layout_file={self.layout_file}", "-rd", f"request={req_path}", "-rd", f"out={out_path}"]
        env = dict(os.environ, KLAYOUT_HOME=str(self.home))
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout_s, env=env)
        except subprocess.TimeoutExpired:
            return {"ok": False, "stdout": "", "stderr": "", "changes": {}, "summary": {},
                    "exception": {"type": "TimeoutError", "message": f"klayout -b did not finish in {self.timeout_s:.0f} s",
                                  "traceback": ""}}
        if not out_path.exists():
            return {"ok": False, "stdout": proc.stdout[-2000:], "stderr": proc.stderr[-2000:], "changes": {}, "summary": {},
                    "exception": {"type": "KLayoutCrashed", "traceback": proc.stderr[-2000:],
                                  "message": f"klayout -b exited with {proc.returncode} without a result"}}
        try:
            return json.loads(out_path.read_text())
        finally:
            for p in (req_path, out_path):
                try:
                    os.unlink(p)
                except OSError:
                    pass

    def run_code(self, code: str) -> dict:
        """Run a pya script on the layout (globals as in docs/EXECUTION_CONTEXT.md)."""
        return self._call({"action": "run_code", "code": code, "workdir": str(self.workdir)})

    def insert_files(self, paths: list[str]) -> dict:
        """Insert GDS/OAS files (written without gdsfactory metadata) under the active cell."""
        return self._call({"action": "insert_files", "paths": [str(p) for p in paths]})

    def run_deck(self, deck: str, report: str, deck_file: str) -> dict:
        """Run a KLayout DRC deck on the layout's top cell; the deck and report stay in the work folder."""
        return self._call({"action": "run_deck", "deck": deck, "report": report, "deck_file": deck_file,
                           "workdir": str(self.workdir)})

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)
