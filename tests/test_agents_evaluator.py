"""Evaluator decisions that do not need an LLM."""
import re

import shutil

import pytest

from pic_copilot.agents.evaluator import contradicted_by_run, from_execution, missing_outputs
from pic_copilot.execution.report import ExecutionReport


def test_llm_objection_about_a_file_the_run_wrote_is_overruled():
    rep = ExecutionReport.from_dict({"ok": True, "files": [{"path": "mmi1x2.gds"}]})
    assert contradicted_by_run("Write the component to mmi1x2.gds, the file name the designer asked for.", rep)
    assert not contradicted_by_run("Write it to other.gds", rep, ["other.gds"])
    # a file nobody asked for (copied from an example) is not a reason to revise
    assert contradicted_by_run("Write the component to mmi2x2.gds, the file name the designer asked for.", rep,
                               ["mmi1x2.gds"])
    assert not contradicted_by_run("Make the taper longer", rep)
    assert not contradicted_by_run("Write mmi1x2.gds", ExecutionReport.from_dict({"ok": False, "files": [{"path": "mmi1x2.gds"}]}))


def test_failed_run_sends_traceback_to_programmer():
    d = from_execution(ExecutionReport.from_dict({"ok": False, "exception": {"type": "KeyError", "message": "'out1'",
                                                   "traceback": "Traceback ...\nKeyError: 'out1'"}}))
    assert d["target"] == "programmer" and "KeyError: 'out1'" in d["instructions"]


def test_missing_requested_output():
    d = missing_outputs(ExecutionReport.from_dict({"ok": True, "where": "sandbox", "files": [{"path": "a.gds"}]}), ["b.gds"])
    assert d is not None and "b.gds" in d["instructions"]
    assert missing_outputs(ExecutionReport.from_dict({"ok": True, "where": "sandbox", "files": [{"path": "b.gds"}]}), ["b.gds"]) is None


def test_interactive_plan_drops_a_step_that_only_places_an_earlier_file():
    from pic_copilot.agents.planner import normalise

    raw = {"subtasks": [
        {"domain": "layout", "task": "Create a 1x2 MMI and write it to mmi1x2.gds without metadata.", "outputs": ["mmi1x2.gds"]},
        {"domain": "layout", "task": "Place the mmi1x2.gds file into the open layout at the top cell TOP."}]}
    assert len(normalise(raw, "make an mmi", "interactive")["subtasks"]) == 1
    assert len(normalise(raw, "make an mmi", "sandbox")["subtasks"]) == 2
    keep = {"subtasks": [raw["subtasks"][0], {"domain": "drc", "task": "Check mmi1x2.gds for widths below 0.2 um"}]}
    assert len(normalise(keep, "make and check", "interactive")["subtasks"]) == 2


def test_missing_output_instructions_say_how_to_write_it():
    d = missing_outputs(ExecutionReport.from_dict({"ok": True, "where": "sandbox", "files": [{"path": "mmi.gds"}]}),
                        ["mmi.gds", "drc.json"])
    assert "drc.json" in d["instructions"] and "json.dump" in d["instructions"]


def test_a_named_file_joins_the_outputs_of_the_step_that_mentions_it():
    from pic_copilot.agents.planner import normalise

    plan = normalise({"subtasks": [
        {"domain": "layout", "task": "write the MMI to mmi.gds", "outputs": ["mmi.gds"]},
        {"domain": "drc", "task": "count width violations and write the number to drc.json"}]},
        "make mmi.gds, then write the violation count to drc.json")
    assert plan["subtasks"][1]["outputs"] == ["drc.json"] and plan["subtasks"][0]["outputs"] == ["mmi.gds"]


