"""The transcript's view of streamed LLM text (klayout_plugin/pic_copilot_plugin/stream_view.py, stdlib only)."""
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "klayout_plugin"))

from pic_copilot_plugin.stream_view import StreamView, clean_line  # noqa: E402

ANSWER = """Here is the script for the **rectangle**:

```python
li = layout.layer(1, 0)
cell.shapes(li).insert(pya.DBox(0, 0, 10, 5))
```

It uses `pya.DBox`, in micrometres.
"""
EXPLANATION = """### What it does
* Takes the **current cell** and layer `1/0`.
* Inserts a box.

```python
cell.shapes(li).insert(box)
```
"""
PLAN = '```json\n{"subtasks": [{"domain": "layout", "task": "a 10 um box", "outputs": []}], "requested_files": ["a.gds"]}\n```\n'


def play(view: StreamView, text: str, seed: int = 1) -> tuple[str, str]:
    """Feed the text in random chunks (as tokens arrive) and return what the transcript and the Script tab got."""
    rnd = random.Random(seed)
    shown, script, i = [], [], 0
    while i < len(text):
        n = rnd.randint(1, 7)
        t, s = view.feed(text[i:i + n])
        shown.append(t)
        script.append(s)
        i += n
    t, s = view.finish()
    return "".join(shown) + t, "".join(script) + s


def test_script_goes_to_the_script_tab_and_prose_is_plain():
    for seed in range(20):
        shown, script = play(StreamView("programmer"), ANSWER, seed)
        assert "```" not in shown and "**" not in shown and "`" not in shown
        assert "Here is the script for the rectangle:" in shown
        assert "(the script is in the Script tab)" in shown and "pya.DBox(0, 0, 10, 5)" not in shown
        assert script == "li = layout.layer(1, 0)\ncell.shapes(li).insert(pya.DBox(0, 0, 10, 5))\n"
        assert "It uses pya.DBox, in micrometres." in shown


def test_explanation_markdown_is_readable_and_code_is_indented():
    shown, script = play(StreamView("explainer"), EXPLANATION)
    assert script == ""
    assert shown.splitlines()[:3] == ["What it does", "- Takes the current cell and layer 1/0.", "- Inserts a box."]
    assert "    cell.shapes(li).insert(box)" in shown and "```" not in shown


def test_json_is_shown_as_key_value_lines():
    for text in (PLAN, PLAN.replace("```json\n", "").replace("```\n", "")):
        shown, _ = play(StreamView("programmer"), text)
        assert "{" not in shown and '"' not in shown, shown
        assert "subtasks:" in shown and "domain: layout" in shown and "task: a 10 um box" in shown
        assert "- a.gds" in shown


def test_broken_json_and_an_unterminated_line_still_show():
    shown, _ = play(StreamView("explainer"), '{"a": 1, "b": [tru')
    assert shown.strip() == '{"a": 1, "b": [tru'
    shown, _ = play(StreamView("explainer"), "no newline at the end")
    assert shown == "no newline at the end\n"


def test_prose_streams_before_the_line_ends():
    v = StreamView("explainer")
    assert v.feed("The macro ") == ("The macro ", "")
    assert v.feed("draws a box") == ("draws a box", "")
    assert v.feed(" on 1/0.\nNext") == (" on 1/0.\nNext", "")
    assert v.finish() == ("\n", "")
    assert clean_line("**Note**: use `DBox`") == "Note: use DBox"


def test_code_first_starts_on_its_own_line():
    shown, _ = play(StreamView("programmer", script_to_tab=False), "```python\nprint(1)\n```\n")
    assert shown == "\n    print(1)\n"
    shown, _ = play(StreamView("explainer"), '{"a": 1}')
    assert shown == "a: 1\n"
    shown, _ = play(StreamView("explainer"), '{"a": 1, "b": [2, 3]}')
    assert shown == "\na: 1\nb:\n  - 2\n  - 3\n"
