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