@pytest.mark.parametrize("prompt, inputs, outputs", [
    ("Run a minimum-width check of 0.5 um on layer 1/0 of in.gds and write the count to width.json", (), ["width.json"]),
    ("Convert in.gds to OASIS as out.oas", (), ["out.oas"]),
    ("Read design.gds and write layers.csv", (), ["layers.csv"]),
    ("Run a small DRC deck on chip.gds and save drc.lyrdb", (), ["drc.lyrdb"]),
    ("Prepare in.gds for a foundry: remap the layers and write foundry.oas", ("in.gds",), ["foundry.oas"]),
    ("make an MMI and save it as mmi.gds", (), ["mmi.gds"]),
])
def test_files_the_request_reads_are_not_outputs(prompt, inputs, outputs):
    from pic_copilot.agents.planner import normalise, requested_files

    assert requested_files(prompt, inputs) == outputs
    # the planner's own "outputs": [in.gds, width.json] for "check in.gds, write width.json" loses in.gds
    named = re.findall(r"[\w.]+\.(?:gds|oas|json|csv|lyrdb)\b", prompt)
    raw = {"subtasks": [{"domain": "drc", "task": prompt, "outputs": named}]}
    plan = normalise(raw, prompt, "sandbox", inputs)
    assert plan["subtasks"][0]["outputs"] == outputs and plan["requested_files"] == outputs


def test_a_data_file_nobody_asked_for_is_not_an_output():
    from pic_copilot.agents.planner import normalise

    raw = {"subtasks": [{"domain": "layout", "task": "add a box and write the count to added.json",
                         "outputs": ["added.json", "box.gds"]}]}
    assert normalise(raw, "add a 10 x 5 um box on layer 2/0", "interactive")["subtasks"][0]["outputs"] == ["box.gds"]
    two = {"subtasks": [{"domain": "layout", "task": "write ports to tmp.csv", "outputs": ["tmp.csv"]},
                        {"domain": "data", "task": "read tmp.csv and plot it to p.png", "outputs": ["p.png"]}]}
    plan = normalise(two, "plot the ports to p.png")
    assert [s["outputs"] for s in plan["subtasks"]] == [["tmp.csv"], ["p.png"]]   # read by a later step


def test_static_api_error_names_the_offending_line():
    from pic_copilot.agents.evaluator import from_static

    script = "import pya\nly = pya.Layout()\nly.save_layout_options(x=1)\n"
    f = [{"kind": "api", "severity": "error", "line": 3, "name": "pya.Layout.save_layout_options",
          "message": "line 3: pya.Layout has no attribute 'save_layout_options'", "suggestions": ["pya.Layout.write"]}]
    d = from_static(f, script)
    assert d["target"] == "query_generator"
    assert "Line 3 `ly.save_layout_options(x=1)`" in d["instructions"] and "delete the line" in d["instructions"]


