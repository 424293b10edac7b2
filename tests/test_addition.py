"""Revision by addition (agents.addition): which evidence calls for it and how an answer extends
the script."""
from pic_copilot.agents import addition


def test_only_absent_outputs_call_for_an_addition():
    assert addition.absent_only(["file 'b.csv' was not written (written: a.json)"])
    assert addition.absent_only(["no shapes on layer 99/0 (layers with shapes: 1/0)", "drc.json was not written"])
    assert not addition.absent_only([])
    # something the script made is wrong: the script must change, not only grow
    assert not addition.absent_only(["file 'b.csv' was not written (written: a.json)",
                                     "a.json: missing key(s) 'count' (has: n)"])
    assert not addition.absent_only(["the script failed: KeyError: 'b'"])


def test_an_answer_of_new_lines_goes_after_the_script_and_a_whole_script_replaces_it():
    base = "import json\nx = [1, 2]\njson.dump(x, open('a.json', 'w'))\n"
    new = "import csv\ncsv.writer(open('b.csv', 'w')).writerows([[v] for v in x])\n"
    assert addition.extended(base, new) == base + "\n" + new
    assert addition.extended(base, base + new) == base + new   # a continuation of the script
    rewrite = "import json\nx = [1, 2]\n# dump it\njson.dump(x, open('a.json', 'w'), indent=1)\n" + new
    assert addition.extended(base, rewrite) == rewrite   # most of its lines: the model rewrote it


def test_the_answer_starts_with_the_script_and_a_comment_naming_what_comes_next():
    """Ended with the script alone, three real continuations of a01 were one token each: the
    comment after it names what the new lines add."""
    base = "x = 1\n"
    start = addition.answer_start(base, ["file 'spectrum.csv' was not written (written: a.gds)",
                                         "resonances.json was not written"])
    assert start == "```python\nx = 1\n\n# Next: write spectrum.csv and resonances.json\n"
    layers = addition.cue(['The designer named layer 99/0, 99/1 ("the narrow parts on layer 99/0"), but the '
                           'script never uses those layers: ...', "no shapes on layer 2/0 (layers with shapes: 1/0)"])
    assert layers == "Next: put shapes on layer 99/0 and 99/1 and 2/0"
    assert addition.cue([]).startswith("Next: add what the designer asked")


def test_the_cue_quotes_the_steps_between_what_was_produced_and_what_is_missing():
    """A real a01 continuation was told only the missing files and wrote them from names never
    computed: the simulation step between the saved layout and the files was skipped."""
    request = ("Design a filter.\n1. Layout: a ring, radius 20 µm. Save it as ring.gds.\n"
               "2. Simulate it with SAX at 1.55 µm. Sweep 1.54-1.56 µm in 401 points.\n"
               "3. Write spectrum.csv with columns wavelength_um, drop.")
    problems = ["file 'spectrum.csv' was not written (written: ring.gds)"]
    assert addition.request_steps(request)[1:3] == ["1. Layout: a ring, radius 20 µm.", "Save it as ring.gds."]
    assert addition.unfinished_steps(request, problems) == [
        "2. Simulate it with SAX at 1.55 µm.", "Sweep 1.54-1.56 µm in 401 points.",
        "3. Write spectrum.csv with columns wavelength_um, drop."]
    assert addition.cue(problems, request) == (
        "Next: write spectrum.csv. Still to do, as the designer asked:\n# 2. Simulate it with SAX at 1.55 µm."
        "\n# Sweep 1.54-1.56 µm in 401 points.\n# 3. Write spectrum.csv with columns wavelength_um, drop.")
    # nothing produced is named before it: only the step that names the missing output
    layers = ["The designer named layer 99/0 (...)", "no shapes on layer 99/0 (layers with shapes: 1/0)"]
    markers = "Check layer 11/0 of the cell. Put the errors on layer 99/0 as polygons. Write a.json."
    assert addition.unfinished_steps(markers, layers) == ["Put the errors on layer 99/0 as polygons."]
    assert addition.cue(layers).count("99/0") == 1
    # a span too long to quote is cut to the steps naming what is missing, and to nothing beyond that
    long = "Save a.gds. " + "Then do more. " * 80 + "Write b.csv."
    assert addition.unfinished_steps(long, ["file 'b.csv' was not written (written: a.gds)"]) == ["Write b.csv."]
    assert addition.unfinished_steps("Write b.csv " + "with more " * 200 + ".", ["b.csv was not written"]) == []


