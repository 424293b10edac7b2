"""The ask/run subcommands and the klayout -b bridge."""
from __future__ import annotations

import argparse
import json
import shutil

import pytest

from pic_copilot.frontends import cli as main_cli
from pic_copilot.frontends import ask_run as cli


def parse(argv):
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command", required=True)
    cli.register(sub)
    return ap.parse_args(argv)


def test_register_adds_ask_and_run():
    a = parse(["ask", "make an mmi", "--mode", "sandbox", "--out", "x.py", "--json"])
    assert a.func is cli.cmd_ask and a.mode == "sandbox" and a.out == "x.py" and a.json
    r = parse(["run", "f.py"])
    assert r.func is cli.cmd_run and r.mode == "sandbox"


def test_run_exit_codes(tmp_path, capsys):
    ok = tmp_path / "ok.py"
    ok.write_text("print('hello')\n")
    bad = tmp_path / "bad.py"
    bad.write_text("raise ValueError('nope')\n")
    assert main_cli.main(["run", str(ok), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stdout"].strip() == "hello"
    assert main_cli.main(["run", str(bad)]) == 1
    assert "ValueError: nope" in capsys.readouterr().out
    assert main_cli.main(["run", str(tmp_path / "missing.py")]) == 2


@pytest.mark.klayout
@pytest.mark.skipif(not shutil.which("klayout"), reason="KLayout not installed")
def test_klayout_batch_bridge_keeps_layout_between_calls(tmp_path):
    from pic_copilot.bridges.klayout_batch import KlayoutBatchBridge

    b = KlayoutBatchBridge(layout_file=tmp_path / "l.gds")
    r = b.run_code("li = layout.layer(1, 0)\ncell.shapes(li).insert(pya.DBox(0, 0, 10, 5))\nprint('added')")
    assert r["ok"] and r["stdout"].strip() == "added" and r["changes"]["shapes_delta"] == {"1/0": 1}
    r = b.run_code("cell.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 1, 1))\nraise ValueError('x')")
    assert not r["ok"] and r["rolled_back"] and r["rollback_exact"]
    r = b.run_code("print(cell.shapes(layout.layer(1, 0)).size())")
    assert r["ok"] and r["stdout"].strip() == "1"
    r = b.run_code("cell.shapes(layout.layer(1, 0)).insert(pya.DBox(20, 0, 30, 5))")
    assert r["ok"] and r["changes"]["changed"]
    assert b.undo()["ok"]
    r = b.run_code("print(cell.shapes(layout.layer(1, 0)).size())")
    assert r["stdout"].strip() == "1"   # the second box is gone, the first one stays
    assert b.undo()["ok"] and not b.undo()["ok"]   # back to empty, then nothing left to undo