def test_a_requested_length_missing_from_the_script_sends_it_back():
    from pic_copilot.agents.evaluator import missing_values, requested_values

    prompt = "create a 1x2 MMI with a 20 um long multimode section and a 500 nm gap, write mmi.gds"
    assert requested_values(prompt) == [("20 um", 20.0), ("500 nm", 0.5)]
    d = missing_values(prompt, "import gdsfactory as gf\nc = gf.components.mmi1x2(gap_mmi=0.5)\n")
    assert d is not None and "20 um" in d["instructions"] and "500 nm" not in d["instructions"]
    assert missing_values(prompt, "c = f(length_mmi=20, gap_mmi=0.5)") is None
    assert missing_values(prompt, "c = f(length_mmi=20000, gap=500)") is None   # dbu / nm spellings count
    assert missing_values("make a 1x2 MMI", "c = f()") is None
    # a centred 100 um square is written as -50..50
    assert missing_values("a 100 x 100 um square centred on the origin", "box = DBox(-50, -50, 50, 50)") is None
    # typed only into a constant table the script writes out, the number was not used (a real a05
    # answer built one default straight for "a 20 um straight on each output" and wrote {"out1": 20})
    typed = ("c = f(gap_mmi=0.5)\nports = {'in1': 0, 'out1': 20}\njson.dump(ports, open('p.json', 'w'))\n")
    assert "20 um" in missing_values(prompt, typed)["instructions"]
    assert missing_values(prompt, typed.replace("f(gap_mmi=0.5)", "f(length_mmi=20, gap_mmi=0.5)")) is None
    assert missing_values(prompt, "L = 20\nc = f(length_mmi=L, gap_mmi=0.5)\njson.dump({'L': L}, f)") is None
    assert missing_values(prompt, "c = f(gap_mmi=0.5)\nrows = [[20, 1]]\nrows.append([3, 4])\nw.writerows(rows)") is None
    # a half counts only written both ways (a centred box): a real a05 script's length_taper=10.0
    # passed "20 um" before
    assert "20 um" in missing_values(prompt, "c = f(length_taper=10.0, gap_mmi=0.5)")["instructions"]
    assert missing_values(prompt, "c = f(gap_mmi=0.5)\nbox = DBox(-10, -1, 10, 1)") is None
    # assigned to a name nothing reads, the number is stated, not used (a real m01 script kept the
    # requested 4 um slab in slab_extension = 4.0 and built the slab from slab_width = 6.0)
    unread = "mmi_length = 20.0  # um\nlength = 12.0\nc = f(length_mmi=length, gap_mmi=0.5)\n"
    assert "20 um" in missing_values(prompt, unread)["instructions"]
    assert missing_values(prompt, unread + "print(mmi_length)\n") is None   # read: it counts
    assert missing_values(prompt, unread.replace("length_mmi=length", "length_mmi=mmi_length")) is None
    assert missing_values(prompt, "L: float = 20\nc = f(length_mmi=L, gap_mmi=0.5)\n") is None
    # the last item of an enumeration is computed, not written
    series = "widths 0.30, 0.35, ..., 0.60 um at y = 0, 5, ..., 30 um"
    assert missing_values(series, "ws = [0.30 + 0.05 * i for i in range(7)]\nys = [5 * i for i in range(7)]") is None


def test_reference_solutions_pass_the_cell_name_check_and_the_wrong_name_variant_does_not():
    from pathlib import Path

    from pic_copilot.agents.evaluator import missing_names
    from pic_copilot.bench.tasks import load_tasks

    tasks = load_tasks(Path(__file__).resolve().parents[1] / "benchmark" / "tasks")
    assert [t.id for t in tasks if missing_names(t.prompt, t.solution)] == []
    b01 = next(t for t in tasks if t.id == "b01_straight_wg")
    assert missing_names(b01.prompt, b01.wrong["wrong_cellname"]) is not None


@pytest.mark.parametrize("prompt, names", [
    ("Put it in a top cell named WG25 and save it as straight.gds.", ["WG25"]),
    ("Build a splitter circuit in a top cell SPLIT: a 1x2 MMI", ["SPLIT"]),
    ("Make a new cell DEVICE_M whose shapes are those of DEVICE mirrored", ["DEVICE_M"]),
    ("create a cell called 'pad_big' with a square", ["pad_big"]),
    ("place the box in the current cell at the cell's origin", []),
    ("Top cell RING_ARRAY. Write rings.gds", ["RING_ARRAY"]),
    ("cells in the layout; the cell is TOP", []),
])
def test_requested_cell_names(prompt, names):
    from pic_copilot.agents.evaluator import requested_cell_names
    assert requested_cell_names(prompt) == names


def test_a_requested_cell_name_missing_from_the_script_sends_it_back():
    from pic_copilot.agents.evaluator import missing_names

    prompt = "Make a straight waveguide 25 um long. Put it in a top cell named WG25 and save it as straight.gds."
    auto = ("import gdsfactory as gf\nc = gf.components.straight(length=25)\nc.write_gds('straight.gds')\n")
    d = missing_names(prompt, auto)
    assert d["target"] == "programmer" and d["source"] == "names"
    assert "WG25" in d["instructions"] and 'gf.Component("WG25")' in d["instructions"]
    assert missing_names(prompt, auto.replace("c = gf", "top = gf.Component('WG25')\nc = gf")) is None
    d = missing_names("create a new cell named PAD holding a square", "import pya\nc = layout.create_cell('P')\n")
    assert 'layout.create_cell("PAD")' in d["instructions"]
    assert missing_names("make an MMI", "x = 1") is None
    assert missing_names(prompt, "def broken(:") is None   # syntax errors are the static check's job


