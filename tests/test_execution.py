"""execution.routing.execute: where a script runs, and what it leaves behind."""
from __future__ import annotations

import tempfile

from pic_copilot.execution.routing import execute

GF_SCRIPT = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.components.straight(length=10)\n"
             "c.write_gds('wg.gds', with_metadata=False)\n")


class InsertRecordingBridge:
    """Accepts every insert; records, per call, the paths and whether each was readable then."""

    def __init__(self):
        self.inserts: list[list[tuple[str, bool]]] = []

    def run_code(self, code):
        raise AssertionError("a gdsfactory script runs in the sandbox, not in KLayout")

    def insert_files(self, paths):
        self.inserts.append([(p, open(p, "rb").read(4) != b"") for p in paths])
        return {"ok": True, "changes": {"changed": True, "cells_added": ["straight"]}, "summary": {},
                "inserted_cells": ["straight"]}

    def undo(self):
        return {"ok": True}


def test_written_gds_is_inserted_and_its_compatible_copy_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    bridge = InsertRecordingBridge()
    rep = execute(GF_SCRIPT, "interactive", bridge, timeout_s=120)
    assert rep.ok, rep.exception
    assert rep.where == "sandbox+insert" and rep.inserted_cells == ["straight"]
    [[(path, readable)]] = bridge.inserts
    assert readable and path.startswith(str(tmp_path)) and path.endswith("wg.gds")
    assert not list(tmp_path.glob("pic-copilot-insert-*"))  # the copy lived only until KLayout read it


def test_a_script_that_writes_no_layout_file_is_not_inserted():
    bridge = InsertRecordingBridge()
    rep = execute("import gdsfactory as gf\nprint(gf.__version__)\n", "interactive", bridge, timeout_s=120)
    assert not rep.ok and rep.exception["type"] == "NoLayoutOutput" and bridge.inserts == []
