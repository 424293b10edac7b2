"""The trial run on a copy of the open layout: a script that crashes KLayout 0.28.5 (a segfault in
its C++ core) or never ends is stopped there and never reaches the open layout; other scripts run on
the open layout as before. Real parts: the plugin's bridge writes the copy (``copy_layout`` through
the batch runner, i.e. ``bridge.dispatch`` in ``klayout -b``), the copy runs in KLayout in the sandbox."""
from __future__ import annotations

import shutil

import pytest

from pic_copilot.bridges.klayout_batch import KlayoutBatchBridge
from pic_copilot.execution.routing import execute

pytestmark = pytest.mark.skipif(shutil.which("klayout") is None, reason="needs the KLayout application")

# a shape of a layout the script destroyed: reading it segfaults KLayout 0.28.5 (exit code 11)
CRASHES = ("scratch = pya.Layout()\ntmp = scratch.create_cell('TMP')\n"
           "s = tmp.shapes(scratch.layer(1, 0)).insert(pya.Box(0, 0, 10, 10))\nscratch._destroy()\nprint(s.box.area())\n")
DRAWS = "cell.shapes(layout.layer(2, 0)).insert(pya.DBox(0, 0, 10, 5))\nprint('drawn on', cell.name)\n"


class OpenLayout(KlayoutBatchBridge):
    """A layout file run through the plugin's bridge in ``klayout -b``, standing for the designer's
    KLayout: it answers ``copy_layout`` like the panel and the benchmark do, and records which
    scripts reached it."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.reached: list[str] = []

    def copy_layout(self, path: str) -> dict:
        return self._run({"action": "copy_layout", "path": path})

    def run_code(self, code: str) -> dict:
        self.reached.append(code)
        return super().run_code(code)


@pytest.fixture
def open_layout(tmp_path):
    import klayout.db as kdb

    ly = kdb.Layout()
    top = ly.create_cell("TOP")
    top.shapes(ly.layer(1, 0)).insert(kdb.Box(0, 0, 1000, 1000))
    ly.write(str(tmp_path / "open.gds"))
    bridge = OpenLayout(layout_file=tmp_path / "open.gds", workdir=tmp_path / "work")
    yield bridge
    bridge.close()


def test_a_script_that_crashes_klayout_on_the_copy_never_reaches_the_open_layout(open_layout):
    before = open_layout.layout_file.read_bytes()
    rep = execute(CRASHES, "interactive", open_layout, timeout_s=30)
    assert not rep.ok and rep.where == "klayout-copy"
    assert rep.exception["type"] == "KLayoutCrash" and "SIGSEGV in db::Shape::box" in rep.exception["message"], rep.exception
    assert open_layout.reached == [] and open_layout.layout_file.read_bytes() == before


def test_a_script_that_never_ends_is_stopped_on_the_copy(open_layout):
    rep = execute("while True:\n    pass\n", "interactive", open_layout, timeout_s=5)
    assert not rep.ok and rep.exception["type"] == "TimeoutError" and "not run on the open layout" in rep.exception["message"]
    assert open_layout.reached == []


def test_a_script_that_works_on_the_copy_runs_on_the_open_layout_in_its_active_cell(open_layout):
    import klayout.db as kdb

    rep = execute(DRAWS, "interactive", open_layout, timeout_s=30)
    assert rep.ok, rep.exception
    assert open_layout.reached == [DRAWS] and "drawn on TOP" in rep.stdout
    ly = kdb.Layout()
    ly.read(str(open_layout.layout_file))
    assert ly.cell("TOP").shapes(ly.layer(2, 0)).size() == 1


def test_an_ordinary_exception_on_the_copy_is_left_to_the_real_run(open_layout):
    """The copy has no GUI view and an empty work folder: its exceptions do not decide."""
    code = "print(open('only_in_the_real_work_folder.txt').read())\n"
    rep = execute(code, "interactive", open_layout, timeout_s=30)
    assert open_layout.reached == [code] and rep.exception["type"] == "FileNotFoundError"
