"""Explain / fix outside the GUI: `pic-copilot explain|fix FILE` and the engine's `fix` message,
with the scripted LLM (the same engine messages the panel sends)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pic_copilot.frontends import cli
from pic_copilot.agents import explain_fix
from pic_copilot.testing.scripted_llm import ScriptedLLM

BROKEN = "width = 2.5\nprint('area', width * undefined_height)\n"
FIXED = "width = 2.5\nundefined_height = 4.0  # um\nprint('area', width * undefined_height)\n"
STILL_BROKEN = "width = 2.5\nprint('area', width * still_undefined)\n"
LYM = """<?xml version="1.0" encoding="utf-8"?>
<klayout-macro>
 <description>area demo</description>
 <version/>
 <category>pymacros</category>
 <autorun>false</autorun>
 <interpreter>python</interpreter>
 <text>{text}</text>
</klayout-macro>
"""


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("PIC_COPILOT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PIC_COPILOT_HISTORY", str(tmp_path / "history"))
    monkeypatch.setenv("PIC_COPILOT_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.setenv("PIC_COPILOT_API_KEY", "sk-test-explain-fix")
    monkeypatch.setenv("PIC_COPILOT_PIPELINE", "single-candidate")
    for k in ("OPENAI_BASE_URL", "PIC_COPILOT_PROVIDER"):
        monkeypatch.delenv(k, raising=False)


def llm_env(monkeypatch, llm):
    monkeypatch.setenv("PIC_COPILOT_BASE_URL", llm.base_url)


def fenced(code: str) -> str:
    return f"Here is the corrected script.\n```python\n{code}```\n"


def test_explain_file_streams_and_prints_the_explanation(tmp_path, monkeypatch, capsys):
    f = tmp_path / "area.lym"
    f.write_text(LYM.format(text="width = 2.5\nprint(width &lt; 3)\n"))
    text = "It sets a width of 2.5 um and prints whether it is below 3 um."
    with ScriptedLLM([{"content": text, "chunk_chars": 7}]) as llm:
        llm_env(monkeypatch, llm)
        assert cli.main(["explain", str(f), "--question", "is it below 3?"]) == 0
        asked = json.dumps(llm.requests)
    out, err = capsys.readouterr()
    assert out.strip() == text
    assert "[explainer] It sets" in err           # streamed like the panel's transcript
    assert "print(width < 3)" in asked and "area" in asked and "is it below 3?" in asked   # the .lym's text, unescaped
    with ScriptedLLM([{"content": text}]) as llm:
        llm_env(monkeypatch, llm)
        assert cli.main(["explain", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"ok": True, "file": str(f), "explanation": text}


def test_explain_bad_input_and_llm_down(tmp_path, monkeypatch, capsys):
    assert cli.main(["explain", str(tmp_path / "missing.py")]) == 2
    (tmp_path / "empty.py").write_text("  \n")
    assert cli.main(["explain", str(tmp_path / "empty.py")]) == 2
    (tmp_path / "bad.lym").write_text("<klayout-macro/>")
    assert cli.main(["explain", str(tmp_path / "bad.lym")]) == 2
    monkeypatch.setenv("PIC_COPILOT_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("PIC_COPILOT_MAX_RETRIES", "0")
    (tmp_path / "ok.py").write_text("print(1)\n")
    assert cli.main(["explain", str(tmp_path / "ok.py")]) == 3
    assert "llm-connection" in capsys.readouterr().err


def test_fix_runs_the_script_fixes_the_error_and_applies(tmp_path, monkeypatch, capsys):
    f = tmp_path / "area.py"
    f.write_text(BROKEN)
    with ScriptedLLM([{"content": fenced(FIXED)}]) as llm:
        llm_env(monkeypatch, llm)
        code = cli.main(["fix", str(f)])
        first = capsys.readouterr()
        asked = json.dumps(llm.requests)
        assert code == 0, first.err
        assert f.read_text() == BROKEN            # without --apply the file is left alone
        assert "+undefined_height = 4.0  # um" in first.out and first.out.startswith("--- area (now)")
        assert "NameError" in asked and "undefined_height" in asked   # the probe's error reached the programmer
        assert "fixed (the new script ran and was accepted)" in first.err
        assert cli.main(["fix", str(f), "--apply", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["needed"] and out["applied"] == str(f)
    assert f.read_text().strip() == FIXED.strip()
    assert Path(out["old_text_kept"]).read_text() == BROKEN
    assert out["probe"]["exception"]["type"] == "NameError"


def test_fix_of_a_working_script_needs_a_complaint_and_calls_no_llm(tmp_path, monkeypatch, capsys):
    f = tmp_path / "fine.py"
    f.write_text("print('fine')\n")
    with ScriptedLLM([{"content": fenced("print('changed')\n")}]) as llm:
        llm_env(monkeypatch, llm)
        assert cli.main(["fix", str(f), "--apply"]) == 0
        assert llm.requests == []
        assert "nothing to fix" in capsys.readouterr().err
        # with the designer's complaint it is revised
        assert cli.main(["fix", str(f), "--complaint", "print 'changed' instead", "--apply", "--quiet"]) == 0
        assert "The designer says: print 'changed' instead" in json.dumps(llm.requests)
    assert f.read_text().strip() == "print('changed')"


def test_a_keyword_with_its_words_reordered_is_renamed_without_the_llm(tmp_path, monkeypatch, capsys):
    """The real embedded model, asked to fix ``mmi1x2(mmi_length=12.0)``, dropped the 12.0; the
    certain fix keeps the designer's value by renaming the keyword to the parameter made of the
    same words (length_mmi), and the fixed script is probed before it is proposed."""
    f = tmp_path / "mmi.py"
    f.write_text("import gdsfactory as gf\n\nc = gf.components.mmi1x2(mmi_length=12.0)\nprint('xsize', c.xsize)\n")
    with ScriptedLLM([{"content": fenced("print('not this')\n")}]) as llm:
        llm_env(monkeypatch, llm)
        assert cli.main(["fix", str(f), "--apply", "--json"]) == 0
        assert llm.requests == []
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["needed"] and out["applied"] == str(f)
    assert "mmi_length" in out["probe"]["exception"]["message"]
    assert "renamed mmi_length= to length_mmi=" in out["message"]
    assert "gf.components.mmi1x2(length_mmi=12.0)" in f.read_text()
    assert out["execution"]["ok"] and "xsize 32.0" in out["execution"]["stdout"]   # the 12 um body + two 10 um tapers


def test_an_empty_proposal_is_never_a_fix(tmp_path, monkeypatch, capsys):
    f = tmp_path / "area.py"
    f.write_text(BROKEN)
    with ScriptedLLM([{"content": "I cannot help with that."}]) as llm:
        llm_env(monkeypatch, llm)
        assert cli.main(["fix", str(f), "--apply", "--max-rounds", "1"]) == 1
    assert f.read_text() == BROKEN and "NOT fixed" in capsys.readouterr().err


def test_fix_that_does_not_pass_is_not_applied(tmp_path, monkeypatch, capsys):
    f = tmp_path / "area.lym"
    original = LYM.format(text=BROKEN)
    f.write_text(original)
    with ScriptedLLM([{"content": fenced(STILL_BROKEN)}]) as llm:
        llm_env(monkeypatch, llm)
        assert cli.main(["fix", str(f), "--apply", "--max-rounds", "1"]) == 1
    err = capsys.readouterr().err
    assert "NOT fixed" in err and "not applied" in err
    assert f.read_text() == original


def test_fix_apply_to_a_lym_keeps_the_macro_settings(tmp_path, monkeypatch, capsys):
    f = tmp_path / "area.lym"
    f.write_text(LYM.format(text=BROKEN.replace("'", "&apos;")))
    fixed = FIXED.replace("print(", "print(1 < 2, ")
    with ScriptedLLM([{"content": fenced(fixed)}]) as llm:
        llm_env(monkeypatch, llm)
        assert cli.main(["fix", str(f), "--apply", "--quiet"]) == 0
    text = f.read_text()
    assert "<description>area demo</description>" in text and "<interpreter>python</interpreter>" in text
    assert "1 &lt; 2" in text
    assert explain_fix.read_script(f) == (fixed, "area")


def test_fix_message_interactive_probe_undo_and_fixed_run(monkeypatch):
    """The engine's `fix` message in interactive mode asks KLayout (here a recording bridge) to run the
    script, undoes a probe that changed the layout, and runs the fixed script there."""
    from pic_copilot.frontends.engine import run_job

    calls = []

    class Bridge:
        def run_code(self, code):
            calls.append(("run_code", code))
            if "undefined_height" in code and "= 4.0" not in code:
                return {"ok": False, "exception": {"type": "NameError", "traceback": "",
                                                   "message": "name 'undefined_height' is not defined"}}
            return {"ok": True, "changes": {"changed": True}, "undoable": True, "stdout": "ok"}

        def insert_files(self, paths):
            raise AssertionError("no gdsfactory here")

        def undo(self):
            calls.append(("undo", None))
            return {"ok": True}

    events = []
    with ScriptedLLM([{"content": fenced(FIXED)}]) as llm:
        monkeypatch.setenv("PIC_COPILOT_BASE_URL", llm.base_url)
        ans = run_job({"type": "fix", "id": "f1", "code": BROKEN, "name": "area", "mode": "interactive"},
                      bridge=Bridge(), on_event=events.append, timeout_s=120)
        # a probe that runs and changes the layout is undone; with no complaint nothing else happens
        ok = run_job({"type": "fix", "id": "f2", "code": "print('fine')\n", "name": "fine", "mode": "interactive"},
                     bridge=Bridge(), timeout_s=60)
    assert ans["type"] == "fix_result" and ans["ok"] and ans["needed"], ans
    assert "undefined_height = 4.0" in ans["script"] and "+undefined_height = 4.0" in ans["diff"]
    assert calls[0] == ("run_code", BROKEN) and ("run_code", ans["script"]) in calls, calls
    assert any(e["type"] == "progress" and "area failed" in e["message"] for e in events)
    assert ok["type"] == "fix_result" and ok["ok"] and not ok["needed"] and ok["diff"] == ""
    assert calls[-2:] == [("run_code", "print('fine')\n"), ("undo", None)]


def test_fix_message_bad_mode_is_a_bad_request():
    from pic_copilot.frontends.engine import run_job

    ans = run_job({"type": "fix", "id": "f3", "code": "print(1)", "mode": "cloud"}, timeout_s=10)
    assert ans["type"] == "error" and ans["kind"] == "bad-request" and "cloud" in ans["message"]