def test_a_copied_worked_example_is_sent_back_unless_it_was_the_task():
    from pic_copilot import prompts
    from pic_copilot.llm.agent import extract_code
    from pic_copilot.agents.evaluator import copied_example

    ex = prompts.fewshot("programmer_interactive_new")
    coupler = extract_code(ex[1]["content"])
    d = copied_example(coupler, ex, "Delete every shape on layer 5/0 in the current cell.")
    assert d["target"] == "programmer" and d["source"] == "copied" and "directional coupler" in d["instructions"]
    # comments and blank lines do not hide a copy; one changed line in five does not either
    assert copied_example("\n# mine\n" + coupler.replace("gap=0.3", "gap=0.2"), ex, "grow layer 1/0") is not None
    assert copied_example(coupler, ex, "Create a directional coupler with the generic PDK, gap 0.3 um, "
                                       "written to dc.gds without metadata") is None
    own = "import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.components.ring_single(radius=10)\nc.write_gds('r.gds')\n"
    assert copied_example(own, ex, "a ring") is None
    assert copied_example("print(1)\nprint(2)", ex, "x") is None   # too short to tell


def test_a_layer_number_used_as_a_layer_index_goes_back_without_crashing_the_request():
    """Real b11 runs (session 6) ended in 'internal: KeyError: name': the layer-index finding names no
    API entry, and the static decision looked one up for every API finding."""
    from pic_copilot.agents.evaluator import from_static
    from pic_copilot.checks.static import static_findings

    script = "r = pya.Region(cell.begin_shapes_rec(1))\nprint(r.area())\n"
    findings, _ = static_findings(script, "interactive", None, interactive_pya=True)
    assert any("layer index" in f["message"] for f in findings), findings
    dec = from_static(findings, script)
    assert dec["decision"] == "revise" and "layout.layer(1, 0)" in dec["instructions"]


def test_a_failed_run_is_told_what_the_library_call_behind_the_failing_line_returns(tmp_path):
    """sax.circuit returns (circuit, info); indexing that tuple fails with a message that does not
    say so (three rounds of a real m05 run). The feedback adds the installed return type."""
    import subprocess
    import sys

    from pic_copilot.agents import evaluator
    from pic_copilot.execution.report import ExecutionReport

    script = ("import sax\n"
              "s = sax.circuit(netlist={'instances': {'c': 'coupler'}, 'connections': {}, "
              "'ports': {'in0': 'c,in0', 'out0': 'c,out0'}}, models={'coupler': sax.models.coupler_ideal})\n"
              "bar = s['in0', 'out0']\n")
    (tmp_path / "script.py").write_text(script)
    run = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "TypeError" in run.stderr, run.stderr
    rep = ExecutionReport.from_dict({"ok": False, "stderr": run.stderr,
                                     "exception": {"type": "TypeError", "message": run.stderr.strip().splitlines()[-1],
                                                   "traceback": run.stderr}})
    dec = evaluator.from_execution(rep, script)
    assert "`s` (line 2) is what sax.circuit() returns: tuple[" in dec["instructions"], dec["instructions"]
    assert evaluator.returned_types("import sax\nx = 1\nx[0]\n", rep) == []     # no library call behind the name


