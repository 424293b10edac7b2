"""How the engine reaches KLayout: the :class:`Bridge` protocol and its implementations.

- :mod:`.jsonlines`: ``exec`` / ``exec_result`` messages over a JSON-lines channel (``JsonLinesBridge``),
  for the engine process (answered by the plugin) and the benchmark worker (answered by bench.py);
- :mod:`.klayout_batch`: ``klayout -b`` on a layout kept in a GDS file (``pic-copilot ask
  --mode interactive`` without a KLayout GUI), with its in-KLayout script ``klayout_batch_runner.py``;
- :mod:`.remote_client`: a running KLayout's remote endpoint (MCP, ``pic-copilot ask`` with a GUI);
- :mod:`.cookbook_runner`: cookbook recipes run where they belong (sandbox, ``klayout -b`` through
  ``cookbook_runner_klayout.py``, KLayout's DRC engine) and checked against their contracts.

Every implementation runs scripts through klayout_plugin/pic_copilot_plugin/bridge.py inside KLayout
(its ``dispatch(session, action, payload)``).
stdlib only (the contracts module, imported by the KLayout-side benchmark driver, imports this).
"""
from __future__ import annotations

from typing import Protocol


class Bridge(Protocol):
    """How the engine reaches KLayout (the plugin over JSON lines, or a klayout -b process)."""

    def run_code(self, code: str) -> dict: ...

    def insert_files(self, paths: list[str]) -> dict: ...

    def undo(self) -> dict:
        """Undo the last change this bridge made to the open layout (one transaction); {"ok": bool}."""
        ...

    def run_deck(self, deck: str, report: str, deck_file: str) -> dict:
        """Run a DRC deck on the open layout's active cell and show its report (see drc_deck)."""
        ...

    # optional: ``copy_layout(path) -> {"ok", "path", "active_cell"}`` writes the open layout to a file
    # for a trial run on a copy (:mod:`pic_copilot.execution.trial_run`); a bridge that runs each
    # script in a process of its own (klayout_batch) does not need it