def test_shapes_drawn_on_a_layer_the_request_does_not_name_are_no_absent_output():
    """A real m11 script drew the cladding on layout.layer(LAYER + 101, 0), 102/0 instead of 111/0:
    "no shapes on layer 111/0" there means the wrong layer, and the continuation only printed a
    count. Such a script is revised whole; one that drew only on requested layers is continued."""
    from pic_copilot.agents.candidates import Candidate
    from pic_copilot.agents.pipeline import lacks_outputs_only
    from pic_copilot.execution.report import ExecutionReport

    def candidate(delta):
        rep = ExecutionReport.from_dict({"ok": True, "changes": {"shapes_delta": delta, "changed": True}})
        return Candidate(script="...", temperature=0.2, stage="contract", report=rep,
                         problems=["no shapes on layer 111/0 (layers with shapes: 1/0, 102/0)"])

    requested = ["1/0", "111/0"]
    assert not lacks_outputs_only(candidate({"1/0": 1, "102/0": 1}), requested)
    assert lacks_outputs_only(candidate({"1/0": 1}), requested)
    assert lacks_outputs_only(candidate({"1/0": 1, "102/0": 0}), requested)


def test_a_continuation_keeps_the_added_lines_that_ran():
    """A real a06 continuation put its markers on 99/0 and 99/1, then failed on showing the report
    in a view that headless runs lack: the failing call is dropped, and an assignment that fails is
    cut with what follows it, as long as some added statement remains."""
    base = "a = 1\nprint(a)\n"
    cont = base + "\n# Next: write b\nb = a + 1\nview.show(b)\nprint(b)\n"
    fixed, what = addition.without_failing_addition(base, cont, 6)
    assert fixed == base + "\n# Next: write b\nb = a + 1\nprint(b)\n" and "line 6" in what
    cut = base + "b = a + 1\nc = b.missing\nprint(c)\n"
    assert addition.without_failing_addition(base, cut, 4)[0] == base + "b = a + 1\n"
    # the failure is in the lines that ran before, or nothing added would remain, or no line is known
    assert addition.without_failing_addition(base, cont, 2) is None
    assert addition.without_failing_addition(base, base + "c = a.missing\nprint(c)\n", 3) is None
    assert addition.without_failing_addition(base, cont, None) is None
    assert addition.without_failing_addition(base, "x = 2\n" + cont, 7) is None   # not a continuation of base


def test_a_request_is_cut_into_the_parts_the_designer_sequenced():
    """A part starts at "Then", "Afterwards", "Also", "Finally", "Next" or a step number; a part
    shorter than MIN_PART_CHARS joins its neighbour; a request sequenced nowhere is one part."""
    first = ("Draw a 10 um x 5 um rectangle on layer 1/0 with its lower-left corner at the origin of the current "
             "cell, and a second one above it.")
    second = ("Then run a 0.45 um minimum-width check on layer 1/0 of the current cell and put the violation markers "
              "on layer 99/0 of the current cell.")
    assert addition.request_parts(f"{first} {second}") == [first, second]
    assert addition.request_parts(f"{first} Also print it.") == [f"{first} Also print it."]
    numbered = f"Design a filter.\n1. Layout: {first}\n2. Simulation: {second[5:]}"
    assert addition.request_parts(numbered) == [f"Design a filter. 1. Layout: {first}", f"2. Simulation: {second[5:]}"]
    assert addition.request_parts(f"{first} Keep the rest. {second[5:].capitalize()}") == \
        [f"{first} Keep the rest. {second[5:].capitalize()}"]
    assert addition.cue([], "", second).splitlines() == ["Next part of the request, as the designer asked:",
                                                         f"# {second}"]