def test_an_argument_of_the_wrong_class_is_answered_with_the_signature_and_its_siblings(tmp_path):
    """Region.separation_check(d) fails with KLayout's "expected argument of class Region, got int";
    the feedback gives the method's installed signature and the *_check methods that take no
    'other' (space_check among them), from the real symbol index and a real run."""
    import subprocess
    import sys

    from pic_copilot.agents import evaluator, retrieve
    from pic_copilot.execution.report import ExecutionReport

    script = "import klayout.db as kdb\nr = kdb.Region(kdb.Box(0, 0, 100, 100))\nr.separation_check(300, kdb.CplxTrans(0.001))\n"
    (tmp_path / "script.py").write_text(script)
    run = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    message = run.stderr.strip().splitlines()[-1].split(": ", 1)[-1]
    rep = ExecutionReport.from_dict({"ok": False, "stderr": run.stderr,
                                     "exception": {"type": "TypeError", "message": message, "traceback": run.stderr}})
    index = retrieve.symbol_index()
    if not index:
        pytest.skip("no symbol index (databases not built)")
    text = evaluator.from_execution(rep, script, index)["instructions"]
    assert "Region.separation_check(other: Region, d: int, ...) -> EdgePairs: its parameter 'other' takes a Region, " \
           "the script gave an int" in text, text
    assert "Region.space_check(d: int, ...) -> EdgePairs" in text and "Region.width_check(d: int" in text
    assert "enclosing_check" not in text          # a sibling that also takes 'other' is not offered
    assert evaluator.argument_mismatch(rep, None) == []


@pytest.mark.skipif(shutil.which("klayout") is None, reason="the KLayout application is not installed")
def test_a_call_that_fits_no_form_is_answered_with_the_installed_forms(tmp_path):
    """In KLayout 0.28.5 (the open layout's interpreter) Layout.clip(cell index, Region) fails with
    the bare "No overload with matching arguments in Layout.clip", and layout.layer(*"1/0/x") with
    "Invalid number of arguments ... in Layout.layer": the feedback lists the method's installed
    forms (a real a20 run tried invented forms of clip for three rounds). pip klayout's message
    lists them itself, and then nothing is added. Real runs of both and the real symbol index."""
    import json
    import subprocess
    import sys

    from kl import run_batch
    from pic_copilot.agents import evaluator, retrieve
    from pic_copilot.execution.report import ExecutionReport

    index = retrieve.symbol_index()
    if not index:
        pytest.skip("no symbol index (databases not built)")
    calls = {"clip": "ly.clip(top.cell_index(), pya.Region(pya.Box(0, 0, 10, 10)))", "layer": "ly.layer(*'1/0/x')"}
    script = tmp_path / "calls.py"
    script.write_text("import json, pya\nout = {}\nly = pya.Layout()\ntop = ly.create_cell('TOP')\n"
                      + "".join(f"try:\n    {c}\nexcept Exception as e:\n    out[{k!r}] = str(e)\n" for k, c in calls.items())
                      + "open(out_file, 'w').write(json.dumps(out))\n")
    run_batch(script, tmp_path, out_file=tmp_path / "messages.json")
    messages = json.loads((tmp_path / "messages.json").read_text())

    def failed(message: str) -> ExecutionReport:
        return ExecutionReport.from_dict({"ok": False, "exception": {"type": "RuntimeError", "message": message}})

    assert messages["clip"].startswith("No overload with matching arguments in Layout.clip"), messages
    text = evaluator.from_execution(failed(messages["clip"]), "", index)["instructions"]
    assert "Layout.clip has these forms in the installed KLayout" in text, text
    forms = text.split("(call it with one of them): ", 1)[1].splitlines()[0]
    assert "DBox" in forms and "Region" not in forms, forms
    assert "Invalid number of arguments" in messages["layer"], messages
    text = evaluator.from_execution(failed(messages["layer"]), "", index)["instructions"]
    assert "Layout.layer has these forms" in text and "datatype" in text, text
    # pip klayout names the forms in its own message: nothing is added
    run = subprocess.run([sys.executable, "-c", "import klayout.db as kdb\nly = kdb.Layout()\n"
                          "ly.clip(ly.create_cell('TOP').cell_index(), kdb.Region())\n"],
                         capture_output=True, text=True, timeout=120)
    pip_message = run.stderr.split("TypeError: ", 1)[-1]
    assert "Variants are" in pip_message, run.stderr
    assert evaluator.installed_forms(failed(pip_message), index) == []
    # a constructor, as a real a07 run's message named it: the forms of pya.Region(...)
    init = evaluator.installed_forms(failed("No overload with matching arguments in Region.__init__"), index)
    assert init and "pya.Region(Box box)" in init[0], init
    # another failure, or no index: nothing added
    assert evaluator.installed_forms(failed("bad value"), index) == []
    assert evaluator.installed_forms(failed(messages["clip"]), None) == []


