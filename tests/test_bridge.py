"""The bridge, inside the real KLayout application (klayout -b): undo, rollback, context, inserts."""
import pytest

from kl import KLAYOUT, ROOT, run_cases

pytestmark = [pytest.mark.klayout, pytest.mark.skipif(KLAYOUT is None, reason="KLayout is not installed")]


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    res = run_cases(ROOT / "tests/klayout/bridge_cases.py", tmp_path_factory.mktemp("bridge"))
    for name, r in res.items():
        assert "harness_error" not in r, f"{name}: {r.get('harness_error')}"
    return res


def test_script_adds_shapes_and_one_undo_reverts(cases):
    r = cases["adds_shapes_then_undo"]
    assert r["ok"] and r["changed"] and r["n_after"] == 5 and "added 5" in r["stdout"]
    assert r["changes"]["shapes_delta"] == {"2/0": 5} and r["changes"]["cells_added"] == ["SUB"]
    assert r["undone"] and r["restored"]


def test_raising_script_leaves_layout_exactly_as_before(cases):
    r = cases["raising_script_leaves_layout_unchanged"]
    assert not r["ok"] and r["rolled_back"] and r["rollback_exact"] and r["same_hash"]
    assert r["exception"]["type"] == "ValueError" and "boom at the end" in r["exception"]["traceback"]
    assert r["cells"] == r["cells0"]


def test_a_script_that_places_a_cell_inside_itself_is_rolled_back(cases):
    """KLayout 0.28.5 accepts the recursive instance, then every top-cell query fails (a generated
    script took a benchmark run down that way): the bridge refuses it and rolls the script back."""
    r = cases["recursive_hierarchy_is_rolled_back"]
    assert not r["ok"] and r["rolled_back"] and r["same_hash"] and r["cells"] == r["cells0"], r
    assert "inside itself" in r["exception"]["message"] and r["exception"]["type"] == "RecursiveHierarchy"
    assert r["tops"]   # the layout answers top-cell queries again


def test_the_summary_says_where_the_most_placed_cell_sits(cases):
    """The open layout's summary carries the placement grid the output contract checks (4 x 3 at 20 x 15 um)."""
    r = cases["placement_grid_in_the_summary"]
    assert r["ok"] and r["grid"] == {"cell": "TOP", "child": "UNIT", "count": 12, "x": [0.0, 20.0, 40.0, 60.0],
                                     "y": [0.0, 15.0, 30.0]}, r
    assert r["boxes"] == {"1/0": [[0.0, 0.0, 1.0, 0.5], [0.0, 0.0, 0.1, 0.1]]}, r   # each in its own cell's coordinates
    assert sorted(r["texts"]["10/0"]) == ["TOP", "U0"] and list(r["texts"]) == ["10/0"], r   # every cell's texts
    assert sorted(map(tuple, r["origins"])) == [(x, y) for x in (0.0, 20.0, 40.0, 60.0) for y in (0.0, 15.0, 30.0)], r


def test_syntax_error(cases):
    r = cases["syntax_error_reported"]
    assert not r["ok"] and r["type"] == "SyntaxError" and r["same_hash"]


def test_gdsfactory_import_is_refused_with_reason(cases):
    r = cases["gdsfactory_import_refused"]
    assert not r["ok"] and r["type"] == "ImportError" and "crash KLayout" in r["message"]


def test_sys_exit_is_contained(cases):
    r = cases["sys_exit_does_not_kill_klayout"]
    assert not r["ok"] and r["type"] == "SystemExit" and r["same_hash"]


def test_execution_context_contract(cases):
    r = cases["context_contract"]
    assert r["ok"] and r["stdout"] == "Layout Cell None None 0.001 [] True"


def test_insert_gds_is_one_undoable_step(cases):
    r = cases["insert_gds_file"]
    assert r["ok"] and r["inserted"] == ["MMI_TEST"]
    assert r["bbox"] == [-10.0, -1.25, 15.5, 1.25]
    assert r["undo_restores"]


def test_insert_unreadable_file_rolls_back(cases):
    r = cases["insert_bad_file_rolls_back"]
    assert not r["ok"] and r["has_exception"] and r["same_hash"]


def test_copilot_undo_never_reverts_a_designer_edit(cases):
    r = cases["undo_copilot_change_leaves_designer_edits_alone"]
    assert r["ran"] and r["refused"] and "designer edit" in r["refused_msg"] and r["designer_shape_kept"]
    assert r["allowed"] and r["restored"]


def test_dispatch_is_the_one_entry_for_every_action(cases):
    r = cases["dispatch_runs_every_action"]
    assert r["ran"] and r["stdout"].strip() == "True" and r["named"] == "pic-copilot dispatch test"
    assert r["inserted"] == ["INS"] and r["undo_insert"] and r["undo_run"] and r["restored"]
    assert r["deck_ok"], r["deck_exception"]
    assert r["deck_report"].endswith("-drc/t.lyrdb")
    assert not r["unknown"]["ok"] and r["unknown"]["exception"]["type"] == "BadRequest"
    assert "format_disk" in r["unknown"]["exception"]["message"]
    assert r["answer"] == {"type": "exec_result", "id": "r3", "exec_id": "x-1", "result": {"ok": True}}
