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