def test_a_cell_made_again_in_each_pass_of_a_loop_is_pointed_at_the_loop(tmp_path):
    """gf.Component("GC_ROW") inside the loop over four couplers: the second pass fails with
    "Cellname GC_ROW already exists" (a real m04 run); the feedback names the loop."""
    import subprocess
    import sys

    from pic_copilot.agents import evaluator
    from pic_copilot.execution.report import ExecutionReport

    script = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\n"
              "for i in range(2):\n    c = gf.Component('GC_ROW')\n    c << gf.components.straight()\n")
    (tmp_path / "script.py").write_text(script)
    run = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    message = run.stderr.strip().splitlines()[-1].split(": ", 1)[-1]
    assert "already exists" in message, run.stderr
    rep = ExecutionReport.from_dict({"ok": False, "stderr": run.stderr,
                                     "exception": {"type": "ValueError", "message": message, "traceback": run.stderr}})
    text = evaluator.from_execution(rep, script)["instructions"]
    assert "line 4 runs in every pass of the loop at line 3" in text, text
    outside = "import gdsfactory as gf\nc = gf.Component('A')\n"
    assert evaluator.made_in_a_loop(outside, rep) == []


def test_the_failing_script_line_is_read_from_sandbox_and_bridge_tracebacks():
    """The run-proven feedback and repairs need the script's own line: the sandbox runs script.py,
    the bridge compiles '<pic-copilot script>' (a real interactive m09 traceback); other frames are not it."""
    from pic_copilot.agents.fixes import call_uncalled_methods
    from pic_copilot.execution.report import ExecutionReport

    bridge_tb = ('Traceback (most recent call last):\n  File "/x/klayout_plugin/pic_copilot_plugin/bridge.py", line 394, '
                 'in action\n    exec(compiled, ctx)\n  File "<pic-copilot script>", line 2, in <module>\n'
                 "AttributeError: 'builtin_function_or_method' object has no attribute 'x'")
    rep = ExecutionReport.from_dict({"ok": False, "exception": {
        "type": "AttributeError", "message": "'builtin_function_or_method' object has no attribute 'x'",
        "traceback": bridge_tb}})
    assert rep.failing_line() == 2
    script = "box = cell.dbbox\nprint(box.x)\n"
    assert call_uncalled_methods(script, rep)[0] == "box = cell.dbbox()\nprint(box.x)\n"
    sandbox = ExecutionReport.from_dict({"ok": False, "stderr": 'File "/tmp/j/work/script.py", line 7, in <module>'})
    assert sandbox.failing_line() == 7
    assert ExecutionReport.from_dict({"ok": False, "stderr": 'File "/lib/x.py", line 3'}).failing_line() is None


def test_a_number_with_a_fraction_the_request_gives_must_reach_the_script():
    """A real m05 answer kept a recipe's group index 4.2 for "group index 3.4" and passed every other
    check: decimals written without a length unit are asked for too; an enumeration the script may
    compute ("0.30, 0.35, ..., 0.60 µm") is not."""
    from pic_copilot.agents import evaluator

    req = ("Waveguides: effective index 2.34 and group index 3.4 at 1.55 µm, no loss. Sweep from 1.50 to 1.60 µm "
           "in 501 points.")
    assert evaluator.requested_decimals(req) == [("2.34", 2.34), ("3.4", 3.4), ("1.50", 1.5)]
    assert evaluator.requested_decimals("widths 0.30, 0.35, ..., 0.60 µm and a layer 1/0.") == []
    wrong = "NEFF, NG = 2.34, 4.2\nwl = np.linspace(1.5, 1.6, 501)\nWL0 = 1.55\nprint(wl - WL0)\n"
    dec = evaluator.missing_values(req, wrong)
    assert dec is not None and "3.4" in dec["instructions"] and "2.34" not in dec["instructions"]
    assert evaluator.missing_values(req, wrong.replace("4.2", "3.4")) is None
