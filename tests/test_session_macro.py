"""The session log and the replay macro's text (klayout_plugin/pic_copilot_plugin/session_macro.py, stdlib
only); the replay itself is tested in the real KLayout (tests/test_gui_panel.py, session_macro)."""
import ast
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "klayout_plugin"))

from pic_copilot_plugin.session_macro import SessionLog, Step, macro_text, py_literal, save  # noqa: E402

OK = {"ok": True, "undoable": True, "changes": {"changed": True}}


@pytest.mark.parametrize("code", ["print(1)\n", "s = '''x'''\n", 's = """y"""\nt = \'\'\'z\'\'\'\n', "p = r'\\d'\\\n",
                                  "ends with a backslash \\", "tab\there\n"])
def test_literals_spell_the_code_exactly(code):
    lit = py_literal(code)
    assert ast.literal_eval(lit) == "\n" + code
    if "'''" not in code and not code.rstrip("\n").endswith("\\"):
        assert lit.startswith("r'''")   # readable: the code as it is


def test_log_keeps_what_is_still_on_the_layout(tmp_path):
    log = SessionLog()
    log.note_request("r1", "a box")
    log.record("run_code", {"code": "box()"}, OK, request_id="r1", selection=[{"kind": "box"}])
    log.record("run_code", {"code": "noop()"}, {**OK, "changes": {"changed": False}}, request_id="r1")
    log.note_feedback("r1", "wider")
    log.record("undo", {}, {"ok": True}, request_id="r1")             # the feedback round replaces the box
    log.record("run_code", {"code": "wide_box()"}, OK, request_id="r1")
    log.verdict("r1", True)
    gds = tmp_path / "mmi.gds"
    gds.write_bytes(b"GDS")
    log.note_request("r2", "an MMI")
    log.record("insert_files", {"paths": [str(gds)]}, {**OK, "inserted_cells": ["MMI"]}, request_id="r2")
    log.verdict("r2", True, script="import gdsfactory as gf\n")
    log.record("run_code", {"code": "broken()"}, {"ok": False}, request_id="r3")   # failed: rolled back
    assert [(s.kind, s.code, s.texts, s.accepted) for s in log.steps] == [
        ("pya", "wide_box()", ["a box", "feedback: wider"], True), ("gds", "", ["an MMI"], True)]
    assert log.steps[1].source_script.startswith("import gdsfactory") and Path(log.steps[1].files[0]).read_bytes() == b"GDS"
    log.undone()
    assert len(log.steps) == 1


def test_macro_text_is_python_and_names_each_request(tmp_path):
    gds = tmp_path / "01_mmi.gds"
    gds.write_bytes(b"GDS")
    steps = [Step("pya", "r1", ["a box", "feedback: wider"], code="s = '''tricky'''\nprint(s)\n", accepted=True),
             Step("gds", "r2", ["an MMI"], files=[str(gds)], cells=["MMI"], accepted=False,
                  source_script="import gdsfactory as gf\nc = gf.components.mmi1x2()\n")]
    path, copied = save(steps, tmp_path / "macros", title="an MMI")
    text = path.read_text()
    ast.parse(text)
    assert text.startswith("# $description: pic-copilot session of ") and copied == 1
    assert (path.parent / (path.stem + "_files") / "01_mmi.gds").exists()
    assert text.index("# request: a box") < text.index("# feedback: wider") < text.index("# request: an MMI")
    assert "NOT accepted by the copilot, but left on the layout" in text
    assert "#     import gdsfactory as gf" in text and "\nimport gdsfactory" not in text
    with pytest.raises(ValueError, match="nothing to save"):
        save([], tmp_path)
    assert macro_text(steps[:1], "m.py", "m_files", str(tmp_path), "now").count("STEPS.append") == 1
