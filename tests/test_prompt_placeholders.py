"""Every render() call site fills every $placeholder its prompt file has.

render() is strict (a missing or unused value raises PromptError when the prompt is built); this
test reads the call sites from the source, so a mismatch fails here before any request hits it.
"""
from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from pic_copilot import prompts

LIB = Path(prompts.__file__).resolve().parents[1]


def render_calls() -> list[tuple[str, int, str, set[str] | None]]:
    """(file, line, prompt name, keyword names or None when **kwargs hides them) of every render call."""
    calls = []
    for path in sorted(LIB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                continue
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name != "render" or not isinstance(node.args[0].value, str):
                continue
            kws = {k.arg for k in node.keywords}
            calls.append((str(path.relative_to(LIB)), node.lineno, node.args[0].value,
                          None if None in kws else kws))
    return calls


def test_every_render_call_fills_every_placeholder():
    calls = render_calls()
    assert len(calls) >= 10, calls  # the walk found the agents' call sites
    problems = []
    for file, line, name, kws in calls:
        wanted = set(string.Template(prompts.text(name)).get_identifiers())
        if kws is None:
            continue
        if wanted - kws:
            problems.append(f"{file}:{line} render({name!r}) leaves {sorted(wanted - kws)} unfilled")
        if kws - wanted:
            problems.append(f"{file}:{line} render({name!r}) passes {sorted(kws - wanted)}, which {name}.md lacks")
    assert problems == []


def test_every_prompt_with_placeholders_is_rendered_somewhere():
    rendered = {name for _, _, name, _ in render_calls()}
    for md in sorted((LIB / "prompts").glob("*.md")):
        if string.Template(md.read_text()).get_identifiers():
            assert md.stem in rendered, f"{md.name} has placeholders but no render() call"


def test_a_missing_or_unused_value_is_an_error():
    names = prompts.placeholders("fix_complaint")
    assert names == {"complaint"}
    assert "too slow" in prompts.render("fix_complaint", complaint="too slow")
    with pytest.raises(prompts.PromptError, match=r"no value for \$complaint"):
        prompts.render("fix_complaint")
    with pytest.raises(prompts.PromptError, match="no placeholder for extra"):
        prompts.render("fix_complaint", complaint="x", extra="y")


def test_an_invalid_dollar_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "bad.md").write_text("costs $5 per $item")
    monkeypatch.setattr(prompts, "PROMPTS_DIR", tmp_path)
    prompts.text.cache_clear()
    try:
        with pytest.raises(prompts.PromptError, match="invalid"):
            prompts.text("bad")
    finally:
        prompts.text.cache_clear()


def test_every_template_is_valid():
    for p in sorted((LIB / "prompts").glob("*.md")):
        prompts.text(p.stem)
