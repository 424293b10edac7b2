"""Static checks: pyflakes, the API check against the symbol index, the custom check library."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from pathlib import Path

from pic_copilot.agents import fixes
from pic_copilot.checks import static as checks
from pic_copilot.llm.agent import extract_code, parse_json


class FakeIndex:
    names = {"gdsfactory", "gdsfactory.components", "gdsfactory.components.mmi1x2", "gdsfactory.Component",
             "gdsfactory.Component.write_gds", "gdsfactory.gpdk"}

    def has(self, n):
        return n in self.names

    def lookup(self, n):
        if n == "gdsfactory.components.mmi1x2":
            return {"name": n, "kind": "function", "signature": f"{n}(width_mmi: float = 2.5) -> Component"}
        if n == "gdsfactory.Component":
            return {"name": n, "kind": "class", "signature": "Component()"}
        return {"name": n, "kind": "function"} if n in self.names else None

    def params(self, n):
        return {"gdsfactory.components.mmi1x2": ["width_mmi", "length_mmi"],
                "gdsfactory.Component.write_gds": ["gdspath", "with_metadata"]}.get(n, [] if n in self.names else None)

    def signature(self, n):
        return ""

    def suggest(self, n):
        return ["gdsfactory.Component.write_gds"] if n.endswith("write_gds") else []


def run_script(tmp_path: Path, code: str, timeout: int = 60) -> subprocess.CompletedProcess:
    """Run ``code`` as script.py in ``tmp_path`` with the engine's Python (what the sandbox runs)."""
    (tmp_path / "script.py").write_text(code)
    return subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True, text=True, timeout=timeout)


def last_exception(run: subprocess.CompletedProcess, kind: str) -> dict:
    """The exception record a failed run's last stderr line shows (as the execution report keeps it)."""
    return {"type": kind, "message": run.stderr.strip().splitlines()[-1]}


def run_in_klayout(tmp_path: Path, body: str) -> str:
    """``body`` run by the real KLayout application (0.28.5) on a new layout with ``layout``,
    ``cell`` (TOP) and a 1 nm dbu, as an open-layout script sees them; its printout and errors."""
    import shutil

    klayout = shutil.which("klayout")
    if klayout is None:
        pytest.skip("the KLayout application is not installed")
    script = tmp_path / "run_in_klayout.py"
    script.write_text("import pya\nlayout = pya.Layout()\nlayout.dbu = 0.001\ncell = layout.create_cell('TOP')\n" + body)
    run = subprocess.run([klayout, "-b", "-r", str(script)], capture_output=True, text=True, timeout=120)
    return run.stdout + run.stderr


def check_run_repair(tmp_path: Path, repair, code: str, fails_with: str, kind: str, fixed_has: str, prints: str | None,
                     other_messages: tuple[str, ...], timeout: int = 60):
    """A run-proven repair, end to end: ``code`` fails with ``fails_with`` (an exception of ``kind``),
    the repair of that run's report writes ``fixed_has``, the fixed script runs (and prints
    ``prints``), and reports with ``other_messages`` change nothing. Returns the failing run's report."""
    from pic_copilot.execution.report import ExecutionReport

    run = run_script(tmp_path, code, timeout=timeout)
    assert run.returncode != 0 and fails_with in run.stderr, run.stderr[-400:]
    rep = ExecutionReport(ok=False, stderr=run.stderr, exception=last_exception(run, kind))
    fixed, done = repair(code, rep)
    assert fixed_has in fixed and done, fixed
    run = run_script(tmp_path, fixed, timeout=timeout)
    assert run.returncode == 0 and (prints is None or run.stdout.strip() == prints), run.stderr[-800:]
    for message in other_messages:
        other = ExecutionReport(ok=False, stderr=rep.stderr, exception={"type": kind, "message": message})
        assert repair(code, other) == (code, []), message
    return rep


def test_pyflakes_findings():
    f = checks.pyflakes_check("import os\nprint(undefined_thing)\n")
    kinds = {x["code"]: x["severity"] for x in f}
    assert kinds["UndefinedName"] == "error" and kinds["UnusedImport"] == "warning"
    assert any("undefined_thing" in x["message"] for x in f)
    # the bridge's globals are defined in interactive mode
    f2 = checks.pyflakes_check("cell.shapes(layout.layer(1, 0))\nprint(dbu)\n", checks.BRIDGE_GLOBALS)
    assert not [x for x in f2 if x["severity"] == "error"]


def test_syntax_error_short_circuits():
    found, _ = checks.static_findings("def f(:\n  pass\n", "sandbox")
    assert found[0]["kind"] == "syntax" and found[0]["severity"] == "error"
    assert "json.dump" not in found[0]["message"]


def test_json_written_by_hand_in_an_f_string_is_answered_with_json_dump():
    """A real a20 run wrote JSON text with f-string braces for nine candidates, each a SyntaxError
    ("single '}' is not allowed"): the message names the way that cannot go wrong."""
    code = "x = 1\nwith open('a.json', 'w') as f:\n    f.write(f'{{\"layers\": {x}}')\n"
    found, _ = checks.static_findings(code, "sandbox")
    assert found[0]["kind"] == "syntax" and "json.dump(data, f)" in found[0]["message"]
    assert "json.dump" not in checks.static_findings("x = f'{a'\n", "sandbox")[0][0]["message"]


def test_api_check_unknown_function_attribute_and_kwarg():
    code = ("import gdsfactory as gf\nc = gf.components.mmi1x2(width_mmi=3, lenght_mmi=5)\n"
            "gf.write_gds(c, 'a.gds')\nc.write_gds('a.gds', with_metadata=False)\nc.write_gdss('b.gds')\n"
            "import numpy as np\nnp.not_checked()\n")
    f = checks.api_check(code, FakeIndex())
    msgs = [x["message"] for x in f]
    assert any("gdsfactory.write_gds" in m and "Did you mean: gdsfactory.Component.write_gds" in m for m in msgs)
    assert any("lenght_mmi" in m and "length_mmi" in m for m in msgs)
    assert any("write_gdss" in m for m in msgs)
    assert not any("numpy" in m or "np." in m for m in msgs)
    assert not any("'with_metadata'" in m for m in msgs)


def test_a_keyword_with_its_words_reordered_is_found_and_renamed():
    code = "import gdsfactory as gf\nc = gf.components.mmi1x2(mmi_length=5, width_mmi=3, lenght_taper=2)\n"
    f = checks.api_check(code, FakeIndex())
    by_kw = {x["keyword"]: x for x in f if x.get("keyword")}
    assert by_kw["mmi_length"]["same_words"] == ["length_mmi"]
    assert by_kw["mmi_length"]["suggestions"][0] == "length_mmi"
    assert by_kw["lenght_taper"]["same_words"] == []          # a typo is a suggestion, never renamed
    fixed, done = fixes.rename_reordered_keywords(code, f)
    assert "mmi1x2(length_mmi=5, width_mmi=3, lenght_taper=2)" in fixed and done == ["renamed mmi_length= to length_mmi="]
    # never when the real name is passed as well, or when two parameters share the words
    both = "import gdsfactory as gf\nc = gf.components.mmi1x2(mmi_length=5, length_mmi=3)\n"
    assert fixes.rename_reordered_keywords(both, checks.api_check(both, FakeIndex()))[1] == []
    assert fixes.rename_reordered_keywords(code, [{**by_kw["mmi_length"], "same_words": ["a_b", "b_a"]}])[1] == []
    assert not checks.same_words("width", "width") and not checks.same_words("gap", "pag")


def test_keywords_a_function_hands_on_through_kwargs_are_checked_against_the_callee():
    """gf.cross_section.rib(**kwargs) passes them to cross_section(): a keyword neither takes
    (width_slab, written in three rounds of a real run) is found before the script runs."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = "import gdsfactory as gf\nxs = gf.cross_section.rib(width=0.5, width_slab=4, cladding_offsets=(1.75,))\n"
    f = [x for x in checks.api_check(code, idx) if x.get("keyword")]
    assert [x["keyword"] for x in f] == ["width_slab"], f
    assert "sections" in f[0]["message"] and "cladding_layers" in f[0]["message"]   # the real names, from both
    assert checks.forwarded_parameters("gdsfactory.cross_section.rib") >= {"width", "sections", "cladding_layers"}
    assert checks.forwarded_parameters("no_such_module.fn") is None


def test_a_bare_layer_number_in_gdsfactory_becomes_a_layer_tuple(tmp_path):
    """gdsfactory reads layer=10 as a layer index (it lands on another GDS layer); the fix writes
    (10, 0), and the label really is on 10/0 afterwards. KLayout's keyword forms stay."""

    code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.Component('T')\n"
            "c.add_label('GC0', position=(0, 0), layer=10)\nc.write_gds('t.gds')\n"
            "import klayout.db as kdb\nly = kdb.Layout()\nly.read('t.gds')\n"
            "print(sorted(str(ly.get_info(i)) for i in ly.layer_indexes()))\n")
    fixed, what = fixes.fix_gdsfactory_int_layers(code, "sandbox")
    assert "layer=(10, 0)" in fixed and what
    out = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().endswith("['10/0']"), out.stdout + out.stderr
    keep = "import gdsfactory as gf\nimport klayout.db as kdb\nli = kdb.LayerInfo(layer=3, datatype=0)\n"
    assert fixes.fix_gdsfactory_int_layers(keep, "sandbox") == (keep, None)
    divided = code.replace("layer=10)", "layer=10/0)").replace("(0, 0)", "(0, 0), text='µ'")  # 10/0 is a division
    fixed, what = fixes.fix_gdsfactory_int_layers(divided, "sandbox")
    assert "layer=(10, 0))" in fixed and what.startswith("wrote layer=10/0 as layer=(10, 0)"), (fixed, what)
    slab = "import gdsfactory as gf\nxs = gf.cross_section.rib2(layer=1/0, layer_slab=2)\n"
    assert "layer=(1, 0), layer_slab=(2, 0))" in fixes.fix_gdsfactory_int_layers(slab, "sandbox")[0]


def test_a_counter_that_was_never_started_is_started_at_zero():
    from pic_copilot.checks.static import pyflakes_check

    code = "n_tiles = 4\n# count the bad ones\nfor i in range(n_tiles):\n    if i > 1:\n        failing += 1\nprint(failing)\n"
    fixed, started = fixes.init_counters(code, pyflakes_check(code))
    assert started == ["failing"] and "failing = 0\n# count the bad ones\nfor i" in fixed
    assert not [f for f in pyflakes_check(fixed) if f["severity"] == "error"]
    assert fixes.init_counters(fixed, pyflakes_check(fixed)) == (fixed, [])
    inside = "def f():\n    total += 1\n"      # a function's own name: not guessed
    assert fixes.init_counters(inside, pyflakes_check(inside)) == (inside, [])


def test_an_undefined_unpacking_copied_from_a_signature_is_removed(tmp_path):
    """``**kwargs`` with no kwargs in the script: the argument goes, the named ones stay, and the
    fixed script runs; a name the script defines somewhere is left alone."""
    from pic_copilot.checks.static import pyflakes_check

    code = ('import gdsfactory as gf\ngf.gpdk.PDK.activate()\n'
            'xs = gf.cross_section.rib2(width=0.5,  # µm core\n    width_slab=4.0, **kwargs)\n'
            'c = gf.components.straight(length=3, cross_section=xs, *args)\nprint(c.settings["length"])\n')
    fixed, removed = fixes.drop_undefined_unpacking(code, pyflakes_check(code))
    assert removed == ["removed **kwargs (undefined here)", "removed *args (undefined here)"]
    assert "width_slab=4.0)" in fixed and "cross_section=xs)" in fixed
    assert not [f for f in pyflakes_check(fixed) if f["severity"] == "error"]
    out = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "3", out.stdout + out.stderr
    only = "x = print(**opts)\n"
    assert fixes.drop_undefined_unpacking(only, pyflakes_check(only))[0] == "x = print()\n"
    defined = "def f(**kw):\n    return kw\nkw = {}\nf(**kw)\n"
    assert fixes.drop_undefined_unpacking(defined, pyflakes_check(defined)) == (defined, [])


def test_pdk_layer_names_written_as_variables_become_layer_names(tmp_path):
    """``layer=wg, layer_slab=SLAB90`` with no such variables: gdsfactory's names as strings, and the
    script draws on the generic PDK's WG (1/0) and SLAB90 (3/0); other undefined names stay errors."""
    from pic_copilot.checks.static import pyflakes_check

    code = ('import gdsfactory as gf\ngf.gpdk.PDK.activate()\n'
            'xs = gf.cross_section.rib2(width=0.5, layer=wg, layer_slab=SLAB90, width_slab=4.0)\n'
            'c = gf.components.straight(length=3, cross_section=xs)\n'
            'print(sorted(f"{l}/{d}" for l, d in c.layers))\n')
    fixed, quoted = fixes.quote_pdk_layer_names(code, pyflakes_check(code))
    assert quoted == ['wrote wg as the PDK layer name "WG"', 'wrote SLAB90 as the PDK layer name "SLAB90"']
    out = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().endswith("['1/0', '3/0']"), out.stdout + out.stderr
    other = "import gdsfactory as gf\nc = gf.components.straight(layer=core_layer)\n"
    assert fixes.quote_pdk_layer_names(other, pyflakes_check(other)) == (other, [])


def test_pip_klayout_names_outside_klayout_db_are_written_from_their_module(tmp_path):
    """pya has ReportDatabase, pip klayout.db has not (it is klayout.rdb); the fixed script runs and
    the static check accepts klayout.rdb (a submodule nobody imported yet is still real)."""
    import subprocess
    import sys

    from pic_copilot.retrieval import api

    code = ("import klayout.db as pya\nly = pya.Layout()\nreport = pya.ReportDatabase('Space')\n"
            "report.create_category('space_0.3')\nreport.save('space.lyrdb')\n")
    fixed, what = fixes.fix_klayout_submodule_names(code, "sandbox")
    assert "report = klayout.rdb.ReportDatabase('Space')" in fixed and fixed.startswith("import klayout.rdb\n") and what
    assert checks.api_check(fixed, api.symbol_index()) == []
    run = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and (tmp_path / "space.lyrdb").exists(), run.stderr
    assert fixes.fix_klayout_submodule_names("import klayout.db as pya\nb = pya.Box(0, 0, 1, 1)\n", "sandbox")[1] is None


def test_the_report_database_module_is_imported_in_a_sandbox_script():
    from pic_copilot.checks.static import pyflakes_check

    code = "import klayout.db as pya\nreport = rdb.ReportDatabase('DRC')\nreport.save('a.lyrdb')\n"
    assert fixes.add_missing_imports(code, pyflakes_check(code), "sandbox")[1] == ["from klayout import rdb"]
    assert fixes.add_missing_imports(code, pyflakes_check(code), "interactive")[1] == []   # KLayout has pya
    frame = "df = pd.DataFrame({'a': [1]})\ndf.to_csv('a.csv', index=False)\n"   # pandas: the engine's venv only
    assert fixes.add_missing_imports(frame, pyflakes_check(frame), "sandbox")[1] == ["import pandas as pd"]
    assert fixes.add_missing_imports(frame, pyflakes_check(frame), "interactive")[1] == []
    # a gdsfactory script's bare PDK (its "from gdsfactory.pdk import PDK" does not exist): the generic PDK
    pdk = "from gdsfactory import Component\nPDK.activate()\nc = Component()\n"
    fixed, added = fixes.add_missing_imports(pdk, pyflakes_check(pdk), "sandbox")
    assert added == ["from gdsfactory.gpdk import PDK"]
    assert subprocess.run([sys.executable, "-c", fixed], capture_output=True, timeout=120).returncode == 0
    assert fixes.add_missing_imports("PDK.activate()\n", pyflakes_check("PDK.activate()\n"), "sandbox")[1] == []


def test_a_function_called_by_its_bare_name_gets_the_import_of_its_one_home(tmp_path):
    """``find_peaks(...)`` with no import (a02, a15 of the advanced tier): SciPy's home only where the
    script runs in the engine's Python; a name that is read, not called (a misspelt loop variable),
    and a name two homes define are left to the revision. Real modules, and the fixed script runs."""
    from pic_copilot.checks.static import pyflakes_check

    peaks = ("import numpy as np\nimport json\nx = np.sin(np.linspace(0, 20, 400))\n"
             "idx, _ = find_peaks(x)\nby = defaultdict(list)\nby['n'].append(len(idx))\n"
             "json.dump({'peaks': len(idx), 'mean': mean([1.0, 2.0])}, open('p.json', 'w'))\n")
    fixed, added = fixes.add_missing_imports(peaks, pyflakes_check(peaks), "sandbox")
    assert sorted(added) == ["from collections import defaultdict", "from scipy.signal import find_peaks",
                             "from statistics import mean"]
    assert pyflakes_check(fixed) == []
    assert subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, timeout=120).returncode == 0
    # KLayout's own Python has no SciPy: an interactive pya script gets only the standard library's homes
    pya_peaks = "import pya\nidx = find_peaks([1, 3, 1])\nby = defaultdict(list)\n"
    assert fixes.add_missing_imports(pya_peaks, pyflakes_check(pya_peaks), "interactive")[1] == \
        ["from collections import defaultdict"]
    # read, not called: an undefined loop variable stays undefined; "pi" is a value, not a function
    loop = "import math\nfor p in range(3):\n    pass\nprint(chain, pi)\n"
    assert fixes.add_missing_imports(loop, pyflakes_check(loop), "sandbox")[1] == []


def test_api_check_uses_runtime_to_confirm_module_objects():
    # gdsfactory.gpdk.PDK is a module-level object, absent from FakeIndex: it must not be flagged
    code = "import gdsfactory as gf\ngf.gpdk.PDK.activate()\n"
    assert checks.api_check(code, FakeIndex()) == []


def test_checks_library_loads_builtin_and_user_checks(tmp_path, monkeypatch):
    user = tmp_path / "mine"
    user.mkdir()
    (user / "no_prints.toml").write_text('name = "no-magic-number"\nforbid = "42"\nprompt = "Do not hard-code 42."\n')
    (user / "review.toml").write_text('[[check]]\nname = "units"\nprompt = "Lengths are in micrometres."\n'
                                      '[[check]]\nname = "bad"\nforbid = "("\nprompt = "x"\n')
    (user / "broken.toml").write_text("name = \n")
    monkeypatch.setenv("PIC_COPILOT_CHECKS", str(user))
    loaded, problems = checks.load_checks()
    names = {c.name for c in loaded}
    assert {"gdsfactory-active-pdk", "write-gds-without-metadata", "no-magic-number", "units"} <= names
    assert any("broken.toml" in p for p in problems) and any("invalid regular expression" in p for p in problems)
    found, review = checks.custom_checks("x = 42\nimport gdsfactory as gf\nc = gf.components.mmi1x2()\n", "sandbox", loaded)
    fnames = {f["check"] for f in found}
    assert "no-magic-number" in fnames and "gdsfactory-active-pdk" in fnames
    assert "units" in {c.name for c in review}
    # mode-restricted check: metadata only matters in interactive mode
    code = "import gdsfactory as gf\ngf.gpdk.PDK.activate()\ngf.components.mmi1x2().write_gds('a.gds')\n"
    assert "write-gds-without-metadata" not in {f["check"] for f in checks.custom_checks(code, "sandbox", loaded)[0]}
    assert "write-gds-without-metadata" in {f["check"] for f in checks.custom_checks(code, "interactive", loaded)[0]}


def test_json_parse_and_code_extraction():
    schema = {"type": "object", "required": ["a"], "properties": {"a": {"type": "string", "enum": ["x", "y"]}}}
    assert parse_json('```json\n{"a": "x"}\n```', schema) == {"a": "x"}
    with pytest.raises(ValueError):
        parse_json('{"a": "z"}', schema)
    with pytest.raises(ValueError):
        parse_json("nope", schema)
    assert extract_code("text\n```python\nprint(1)\n```\nmore") == "print(1)\n"
    assert extract_code("```python\nprint(2)\n") == "print(2)\n"  # unterminated (max_tokens)


def test_missing_conventional_imports_are_added_after_docstring_and_future():
    from pic_copilot.checks.static import pyflakes_check
    from pic_copilot.agents.fixes import add_missing_imports

    code = '"""Doc."""\nfrom __future__ import annotations\nrows = [[1, 2]]\ncsv.writer(open("t.csv", "w")).writerows(rows)\n' \
           'print(np.pi, json.dumps({}), undefined_thing)\n'
    fixed, added = add_missing_imports(code, pyflakes_check(code))
    assert added == ["import csv", "import numpy as np", "import json"]
    assert fixed.splitlines()[:5] == ['"""Doc."""', "from __future__ import annotations", "import csv",
                                      "import numpy as np", "import json"]
    left = [f["message"] for f in pyflakes_check(fixed) if f["severity"] == "error"]
    assert left == ["line 8: undefined name 'undefined_thing'"]   # not a module: the programmer's job
    assert add_missing_imports("print(1)\n", pyflakes_check("print(1)\n")) == ("print(1)\n", [])


def test_a_name_no_star_import_gives_is_undefined():
    """``from gdsfactory import *`` then ``gf.gpdk.PDK.activate()``: pyflakes only says gf "may be
    defined from star imports", so no check saw it and the run failed with "name 'gf' is not defined"
    (29 times in history, m04, a19). A name the star-imported modules do not have is undefined, and
    the import fix adds it; a name they have, or a star import of KLayout's pya, stays a warning."""
    from pic_copilot.checks.static import pyflakes_check

    code = "from gdsfactory import *\ngf.gpdk.PDK.activate()\nc = Component('A')\nx = np.pi\n"
    found = {f["message"]: f["severity"] for f in pyflakes_check(code)}
    assert found["line 2: undefined name 'gf'"] == "error" and found["line 4: undefined name 'np'"] == "error", found
    assert found["line 3: 'Component' may be undefined, or defined from star imports: gdsfactory"] == "warning"
    assert all(f["severity"] == "warning" for f in pyflakes_check("from pya import *\nb = DBox(0, 0, 1, 1)\nx = Foo\n"))
    fixed, added = fixes.add_missing_imports(code, pyflakes_check(code), "sandbox")
    assert added == ["import gdsfactory as gf", "import numpy as np"], added
    assert [f for f in pyflakes_check(fixed) if f["severity"] == "error"] == []


def test_layer_number_passed_as_a_layer_index_is_an_error():
    from pic_copilot.checks.static import layer_number_check

    found = layer_number_check("layer = 20\nbox = pya.DBox(0, 0, 1, 1)\ncell.shapes(layer).insert(box)\n")
    assert len(found) == 1 and found[0]["line"] == 3 and "layout.layer(20, 0)" in found[0]["message"]
    assert layer_number_check("cell.shapes(2).insert(b)")[0]["severity"] == "error"
    # an index from layout.layer() or layer_indexes() is what shapes() takes
    ok = "li = layout.layer(2, 0)\ncell.shapes(li).insert(b)\nfor i in layout.layer_indexes():\n    cell.shapes(i).size()\n"
    assert layer_number_check(ok) == []
    # a name first bound to a number, then to an index, is not a literal
    assert layer_number_check("li = 0\nli = layout.layer(1, 0)\ncell.shapes(li)\n") == []
    # a09 (advanced): the number unpacked with its datatype is one too
    assert len(layer_number_check("LAYER, DATATYPE = 41, 0\ncell.shapes(LAYER).insert(b)\n")) == 1
    # a 0 beside a loop over the layer indexes stands for the loop's index (a real b10 answer)
    b10 = ("def count(cell):\n    return sum(1 for _ in cell.shapes(0).each())\n"
           "for li in layout.layer_indexes():\n    n = count(cell)\n")
    assert "use the layer index of the loop `for li in layout.layer_indexes()`: .shapes(li)" in layer_number_check(b10)[0]["message"]
    assert "layout.layer(0, 0)" in layer_number_check("cell.shapes(0).size()\n")[0]["message"]


def test_a_gds_layer_number_given_as_a_layer_index_becomes_the_layouts_index():
    """Real a09/a24 candidates drew into ``cell.shapes(LAYER)`` with ``LAYER, DATATYPE = 41, 0`` for
    rounds; the fix asks the layout for the index. The fixed script runs on a real layout."""
    from pic_copilot.agents.fixes import fix_gds_layer_numbers_as_indexes as fix

    code = ("LAYER, DATATYPE = 41, 0\nMARK = 99\ncell.shapes(LAYER).insert(pya.DBox(0, 0, 80, 80))\n"
            "cell.shapes(MARK).insert(pya.DBox(0, 0, 1, 1))\nprint(cell.shapes(7).size())\n")
    fixed, what = fix(code, "interactive")
    assert fixed == ("LAYER, DATATYPE = 41, 0\nMARK = 99\ncell.shapes(layout.layer(LAYER, DATATYPE)).insert(pya.DBox(0, 0, 80, 80))\n"
                     "cell.shapes(layout.layer(MARK, 0)).insert(pya.DBox(0, 0, 1, 1))\nprint(cell.shapes(layout.layer(7, 0)).size())\n")
    assert "layout.layer(LAYER, DATATYPE)" in what
    import klayout.db as kdb

    layout = kdb.Layout()
    cell = layout.create_cell("TOP")
    exec(compile(fixed, "<fixed>", "exec"), {"layout": layout, "cell": cell, "pya": kdb})
    drawn = {f"{layout.get_info(li).layer}/{layout.get_info(li).datatype}": cell.shapes(li).size() for li in layout.layer_indexes()}
    assert drawn == {"41/0": 1, "99/0": 1, "7/0": 0}, drawn
    # index 0, an index from the layout, a script with two layouts, a sandbox script with none: unchanged
    for c, mode in (("cell.shapes(0).insert(b)\n", "interactive"), ("li = layout.layer(1, 0)\ncell.shapes(li)\n", "interactive"),
                    ("import pya\na = pya.Layout()\nb = pya.Layout()\na.top_cell().shapes(3)\n", "sandbox"),
                    ("c.shapes(3)\n", "sandbox")):
        assert fix(c, mode) == (c, None), c
    made = "import pya\nly = pya.Layout()\ntop = ly.create_cell('T')\ntop.shapes(3).insert(pya.Box(0, 0, 5, 5))\n"
    assert fix(made, "sandbox")[0] == made.replace("shapes(3)", "shapes(ly.layer(3, 0))")


def test_layer_numbers_given_to_layout_layer_methods_become_indexes():
    """A real a13 candidate ended with ``layout.delete_layer(99)``: an internal error in KLayout, as the
    layout has no index 99. ``(layer, datatype)`` written as two arguments where one index goes, and
    both layers of ``move_layer``, are the same mistake. The fixed script runs on a real layout."""
    from pic_copilot.agents.fixes import fix_gds_layer_numbers_as_indexes as fix
    from pic_copilot.checks.static import layer_number_check
    import klayout.db as kdb

    code = ("layout.delete_layer(99)\nlayout.move_layer(1, 2)\nprint(cell.shapes(3, 0).size())\n"
            "print(cell.dbbox_per_layer(2))\n")
    assert [f["line"] for f in layer_number_check(code)] == [1, 2, 2, 3, 4]
    assert "layout.layer(3, 0)" in layer_number_check(code)[3]["message"]
    fixed, what = fix(code, "interactive")
    assert fixed == ("layout.delete_layer(layout.layer(99, 0))\nlayout.move_layer(layout.layer(1, 0), layout.layer(2, 0))\n"
                     "print(cell.shapes(layout.layer(3, 0)).size())\nprint(cell.dbbox_per_layer(layout.layer(2, 0)))\n"), fixed
    assert what
    layout = kdb.Layout()
    cell = layout.create_cell("TOP")
    for ld in ((1, 0), (99, 0)):
        cell.shapes(layout.layer(*ld)).insert(kdb.Box(0, 0, 100, 100))
    exec(compile(fixed, "<fixed>", "exec"), {"layout": layout, "cell": cell, "print": lambda *a: None})
    left = {f"{layout.get_info(li).layer}/{layout.get_info(li).datatype}": cell.shapes(li).size()
            for li in layout.layer_indexes()}
    assert left == {"1/0": 0, "2/0": 1, "3/0": 0}, left
    # two layers unpacked together are two layers, not a layer and its datatype
    pair = "SRC, DST = 1, 2\nlayout.move_layer(SRC, DST)\n"
    assert fix(pair, "interactive")[0] == "SRC, DST = 1, 2\nlayout.move_layer(layout.layer(SRC, 0), layout.layer(DST, 0))\n"
    # an index variable, a name bound twice and a wrong count of arguments are left alone
    for c in ("for li in layout.layer_indexes():\n    layout.delete_layer(li)\n",
              "a = 1\na = layout.layer(1, 0)\nlayout.delete_layer(a)\n", "layout.move_layer(1)\n"):
        assert fix(c, "interactive") == (c, None) and layer_number_check(c) == [], c


def test_interactive_script_that_opens_its_own_layout_edits_the_open_one():
    from pic_copilot.agents.fixes import apply_fixes, drop_reopened_layout

    code = ('import klayout\nlayout = klayout.db.Layout.read("unsaved.gds")\ncell = layout.top_cell()\n'
            'cell.shapes(layout.layer(2, 0)).insert(klayout.db.DBox(0, 0, 10, 5))\n')
    out, what = drop_reopened_layout(code, "interactive", "add a 10 x 5 um box on layer 2/0")
    assert what and "Layout.read" not in out and "top_cell" not in out
    out, fixed = apply_fixes(out, "interactive")
    assert "klayout" not in out and "pya.DBox(0, 0, 10, 5)" in out and fixed
    # a file the designer names is a real input; sandbox scripts and gdsfactory scripts are left alone
    named = 'layout = pya.Layout()\nlayout.read("chip.gds")\ncell = layout.top_cell()\n'
    assert drop_reopened_layout(named, "interactive", "count the shapes of chip.gds") == (named, None)
    assert drop_reopened_layout(code, "sandbox", "add a box")[1] is None
    gf = "import gdsfactory as gf\nlayout = pya.Layout()\n"
    assert drop_reopened_layout(gf, "interactive", "x")[1] is None


def test_open_layout_fixes_stay_away_from_a_script_that_runs_in_the_sandbox():
    """A real run (request 'draw a 10 um x 4 um rectangle ... using the klayout python module and save
    the layout as rect.gds', interactive mode): the model wrote a standalone `from klayout import *`
    script; the fixes removed its `layout = Layout()` and its cell because the open layout is
    `layout`, but the klayout import sent the script to the sandbox, where no open layout exists:
    NameError in all nine candidates."""
    from pic_copilot.agents.fixes import draw_in_the_active_cell, drop_reopened_layout

    code = ('from klayout import *\nlayout = Layout()\ncell = layout.create_cell("TOP")\n'
            'cell.shapes(layout.layer(3, 0)).insert(DBox(5, 5, 15, 9))\nlayout.write("out.gds")\n')
    assert drop_reopened_layout(code, "interactive", "draw a box on layer 3/0") == (code, None)
    assert draw_in_the_active_cell(code, "interactive", "draw a box on layer 3/0") == (code, None)
    # a pya script that writes the layout it builds to the file the designer asked for: a deliverable
    named = 'layout = pya.Layout()\ncell = layout.create_cell("TOP")\nlayout.write("rect.gds")\n'
    assert drop_reopened_layout(named, "interactive", "draw a box and save the layout as rect.gds") == (named, None)
    # the same script writing nothing the designer named still edits the open layout instead
    unnamed = named.replace("rect.gds", "tmp.gds")
    assert drop_reopened_layout(unnamed, "interactive", "draw a box on layer 3/0")[1]


def test_a_layer_the_request_names_must_be_in_a_pya_script():
    from pic_copilot.agents.evaluator import missing_layers, requested_layers

    assert requested_layers("add a box on layer 2/0 and copy it to layers 1/0 and 41/0") == [(2, 0), (1, 0), (41, 0)]
    assert requested_layers('write {"layer/datatype": count}, e.g. {"1/0": 3}') == []   # a format, not a layer
    # a list after a colon, and layers defined by an equals sign, are requested layers; each must then
    # hold shapes where the sentence makes them
    booleans = ("In the current cell, create flat result layers: 3/0 = silicon AND mask, 4/0 = silicon NOT mask, "
                "and 6/0 = the mask grown by 0.5 um minus the silicon.")
    assert requested_layers(booleans) == [(3, 0), (4, 0), (6, 0)]
    from pic_copilot.agents import contract_words
    assert contract_words.produced_layers(booleans) == ["3/0", "4/0", "6/0"]
    assert requested_layers("if n == 2/0 then") == [] and requested_layers("x = 1/0") == []
    # "layer 2/0" written as layer 20 (a real b07 run) is sent back with the layout.layer form
    dec = missing_layers("Add a rectangle on layer 2/0", "L, D = 20, 0\ncell.shapes(layout.layer(L, D)).insert(b)\n")
    assert dec and dec["decision"] == "revise" and "layout.layer(2, 0)" in dec["instructions"]
    assert missing_layers("Add a rectangle on layer 2/0", "li = layout.layer(2, 0)\n") is None
    # the designer's sentence that names it says what goes there (real a06 revisions, told only the
    # numbers, twice returned the script without the markers it asked for on 99/0)
    dec = missing_layers("Check widths on layer 1/0. Show the errors as markers: the narrow parts on "
                         "layer 99/0. Write n.json.", "li = layout.layer(1, 0)\n")
    assert '99/0 ("the narrow parts on layer 99/0.")' in dec["instructions"], dec["instructions"]
    assert missing_layers("count shapes on layer 2/0", "want = '2/0'\n") is None
    # gdsfactory scripts name layers through cross-sections: not read
    assert missing_layers("a straight on the waveguide layer (1/0)", "import gdsfactory as gf\n") is None
    # two integers somewhere are not a layer: a real b12 run grew 1/0 back onto 1/0, and `dbu ** 2`
    # supplied the 2 of "2/0"; the numbers must stand together (tuple, call arguments, one name each)
    b12 = ("SRC = (1, 0)\nr = pya.Region(cell.begin_shapes_rec(layout.layer(*SRC))).sized(1000)\n"
           "cell.shapes(layout.layer(*SRC)).insert(r)\nprint(r.area() * dbu ** 2)\n")
    prompt = "Put on layer 2/0 of the current cell the shapes of layer 1/0 grown by 1 um"
    assert "2/0" in missing_layers(prompt, b12)["instructions"]
    for ok in ("SRC, DST = (1, 0), (2, 0)\n", "L = 2\nD = 0\nli = layout.layer(L, D)\nsrc = layout.layer(1, 0)\n",
               "li = layout.layer(pya.LayerInfo(layer=2, datatype=0))\nsrc = layout.layer(1, 0)\n"):
        assert missing_layers(prompt, ok) is None, ok
    # a layer named only in what the script prints is not used: a real b11 script summed the area of
    # every layer, printed "Layer 1/0 area: ..." and was accepted; a test of both numbers is a use
    area = "What is the area of layer 1/0 in the current cell?"
    every = ("a = 0\nfor li in layout.layer_indexes():\n    a += pya.Region(cell.begin_shapes_rec(li)).area()\n"
             "print(f'Layer 1/0 area: {a * dbu ** 2} um2')\n")
    assert "1/0" in missing_layers(area, every)["instructions"]
    tested = every.replace("    a += ", "    if layout.get_info(li).layer == 1 and layout.get_info(li).datatype == 0:\n"
                                        "        a += ")
    assert missing_layers(area, tested) is None
    assert missing_layers(area, "KEY = '1/0'\nprint(KEY)\n") is None     # a name set to the text is a use


def test_parameters_set_but_never_used_send_the_script_back():
    from pic_copilot.agents.evaluator import unused_parameters

    # a real b08 answer: the pad's size and layer are set, nothing draws the pad
    code = ('PAD = "PAD"\nPAD_SIZE = (100, 100)\nPAD_LAYER = (10, 0)\nlayout.create_cell(PAD)\n'
            'cell.insert(pya.DCellInstArray(layout.cell(PAD).cell_index(), pya.DTrans()))\n')
    dec = unused_parameters("", code)
    assert dec and "PAD_SIZE, PAD_LAYER" in dec["instructions"]
    assert unused_parameters("", "W = 2\nL = 10\nprint(W * L)\n") is None
    assert unused_parameters("", "x = compute()\n") is None   # only literal parameter blocks count


def test_a_copied_parameter_the_request_never_speaks_of_is_dropped_not_sent_back():
    from pic_copilot.agents.evaluator import unused_parameters
    from pic_copilot.agents.fixes import drop_foreign_parameters

    # a real b10 round: MARGIN came with a keep-out recipe into a shape count; the run was right
    request = ("Count the shapes per layer in the current cell only and write them to "
               "layer_counts.json, as {\"layer/datatype\": count}.")
    code = ('import json\nOUT = "layer_counts.json"\nMARGIN = 2.0  # um\ncounts = {}\n'
            'with open("layer_counts.json", "w") as f:\n    json.dump(counts, f)\n')
    fixed, what = drop_foreign_parameters(code, request)
    assert "MARGIN" not in fixed and "OUT =" not in fixed and "MARGIN" in what and "OUT" in what
    assert unused_parameters(request, fixed) is None
    # what the request speaks of stays, and its hint says that part is not done (b08)
    pad = "Create a new cell named PAD holding a 100 x 100 um square on layer 10/0"
    code = 'PAD_SIZE = (100, 100)\nLAYER = (10, 0)\nlayout.create_cell("PAD")\n'
    assert drop_foreign_parameters(code, pad) == (code, None)
    # by a number of the request, or by a requested text the script writes nowhere else
    assert drop_foreign_parameters("GAP = 2.0\nprint(1)\n", request + " Keep 2 um free.")[1] is None
    assert drop_foreign_parameters('F = "layer_counts.json"\nprint(1)\n', request)[1] is None
    # a parameter the script reads, a computed value and a private name are not parameters to drop
    assert drop_foreign_parameters("MARGIN = 2.0\nprint(MARGIN)\nx = f()\n_K = 3\n", request)[1] is None


def test_the_one_layer_a_request_names_replaces_the_examples_layer():
    from pic_copilot.agents.fixes import bind_requested_layer

    # the recipe's parameter block, kept by the model for "on layer 2/0" (real b07 runs)
    code = "LAYER, DATATYPE = 20, 0\nli = layout.layer(LAYER, DATATYPE)\ncell.shapes(li).insert(pya.DBox(0, 0, 10, 5))\n"
    out, what = bind_requested_layer(code, "Add a 10 x 5 um rectangle on layer 2/0")
    assert what and out.startswith("LAYER, DATATYPE = 2, 0\n")
    # left alone: the requested layer is used, two layers are named, a layer comes from a loop, gdsfactory
    assert bind_requested_layer("li = layout.layer(2, 0)\n", "on layer 2/0")[1] is None
    assert bind_requested_layer(code, "copy layer 1/0 to layer 2/0")[1] is None
    assert bind_requested_layer("for l in (1, 2):\n    layout.layer(l, 0)\n", "on layer 2/0")[1] is None
    assert bind_requested_layer("import gdsfactory as gf\nlayout.layer(20, 0)\n", "on layer 2/0")[1] is None


def test_a_new_unplaced_cell_nobody_asked_for_becomes_the_active_cell():
    from pic_copilot.agents.fixes import draw_in_the_active_cell

    req = "draw a 10 um x 5 um rectangle on layer 1/0 with its lower-left corner at the origin"
    code = 'new = layout.create_cell("NEW_LAYER")\nnew.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 10, 5))\n'
    out, what = draw_in_the_active_cell(code, "interactive", req)   # a real GUI answer
    assert what and out.startswith("new = cell\n")
    shadow = 'cell = layout.create_cell("Rectangle")\ncell.shapes(layout.layer(1, 0)).insert(pya.DBox(0, 0, 10, 5))\n'
    assert "create_cell" not in draw_in_the_active_cell(shadow, "interactive", req)[0]
    # a cell the request asks for, a cell that is placed, a sandbox script: left alone
    assert draw_in_the_active_cell(code, "interactive", "create a new cell with a box")[1] is None
    assert draw_in_the_active_cell(code, "interactive", "make a cell named PAD with a box")[1] is None
    placed = code + "cell.insert(pya.DCellInstArray(new.cell_index(), pya.DTrans()))\n"
    assert draw_in_the_active_cell(placed, "interactive", req)[1] is None
    assert draw_in_the_active_cell(code, "sandbox", req)[1] is None


def test_a_cell_looked_up_by_an_examples_name_becomes_the_active_cell():
    """A real a12 script kept a recipe's ``CELL_NAME = "UNIT"  # None = the active cell`` for "clean up
    layer 1/0 in the current cell" on a layout without UNIT: ``layout.cell`` gave None. The constant the
    script tests against None becomes None, a literal lookup becomes ``cell``; the fixed script runs
    on a real layout. A name the request writes, a cell the layout has, or an incomplete cell list:
    nothing changes."""
    import klayout.db as kdb

    from pic_copilot.agents.fixes import look_up_only_cells_that_exist

    req = "Clean up layer 1/0 in the current cell: merge touching shapes"
    ctx = {"cells": ["TOP", "SUB"], "cell_count": 2}
    code = ('CELL_NAME = "UNIT"            # None = the active cell\n'
            'target = cell if CELL_NAME is None else layout.cell(CELL_NAME)\n'
            'other = layout.cell("PADS")\nprint(target.name, other.name)\n')
    fixed, what = look_up_only_cells_that_exist(code, "interactive", req, ctx)
    assert fixed.startswith("CELL_NAME = None ") and 'other = cell\n' in fixed and "UNIT" in what and "PADS" in what, fixed
    layout = kdb.Layout()
    top = layout.create_cell("TOP")
    out = []
    exec(compile(fixed, "<fixed>", "exec"), {"layout": layout, "cell": top, "print": lambda *a: out.append(a)})
    assert out == [("TOP", "TOP")]
    for request, context in ((req + " of cell UNIT and PADS", ctx), (req, {"cells": ["TOP", "UNIT", "PADS"], "cell_count": 3}),
                             (req, {"cells": ["TOP"], "cell_count": 40}), (req, None)):
        assert look_up_only_cells_that_exist(code, "interactive", request, context) == (code, None), request
    assert look_up_only_cells_that_exist(code, "sandbox", req, ctx) == (code, None)

def test_outputs_named_like_the_example_are_renamed_to_the_requested_names():
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    code = ('import gdsfactory as gf\ncell_name = "RIB2"\nc = gf.Component(cell_name)\n'
            'c.write_gds("rib2.gds", with_metadata=False)\nopen("notes.txt", "w").write("rib2.gds")\n'
            'print(f"wrote rib2.gds for {cell_name}")\n')
    contract = OutputContract(files=["rib.gds"], cells=["RIB"])
    layout = {"path": "rib2.gds", "kind": "layout", "summary": {"top_cells": [{"name": "RIB2"}], "cell_names": ["RIB2"]}}
    report = {"ok": True, "files": [layout, {"path": "notes.txt", "kind": "text"}]}
    fixed, done = fixes.rename_outputs(code, contract, ExecutionReport.from_dict(report))
    assert 'cell_name = "RIB"' not in fixed and "cell_name = 'RIB'" in fixed
    assert "c.write_gds('rib.gds', with_metadata=False)" in fixed
    assert 'print(f"wrote rib2.gds for {cell_name}")' in fixed        # f-strings are left alone
    assert done == ["renamed the output 'RIB2' -> 'RIB' (the name the designer asked for)",
                    "renamed the output 'rib2.gds' -> 'rib.gds' (the name the designer asked for)"]
    # the literal "rib2.gds" written into notes.txt is a whole literal too: it is renamed with the rest
    assert fixed.count("rib2.gds") == 1
    # nothing when the evidence is ambiguous: two unrequested layouts, or the requested one was written
    two = {**report, "files": [layout, {**layout, "path": "other.gds"}]}
    assert "rib2.gds" not in fixes.output_renames(contract, ExecutionReport.from_dict(two))
    ok = {**report, "files": [{**layout, "path": "rib.gds"}]}
    assert "rib.gds" not in fixes.output_renames(contract, ExecutionReport.from_dict(ok)).values()
    # a name the script builds at run time has no literal to rename
    assert fixes.rename_outputs('n = 2\nopen(f"rib{n}.gds", "w")\n', OutputContract(files=["rib.gds"]),
                                ExecutionReport(files=[{"path": "rib2.gds"}])) == ('n = 2\nopen(f"rib{n}.gds", "w")\n', [])


def test_a_layer_a_factory_default_drew_instead_of_the_requested_one_is_bound():
    """rib2(width_slab=4) drew its slab on SLAB90 (3/0) for "a slab on layer 2/0" in a real m01 run:
    the run proves which default to override, and only that one parameter is set."""
    from pic_copilot.agents import retrieve
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    index = retrieve.symbol_index()
    code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\n"
            "xs = gf.cross_section.rib2(width=0.5, width_slab=4)\n"
            "c = gf.components.straight(length=30, cross_section=xs)\nc.write_gds('rib.gds')\n")

    def ran(*layers):
        summary = {"layers": [{"layer": int(l.split("/")[0]), "datatype": int(l.split("/")[1]), "shapes": 2} for l in layers]}
        return ExecutionReport.from_dict({"ok": True, "files": [{"path": "rib.gds", "kind": "layout", "summary": summary}]})

    contract = OutputContract(files=["rib.gds"], layers=["1/0", "2/0"])
    fixed, done = fixes.bind_default_layer(code, contract, ran("1/0", "3/0"), index)
    assert "gf.cross_section.rib2(width=0.5, width_slab=4, layer_slab=(2, 0))" in fixed
    assert done == ["rib2(layer_slab=(2, 0)): its default drew 3/0 where the designer asked for 2/0"]
    # the requested layers are there, or the stray layer is no factory's default, or the script sets it: nothing
    assert fixes.bind_default_layer(code, contract, ran("1/0", "2/0"), index) == (code, [])
    assert fixes.bind_default_layer(code, contract, ran("1/0", "77/0"), index) == (code, [])
    named = code.replace("width_slab=4)", 'width_slab=4, layer_slab="SLAB90")')   # a PDK name written out
    fixed, done = fixes.bind_default_layer(named, contract, ran("1/0", "3/0"), index)
    assert "rib2(width=0.5, width_slab=4, layer_slab=(2, 0))" in fixed and done[0].startswith("rib2(layer_slab=(2, 0)): its layer")
    # the same name elsewhere names the same layer (a real m01 printout looked its slab up by it)
    printout = named + "slab = [s for s in xs.sections if s.layer == 'SLAB90'][0]\nprint('SLAB90 slab')\n"
    fixed, _ = fixes.bind_default_layer(printout, contract, ran("1/0", "3/0"), index)
    assert "if s.layer == (2, 0)][0]" in fixed and "print('SLAB90 slab')" in fixed, fixed
    labelled = OutputContract(files=["rib.gds"], layers=["1/0", "2/0"], labels={"2/0": ["SLAB"]})
    assert fixes.bind_default_layer(code, labelled, ran("1/0", "3/0"), index) == (code, [])   # 2/0 is for labels
    other = code.replace("width_slab=4)", 'width_slab=4, layer_slab="DEEP_ETCH")')
    assert fixes.bind_default_layer(other, contract, ran("1/0", "3/0"), index) == (other, [])


def test_a_csv_header_kept_from_an_example_is_renamed_to_the_requested_one():
    """A real m05 run wrote "wavelength_nm, bar, cross" for "columns wavelength_um, T_bar, T_cross"
    in every round: names that share a word one to one, in order, are renamed where they form the
    header; a port named "bar" elsewhere stays."""
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    contract = OutputContract(files=["mzi.csv"], csv_columns={"mzi.csv": ["wavelength_um", "T_bar", "T_cross"]})

    def wrote(*header):
        return ExecutionReport.from_dict({"ok": True, "files": [
            {"path": "mzi.csv", "kind": "table", "summary": {"first_row": list(header)}}]})

    code = ('import csv\nbar = s["o1", "bar"]\nwith open("mzi.csv", "w") as f:\n    w = csv.writer(f)\n'
            '    w.writerow(["wavelength_nm", "bar", "cross"])\n')
    fixed, done = fixes.rename_csv_columns(code, contract, wrote("wavelength_nm", "bar", "cross"))
    assert "w.writerow(['wavelength_um', 'T_bar', 'T_cross'])" in fixed and 's["o1", "bar"]' in fixed
    assert done and "'bar' -> 'T_bar'" in done[0]
    line = 'open("mzi.csv", "w").write("wavelength_nm,bar,cross\\n")\n'
    fixed, _ = fixes.rename_csv_columns(line, contract, wrote("wavelength_nm", "bar", "cross"))
    assert fixed == "open(\"mzi.csv\", \"w\").write('wavelength_um,T_bar,T_cross\\n')\n"
    # other counts, names that match nothing or more than one requested name, the right header: nothing
    assert fixes.csv_column_renames(contract, wrote("wl", "bar", "cross")) == {}
    assert fixes.csv_column_renames(contract, wrote("wavelength_nm", "bar")) == {}
    assert fixes.csv_column_renames(contract, wrote("wavelength_um", "T_bar", "T_cross")) == {}
    both = OutputContract(csv_columns={"t.csv": ["T_bar", "T_cross"]})
    assert fixes.csv_column_renames(both, ExecutionReport.from_dict({"ok": True, "files": [
        {"path": "t.csv", "kind": "table", "summary": {"first_row": ["T", "cross"]}}]})) == {}


def test_json_keys_that_carry_a_rules_value_are_renamed_to_the_requested_keys():
    """A real a06 candidate wrote {"width_0.4": n, "space_0.3": n} through f-string keys for
    {"width": n, "space": n}: each written key that shares a word with exactly one missing key is
    renamed where the script makes it, as a dict key or a stored subscript."""
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    contract = OutputContract(files=["drc.json"], json_keys={"drc.json": ["width", "space"]})

    def wrote(*keys):
        return ExecutionReport.from_dict({"ok": True, "files": [
            {"path": "drc.json", "kind": "json", "summary": {"type": "dict", "keys": list(keys)}}]})

    code = ('import json\nW, S = 0.4, 0.3\nwidth = {f"width_{W:g}": 3}\nout = dict(width)\n'
            'out[f"space_{S:g}"] = 5\nlabel = f"width_{W:g} um"\njson.dump(out, open("drc.json", "w"))\n')
    fixed, done = fixes.rename_json_keys(code, contract, wrote("width_0.4", "space_0.3"))
    assert "width = {'width': 3}" in fixed and "out['space'] = 5" in fixed, fixed
    assert 'label = f"width_{W:g} um"' in fixed   # a text that is not a key stays
    assert done and "'width_0.4' -> 'width'" in done[0]
    # keys that name no requested key, or two, or the right keys already: nothing
    assert fixes.json_key_renames(contract, wrote("n_errors", "total")) == {}
    assert fixes.json_key_renames(contract, wrote("width_space", "other")) == {}
    assert fixes.json_key_renames(contract, wrote("width", "space")) == {}
    assert fixes.rename_json_keys(code, contract, wrote("width", "space")) == (code, [])


def _run_in(folder, code: str):
    """Run ``code`` with Python in an emptied ``folder``; the report of the files it wrote (real summaries)."""
    from pic_copilot.execution.report import ExecutionReport
    from pic_copilot.sandbox.summary import summarize_dir

    for old in folder.iterdir():
        old.unlink()
    subprocess.run([sys.executable, "-c", code], cwd=folder, check=True)
    return ExecutionReport.from_dict({"ok": True, "files": summarize_dir(folder)})


def test_a_map_keyed_by_the_named_thing_is_written_as_the_requested_entry(tmp_path):
    """Real b11 answers, asked for 'the area of layer 1/0 ... as {"area_um2": value}', copied a
    per-layer recipe and wrote {"1/0": 323.0, "2/0": 10000.0} or {"1/0": {"area_um2": 323.0, ...}},
    and the 1.5B model kept it two rounds. The entry the request names is what the script writes;
    the fixed scripts run and their real files fit the contract."""
    import json as json_mod
    from pic_copilot.agents import contract_words

    request = 'What is the area of layer 1/0 in the current cell? Write it in µm² to area.json as {"area_um2": value}.'
    contract = contract_words.from_request(request, mode="interactive")

    def run(code: str):
        return _run_in(tmp_path, code)

    per_layer = ('import json\nOUT = "area.json"\nareas = {}\nfor l, a in (("1/0", 323.0), ("2/0", 10000.0)):\n'
                 '    areas[l] = a\nwith open(OUT, "w") as f:\n    json.dump(areas, f, indent=2)\n')
    records = ('import json\nlayers = {"1/0": {"shapes": 6, "area_um2": 323.0}}\n'
               'with open("area.json", "w") as f:\n    json.dump(layers, f)\n')
    for code, written in ((per_layer, "{'area_um2': areas['1/0']}"), (records, "layers['1/0']")):
        fixed, done = fixes.write_the_named_entry(code, contract, run(code), request)
        assert f"json.dump({written}, f" in fixed and done, fixed
        assert contract.check(run(fixed)) == []
        assert json_mod.loads((tmp_path / "area.json").read_text())["area_um2"] == 323.0
    # no written key the request names, two of them, or the requested key already there: nothing
    for other in (request.replace("1/0", "5/0"), request + " Compare with layer 2/0."):
        assert fixes.write_the_named_entry(per_layer, contract, run(per_layer), other) == (per_layer, [])
    right = 'import json\njson.dump({"area_um2": 323.0}, open("area.json", "w"))\n'
    assert fixes.write_the_named_entry(right, contract, run(right), request) == (right, [])


def test_a_requested_map_written_inside_a_wrapper_is_written_alone(tmp_path):
    """A real b10 answer wrote {"cell": "TOP", "layers": {"1/0": 7, ...}} where the request showed
    {"1/0": 3}, and kept its recipe's wrapper three rounds. The one inner object whose keys have the
    example's form is what the script writes; the fixed script runs and its real file fits."""
    from pic_copilot.agents import contract_words

    request = ('Count the shapes per layer and write them to layer_counts.json, as {"layer/datatype": count}, '
               'e.g. {"1/0": 3}.')
    contract = contract_words.from_request(request, mode="interactive")

    def run(code: str):
        return _run_in(tmp_path, code)

    code = ('import json\nstats = {"cell": "TOP", "layers": {"1/0": 7, "2/0": 3}}\n'
            'with open("layer_counts.json", "w") as f:\n    json.dump(stats, f, indent=2)\n')
    assert contract.check(run(code))   # the wrapper breaks the contract
    fixed, done = fixes.write_the_nested_map(code, contract, run(code))
    assert "json.dump(stats['layers'], f, indent=2)" in fixed and done
    assert contract.check(run(fixed)) == []
    # the right object, or two inner objects of that form: nothing
    right = 'import json\njson.dump({"1/0": 7}, open("layer_counts.json", "w"))\n'
    two = 'import json\njson.dump({"a": {"1/0": 7}, "b": {"2/0": 1}}, open("layer_counts.json", "w"))\n'
    for c in (right, two):
        assert fixes.write_the_nested_map(c, contract, run(c)) == (c, [])


def test_a_shape_built_and_never_used_is_inserted_where_the_request_draws_it(tmp_path):
    """A real b08 answer built the PAD cell's square as a pya.DBox, placed the cell, and never
    inserted the square; the contract said only "no shape on layer 10/0". The one shape the script
    builds and never reads is inserted on the one layer whose requested box is missing, in the cell
    made last above it; the fixed script runs on a real layout and the contract holds."""
    from pic_copilot.agents import contract_words

    request = ("Create a new cell named PAD holding a 100 × 100 µm square on layer 10/0 centred on the cell's "
               "origin, and place one instance of PAD in the current cell at (200, 0) µm.")
    contract = contract_words.from_request(request, mode="interactive")
    opened = 'import klayout.db as pya\nlayout = pya.Layout()\ncell = layout.create_cell("TOP")\n'

    def run(code: str):   # the open layout's names, then the layout written for its summary
        return _run_in(tmp_path, opened + code + '\nlayout.write("open.gds")\n')

    code = ('pad = layout.create_cell("PAD")\nsize_um = 100\n'
            'pad_shape = pya.DBox(pya.DPoint(-size_um / 2, -size_um / 2), pya.DPoint(size_um / 2, size_um / 2))\n'
            'instance = cell.insert(pya.DCellInstArray(pad.cell_index(), pya.DTrans(pya.DVector(200, 0))))\n')
    assert contract.missing_boxes(run(code)) == {"10/0": []}
    fixed, done = fixes.insert_the_built_shape(code, contract, run(code))
    assert "pad.shapes(pad.layout().layer(10, 0)).insert(pad_shape)\n" in fixed and done, fixed
    assert contract.check(run(fixed)) == [] and contract.missing_boxes(run(fixed)) == {}
    # in the open cell when the script makes none and reads `cell`; nothing when the shape is read,
    # two are unread, or the box is already there
    alone = "box = pya.DBox(-50, -50, 50, 50)\nprint(cell.name)\n"
    assert "cell.shapes(cell.layout().layer(10, 0)).insert(box)" in fixes.insert_the_built_shape(
        alone, contract, run(alone))[0]
    read = code + "print(pad_shape)\n"
    two = code + "other = pya.DBox(0, 0, 1, 1)\n"
    for c in (read, two, fixed):
        assert fixes.insert_the_built_shape(c, contract, run(c)) == (c, [])


def test_a_printout_that_made_an_unasked_layer_is_dropped(tmp_path):
    """A real m09 answer placed the grid and wrote the CSV right, and ended its placement with a
    printout that counted shapes on layer 4/0, which the open layout did not have: layout.layer(4, 0)
    created it, empty, and the model returned the script unchanged. The printout's statements go;
    the rest stays and still runs."""
    from pic_copilot.execution.report import ExecutionReport

    request = ("The layout has a cell UNIT that is not placed yet. In the current cell, place UNIT on a grid of 4 "
               "columns and 3 rows with 20 µm pitch in x and 15 µm pitch in y, the first copy at (0, 0). Then write "
               "placements.csv in the work folder with one row per placed copy: column,row,x_um,y_um.")
    code = ('import csv\nNX, NY = 4, 3\nchild = layout.cell("UNIT")\n'
            'cell.insert(pya.DCellInstArray(child.cell_index(), pya.DTrans(0, 0), pya.DVector(20, 0), '
            'pya.DVector(0, 15), NX, NY))\n'
            'n = sum(1 for _ in cell.begin_shapes_rec(layout.layer(4, 0)).each())\n'
            'print(f"placed UNIT {NX}x{NY}; "\n      f"{cell.name} now sees {n} shapes on 4/0")\n'
            'with open("placements.csv", "w", newline="") as f:\n'
            '    csv.writer(f).writerows([["column", "row", "x_um", "y_um"]] + '
            '[[i, j, 20 * i, 15 * j] for i in range(NX) for j in range(NY)])\n'
            'print(f"{NX * NY} placements")\n')

    def after(added, layers, script=code):   # the open layout after the run, as the bridge reports it
        return ExecutionReport.from_dict({"ok": True, "changes": {"layers_added": added}, "summary": {
            "cells": ["TOP", "UNIT"], "layers": [{"layer": int(l.split("/")[0]), "datatype": int(l.split("/")[1]),
                                                  "shapes": k} for l, k in layers.items()]}})

    fixed, done = fixes.drop_printouts_of_unasked_layers(code, after(["4/0"], {"1/0": 3, "4/0": 0}), request)
    assert done and "4, 0" not in fixed and "now sees" not in fixed, fixed
    assert 'print(f"{NX * NY} placements")' in fixed and "cell.insert(" in fixed
    opened = 'import klayout.db as pya\nlayout = pya.Layout()\ncell = layout.create_cell("TOP")\nlayout.create_cell("UNIT")\n'
    run = _run_in(tmp_path, opened + fixed)
    assert [f["path"] for f in run.files] == ["placements.csv"]
    # a layer with shapes, one the request names, or a read that does more than print: nothing
    assert fixes.drop_printouts_of_unasked_layers(code, after(["4/0"], {"4/0": 2}), request) == (code, [])
    assert fixes.drop_printouts_of_unasked_layers(code, after(["4/0"], {"4/0": 0}), request + " Also count the shapes on layer 4/0.") == (code, [])
    used = code.replace('print(f"{NX * NY} placements")', 'print(f"{NX * NY} placements")\nassert n == 0')
    assert fixes.drop_printouts_of_unasked_layers(used, after(["4/0"], {"4/0": 0}), request) == (used, [])


def test_a_region_of_own_shapes_reads_the_hierarchy_when_the_request_includes_sub_cells(tmp_path):
    """A real a07 answer took its areas from pya.Region(cell.shapes(layer)) where the request said
    the layers "may also be in sub-cells"; the hierarchy check said so and a revision round returned
    the script unchanged. Each such Region now reads through the hierarchy, and the fixed script's
    real area counts the sub-cell's shape; loops over cell.shapes and other requests are left alone."""
    request = ("Layer 1/0 is silicon (it may also be in sub-cells). Write area.json in the work folder with the "
               "merged area of 1/0 in µm².")
    code = ('import json\nsi = layout.layer(1, 0)\narea = pya.Region(cell.shapes(si)).area() * layout.dbu ** 2\n'
            'json.dump({"area_um2": area}, open("area.json", "w"))\n')
    fixed, done = fixes.read_through_the_hierarchy(code, request)
    assert "pya.Region(cell.begin_shapes_rec(si)).area()" in fixed and done, fixed
    opened = ('import klayout.db as pya\nlayout = pya.Layout()\ncell = layout.create_cell("TOP")\n'
              'sub = layout.create_cell("SUB")\nsub.shapes(layout.layer(1, 0)).insert(pya.Box(0, 0, 2000, 1000))\n'
              'cell.shapes(layout.layer(1, 0)).insert(pya.Box(5000, 0, 6000, 1000))\n'
              'cell.insert(pya.CellInstArray(sub.cell_index(), pya.Trans()))\n')
    for script, area in ((code, 1.0), (fixed, 3.0)):
        _run_in(tmp_path, opened + script)
        assert json.loads((tmp_path / "area.json").read_text())["area_um2"] == pytest.approx(area)
    own = request.replace("(it may also be in sub-cells)", "(only shapes directly in this cell, not its sub-cells)")
    loop = code.replace("pya.Region(cell.shapes(si)).area()", "sum(s.area() for s in cell.shapes(si).each())")
    for c, r in ((code, own), (loop, request)):
        assert fixes.read_through_the_hierarchy(c, r) == (c, None)


def test_a_json_key_is_not_renamed_to_a_requested_key_of_another_shape():
    """A real a01 run renamed num_drop_peaks (a count) to peaks_um, which the request gives as a
    list of wavelengths; three rounds then revised a count under the requested key."""
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    contract = OutputContract(files=["r.json"], json_keys={"r.json": ["peaks_um", "fsr_nm"]},
                              json_shapes={"r.json": {"peaks_um": "list"}})

    def wrote(value):
        return ExecutionReport.from_dict({"ok": True, "files": [{"path": "r.json", "kind": "json", "summary": {
            "type": "dict", "keys": ["num_peaks", "fsr_nm"], "values": {"num_peaks": value, "fsr_nm": 5.6}}}]})

    assert fixes.json_key_renames(contract, wrote(4)) == {}
    assert fixes.json_key_renames(contract, wrote([1.545, 1.551])) == {"num_peaks": "peaks_um"}
    assert fixes.json_key_renames(contract, wrote(None)) == {"num_peaks": "peaks_um"}   # too large to read


def test_a_swept_column_off_by_a_power_of_ten_loses_that_factor():
    """``wl * 1e-3`` written under wavelength_um for a 1.5-1.6 um sweep (a real m05 answer, kept three
    rounds): the run proves the factor 1/1000, the one multiplication by it goes."""
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    contract = OutputContract(csv_spans={"s.csv": {"wavelength_um": [1.5, 1.6]}})

    def wrote(lo, hi):
        return ExecutionReport.from_dict({"ok": True, "files": [{"path": "s.csv", "kind": "table", "summary": {
            "first_row": ["wavelength_um", "T"], "column_spans": {"wavelength_um": [lo, hi]}}}]})

    code = "w.writerows(zip(np.round(wl * 1e-3, 4), t / 1000))\n"
    fixed, done = fixes.unscale_column(code, contract, wrote(0.0015, 0.0016))
    assert fixed == "w.writerows(zip(np.round(wl, 4), t / 1000))\n" and "factor 0.001" in done[0]
    loop = 'for x, y in zip(wl, t):\n    f.write(f"{x / 1e-3},{y}\\n")\n'
    fixed, _ = fixes.unscale_column(loop, contract, wrote(1500, 1600))
    assert 'f.write(f"{x},{y}\\n")' in fixed
    # the right range, a factor that is not the proven one, or no factor to remove: nothing
    assert fixes.unscale_column(code, contract, wrote(1.5, 1.6)) == (code, [])
    assert fixes.unscale_column(code, contract, wrote(1500, 1600)) == (code, [])
    plain = "w.writerows(zip(wl_nm, t))\n"
    assert fixes.unscale_column(plain, contract, wrote(1500, 1600)) == (plain, [])


def test_a_column_written_under_another_name_and_scale_is_renamed_and_unscaled():
    """A real m05 answer: ``writerow(["wavelength_nm", "T_bar", "T_cross"])`` over ``wl * 1e3`` for a
    1.5-1.6 um sweep asked as wavelength_um. The header rename alone left the values 1000x off (the
    revision after it was judged on a column 1500-1600), so the factor is found under the written name."""
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    contract = OutputContract(csv_columns={"mzi.csv": ["wavelength_um", "T_bar", "T_cross"]},
                              csv_spans={"mzi.csv": {"wavelength_um": [1.5, 1.6]}})
    rep = ExecutionReport.from_dict({"ok": True, "files": [{"path": "mzi.csv", "kind": "table", "summary": {
        "first_row": ["wavelength_nm", "T_bar", "T_cross"], "column_spans": {"wavelength_nm": [1500.0, 1600.0]}}}]})
    code = ('w.writerow(["wavelength_nm", "T_bar", "T_cross"])\n'
            "w.writerows(zip(np.round(wl * 1e3, 4), bar, cross))\n")
    fixed, _ = fixes.rename_csv_columns(code, contract, rep)
    fixed, done = fixes.unscale_column(fixed, contract, rep)
    assert fixed == ('w.writerow([\'wavelength_um\', "T_bar", "T_cross"])\n'
                     "w.writerows(zip(np.round(wl, 4), bar, cross))\n"), fixed
    assert "factor 1000" in done[0]


def test_layers_bound_to_names_swapped_against_the_request_are_set_back():
    """A real m07 answer: METAL = (3, 0), VIA = (2, 0) for "every via (layer 3/0) must be enclosed by
    metal (layer 2/0)", kept three rounds."""
    req = "In in.gds, every via (layer 3/0) must be enclosed by metal (layer 2/0) by at least 0.2 µm."
    code = "METAL = (3, 0)\nVIA = (2, 0)\nmetal_li = layout.layer(3, 0)\nOTHER = (7, 0)\n"
    fixed, done = fixes.bind_named_layers(code, req)
    assert fixed == "METAL = (2, 0)\nVIA = (3, 0)\nmetal_li = layout.layer(2, 0)\nOTHER = (7, 0)\n"
    assert done.startswith("METAL = 2/0, VIA = 3/0")
    # right already, a layer the request never names, or names two layers share: left alone
    assert fixes.bind_named_layers("METAL = (2, 0)\nVIA = (3, 0)\n", req)[1] is None
    assert fixes.bind_named_layers("METAL = (9, 0)\n", req)[1] is None
    two = "First metal on 41/0, vias on 43/0, second metal on 45/0."
    assert fixes.bind_named_layers("METAL = (45, 0)\nVIA = (43, 0)\n", two)[1] is None


def test_a_nameless_component_gets_the_requested_top_cell_name():
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    code = "import gdsfactory as gf\nc = gf.Component()\nc << gf.components.straight()\nc.write_gds('gc_row.gds')\n"
    layout = {"path": "gc_row.gds", "kind": "layout", "summary": {"top_cells": [{"name": "Unnamed_0"}], "cell_names": ["Unnamed_0"]}}
    rep = ExecutionReport.from_dict({"ok": True, "files": [layout]})
    fixed, done = fixes.rename_outputs(code, OutputContract(files=["gc_row.gds"], cells=["GC_ROW"]), rep)
    assert "c = gf.Component('GC_ROW')" in fixed and done
    # two nameless components: not guessed from them, but the one written is the top cell
    two = code.replace("c << gf", "d = gf.Component()\nc << gf")
    fixed, done = fixes.rename_outputs(two, OutputContract(files=["gc_row.gds"], cells=["GC_ROW"]), rep)
    assert "d = gf.Component()\n" in fixed and "c.name = 'GC_ROW'\nc.write_gds" in fixed and "copy of the written" in done[0]


def test_a_factory_cell_written_as_the_top_cell_is_written_under_the_requested_name(tmp_path):
    """A real m04 script wrote the generic PDK's coupler row from its factory, labels and all, and
    failed over the top cell's name alone ("grating_coupler_array_gdsfactory..."): a factory's cell
    is locked, so a copy of the written component gets the name. Run for real."""
    import subprocess
    import sys

    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport
    from pic_copilot.sandbox.summary import summarize_dir

    code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.components.straight(length=5)\n"
            "if True:\n    c.write_gds('row.gds', with_metadata=False)\n")
    contract = OutputContract(files=["row.gds"], cells=["ROW"])

    def run_it(script):
        (tmp_path / "s.py").write_text(script)
        subprocess.run([sys.executable, "s.py"], cwd=tmp_path, check=True, timeout=120, capture_output=True)
        return ExecutionReport.from_dict({"ok": True, "files": summarize_dir(str(tmp_path))})

    rep = run_it(code)
    assert any("ROW" in p for p in contract.check(rep))
    fixed, done = fixes.rename_outputs(code, contract, rep)
    assert "    c = c.copy()\n    c.name = 'ROW'\n    c.write_gds" in fixed and done, fixed
    assert contract.check(run_it(fixed)) == []
    # two components written: which one is the top is not guessed
    two = code + "d = gf.components.bend_euler()\nd.write_gds('b.gds')\n"
    assert fixes.rename_outputs(two, contract, rep) == (two, [])


def test_csv_columns_beyond_the_requested_header_are_dropped_and_the_fix_runs(tmp_path):
    """A real b02 script wrote "name,x,y,orientation,width,layer,port_type" for "the header
    name,x,y,orientation,width" and kept the recipe's two extra columns through three rounds of
    being told the header. The header and the rows (a row literal over two lines here) lose the
    same positions. Run for real."""
    import subprocess
    import sys

    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport
    from pic_copilot.sandbox.summary import summarize_dir

    code = ("import csv\nrows = []\nfor name, x in (('o1', 1.5), ('o2', 2.0)):\n"
            "    rows.append([name, x, 'µm',\n                 'optical'])\n"
            "with open('p.csv', 'w', newline='') as f:\n    w = csv.writer(f)\n"
            "    w.writerow(['name', 'x', 'unit', 'port_type'])\n    w.writerows(rows)\n")
    contract = OutputContract(files=["p.csv"], csv_columns={"p.csv": ["name", "x"]})

    def run_it(script):
        (tmp_path / "s.py").write_text(script)
        subprocess.run([sys.executable, "s.py"], cwd=tmp_path, check=True, timeout=60)
        return ExecutionReport.from_dict({"ok": True, "files": summarize_dir(str(tmp_path))})

    rep = run_it(code)
    assert contract.check(rep) and "header is" in contract.check(rep)[0]
    fixed, done = fixes.drop_extra_csv_columns(code, contract, rep)
    assert "rows.append([name, x])" in fixed and "w.writerow(['name', 'x'])" in fixed, fixed
    assert done == ["dropped the CSV column(s) p.csv: 'unit', 'port_type' (not in the header the designer asked for)"]
    assert contract.check(run_it(fixed)) == [] and (tmp_path / "p.csv").read_text().splitlines()[1] == "o1,1.5"
    # a requested column missing, or the columns out of order: nothing to drop
    for want in (["name", "y"], ["x", "name"]):
        other = OutputContract(files=["p.csv"], csv_columns={"p.csv": want})
        assert fixes.drop_extra_csv_columns(code, other, rep) == (code, [])


def test_a_layout_is_written_in_the_format_its_file_name_says(tmp_path):
    """A real b06 run (session 6) wrote `layout.write("out.oas", gzip=True, options=db.SaveLayoutOptions())`:
    gzip data, and a default SaveLayoutOptions() is GDS2 whatever the suffix. Run for real with pip klayout."""
    import subprocess
    import sys

    from pic_copilot.agents.fixes import write_layout_by_suffix

    code = ('import klayout.db as db\nlayout = db.Layout()\ncell = layout.create_cell("TOP")\n'
            'cell.shapes(layout.layer(1, 0)).insert(db.Box(0, 0, 100, 100))\n'
            'layout.write("out.oas", gzip=True, options=db.SaveLayoutOptions())\n')
    request = "Convert in.gds to OASIS as out.oas"
    fixed, what = write_layout_by_suffix(code, request)
    assert what and 'layout.write("out.oas")' in fixed.replace("'", '"')
    for script, plain_oasis in ((code, False), (fixed, True)):
        (tmp_path / "s.py").write_text(script)
        subprocess.run([sys.executable, "s.py"], cwd=tmp_path, check=True, timeout=60)
        assert ((tmp_path / "out.oas").read_bytes()[:13] == b"%SEMI-OASIS\r\n") is plain_oasis
    # compression the designer asks for stays; configured options and other writes stay
    assert write_layout_by_suffix(code, "write a gzip-compressed OASIS file out.oas")[0].count("gzip=True") == 1
    for other in ('layout.write("a.oas", opts)\n', 'f.write("text")\n', 'layout.write("a.gds")\n'):
        assert write_layout_by_suffix(other, request) == (other, None)


def test_an_iterator_next_written_after_its_while_loop_moves_into_it(tmp_path):
    """walker.next() one indent too far left (a real interactive m12 run: three rounds of 30 s
    timeouts): it moves into the loop and the script ends, with every label read."""
    code = ("import klayout.db as db\nly = db.Layout()\ntop = ly.create_cell('TOP')\n"
            "for i in range(3):\n    top.shapes(ly.layer(10, 0)).insert(db.Text(f'L{i}', i * 1000, 0))\n"
            "table = []\nwalker = top.begin_shapes_rec(ly.layer(10, 0))\n"
            "while not walker.at_end():\n    if walker.shape().is_text():\n        table.append(walker.shape().text_string)\n"
            "walker.next()\nprint(sorted(table))\n")
    fixed, what = fixes.fix_iterator_next_outside_loop(code, "sandbox")
    assert what and "\n    walker.next()\nprint" in fixed, fixed
    out = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "['L0', 'L1', 'L2']", out.stdout + out.stderr
    assert fixes.fix_iterator_next_outside_loop(fixed, "sandbox") == (fixed, None)   # a loop that advances stays


def test_the_one_layer_a_script_swapped_for_another_is_set_back():
    """"via (layer 3/0) enclosed by metal (layer 2/0)" read with VIA = (4, 0) (a real m07 run: an
    empty layer, no violations reported): with one unrequested layer in the script and one requested
    layer missing, the script's becomes the requested one; two unknowns, or a layer from a loop, stay."""
    prompt = "Every via (layer 3/0) must be enclosed by metal (layer 2/0) by at least 0.2 um."
    code = ("import klayout.db as pya\nMETAL = (2, 0)\nVIA = (4, 0)\nly = pya.Layout()\n"
            "m = ly.layer(*METAL)\nv = ly.layer(VIA)\nprint(ly.layer(4, 0))\n")
    fixed, what = fixes.rebind_one_wrong_layer(code, prompt)
    assert "VIA = (3, 0)" in fixed and "ly.layer(3, 0)" in fixed and "METAL = (2, 0)" in fixed, fixed
    assert what == "layer 4/0 -> 3/0 (the one layer of the request the script did not use)"
    two = code.replace("print(ly.layer(4, 0))", "print(ly.layer(99, 0))")
    assert fixes.rebind_one_wrong_layer(two, prompt) == (two, None)
    looped = "import klayout.db as pya\nly = pya.Layout()\nfor l in (2, 4):\n    ly.layer(l, 0)\n"
    assert fixes.rebind_one_wrong_layer(looped, prompt) == (looped, None)
    # a real m11 script: the cladding "on layer 111/0" drawn on layout.layer(LAYER + 101, DATATYPE), 102/0
    clad = "waveguide on layer 1/0 and a 3 um cladding on layer 111/0"
    summed = ("LAYER, DATATYPE = 1, 0\nwg = layout.layer(LAYER, DATATYPE)\n"
              "cl = layout.layer(LAYER + 101, DATATYPE)\n")
    fixed, what = fixes.rebind_one_wrong_layer(summed, clad)
    assert fixed == summed.replace("LAYER + 101", "111") and what.startswith("layer 102/0 -> 111/0"), fixed
    # the datatype name is read by the other layer too: changing it would move both
    assert fixes.rebind_one_wrong_layer(summed, clad.replace("111/0", "111/5")) == (summed, None)
    # a real b08 script: the one requested layer replaced by an example's constant
    pad = "Create a new cell named PAD holding a 100 x 100 um square on layer 10/0 centred on the cell's origin"
    drawn = ("LABELS = (12, 0)\npad = layout.create_cell('PAD')\n"
             "pad.shapes(layout.layer(*LABELS)).insert(pya.DBox(-50, -50, 50, 50))\n")
    fixed, what = fixes.rebind_one_wrong_layer(drawn, pad)
    assert fixed == drawn.replace("(12, 0)", "(10, 0)") and what.startswith("layer 12/0 -> 10/0"), fixed
    both = drawn + "print(cell.shapes(layout.layer(10, 0)).size())\n"   # it uses the requested one too
    assert fixes.rebind_one_wrong_layer(both, pad) == (both, None)


def test_a_method_asked_of_the_wrong_open_layout_global_is_found_and_moved_to_the_one_that_has_it():
    """cell.layer_indexes() / layout.dbbox() / cell.dbu: the bridge's `layout` and `cell` are typed
    (pya.Layout, pya.Cell), so the API check finds the attribute the class lacks and names the other
    global that has it; the fix rewrites every such use and the script then runs."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = ("import json\ncounts = {}\nfor li in cell.layer_indexes():\n    info = layout.get_info(li)\n"
            "    counts[f'{info.layer}/{info.datatype}'] = cell.shapes(li).size()\n"
            "box = layout.dbbox()\nprint(cell.dbu, box.width())\njson.dump(counts, open('c.json', 'w'))\n")
    found = [f for f in checks.static_findings(code, "interactive", idx, interactive_pya=True)[0] if f["kind"] == "api"]
    assert {(f["receiver"], f["attribute"], f["use"]) for f in found} == {
        ("cell", "layer_indexes", "layout"), ("layout", "dbbox", "cell"), ("cell", "dbu", "layout")}
    assert "write layout.layer_indexes" in " ".join(f["message"] for f in found)
    fixed, done = fixes.request_free_fixes(code, "interactive",
                                           lambda c: checks.static_findings(c, "interactive", idx, interactive_pya=True)[0])
    assert done == ["cell.layer_indexes -> layout.layer_indexes", "layout.dbbox -> cell.dbbox", "cell.dbu -> layout.dbu"]
    assert checks.static_findings(fixed, "interactive", idx, interactive_pya=True)[0] == []
    # the fixed script runs on a real layout with the bridge's globals
    import klayout.db as kdb
    layout = kdb.Layout()
    cell = layout.create_cell("TOP")
    cell.shapes(layout.layer(1, 0)).insert(kdb.Box(0, 0, 1000, 500))
    assert _written_in_scratch(fixed, layout, cell, "c.json") == '{"1/0": 1}'
    # a script that makes its own layout is not judged by the bridge's globals, nor outside KLayout
    own = "layout = pya.Layout()\ncell = layout.create_cell('A')\nprint(cell.layer_indexes())\n"
    assert not [f for f in checks.static_findings(own, "interactive", idx, interactive_pya=True)[0] if f.get("receiver")]
    assert not [f for f in checks.static_findings(code, "sandbox", idx)[0] if f.get("receiver")]
    # a bridge global asked of another one (a real a16 candidate's layout.selection)
    sel = "for obj in layout.selection:\n    print(obj)\n"
    found = [f["message"] for f in checks.static_findings(sel, "interactive", idx, interactive_pya=True)[0]]
    assert found == ["line 1: layout (pya.Layout) has no attribute 'selection'; selection is a global of the script: "
                     "write selection."], found
    fixed, done = fixes.request_free_fixes(sel, "interactive",
                                           lambda c: checks.static_findings(c, "interactive", idx, interactive_pya=True)[0])
    assert fixed == "for obj in selection:\n    print(obj)\n" and done == ["layout.selection -> selection (a global of the script)"]


def test_a_region_method_asked_of_shapes_is_asked_of_a_region_made_of_them():
    """shapes.width_check(w) / cell.shapes(li).area(): Shapes have no checks nor merged area, a Region
    made of them has; the API check names that Region (as the script calls the module) and the fix
    wraps every such receiver, in KLayout's pya and in the pip module's stub signatures alike. A
    method no Region has, or a receiver no Region is made of (a Cell), is left to the model."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = ("import json\nli = layout.layer(1, 0)\nshapes = cell.shapes(li)\n"
            "narrow = shapes.width_check(int(0.4 / layout.dbu))\n"
            "area = cell.shapes(li).area() * layout.dbu ** 2\n"
            "json.dump({'narrow': narrow.count(), 'area': area}, open('w.json', 'w'))\n")
    find = lambda c: checks.static_findings(c, "interactive", idx, interactive_pya=True)[0]   # noqa: E731
    found = [f for f in find(code) if f["kind"] == "api"]
    assert {(f["wrap_with"], f["attribute"]) for f in found} == {
        ("pya.Region(shapes)", "width_check"), ("pya.Region(cell.shapes(li))", "area")}
    assert "write pya.Region(shapes).width_check" in " ".join(f["message"] for f in found)
    fixed, done = fixes.request_free_fixes(code, "interactive", find)
    assert "pya.Region(shapes).width_check(" in fixed and "pya.Region(cell.shapes(li)).area()" in fixed
    assert len(done) == 2 and find(fixed) == []
    import klayout.db as kdb
    layout = kdb.Layout()
    cell = layout.create_cell("TOP")
    cell.shapes(layout.layer(1, 0)).insert(kdb.Box(0, 0, 1000, 300))   # 1 x 0.3 um: narrower than 0.4
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        cwd = os.getcwd()
        os.chdir(d)
        try:
            exec(compile(fixed, "<fixed>", "exec"), {"layout": layout, "cell": cell, "pya": kdb})
            got = json.loads(open("w.json").read())
        finally:
            os.chdir(cwd)
    assert got["narrow"] == 1 and abs(got["area"] - 0.3) < 1e-9
    # the engine's module under its conventional alias: the stubs' "-> Shapes" types the value too
    sandbox = ("import klayout.db as kdb\nly = kdb.Layout()\ntop = ly.create_cell('T')\n"
               "s = top.shapes(ly.layer(1, 0))\nprint(s.space_check(100).count())\n")
    found = [f for f in checks.static_findings(sandbox, "sandbox", idx)[0] if f["kind"] == "api"]
    assert [f.get("wrap_with") for f in found] == ["kdb.Region(s)"]
    # the same method asked of two cells' shapes (a real a21 candidate): both are wrapped
    two = ("a = layout.create_cell('A')\nb = layout.create_cell('B')\nli = layout.layer(1, 0)\n"
           "print(a.shapes(li).area(), b.shapes(li).area())\n")
    fixed, _ = fixes.request_free_fixes(two, "interactive", find)
    assert "pya.Region(a.shapes(li)).area(), pya.Region(b.shapes(li)).area()" in fixed, fixed
    # a Cell is no Region's material; a method Region lacks too gets no Region
    other = "x = cell.width_check(5)\ny = cell.shapes(1).frobnicate()\n"
    assert not [f for f in find(other) if f.get("wrap_with")]
    # a layer's index asked for a Region's measure: the Region of the cell's shapes on that layer
    index_asked = "li = layout.layer(1, 0)\nprint(li.area(), layout.layer(2, 0).merged().area())\n"
    fixed, done = fixes.request_free_fixes(index_asked, "interactive", find)
    assert fixed == ("li = layout.layer(1, 0)\nprint(pya.Region(cell.begin_shapes_rec(li)).area(), "
                     "pya.Region(cell.begin_shapes_rec(layout.layer(2, 0))).merged().area())\n"), done
    assert find(fixed) == []


def _written_in_scratch(script: str, layout, cell, out: str) -> str:
    """Run an interactive script with the bridge's globals on ``layout``/``cell`` in a scratch
    folder; the text of the file ``out`` it writes there."""
    import os
    import tempfile

    import klayout.db as kdb

    with tempfile.TemporaryDirectory() as d:
        cwd = os.getcwd()
        os.chdir(d)
        try:
            exec(compile(script, "<fixed>", "exec"), {"layout": layout, "cell": cell, "pya": kdb})
            return open(out).read()
        finally:
            os.chdir(cwd)


def _json_written_on_a_layout(script: str) -> dict:
    """The a.json an interactive script writes on a real layout: 1/0 in a sub-cell SUB placed in
    TOP, 2/0 in TOP, overlapping 1/0 by half."""
    import klayout.db as kdb

    layout = kdb.Layout()
    cell = layout.create_cell("TOP")
    sub = layout.create_cell("SUB")
    sub.shapes(layout.layer(1, 0)).insert(kdb.Box(0, 0, 2000, 1000))
    cell.insert(kdb.CellInstArray(sub.cell_index(), kdb.Trans()))
    cell.shapes(layout.layer(2, 0)).insert(kdb.Box(1000, 0, 3000, 1000))
    return json.loads(_written_in_scratch(script, layout, cell, "a.json"))

def test_a_boolean_of_two_layer_indexes_becomes_a_boolean_of_their_regions():
    """A real a07 script's last round wrote ``si & mask`` with both from ``layout.layer(...)``: Python
    ANDs the two numbers and nothing fails until the result is asked for an area. The check finds the
    two ints (names assigned from ``layout.layer`` or the calls themselves) and the fix makes each
    operand the Region of the bridge cell's shapes, sub-cells included; the fixed script is run on
    a real layout. Arithmetic on one layer index (``li + 1``) is left alone."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = ("import json\nsi = layout.layer(1, 0)\nmask = layout.layer(2, 0)\nboth = si & mask\n"
            "rest = si - mask\njoin = layout.layer(1, 0) + mask\nnext_li = si + 1\n"
            "json.dump({'and': both.area(), 'not': rest.area(), 'or': join.area()}, open('a.json', 'w'))\n")
    find = lambda c: checks.static_findings(c, "interactive", idx, interactive_pya=True)[0]   # noqa: E731
    found = [f for f in find(code) if f.get("layer_operands")]
    assert len(found) == 3 and "si & mask: si and mask are layer indexes" in found[0]["message"], found
    fixed, done = fixes.request_free_fixes(code, "interactive", find)
    assert "both = pya.Region(cell.begin_shapes_rec(si)) & pya.Region(cell.begin_shapes_rec(mask))\n" in fixed, fixed
    assert "next_li = si + 1\n" in fixed and len(done) == 3, done
    assert [f for f in find(fixed) if f["severity"] == "error"] == []
    got = _json_written_on_a_layout(fixed)
    assert got == {"and": 1000 * 1000, "not": 1000 * 1000, "or": 3000 * 1000}, got

def test_cells_and_layers_are_made_by_the_layout():
    """``pya.Cell("RING")`` (real a21 and a22 scripts: "0 argument(s) expected, but 1 given") and
    ``pya.Layer(1, 0)`` (a07: pya has no Layer) become the layout's ``create_cell`` and ``layer``: the
    open layout's in an interactive script, the one the script makes in the sandbox; the fixed
    scripts are run. With two layouts, or none known, nothing changes."""
    import klayout.db as kdb

    code = ('ring = pya.Cell("RING")\nli = pya.Layer(1, 0)\nring.shapes(li).insert(pya.Box(0, 0, 10, 10))\n'
            'cell.insert(pya.CellInstArray(ring.cell_index(), pya.Trans()))\n')
    fixed, what = fixes.fix_objects_the_layout_makes(code, "interactive")
    assert fixed.startswith('ring = layout.create_cell("RING")\nli = layout.layer(1, 0)\n') and "create_cell" in what
    layout = kdb.Layout()
    cell = layout.create_cell("TOP")
    exec(compile(fixed, "<fixed>", "exec"), {"layout": layout, "cell": cell, "pya": kdb})
    assert layout.cell("RING").bbox() == kdb.Box(0, 0, 10, 10) and cell.child_cells() == 1
    sandbox = 'import klayout.db as kdb\nly = kdb.Layout()\ntop = kdb.Cell("TOP")\nprint(top.name)\n'
    fixed, _ = fixes.fix_objects_the_layout_makes(sandbox, "sandbox")
    assert 'top = ly.create_cell("TOP")' in fixed
    assert subprocess.run([sys.executable, "-c", fixed], capture_output=True, text=True, check=True).stdout == "TOP\n"
    for same in ('import klayout.db as kdb\na = kdb.Layout()\nb = kdb.Layout()\nt = kdb.Cell("T")\n',
                 'import klayout.db as kdb\nt = kdb.Cell("T")\n', 'import gdsfactory as gf\nc = gf.Cell("T")\n'):
        assert fixes.fix_objects_the_layout_makes(same, "sandbox") == (same, None), same

def test_a_region_made_of_a_layer_index_is_made_of_the_cells_shapes():
    """pya.Region(layout.layer(1, 0)) stops with "No overload with matching arguments": the check
    finds the int (a call's return type or a name assigned from it) and names the cell's shapes; the
    fix uses the bridge's cell, everything below it included, and the script then measures the
    sub-cell's shapes too. In the engine's module the script's one Cell is named; a Region made of
    shapes is left alone."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = ("import json\nsi = pya.Region(layout.layer(1, 0))\nli = layout.layer(2, 0)\n"
            "both = si & pya.Region(li)\nok = pya.Region(cell.begin_shapes_rec(li))\n"
            "json.dump({'and': both.area(), 'mask': ok.area()}, open('a.json', 'w'))\n")
    find = lambda c: checks.static_findings(c, "interactive", idx, interactive_pya=True)[0]   # noqa: E731
    found = [f for f in find(code) if f["kind"] == "api"]
    assert sorted(f["region_of_layer"] for f in found) == ["layout.layer(1, 0)", "li"]
    assert "write pya.Region(cell.begin_shapes_rec(li))" in " ".join(f["message"] for f in found)
    fixed, done = fixes.request_free_fixes(code, "interactive", find)
    assert sorted(done) == ["Region(layout.layer(1, 0)) -> Region(cell.begin_shapes_rec(layout.layer(1, 0)))",
                            "Region(li) -> Region(cell.begin_shapes_rec(li))"]
    assert find(fixed) == []
    got = _json_written_on_a_layout(fixed)
    assert got == {"and": 1000 * 1000, "mask": 2000 * 1000}   # the sub-cell's silicon counts
    sandbox = ("import klayout.db as kdb\nly = kdb.Layout()\ntop = ly.create_cell('T')\n"
               "r = kdb.Region(ly.layer(1, 0))\n")
    assert [f.get("shapes_of") for f in checks.static_findings(sandbox, "sandbox", idx)[0] if f["kind"] == "api"] == [
        "top.begin_shapes_rec(ly.layer(1, 0))"]
    shapes = "r = pya.Region(cell.shapes(layout.layer(1, 0)))\nprint(r.area())\n"
    assert find(shapes) == []


def test_attributes_asked_of_what_a_klayout_method_returned_are_checked_against_its_return_type():
    """layout.layer() returns a layer index (an int); cell.dbbox() a DBox: asking them for what they
    lack is found before running, through a name assigned once too. The return type comes from every
    overload's signature, so a method whose overloads differ (Layout.clip) or an iterator is not judged."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    assert checks.pya_return(idx, "pya.Layout.layer") is int
    assert checks.pya_return(idx, "pya.Cell.dbbox") == "pya.DBox"
    assert checks.pya_return(idx, "pya.Layout.write") is type(None)
    assert checks.pya_return(idx, "pya.Layout.clip") is None          # a cell index or a Cell
    assert checks.pya_return(idx, "pya.Cell.each_shape") is None      # an iterator
    assert checks.pya_return(idx, "gdsfactory.Component.add_ref") is None
    code = ("LAYER = (1, 0)\nbox = layout.layer(*LAYER).bbox()\nli = layout.layer(1, 0)\nprint(li.bbox(), li.bit_length())\n"
            "print(cell.dbbox().hieght(), cell.dbbox().height())\nr = pya.Region(cell.begin_shapes_rec(li))\n"
            "print(r.merged().aera(), r.area().real, layout.top_cell().name.upper())\n")
    found = [f["message"] for f in checks.static_findings(code, "interactive", idx, interactive_pya=True)[0]]
    assert found == [
        "line 2: layout.layer(*LAYER) returns a Python int, which has no attribute 'bbox'. A Region made of it "
        "has it: write pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER))).bbox.",
        "line 4: li (what layout.layer(1, 0) returns) is a Python int, which has no attribute 'bbox'. A Region "
        "made of it has it: write pya.Region(cell.begin_shapes_rec(li)).bbox.",
        "line 5: cell.dbbox() returns a pya.DBox, which has no attribute 'hieght'. Did you mean: pya.DBox.height, "
        "pya.DBox.right, pya.Box.height?",
        "line 7: r.merged() returns a pya.Region, which has no attribute 'aera'. Did you mean: pya.Region.area, "
        "pya.Region.each, pya.Region.merge?"], found
    # a plain sandbox script with klayout.db is judged the same way; a correct one has no finding
    assert checks.api_check("import klayout.db as kdb\nly = kdb.Layout()\nprint(ly.layer(1, 0).bbox())\n", idx)
    ok = ("import klayout.db as kdb\nly = kdb.Layout()\ntop = ly.create_cell('TOP')\nli = ly.layer(1, 0)\n"
          "top.shapes(li).insert(kdb.Box(0, 0, 10, 10))\nprint(top.dbbox().width(), ly.top_cell().name, li + 1)\n")
    assert checks.api_check(ok, idx) == []


def test_a_new_layer_without_a_number_gets_the_one_layer_the_request_names():
    """layout.layer() makes layer -1/-1; with exactly one layer in the request it is that layer,
    and the fixed script draws there on a real layout."""
    import klayout.db as kdb

    from pic_copilot.agents.fixes import name_the_new_layer

    code = ('pad = layout.create_cell("PAD")\npad.shapes(layout.layer()).insert(pya.DBox(-50, -50, 50, 50))\n'
            "cell.insert(pya.DCellInstArray(pad.cell_index(), pya.DTrans(pya.DVector(200, 0))))\n")
    request = "Create a new cell named PAD holding a 100 x 100 um square on layer 10/0 and place it at (200, 0) um."
    out, what = name_the_new_layer(code, request)
    assert "layout.layer(10, 0)" in out and what.startswith("layer() -> layer(10, 0)")
    layout = kdb.Layout()
    cell = layout.create_cell("TOP")
    exec(compile(out, "<fixed>", "exec"), {"layout": layout, "cell": cell, "pya": kdb})
    (li,) = layout.layer_indexes()
    assert (layout.get_info(li).layer, layout.get_info(li).datatype) == (10, 0)
    assert layout.cell("PAD").shapes(li).size() == 1
    assert name_the_new_layer(code, "copy layer 1/0 to layer 2/0")[1] is None       # two layers: which one?
    assert name_the_new_layer("li = layout.layer(10, 0)\n", request)[1] is None
    assert name_the_new_layer("import gdsfactory as gf\nc = gf.Component()\nc.layer()\n", request)[1] is None


def test_a_cell_placed_inside_itself_is_placed_in_the_active_cell():
    """pad.insert(DCellInstArray(pad.cell_index(), ...)) is a recursive hierarchy; in a script on the
    open layout it goes into the active cell, and the fixed script builds the requested hierarchy."""
    import klayout.db as kdb

    code = ('pad = layout.create_cell("PAD")\npad.shapes(layout.layer(10, 0)).insert(pya.DBox(-50, -50, 50, 50))\n'
            "pad.insert(pya.DCellInstArray(pad.cell_index(), pya.DTrans(pya.DVector(200, 0))))\n")
    out, what = fixes.fix_cell_placed_in_itself(code, "interactive")
    assert what == "pad.insert -> cell.insert (the script placed pad inside itself)"
    assert "cell.insert(pya.DCellInstArray(pad.cell_index()" in out
    layout = kdb.Layout()
    top = layout.create_cell("TOP")
    exec(compile(out, "<fixed>", "exec"), {"layout": layout, "cell": top, "pya": kdb})
    (inst,) = list(top.each_inst())
    assert inst.cell.name == "PAD" and inst.dcplx_trans.disp == kdb.DVector(200, 0)
    assert fixes.fix_cell_placed_in_itself(code, "sandbox")[1] is None
    own_macro = "layout = pya.CellView.active().layout()\n" + code    # a user's macro defines its layout itself
    assert fixes.fix_cell_placed_in_itself(own_macro, "interactive")[1] is None
    fine = "pad = layout.create_cell('PAD')\ncell.insert(pya.DCellInstArray(pad.cell_index(), pya.DTrans()))\n"
    assert fixes.fix_cell_placed_in_itself(fine, "interactive")[1] is None


def test_a_method_written_into_a_file_is_called():
    """A real m08 answer wrote ``"width_um": bbox.width`` (the file held "<built-in method width of
    DBox ...>") for three rounds; every uncalled read of that attribute becomes a call."""
    from pic_copilot.execution.report import ExecutionReport

    rep = ExecutionReport.from_dict({"ok": True, "files": [{"path": "s.csv", "kind": "table", "summary": {
        "object_reprs": ["<built-in method width of DBox object at 0x7f8>", "<bound method Thing.height of <x>>"]}}]})
    code = ("bbox = c.bbox()\narea = bbox.width() * bbox.height()\n"
            'rows.append({"w_um": bbox.width, "h_um": bbox.height, "name": bbox.name})\n')
    fixed, done = fixes.call_methods_written_as_values(code, rep)
    assert fixed == ("bbox = c.bbox()\narea = bbox.width() * bbox.height()\n"
                     'rows.append({"w_um": bbox.width(), "h_um": bbox.height(), "name": bbox.name})\n'), fixed
    assert "bbox.width()" in done[0] and "bbox.height()" in done[0]
    # no method in any file, or nothing left uncalled: nothing
    assert fixes.call_methods_written_as_values(code, ExecutionReport.from_dict({"ok": True, "files": []})) == (code, [])
    assert fixes.call_methods_written_as_values(fixed, rep) == (fixed, [])


def test_the_variant_the_request_names_replaces_the_copied_factory():
    """A real m01 run kept a recipe's ``bend_euler`` for "a 90° circular bend" three rounds: the
    family's variant the request names next to the family's word is used, with the keywords it
    does not take dropped. Installed gdsfactory, real symbol index."""
    from pic_copilot.agents import retrieve

    index = retrieve.symbol_index()
    req = "Draw a 30 µm straight followed by a 90° circular bend of 10 µm radius attached to its output."
    code = "import gdsfactory as gf\nb = c << gf.components.bend_euler(\n    cross_section=xs, p=0.5)  # µm\nt = (1,)\n"
    fixed, said = fixes.use_the_named_variant(code, req, index)
    assert fixed == "import gdsfactory as gf\nb = c << gf.components.bend_circular(cross_section=xs)  # µm\nt = (1,)\n", fixed
    assert "bend_euler -> bend_circular" in said and "dropped p" in said
    two = "import gdsfactory as gf\nm = gf.c.mmi1x2()\nr = gf.routing.route_single(c, a, b, bend=gf.components.bend_euler)\n"
    fixed, _ = fixes.use_the_named_variant(two, "Place a 2 x 2 MMI and route it with circular bends.", index)
    assert "gf.c.mmi2x2()" in fixed and "bend=gf.components.bend_circular" in fixed
    # the called variant named too, no variant word next to the family's word, one-word factories: nothing
    for request, script in (("an euler bend next to a circular ring", "import gdsfactory as gf\ngf.components.bend_euler()\n"),
                            ("Place the PDK's 1x2 MMIs.", "import gdsfactory as gf\ngf.components.mmi1x2()\n"),
                            ("a circular shape", "import gdsfactory as gf\ngf.components.bend_euler()\n"),
                            ("a circular bend", "import gdsfactory as gf\ngf.components.straight()\n"),
                            # a real m04 answer: an array of couplers is no variant of one TE coupler
                            ("four of the PDK's default TE grating couplers in a row",
                             "import gdsfactory as gf\ngf.components.grating_coupler_array(n=4, pitch=127)\n"),
                            ("four of the PDK's default TE grating couplers in a row",
                             "import gdsfactory as gf\ngf.components.grating_coupler_array()\n")):
        assert fixes.use_the_named_variant(script, request, index) == (script, None), request
    assert fixes.use_the_named_variant(code, req, None) == (code, None)


def test_a_name_looked_for_in_the_wrong_module_is_taken_from_the_module_that_has_it():
    """A real m02 run: ``gf.routing.straight`` in eight of nine candidates, each told "Did you mean:
    gdsfactory.components.straight, gdsfactory.path.straight ...". Real API check and index."""
    from pic_copilot.checks.static import static_findings
    from pic_copilot.retrieval import api

    idx = api.symbol_index()

    def fix(code):
        return fixes.use_the_module_that_has_it(code, static_findings(code, "sandbox", idx)[0])

    fixed, done = fix("import gdsfactory as gf\nr = gf.components.ring_single(straight=gf.routing.straight)\n")
    assert fixed == "import gdsfactory as gf\nr = gf.components.ring_single(straight=gf.components.straight)\n"
    assert done == ["gf.routing.straight -> gf.components.straight (the name lives there)"]
    fixed, _ = fix("import gdsfactory as gf\nfrom gdsfactory import bend_euler, Component\nb = bend_euler()\n")
    assert "from gdsfactory import Component\nfrom gdsfactory.components import bend_euler\n" in fixed
    # an object the index does not list: the package's modules say where it lives (a real m04 gf.PDK)
    assert fix("import gdsfactory as gf\ngf.PDK.activate()\n") == (
        "import gdsfactory as gf\ngf.gpdk.PDK.activate()\n", ["gf.PDK -> gf.gpdk.PDK (the name lives there)"])
    # a name no module has, or a script the check finds nothing in: nothing
    for code in ("import gdsfactory as gf\nx = gf.routing.no_such_router()\n",
                 "import gdsfactory as gf\ngf.write_gds(c, 'mmi.gds')\n",   # only a method of a class has the name
                 "import gdsfactory as gf\nx = gf.components.straight()\n"):
        assert fix(code) == (code, [])


def test_whole_floats_in_range_are_made_ints():
    """``range(0, 100, TILE)`` with ``TILE = 25.0`` (a real m10 run, four candidates): the whole
    float becomes int(); a name bound twice, a shadowed range or whole numbers stay."""
    code = "TILE = 25.0\nfor x in range(0, 100.0, TILE):\n    print(x)\n"
    fixed, what = fixes.fix_floats_in_range(code, "sandbox")
    assert fixed == "TILE = 25.0\nfor x in range(0, int(100.0), int(TILE)):\n    print(x)\n" and "int(TILE)" in what
    exec(compile(fixed, "<fixed>", "exec"), {"print": lambda *_: None})
    for same in ("N = 4.0\nN += 1\nrange(N)\n", "def range(*a):\n    return a\nrange(0, 4.5)\n", "range(0, 10, 2)\n",
                 "STEP = 0.5\nrange(0, 10, int(STEP * 2))\n", "range(0, f(2.5))\n"):
        assert fixes.fix_floats_in_range(same, "sandbox") == (same, None), same


def test_a_range_with_a_fractional_float_counts_in_floats():
    """a17 (two sessions): ``for x in range(0, 64, VIA_GRID)`` with ``VIA_GRID = 0.4`` failed with
    "'float' object cannot be interpreted as an integer". The range becomes the list of values
    range() would give if it took floats: start included, stop excluded, rounding forgiven."""
    code = ("VIA_GRID = 0.4\nX0 = 1.5\nxs = [x for x in range(0, 64, VIA_GRID)]\nys = list(range(X0, X0 + 2))\n"
            "zs = list(range(10, 0, -2.5))\nws = list(range(2.5))\n_i = 3\n")
    fixed, what = fixes.fix_floats_in_range(code, "sandbox")
    assert "range(0, 64, VIA_GRID)" in what and "_i1 * VIA_GRID" in fixed, fixed
    env: dict = {}
    exec(compile(fixed, "<fixed>", "exec"), env)
    assert len(env["xs"]) == 160 and env["xs"][0] == 0 and abs(env["xs"][-1] - 63.6) < 1e-9
    assert env["ys"] == [1.5, 2.5]
    assert env["zs"] == [10, 7.5, 5.0, 2.5]
    assert env["ws"] == [0, 1, 2]
    # the whole-float fix and the float count in one script
    both, what = fixes.fix_floats_in_range("for a in range(4.0):\n    for b in range(0, 1, 0.25):\n        pass\n", "sandbox")
    assert both == ("for a in range(int(4.0)):\n    for b in [_i * 0.25 for _i in range(int(1 / 0.25 + 1 - 1e-6))]:\n"
                    "        pass\n"), both
    assert "int(4.0)" in what and "counts in floats" in what


def test_point_tuples_given_to_klayout_shapes_become_points(tmp_path):
    """a11 (sessions 17 and 19): ``pya.DPath([(0, y), (2000, y), ...], width, 0, 0)`` fails in KLayout
    0.28 ("expected argument of class DPoint, got tuple"). The fixed script runs in the real
    KLayout application (0.28.5, where the tuples fail), and draws what was meant."""
    code = ("y = 5.0\npts = [(0, y), (20, y)]\ncell.shapes(layout.layer(1, 0)).insert(pya.DPath(pts, 0.5, 0, 0))\n"
            "cell.shapes(layout.layer(1, 0)).insert(pya.DPolygon([(0, 0), (10, 0), (10, 2)]))\n"
            "cell.shapes(layout.layer(2, 0)).insert(pya.Polygon([ (0, 0), (100, 0), (0, 100) ]))\n")
    fixed, what = fixes.fix_point_tuples_in_shapes(code, "interactive")
    assert "pts = [pya.DPoint(0, y), pya.DPoint(20, y)]" in fixed and "pya.Point(100, 0)" in fixed, fixed
    assert "DPath's points as pya.DPoint" in what
    for same, mode in ((code, "sandbox"), ("pts = [(0, 0)]\npts = []\npya.DPath(pts, 1)\n", "interactive"),
                       ("pya.DPolygon([(0, 0, 1)])\n", "interactive"), ("pya.DPolygon(box)\n", "interactive")):
        assert fixes.fix_point_tuples_in_shapes(same, mode) == (same, None), same
    area = "print('AREA', sum(s.polygon.area() for li in layout.layer_indexes() for s in cell.shapes(li).each() if s.polygon))\n"
    out = run_in_klayout(tmp_path, code + area)
    assert "got tuple" in out or "No overload" in out, out
    # 20 x 0.5 um path + 10 x 2 / 2 um triangle + 100 x 100 / 2 dbu triangle, in dbu^2
    out = run_in_klayout(tmp_path, fixed + area)
    assert "AREA 20005000" in out, out


def test_keyword_arguments_to_klayout_calls_are_given_by_position_in_klayout(tmp_path):
    """KLayout 0.28.5's Python takes no keyword arguments ("DText.__init__() takes no keyword
    arguments": 47 times in real a11/a09/a21 runs). Constructors and methods of known KLayout type
    get them by position from the installed signatures, a skipped parameter its default; the
    script fails in the real KLayout before and runs after. Python's own calls, the sandbox, and
    keywords no signature has stay as they are."""
    code = ("li = layout.layer(1, 0)\ncell.shapes(li).insert(pya.DBox(left=0, bottom=0, right=20, top=0.5))\n"
            "cell.shapes(li).insert(pya.DText(string='W500', x=0, y=1))\n"
            "r = pya.Region(cell.begin_shapes_rec(li))\nep = r.width_check(d=600, metrics=pya.Region.Projection)\n"
            "rows = sorted([3, 1], key=lambda v: -v)\nrows.sort(key=lambda v: v)\n"
            "print('EP', ep.count(), 'TEXTS', [s.text.string for s in cell.shapes(li).each() if s.is_text()], rows)\n")
    fixed, what = fixes.fix_klayout_keyword_arguments(code, "interactive")
    assert "pya.DBox(0, 0, 20, 0.5)" in fixed and "pya.DText('W500', 0, 1)" in fixed, fixed
    assert "r.width_check(600, False, pya.Region.Projection)" in fixed and "rows.sort(key=lambda v: v)" in fixed
    assert "sorted([3, 1], key=lambda v: -v)" in fixed and "no keyword arguments" in what
    for same, mode in ((code, "sandbox"), ("t = pya.DText(text='A', x=0, y=0)\n", "interactive"),
                       ("import json\njson.dump({}, open('a.json', 'w'), indent=2)\n", "interactive")):
        assert fixes.fix_klayout_keyword_arguments(same, mode) == (same, None), same
    out = run_in_klayout(tmp_path, code)
    assert "takes no keyword arguments" in out, out
    # the 0.5 um wide box breaks a 0.6 um width check on its two long edges (one edge pair)
    out = run_in_klayout(tmp_path, fixed)
    assert "EP 1 TEXTS ['W500'] [1, 3]" in out, out


def test_one_signature_parser_reads_both_kinds_of_klayout_signature():
    """The keyword-argument fix and the given-twice check read parameters with one parser: pya
    help signatures and the pip module's stub signatures, names with their defaults."""
    assert checks.signature_params("[const] EdgePairs width_check (unsigned int d, bool whole_edges = false, "
                                   "Region::Metrics metrics = Euclidian)") == [
        ("d", None), ("whole_edges", "False"), ("metrics", "?")]
    assert checks.signature_params("klayout.db.Box.moved(dx: Optional[int]=..., dy: Optional[int]=...) -> Box") == [
        ("dx", "?"), ("dy", "?")]
    assert checks.signature_params("new Region ptr make_layer (unsigned int layer_index, string name = )") == [
        ("layer_index", None), ("name", "?")]
    assert checks.signature_params("[static] string pack (map<string,string> path_to_keys)") is None
    assert checks.signature_params("int num_points") == [] and checks.signature_params("[const] Box bbox") == []
    assert checks._positional_names("void insert (const DBox box, bool x = true)") == ["box", "x"]


def test_a_klayout_constant_without_its_enum_class_gets_it():
    """a03 (31 findings in history): ``width_check(d, False, Euclidian)`` and ``klayout.db.Projection``;
    the constant lives in ``Metrics``. The fixed scripts run (pip klayout here; pya in KLayout)."""
    import klayout.db as kdb

    box = "r = {m}Region({m}Box(0, 0, 100, 100))\n"
    cases = [("import klayout.db\n" + box.format(m="klayout.db.") + "n = r.width_check(200, False, klayout.db.Projection).count()\n",
              "klayout.db.Metrics.Projection"),
             ("import klayout.db as kdb\n" + box.format(m="kdb.") + "n = r.width_check(200, False, Euclidian).count()\n",
              "kdb.Metrics.Euclidian"),
             ("from klayout.db import Region, Box\n" + box.format(m="") + "n = r.width_check(200, False, Square).count()\n",
              "from klayout.db import Metrics")]
    for code, expected in cases:
        fixed, what = fixes.fix_klayout_constants_without_their_class(code, "sandbox")
        assert expected in fixed and what, fixed
        env: dict = {}
        exec(compile(fixed, "<fixed>", "exec"), env)
        assert env["n"] == 2, (fixed, env["n"])   # the two 100 um sides closer than 200
    fixed, _ = fixes.fix_klayout_constants_without_their_class("n = r.space_check(5, False, Euclidian)\n", "interactive")
    assert fixed == "n = r.space_check(5, False, pya.Metrics.Euclidian)\n"
    # a name the script binds, a constant several enums have (R90), a real module member, a bare name
    # a star import may give: unchanged
    for same in ("Euclidian = 3\nprint(Euclidian)\n", "t = pya.DTrans(R90)\n", "b = kdb.Box(0, 0, 1, 1)\n",
                 "from gdsfactory import *\nprint(Square)\n"):
        assert fixes.fix_klayout_constants_without_their_class(same, "interactive") == (same, None), same
    assert kdb.Metrics.Euclidian == kdb.Region.Euclidian


def test_a_klayout_class_imported_from_an_invented_module_comes_from_klayout(tmp_path):
    """``from gdsfactory.layout import SaveLayoutOptions`` (gdsfactory.layout in real m09, a03, a09,
    a19, b08 candidates): the invented gdsfactory import alone sent an edit of the open layout to
    the engine, where the layout.write was then dropped. The class now comes from KLayout, the edit
    stays whole, and the fixed script writes the file."""
    import klayout.db as kdb

    code = ("from gdsfactory.layout import SaveLayoutOptions\nopts = SaveLayoutOptions()\nopts.format = 'OASIS'\n"
            f"layout.write({str(tmp_path / 'x.oas')!r}, opts)\n")
    fixed, done = fixes.apply_fixes(code, "interactive")
    assert fixed.startswith("from pya import SaveLayoutOptions\n") and "layout.write(" in fixed, (fixed, done)
    assert done and "SaveLayoutOptions from pya" in done[0]
    layout = kdb.Layout()
    layout.create_cell("TOP").shapes(layout.layer(1, 0)).insert(kdb.Box(0, 0, 10, 10))
    exec(compile(fixed, "<fixed>", "exec"), {"layout": layout})
    back = kdb.Layout()
    back.read(str(tmp_path / "x.oas"))
    assert back.top_cell().name == "TOP"
    # a sandbox script gets the klayout module; names KLayout lacks stay; real modules are left alone
    out, _ = fixes.import_klayout_classes_from_klayout("import gdsfactory as gf\nfrom gdsfactory.layout import Layout, flatten\n", "sandbox")
    assert out == "import gdsfactory as gf\nfrom gdsfactory.layout import flatten\nfrom klayout.db import Layout\n", out
    for same in ("from gdsfactory.layout import flatten\n", "from klayout.db import Layout\n",
                 "from gdsfactory.components import straight\n"):
        assert fixes.import_klayout_classes_from_klayout(same, "interactive") == (same, None), same


def test_a_bare_klayout_class_name_is_imported_from_its_module():
    """``Cell``, ``DBox``, ``ReportDatabase`` written bare (7 of 90 undefined names in session 17's
    advanced candidates): imported from pya in KLayout, from klayout.db / klayout.rdb in the sandbox;
    the fixed sandbox script runs. A capitalised name KLayout does not have gets nothing."""
    from pic_copilot.checks.static import pyflakes_check

    code = "import klayout.db as kdb\nb = DBox(0, 0, 1, 2)\ndb = ReportDatabase('drc')\nprint(b.height(), Nope)\n"
    fixed, added = fixes.add_missing_imports(code, pyflakes_check(code), "sandbox")
    assert added == ["from klayout.db import DBox", "from klayout.rdb import ReportDatabase"], added
    run = subprocess.run([sys.executable, "-c", fixed.replace(", Nope", "")], capture_output=True, text=True, check=True)
    assert run.stdout == "2.0\n"
    box = "cell.shapes(layout.layer(1, 0)).insert(Box(0, 0, 10, 10))\n"
    assert fixes.add_missing_imports(box, pyflakes_check(box, checks.BRIDGE_GLOBALS), "interactive")[1] == ["from pya import Box"]

def test_dict_rows_given_to_csv_writer_become_their_values(tmp_path):
    """A real a02 run appended ``{"delta_length_um": dl, ...}`` rows and gave them to csv.writer, which
    writes a dict's keys: every data row repeated the header and the pipeline accepted it. The rows
    become the dicts' values in the written header's order; the fixed script is run and its CSV read."""
    import csv

    code = ('import csv\nrows = []\nfor dl in (20.0, 40.0):\n    rows.append({"fsr_nm": 30 / dl, "delta_length_um": dl})\n'
            'with open("fsr.csv", "w", newline="") as f:\n    w = csv.writer(f)\n'
            '    w.writerow(["delta_length_um", "fsr_nm"])\n    w.writerows(rows)\n'
            '    w.writerow({"delta_length_um": 80.0, "fsr_nm": 0.375})\n')
    fixed, what = fixes.fix_csv_writer_given_dicts(code, "sandbox")
    assert "writerows(rows)" in what and "writerow(" in what, what
    subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, check=True)
    got = list(csv.reader(open(tmp_path / "fsr.csv")))
    assert got == [["delta_length_um", "fsr_nm"], ["20.0", "1.5"], ["40.0", "0.75"], ["80.0", "0.375"]], got
    # keys that are not the header's, or no header: the dicts' own order
    other = code.replace('"fsr_nm": 30 / dl', '"fsr": 30 / dl')
    assert "list(r.values())" in fixes.fix_csv_writer_given_dicts(other, "sandbox")[0]
    # rows that are lists, a DictWriter, or no csv writer at all: unchanged
    for same in ('import csv\nrows = [[1, 2]]\ncsv.writer(open("a.csv", "w")).writerows(rows)\n',
                 'import csv\nrows = [{"a": 1}]\nw = csv.DictWriter(open("a.csv", "w"), ["a"])\nw.writerows(rows)\n',
                 'rows = [{"a": 1}]\nlog.writerows(rows)\n'):
        assert fixes.fix_csv_writer_given_dicts(same, "sandbox") == (same, None), same

def test_the_one_function_a_script_never_calls_is_called_at_its_end(tmp_path):
    """Real a10 and a08 scripts put all their work in ``def flatten_hierarchy(): ...`` and never called
    it ("file 'hierarchy.json' was not written", three rounds). The call is added, with the parameters
    the script (or the open layout's globals) defines; the fixed script is run. A script that does
    work at top level, calls the function, or cannot supply a parameter is left alone."""
    code = ('import json\nOUT = "a.json"\n\ndef helper(x):\n    return x * 2\n\n'
            'def write(OUT, scale=1):\n    json.dump({"v": helper(3) * scale}, open(OUT, "w"))\n')
    fixed, what = fixes.fix_function_never_called(code, "sandbox")
    assert fixed.endswith("\n\nwrite(OUT)\n") and "write(OUT)" in what, fixed
    subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, check=True)
    assert json.loads((tmp_path / "a.json").read_text()) == {"v": 6}
    box = "def add_box(layout, cell):\n    cell.shapes(layout.layer(1, 0)).insert(pya.Box(0, 0, 10, 10))\n"
    assert fixes.fix_function_never_called(box, "interactive")[0].endswith("add_box(layout, cell)\n")
    for same in (code + "write(OUT)\n", code + "for i in range(2):\n    print(i)\n",
                 code.replace("def write(OUT,", "def write(path,")):
        assert fixes.fix_function_never_called(same, "sandbox") == (same, None), same
    assert fixes.fix_function_never_called(box, "sandbox") == (box, None)   # no open layout in the sandbox

def test_labels_on_the_default_text_layer_are_moved_to_the_requested_one():
    """A real m04 candidate put GC0..GC3 with add_label on 66/0 (gdsfactory's default) for "on layer
    10/0": the run shows all of them on one other layer, so the add_label calls that set no layer, or
    that one, get 10/0; a label nobody asked for keeps its layer."""
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    rep = ExecutionReport.from_dict({"ok": True, "files": [{"path": "a.gds", "kind": "layout", "summary": {
        "texts": {"66/0": ["GC0", "GC1", "NOTE"], "1/0": ["X"]}}}]})
    want = OutputContract(labels={"10/0": ["GC0", "GC1"]})
    code = ('for i, r in enumerate(refs):\n    c.add_label(f"GC{i}", position=r.ports["o1"].center)\n'
            'c.add_label("NOTE", position=(0, 0), layer="TEXT")\nc.add_label("GC1", (0, 0), layer="TEXT")\n')
    fixed, done = fixes.bind_label_layer(code, want, rep)
    assert fixed == ('for i, r in enumerate(refs):\n    c.add_label(f"GC{i}", position=r.ports["o1"].center, layer=(10, 0))\n'
                     'c.add_label("NOTE", position=(0, 0), layer="TEXT")\nc.add_label("GC1", (0, 0), layer=(10, 0))\n'), fixed
    assert "on 66/0" in done[0]
    # the labels already there, or spread over two layers: nothing
    assert fixes.bind_label_layer(code, OutputContract(labels={"66/0": ["GC0"]}), rep) == (code, [])
    assert fixes.bind_label_layer(code, OutputContract(labels={"10/0": ["GC0", "X"]}), rep) == (code, [])


def test_an_import_that_can_only_fail_or_hides_the_open_layouts_cell_is_dropped():
    """A real m09 candidate was right but for ``from gdsfactory import get_template, cell`` at its top:
    get_template does not exist and cell hid the active cell it inserted into. Real API check."""
    from pic_copilot.checks.static import static_findings
    from pic_copilot.retrieval import api

    idx = api.symbol_index()

    def fix(code, mode="interactive"):
        return fixes.drop_imports_that_break_the_script(code, mode, static_findings(code, mode, idx)[0])

    code = "import csv\nfrom gdsfactory import get_template, cell\nchild = layout.cell('UNIT')\ncell.insert(arr)\n"
    fixed, done = fix(code)
    assert fixed == "import csv\nchild = layout.cell('UNIT')\ncell.insert(arr)\n" and "gdsfactory.get_template" in done[0]
    fixed, _ = fix("from gdsfactory import get_template, Component\nc = Component()\n", "sandbox")
    assert fixed == "from gdsfactory import Component\nc = Component()\n"
    # a10 (advanced): a manual page's id imported as a module; a star or unused import of it goes
    page = "from klayout.guide.programming.database_api import *\nimport json\nprint(cell.name)\n"
    fixed, done = fix(page)
    assert fixed == "import json\nprint(cell.name)\n" and "klayout.guide.programming.database_api.*" in done[0]
    used = "from klayout.guide.programming.database_api import top\nprint(top)\n"
    assert fix(used) == (used, [])   # its name is used: the revision decides
    # gdsfactory's cell decorator used as one, a script with its own cell, a sandbox script's cell: kept
    for code, mode in (("from gdsfactory import cell\n@cell\ndef ring():\n    pass\n", "interactive"),
                       ("from gdsfactory import cell\nlayout = pya.Layout()\ncell = layout.top_cell()\n", "interactive"),
                       ("from gdsfactory import cell\nprint(cell)\n", "sandbox")):
        assert fix(code, mode) == (code, []), code
    # a06/a07 (advanced): an edit of the open layout that imports gdsfactory for nothing is routed to
    # the engine by that import, where layout and dbu are undefined; the unused imports go, used ones stay
    edit = ("import pya\nimport json\nimport gdsfactory as gf\nfrom gdsfactory import Port, __version__\n"
            "from gdsfactory.pdk import get_layer\nli = layout.layer(1, 0)\nprint(get_layer, dbu)\n")
    fixed, done = fix(edit)
    assert fixed == "import pya\nimport json\nfrom gdsfactory.pdk import get_layer\nli = layout.layer(1, 0)\nprint(get_layer, dbu)\n"
    assert "gdsfactory.Port" in done[0] and "gdsfactory," in done[0]
    # a star import of gdsfactory (a17, a20) goes when the script uses none of its names; the open
    # layout's cell is not one of them even though gdsfactory has a cell
    star = "from gdsfactory import *\nli = layout.layer(1, 0)\ncell.shapes(li).insert(pya.DBox(0, 0, 1, 1))\n"
    assert fix(star)[0] == star.split("\n", 1)[1]
    used = star + "c = Component()\n"
    assert fix(used) == (used, [])
    # one the script's own cell replaces at once is unused too
    assert fix("from gdsfactory import cell\ncell = layout.top_cell()\n")[0] == "cell = layout.top_cell()\n"
    # the same imports in a script that makes its own layout, or in a sandbox script: kept
    for code, mode in ((edit.replace("li =", "layout = pya.Layout()\ndbu = layout.dbu\nli ="), "interactive"), (edit, "sandbox")):
        assert fix(code, mode) == (code, []), code


def test_an_open_layout_edit_that_imports_gdsfactory_is_told_why_layout_is_undefined():
    """Real a07/a09 candidates used gdsfactory's get_layer in a pya edit of the open layout: the
    import sends the script to the engine, where pyflakes reports ``layout`` undefined and the model
    then made a new Layout. The finding names the import instead. Real pyflakes and API check."""
    from pic_copilot.checks.static import static_findings
    from pic_copilot.retrieval import api

    code = ("import pya\nfrom gdsfactory import get_layer\nli = layout.layer(*get_layer('WG'))\n"
            "cell.shapes(li).insert(pya.DBox(0, 0, 1, 1))\nprint(dbu, undefined_thing)\n")
    found = static_findings(code, "interactive", api.symbol_index())[0]
    messages = [f["message"] for f in found]
    assert not any(re.search(r"undefined name '(layout|cell|dbu)'", m) for m in messages), messages
    assert any("undefined name 'undefined_thing'" in m for m in messages)
    told = [m for m in messages if "makes this script run outside KLayout" in m]
    assert len(told) == 1 and told[0].startswith("line 2:") and "cell, dbu, layout" in told[0] and "gdsfactory" in told[0]
    # the same script in the sandbox, or an edit that makes its own layout: the usual findings
    assert any("undefined name 'layout'" in f["message"] for f in static_findings(code, "sandbox", api.symbol_index())[0])
    own = code.replace("li =", "layout = pya.Layout()\ncell = layout.create_cell('T')\ndbu = 0.001\nli =")
    assert not any("outside KLayout" in f["message"] for f in static_findings(own, "interactive", api.symbol_index())[0])


def test_the_open_layout_looked_up_through_an_invented_api_is_dropped():
    """Warm main-job requests in the GUI ("create a 1x2 MMI splitter with gdsfactory and place it in
    the open layout") lost their first candidate to ``layout = gf.get_layout()`` and
    ``layout = gf.read_layout(...)``. Real API check; the rest of each script is a real answer's."""
    from pic_copilot.checks.static import static_findings
    from pic_copilot.retrieval import api

    idx = api.symbol_index()

    def fix(code, mode="interactive"):
        return fixes.drop_invented_open_layout_lookups(code, mode, static_findings(code, mode, idx)[0])

    body = ("c = gf.Component('MMI1X2_SPLIT')\nref = c << gf.components.mmi1x2()\nc.add_ports(ref.ports)\n"
            "c.write_gds('mmi1x2_new.gds', with_metadata=False)\n")
    head = "import gdsfactory as gf\ngf.gpdk.PDK.activate()\n"
    code = head + "# the open layout\nlayout = gf.get_layout()\ncell = layout.top_cell\n\n" + body
    fixed, done = fix(code)
    assert fixed == head + "# the open layout\n\n" + body and len(done) == 2 and "gf.get_layout()" in done[0]
    # a gdsfactory script runs in the engine, where the open layout is no object: the statements that
    # only act on it go too (a warm main-job candidate: layout.place(c, (0, 0)), layout.write_gds(...);
    # another: layout.add(c), layout.active_cell = "TOP")
    acting = head + "layout = gf.read_layout('existing_layout.gds')\n" + body + "layout.place(c, (0, 0))\nlayout.write('x.gds')\n"
    fixed, done = fix(acting)
    assert fixed == head + body and len(done) == 3 and "placed in the open layout for it" in done[-1]
    acting = "from gdsfactory.components import mmi1x2\nc = mmi1x2()\nlayout.add(c)\nlayout.active_cell = 'TOP'\nc.write_gds('m.gds')\n"
    assert fix(acting)[0] == "from gdsfactory.components import mmi1x2\nc = mmi1x2()\nc.write_gds('m.gds')\n"
    # a script that makes nothing with gdsfactory has no component to place: its edits stay
    idle = "from gdsfactory.layout import flatten\ncell.flatten(True)\nlayout.write('x.gds')\n"
    assert fix(idle) == (idle, [])
    # a value read from it that the script goes on to use: left for the revision
    used = head + "layout = gf.read_layout('existing_layout.gds')\nn = len(layout.cells())\n" + body + "print(n)\n"
    assert fix(used) == (used, [])
    # a pya script runs in KLayout: the name is then the open layout's own
    pya_code = "import pya\nlayout = pya.current_layout()\nlayout.cell('TOP').shapes(layout.layer(1, 0))\n"
    fixed, done = fix(pya_code)
    assert fixed == "import pya\nlayout.cell('TOP').shapes(layout.layer(1, 0))\n" and done
    # an API that exists, a sandbox script, or another name: nothing
    for code, mode in ((head + "layout = gf.Component('X')\n" + body, "interactive"),
                       (head + "layout = gf.get_layout()\n" + body, "sandbox"),
                       (head + "lay = gf.get_layout()\n" + body, "interactive")):
        assert fix(code, mode) == (code, []), code


def test_a_loop_variable_hiding_the_component_it_places_into_is_renamed():
    """A real m02 candidate: ``c = gf.Component(...)`` then ``for c in range(3): ref = c << ring``
    failed on "'int' << 'Component'" for two rounds."""
    code = ("c = gf.Component('A')\nfor r in range(4):\n    for c in range(3):\n        ref = c << ring\n"
            "        ref.move((60 * c, 40 * r))\n        ring.name = f'R{r * 3 + c}'\n        c.add_port(f'o{c}', port=ref.ports['o1'])\n"
            "c.write_gds('a.gds')\n")
    fixed, what = fixes.fix_loop_variable_hiding_the_component(code, "sandbox")
    assert fixed == ("c = gf.Component('A')\nfor r in range(4):\n    for c_i in range(3):\n        ref = c << ring\n"
                     "        ref.move((60 * c_i, 40 * r))\n        ring.name = f'R{r * 3 + c_i}'\n"
                     "        c.add_port(f'o{c_i}', port=ref.ports['o1'])\nc.write_gds('a.gds')\n"), fixed
    assert "c -> c_i" in what
    # a loop that does not place into it, a name that is no component, or a loop that rebinds it: nothing
    for same in ("c = gf.Component('A')\nfor c in range(3):\n    print(c)\n",
                 "c = 3\nfor c in range(3):\n    ref = c << ring\n",
                 "c = gf.Component('A')\nfor c in cells:\n    c = gf.Component('B')\n    ref = c << ring\n"):
        assert fixes.fix_loop_variable_hiding_the_component(same, "sandbox") == (same, None), same


def test_a_definition_of_the_worked_example_the_script_uses_without_setting_is_restored():
    """Real m10 candidates used the density recipe's OUTLINE, MARKER and MAX_D without the lines that
    set them (eight candidates of one run): the example's lines go back after the imports; a computed
    value goes back just before its first use, when what it reads is set by then."""
    example = ("import json\n\nLAYER = (1, 0)\nOUTLINE = (99, 0)   # die outline\nMAX_D, MIN_D = 0.8, 0.2\n"
               "MARKER = (103, 0)\nshapes = pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER)))\n")
    code = ("import csv\nLAYER = (1, 0)\narea = pya.Region(cell.begin_shapes_rec(layout.layer(*OUTLINE))).bbox()\n"
            "if d > MAX_D or d < MIN_D:\n    cell.shapes(layout.layer(*MARKER)).insert(tile)\nprint(shapes)\n")
    bridge = ("pya", "layout", "cell", "view", "cellview", "dbu", "selection", "workdir")
    fixed, lines = fixes.restore_example_definitions(code, [example], bridge)
    assert lines == ["OUTLINE = (99, 0)", "MAX_D = 0.8", "MIN_D = 0.2", "MARKER = (103, 0)",
                     "shapes = pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER)))"], lines
    assert fixed.startswith("import csv\nOUTLINE = (99, 0)\nMAX_D = 0.8\nMIN_D = 0.2\nMARKER = (103, 0)\nLAYER = (1, 0)\n")
    assert fixed.endswith("shapes = pya.Region(cell.begin_shapes_rec(layout.layer(*LAYER)))\nprint(shapes)\n")
    # nothing undefined, no example, or the name is a bridge global: nothing
    assert fixes.restore_example_definitions(fixed, [example], bridge) == (fixed, [])
    assert fixes.restore_example_definitions(code, [], bridge) == (code, [])
    assert fixes.restore_example_definitions("print(cell)\n", ["cell = 3\n"], bridge) == ("print(cell)\n", [])


def test_an_example_circuit_import_and_function_come_back_with_what_they_need():
    """A real a02 candidate called the SAX recipe's ``mzi`` circuit and ``find_peaks`` without the
    netlist, the circuit, the waveguide settings or the import; another used a recipe's helper function."""
    example = ("import numpy as np\nimport sax\nfrom scipy.signal import find_peaks\n\nNEFF, NG = 2.4, 4.2\n"
               "netlist = {\n    'instances': {'a': 'straight'},\n}\n"
               "mzi, _ = sax.circuit(netlist, models={'straight': sax.models.straight})\n"
               "wg = {'neff': NEFF, 'ng': NG}\n\ndef dips(t):\n    return find_peaks(-t)[0]\n")
    code = ("import numpy as np\nwl = np.linspace(1.5, 1.6, 11)\nL = 10.0\n"
            "s = mzi(wl=wl, a={**wg, 'length': L})\nprint(dips(np.abs(s['in0', 'out0'])))\n")
    fixed, lines = fixes.restore_example_definitions(code, [example])
    assert fixed == ("import numpy as np\nimport sax\nfrom scipy.signal import find_peaks\nNEFF = 2.4\nNG = 4.2\n"
                     "wl = np.linspace(1.5, 1.6, 11)\nL = 10.0\n"
                     "netlist = {\n    'instances': {'a': 'straight'},\n}\n"
                     "mzi, _ = sax.circuit(netlist, models={'straight': sax.models.straight})\n"
                     "wg = {'neff': NEFF, 'ng': NG}\ndef dips(t):\n    return find_peaks(-t)[0]\n"
                     "s = mzi(wl=wl, a={**wg, 'length': L})\nprint(dips(np.abs(s['in0', 'out0'])))\n"), fixed
    assert "netlist = { ..." in lines and "def dips(t): ..." in lines
    compile(fixed, "<fixed>", "exec")
    # a computed value that reads what the script sets only after its first use: constants only
    late = "print(half)\nL = 4.0\nprint(K)\n"
    fixed, lines = fixes.restore_example_definitions(late, ["K = 3\nhalf = L / 2\n"])
    assert fixed == "K = 3\nprint(half)\nL = 4.0\nprint(K)\n" and lines == ["K = 3"]
    # a definition that needs a name no example gives: left for the revision
    assert fixes.restore_example_definitions("print(y)\n", ["y = f(2)\n"]) == ("print(y)\n", [])
    # a constant that lacks what the script asks of it (a real a17 script's VIA.cell_index() got the
    # recipe's layer tuple VIA = (4, 0)): not restored; a string asked for a str method is
    fixed, lines = fixes.restore_example_definitions("print(VIA.cell_index(), NAME.upper())\n",
                                                     ["VIA = (4, 0)\nNAME = 'top'  # the cell\n"])
    assert lines == ["NAME = 'top'"] and "VIA = " not in fixed
    # imports do not count toward the cap (a real a02 script lost L_SHORT behind numpy's and SAX's
    # imports): eight definitions and two imports all come back
    many = "import numpy as np\nimport sax\n" + "".join(f"K{i} = {i}\n" for i in range(8))
    fixed, lines = fixes.restore_example_definitions("print(np.pi, sax, " + ", ".join(f"K{i}" for i in range(8)) + ")\n", [many])
    assert len(lines) == 10 and compile(fixed, "<fixed>", "exec")
    assert fixes.restore_example_definitions("print(" + ", ".join(f"K{i}" for i in range(9)) + ")\n",
                                             ["".join(f"K{i} = {i}\n" for i in range(9))])[1] == [f"K{i} = {i}" for i in range(8)]


def test_values_json_cannot_write_are_written_plainly_after_the_run_proves_it(tmp_path):
    """a10 (advanced) failed on "Object of type DBox is not JSON serializable" (a cell's dbbox() as its
    "bbox_um"); numpy scripts fail the same way on float32/int64/ndarray. The fixed script runs."""
    import json

    from pic_copilot.execution.report import ExecutionReport

    code = ("import json\nimport numpy as np\nimport klayout.db as kdb\n\n"
            "box = kdb.DBox(0, 0, 10.5, 4)\nd = {'bbox_um': box, 'peak': np.float32(1.5), 'n': np.int64(3), 'wl': np.arange(2)}\n"
            "with open('out.json', 'w') as f:\n    json.dump(d, f, indent=2)\nprint(json.dumps(d['n']))\n")
    rep = ExecutionReport(ok=False, exception={"type": "TypeError", "message": "Object of type DBox is not JSON serializable"})
    fixed, done = fixes.write_json_values_plainly(code, rep)
    assert done and fixed.count("default=_to_json") == 2 and fixed.index("def _to_json") > fixed.index("import klayout.db")
    run = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads((tmp_path / "out.json").read_text()) == {"bbox_um": [0.0, 0.0, 10.5, 4.0], "peak": 1.5, "n": 3, "wl": [0, 1]}
    # another error, a script with its own encoder, or integer geometry: nothing
    other = ExecutionReport(ok=False, exception={"type": "TypeError", "message": "Object of type Box is not JSON serializable"})
    assert fixes.write_json_values_plainly(code, other) == (code, [])
    assert fixes.write_json_values_plainly(code.replace("indent=2", "default=str"), rep)[0].count("default=_to_json") == 1


def test_a_locked_gdsfactory_component_is_copied_on_the_runs_proof(tmp_path):
    """Real m04 and a23 runs: a component from a cached factory (``gf.components.straight(...)``)
    changed with add_label/add_port fails with gdsfactory 9's LockedError; the fix copies it where it
    is made and the fixed script runs and writes its GDS with the label."""
    from pic_copilot.execution.report import ExecutionReport

    code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\n\nc = gf.components.straight(length=12)\n"
            "c.add_label('GC0', position=(0, 0), layer=(10, 0))\nc.write_gds('s.gds', with_metadata=False)\n")
    run = run_script(tmp_path, code, timeout=300)
    assert run.returncode != 0 and "LockedError" in run.stderr, run.stderr[-500:]
    rep = ExecutionReport(ok=False, stderr=run.stderr,
                          exception={"type": "LockedError", "message": run.stderr.strip().splitlines()[-1].split(": ", 1)[-1]})
    fixed, done = fixes.copy_the_locked_component(code, rep)
    assert "c = gf.components.straight(length=12).copy()\n" in fixed and done, fixed
    run = run_script(tmp_path, fixed, timeout=300)
    assert run.returncode == 0, run.stderr[-800:]
    import klayout.db as kdb

    layout = kdb.Layout()
    layout.read(str(tmp_path / "s.gds"))
    texts = [s.text.string for li in layout.layer_indexes() for s in layout.top_cell().shapes(li).each() if s.is_text()]
    assert texts == ["GC0"], texts
    # another failure, or a component the script made itself: unchanged
    other = ExecutionReport(ok=False, stderr=run.stderr, exception={"type": "ValueError", "message": "no"})
    assert fixes.copy_the_locked_component(code, other) == (code, [])
    own = code.replace("gf.components.straight(length=12)", "gf.Component('S')")
    assert fixes.copy_the_locked_component(own, rep) == (own, [])


def test_a_component_made_under_one_name_in_every_pass_of_a_loop_gets_the_loop_variable_in_its_name(tmp_path):
    """A real a02 run made gf.Component(cell_name) once per arm length and failed the second time
    round with "Cellname ... already exists": the run proves it, the failing call's name gets the
    loop variable, and the fixed script runs and writes one cell per pass. Another error, or the
    call outside a loop: unchanged."""
    from pic_copilot.execution.report import ExecutionReport

    code = ("import gdsfactory as gf\n\ngf.gpdk.PDK.activate()\nname = 'MZI_D'\ntop = gf.Component('TOP')\n"
            "for dl in [20, 40]:\n    c = gf.Component(name)\n    c << gf.components.straight(length=dl)\n"
            "    top << c\ntop.write_gds('t.gds')\n")
    rep = check_run_repair(tmp_path, fixes.name_each_loop_component, code, "already exists", "ValueError",
                           '    c = gf.Component(f"{name}_{dl}")\n', None, ("no",), timeout=300)
    import klayout.db as kdb

    layout = kdb.Layout()
    layout.read(str(tmp_path / "t.gds"))
    assert {"MZI_D_20", "MZI_D_40"} <= {c.name for c in layout.each_cell()}
    literal = code.replace("gf.Component(name)", "gf.Component(name='MZI')")
    assert 'gf.Component(name=f"MZI_{dl}")' in fixes.name_each_loop_component(literal, rep)[0]
    flat = "import gdsfactory as gf\nc = gf.Component('A')\nd = gf.Component('A')\n"
    rep2 = ExecutionReport(ok=False, exception={"type": "ValueError", "message": "Cellname A already exists in the layout",
                                                  "traceback": 'File "script.py", line 3, in <module>'})
    assert fixes.name_each_loop_component(flat, rep2) == (flat, [])


def test_an_attribute_a_shape_lacks_and_its_bounding_box_has_is_read_from_the_box(tmp_path):
    """A real a12 run failed on "'Polygon' object has no attribute 'center'" for the centre of each
    piece's bounding box: the run proves the type, the fix reads the failing line's attribute from
    the receiver's bbox(), and the fixed script runs. Another missing attribute is left alone."""
    from pic_copilot.execution.report import ExecutionReport

    code = ("import klayout.db as kdb\n\nr = kdb.Region(kdb.Box(0, 0, 4000, 2000))\nrows = []\n"
            "for p in r.each():\n    c = p.center()\n    rows.append((c.x / 1000, c.y / 1000))\nprint(rows)\n")
    run = run_script(tmp_path, code, timeout=60)
    # (the pip module's Region yields PolygonWithProperties, KLayout 0.28.5's pya a Polygon)
    assert run.returncode != 0 and "Polygon" in run.stderr and "object has no attribute 'center'" in run.stderr
    rep = ExecutionReport(ok=False, stderr=run.stderr,
                          exception=last_exception(run, "AttributeError"))
    fixed, done = fixes.ask_the_bounding_box(code, rep)
    assert "c = p.bbox().center()" in fixed and done and "bounding box" in done[0]
    run = run_script(tmp_path, fixed, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "[(2.0, 1.0)]", run.stderr
    other = ExecutionReport(ok=False, stderr=rep.stderr, exception={"type": "AttributeError",
                                                                     "message": "'Polygon' object has no attribute 'frobnicate'"})
    assert fixes.ask_the_bounding_box(code, other) == (code, [])


def test_a_region_method_asked_of_a_polygon_is_asked_of_a_region_made_of_it(tmp_path):
    """Real a21 runs asked a Polygon for enclosing_check and space_check ("'Polygon' object has no
    attribute 'space_check'", seven times): the run proves the type, the failing line's receiver is
    wrapped in a Region of the script's KLayout module, and the fixed script runs. A method no
    Region has, or a type a Region is not made of, is left alone."""
    code = ("import klayout.db as kdb\n\npoly = kdb.Polygon(kdb.Box(0, 0, 100, 1000))\n"
            "pairs = poly.width_check(200)\nprint('PAIRS', pairs.count())\n")
    check_run_repair(tmp_path, fixes.make_a_region_for_the_region_method, code, "object has no attribute 'width_check'",
                     "AttributeError", "pairs = kdb.Region(poly).width_check(200)\n", "PAIRS 1",
                     ("'Polygon' object has no attribute 'frobnicate'", "'DPolygon' object has no attribute 'width_check'"))


def test_a_method_a_klayout_class_calls_by_another_word_gets_its_word(tmp_path):
    """A real a03 run read its report database with rdb.read(...) ("'ReportDatabase' object has no
    attribute 'read'"): the class loads and saves. The fixed script runs. A method with no single
    word of the class's, or a class that is not KLayout's, changes nothing."""
    code = ("import klayout.rdb as rdb\n\ndb = rdb.ReportDatabase('DRC')\ndb.create_category('width')\n"
            "db.save('a.lyrdb')\nagain = rdb.ReportDatabase('')\nagain.read('a.lyrdb')\n"
            "print('CATEGORIES', len(list(again.each_category())))\n")
    check_run_repair(tmp_path, fixes.use_the_word_the_class_has, code, "object has no attribute 'read'", "AttributeError",
                     "again.load('a.lyrdb')", "CATEGORIES 1",
                     ("'ReportDatabase' object has no attribute 'frobnicate'", "'DataFrame' object has no attribute 'read'"))


def test_one_rows_numbers_zipped_into_rows_are_written_as_one_row(tmp_path):
    """Real a15 runs wrote a sweep point's numbers with w.writerows(zip(k, res, fwhm)) inside the
    loop ("'numpy.float64' object is not iterable", 11 times): the values are one row. The fixed
    script runs and writes one row per point. Another TypeError changes nothing."""
    code = ("import csv\nimport numpy as np\n\nwith open('t.csv', 'w', newline='') as f:\n    w = csv.writer(f)\n"
            "    w.writerow(['k', 'res'])\n    for k in (0.1, 0.2):\n        res = np.float64(k) * 2\n"
            "        w.writerows(zip(np.round(k, 2), res))\nprint(open('t.csv').read().split())\n")
    check_run_repair(tmp_path, fixes.write_one_row_of_scalars, code, "'numpy.float64' object is not iterable", "TypeError",
                     "        w.writerow([np.round(k, 2), res])\n", "['k,res', '0.1,0.2', '0.2,0.4']",
                     ("'list' object is not callable", "'NoneType' object is not iterable"))


def test_a_report_database_made_and_never_saved_is_saved_under_the_requested_name(tmp_path):
    """16 real a03/a06 candidates filled a ReportDatabase and never saved the drc.lyrdb the designer
    asked for: the one database is saved at the end under that name, and the fixed script writes a
    file KLayout reads back with its category. A saved database, two databases, or no .lyrdb in the
    request: unchanged."""
    import klayout.rdb as rdb

    request = "Check the spacing and save a KLayout report database drc.lyrdb with a category space."
    code = ("import klayout.rdb as rdb\n\nREPORT = 'drc.lyrdb'\ndb = rdb.ReportDatabase(REPORT)\n"
            "cat = db.create_category('space')\nprint('made', cat.name())\n")
    fixed, what = fixes.save_the_report_database(code, request)
    assert fixed.endswith("\ndb.save('drc.lyrdb')\n") and "report database" in what
    run = run_script(tmp_path, fixed)
    assert run.returncode == 0, run.stderr
    back = rdb.ReportDatabase("")
    back.load(str(tmp_path / "drc.lyrdb"))
    assert [c.name() for c in back.each_category()] == ["space"]
    for same, words in ((code + "db.save('drc.lyrdb')\n", request), (code + "db2 = rdb.ReportDatabase('b')\n", request),
                        (code, "Check the spacing and print the count.")):
        assert fixes.save_the_report_database(same, words) == (same, None)


def test_a_grid_placed_at_the_scripts_own_pitch_gets_the_requested_pitch(tmp_path):
    """A real m09 run placed the 4 x 3 grid it was asked for at a recipe's 2 µm pitch (PX, PY = 2.0,
    2.0) for three rounds, asked for 20 µm in x and 15 µm in y: the run's real layout summary shows
    one step per axis, the constants named for each axis get the requested pitch, and the fixed
    script meets the contract. A grid with the wrong count, or constants that do not say their
    axis while the axes differ, are left alone."""
    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport
    from pic_copilot.sandbox.summary import summarize_dir

    code = ("import klayout.db as kdb\n\nPX, PY = 2.0, 2.0   # pitch\nCOLS, ROWS = 4, 3\nly = kdb.Layout()\n"
            "top = ly.create_cell('TOP')\nunit = ly.create_cell('UNIT')\nunit.shapes(ly.layer(1, 0)).insert(kdb.Box(0, 0, 1000, 1000))\n"
            "top.insert(kdb.DCellInstArray(unit.cell_index(), kdb.DTrans(), kdb.DVector(PX, 0), kdb.DVector(0, PY), COLS, ROWS))\n"
            "ly.write('grid.gds')\n")
    contract = OutputContract(files=["grid.gds"], grid={"columns": 4, "rows": 3, "pitch_x": 20, "pitch_y": 15})

    def report_of(script: str) -> ExecutionReport:
        run = run_script(tmp_path, script)
        assert run.returncode == 0, run.stderr
        return ExecutionReport.from_dict({"ok": True, "files": summarize_dir(tmp_path)})

    rep = report_of(code)
    assert any("not 20 µm" in p for p in contract.check(rep)), contract.check(rep)
    fixed, done = fixes.bind_the_requested_pitch(code, contract, rep)
    assert "PX, PY = 20, 15   # pitch\n" in fixed and done, fixed
    assert contract.check(report_of(fixed)) == []
    shared = code.replace("PX, PY = 2.0, 2.0", "P = 2.0").replace("DVector(PX, 0)", "DVector(P, 0)").replace("DVector(0, PY)", "DVector(0, P)")
    assert fixes.bind_the_requested_pitch(shared, contract, report_of(shared)) == (shared, [])
    square = OutputContract(files=["grid.gds"], grid={"columns": 4, "rows": 3, "pitch_x": 20, "pitch_y": 20})
    assert "P = 20   # pitch\n" in fixes.bind_the_requested_pitch(shared, square, report_of(shared))[0]
    wrong_count = OutputContract(files=["grid.gds"], grid={"columns": 5, "rows": 3, "pitch_x": 20, "pitch_y": 15})
    assert fixes.bind_the_requested_pitch(code, wrong_count, rep) == (code, [])


def test_a_boolean_of_two_shape_containers_is_a_boolean_of_their_regions(tmp_path):
    """"unsupported operand type(s) for -: 'Shapes' and 'Shapes'" (20 times in real a07 runs): the
    run proves the operand types, both operands of the failing line's operator are wrapped in a
    Region, and the fixed script runs and computes the difference. Another operator's message,
    or operands a Region is not made of, change nothing."""
    code = ("import klayout.db as kdb\n\nly = kdb.Layout()\ntop = ly.create_cell('TOP')\n"
            "a = top.shapes(ly.layer(1, 0))\nb = top.shapes(ly.layer(2, 0))\n"
            "a.insert(kdb.Box(0, 0, 100, 100))\nb.insert(kdb.Box(50, 0, 150, 100))\n"
            "rest = a - b\nprint('AREA', rest.area())\n")
    check_run_repair(tmp_path, fixes.make_regions_of_shape_operands, code, "for -: 'Shapes' and 'Shapes'", "TypeError",
                     "rest = kdb.Region(a) - kdb.Region(b)\n", "AREA 5000",
                     ("unsupported operand type(s) for +: 'Shapes' and 'Shapes'", "unsupported operand type(s) for -: 'int' and 'str'"))


def test_a_pandas_row_index_written_before_the_requested_header_is_dropped(tmp_path):
    """A real m08 run wrote ring_sweep.csv as ['', 'radius_um', ...] for two rounds (DataFrame.to_csv
    writes the row index): the run proves it, every to_csv without an index argument gets
    index=False, and the fixed script writes the requested header. Another header: nothing."""
    import csv

    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport

    want = ["radius_um", "area_um2"]
    contract = OutputContract(files=["t.csv"], csv_columns={"t.csv": want})
    code = ("import pandas as pd\nrows = [{'radius_um': r, 'area_um2': 3.14 * r * r} for r in (5, 10)]\n"
            "pd.DataFrame(rows).to_csv('t.csv')\n")

    def header_after(script: str) -> list[str]:
        run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        return next(csv.reader(open(tmp_path / "t.csv")))

    got = header_after(code)
    assert got == ["", *want]
    rep = ExecutionReport.from_dict({"ok": True, "files": [{"path": "t.csv", "kind": "table", "summary": {"first_row": got}}]})
    fixed, done = fixes.drop_dataframe_index(code, contract, rep)
    assert "to_csv('t.csv', index=False)" in fixed and done
    assert header_after(fixed) == want
    other = ExecutionReport.from_dict({"ok": True, "files": [{"path": "t.csv", "kind": "table",
                                                               "summary": {"first_row": ["r", *want]}}]})
    assert fixes.drop_dataframe_index(code, contract, other) == (code, [])


def test_a_requested_csv_header_never_written_is_written_after_the_writer_is_made(tmp_path):
    """A real a12 run wrote small_shapes.csv with writer.writerows(rows) and no header: the first
    row is numbers, one per requested column (the real summary of the real file shows it). The
    requested header is written right after the csv writer is made and the fixed script writes
    it. A file appended to in a loop, or a first row of names, is left alone."""
    import csv

    from pic_copilot.checks.output_contract import OutputContract
    from pic_copilot.execution.report import ExecutionReport
    from pic_copilot.sandbox.summary import summarize_dir

    want = ["x_um", "y_um", "area_um2"]
    contract = OutputContract(files=["t.csv"], csv_columns={"t.csv": want})
    code = ("import csv\nrows = [(1.5, 2, 0.25), (3, 4, 0.5)]\nif rows:\n"
            "    with open('t.csv', 'w', newline='') as fh:\n        writer = csv.writer(fh)\n        writer.writerows(rows)\n")

    def report_of(script: str) -> ExecutionReport:
        run = run_script(tmp_path, script)
        assert run.returncode == 0, run.stderr
        return ExecutionReport.from_dict({"ok": True, "files": summarize_dir(tmp_path)})

    rep = report_of(code)
    assert contract.check(rep), "the headless file breaks the contract"
    fixed, done = fixes.write_the_missing_header(code, contract, rep)
    assert "        writer = csv.writer(fh)\n        writer.writerow(['x_um', 'y_um', 'area_um2'])\n" in fixed and done
    assert contract.check(report_of(fixed)) == []
    assert list(csv.reader(open(tmp_path / "t.csv"))) == [want, ["1.5", "2", "0.25"], ["3", "4", "0.5"]]
    # a writer used without a name (a real a02 run), and rows written in a loop
    for body, header in (("        csv.writer(fh).writerows(rows)\n", "        csv.writer(fh).writerow(['x_um'"),
                         ("        w = csv.writer(fh)\n        for r in rows:\n            w.writerow(r)\n",
                          "        w = csv.writer(fh)\n        w.writerow(['x_um'")):
        other = code.replace("        writer = csv.writer(fh)\n        writer.writerows(rows)\n", body)
        fixed, done = fixes.write_the_missing_header(other, contract, report_of(other))
        assert header in fixed and contract.check(report_of(fixed)) == [], fixed
    looped = ("import csv\nfor r in [(1, 2, 3)]:\n    with open('t.csv', 'w') as fh:\n        w = csv.writer(fh)\n"
              "        w.writerow(r)\n")
    appended = code.replace("'w', newline=''", "'a'")
    for script in (looped, appended):
        assert fixes.write_the_missing_header(script, contract, rep) == (script, [])
    named = ExecutionReport.from_dict({"ok": True, "files": [{"path": "t.csv", "kind": "table",
                                                               "summary": {"first_row": ["x", "y", "a"]}}]})
    assert fixes.write_the_missing_header(code, contract, named) == (code, [])


def test_a_borrowed_verb_is_answered_with_the_word_klayout_uses():
    """shapes.add(box) / shapes.remove(s) / layout.get_cell(name): spelling suggestions named
    gdsfactory.Component.add and pya.Netlist.add for a real m09 candidate's ``unit.shapes().add``;
    the class's own word for the same thing comes first."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = ("unit = layout.create_cell('U')\nunit.shapes(layout.layer(1, 0)).add(pya.Box(0, 0, 1, 1))\n"
            "c = layout.get_cell('TOP')\ncell.shapes(layout.layer(1, 0)).remove(None)\n")
    found = {f["name"]: f["suggestions"] for f in checks.static_findings(code, "interactive", idx, interactive_pya=True)[0]
             if f["kind"] == "api"}
    assert found["pya.Shapes.add"][0] == "pya.Shapes.insert"
    assert found["pya.Shapes.remove"][0] == "pya.Shapes.erase"
    assert found["pya.Layout.get_cell"][0] == "pya.Layout.cell"
    assert checks.same_meaning(idx, "pya.Layout.create_layer")[:2] == ["pya.Layout.layer", "pya.Layout.insert_layer"]
    assert checks.same_meaning(idx, "pya.Cell.frobnicate") == []
    # one word for it in the class: renamed without a round, and the script runs
    fixed, done = fixes.request_free_fixes(code, "interactive", lambda c: checks.static_findings(
        c, "interactive", idx, interactive_pya=True)[0])
    assert ".insert(pya.Box(0, 0, 1, 1))" in fixed and "layout.cell('TOP')" in fixed and ".erase(None)" in fixed, fixed
    import klayout.db as kdb
    layout = kdb.Layout()
    cell = layout.create_cell("TOP")
    exec(compile(fixed.replace("cell.shapes(layout.layer(1, 0)).erase(None)\n", ""), "<f>", "exec"),
         {"layout": layout, "cell": cell, "pya": kdb})
    assert layout.cell("U").shapes(layout.layer(1, 0)).size() == 1
    # gdsfactory's Component.info is a property, not a method: suggested, never renamed into info()
    gf_code = "import gdsfactory as gf\nc = gf.Component()\nprint(c.get_info())\n"
    gf_found = checks.static_findings(gf_code, "sandbox", idx)[0]
    assert gf_found[0]["suggestions"][0] == "gdsfactory.Component.info" and "rename_attribute" not in gf_found[0]


def test_set_operations_called_as_methods_become_the_regions_operators(tmp_path):
    """Real a07 candidates wrote ``silicon.xor(mask)`` and ``mask.grow(500)`` (shapely's words); KLayout
    0.28.5's Region has ``^`` and ``sized``. pip's klayout 0.30 has Region.xor, so for a script that runs
    in KLayout the pya manual decides; the fixed script runs in the real application."""
    from kl import KLAYOUT, run_batch
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = ("li1 = layout.layer(1, 0)\nli2 = layout.layer(2, 0)\ncell.shapes(li1).insert(pya.Box(0, 0, 1000, 1000))\n"
            "cell.shapes(li2).insert(pya.Box(500, 0, 1500, 1000))\n"
            "si = pya.Region(cell.begin_shapes_rec(li1))\nmask = pya.Region(cell.begin_shapes_rec(li2))\n"
            "x = si.xor(mask)\nu = si.union(mask).merged()\ng = mask.grow(100) - si\n"
            "print(x.area(), u.area(), g.area())\n")
    found = {f["name"]: f for f in checks.static_findings(code, "interactive", idx, interactive_pya=True)[0] if f["kind"] == "api"}
    assert found["pya.Region.xor"]["operator"] == "^" and "write (a ^ b)" in found["pya.Region.xor"]["message"]
    assert found["pya.Region.union"]["operator"] == "+"
    assert found["pya.Region.grow"]["rename_attribute"] == "grow" and found["pya.Region.grow"]["to"] == "sized"
    # in the sandbox, pip's klayout.db 0.30 has Region.xor: no finding there
    sandbox = "import klayout.db as kdb\na = kdb.Region()\nb = a.xor(kdb.Region())\n"
    assert not [f for f in checks.static_findings(sandbox, "sandbox", idx)[0] if f["kind"] == "api"]
    fixed, done = fixes.request_free_fixes(code, "interactive", lambda c: checks.static_findings(
        c, "interactive", idx, interactive_pya=True)[0])
    assert "x = (si ^ mask)" in fixed and "u = (si + mask).merged()" in fixed and "mask.sized(100) - si" in fixed, fixed
    assert not [f for f in checks.static_findings(fixed, "interactive", idx, interactive_pya=True)[0] if f["kind"] == "api"]
    if KLAYOUT is None:
        pytest.skip("no KLayout application")
    runner = tmp_path / "run.py"
    runner.write_text("import pya\nlayout = pya.Layout()\ncell = layout.create_cell('TOP')\n" + fixed)
    run = run_batch(runner, tmp_path)
    assert run.returncode == 0 and run.stdout.split() == ["1000000", "1500000", "840000"], run.stdout + run.stderr


def test_dataframe_append_that_pandas_2_removed_becomes_concat(tmp_path):
    """A real m08 run failed twice on "'DataFrame' object has no attribute 'append'": the failing
    line's append becomes pd.concat with the row as a one-row frame, and the script runs."""
    from pic_copilot.execution.report import ExecutionReport

    code = ("import pandas\n\ndf = pandas.DataFrame(columns=['r', 'a'])\nfor r in (5, 10):\n"
            "    df = df.append({'r': r, 'a': 3.14 * r * r}, ignore_index=True)\nprint(len(df), list(df.columns))\n")
    run = run_script(tmp_path, code, timeout=60)
    assert run.returncode != 0 and "'DataFrame' object has no attribute 'append'" in run.stderr
    rep = ExecutionReport(ok=False, stderr=run.stderr,
                          exception=last_exception(run, "AttributeError"))
    fixed, done = fixes.concat_instead_of_append(code, rep)
    assert "df = pandas.concat([df, pandas.DataFrame([{'r': r, 'a': 3.14 * r * r}])], ignore_index=True)" in fixed, fixed
    run = run_script(tmp_path, fixed, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "2 ['r', 'a']", run.stderr
    # a list's append on the failing line of another error is left alone
    other = ExecutionReport(ok=False, stderr=rep.stderr, exception={"type": "AttributeError", "message": "boom"})
    assert fixes.concat_instead_of_append(code, other) == (code, [])


def test_a_syntax_error_one_character_fixes_is_fixed_without_a_round():
    """Real candidates: m05 indented one statement by a stray space, m09 closed DCellInstArray(...)
    before its continuation line with '),'; each cost a round. The edit is kept only when the whole
    script then parses; a script no such edit mends is returned as it was."""
    stray = ("import numpy as np\ns = {'a': np.ones(3)}\nwl = np.arange(3)\n"
             "s2 = dict(\n    a=1,\n)\n thru = np.abs(s['a']) ** 2\ncross = thru * 2\nprint(cross)\n")
    fixed, what = fixes.repair_syntax(stray)
    assert "\nthru = np.abs(s['a']) ** 2\n" in fixed and "moved back 1 space" in what
    exec(compile(fixed, "<fixed>", "exec"), {})
    early = ("X0, Y0, NX, NY = 0, 0, 4, 3\narray = dict(a=(X0, Y0)),\n"
             "                           b=1, nx=NX, ny=NY)\nprint(array)\n")
    fixed, what = fixes.repair_syntax(early)
    assert "array = dict(a=(X0, Y0),\n" in fixed and "dropped that ')'" in what
    assert eval(compile(fixed.replace("print(array)", "array"), "<f>", "exec"), ns := {}) is None and ns["array"]["nx"] == 4
    crossed = "x = [max(1, 2]\ny = max(1, [2)\nprint(x, y)\n"   # a real a12 candidate's slip, twice
    fixed, what = fixes.repair_syntax(crossed)
    assert fixed == "x = [max(1, 2)]\ny = max(1, [2])\nprint(x, y)\n" and "wrong order" in what
    # a comprehension closed before its condition (a real m07 candidate, six times)
    early_close = "xs = [1, 2, 3]\nr = {'n': 3, 'c': [[x, x] for x in xs] if x > 1]}\nprint(r)\n"
    fixed, what = fixes.repair_syntax(early_close)
    assert "'c': [[x, x] for x in xs if x > 1]}" in fixed and "closed too early" in what
    exec(compile(fixed, "<fixed>", "exec"), ns := {})
    assert ns["r"] == {"n": 3, "c": [[2, 2], [3, 3]]}
    one_too_many = "x = max(1, 2))\nprint(x)\n"
    assert fixes.repair_syntax(one_too_many) == ("x = max(1, 2)\nprint(x)\n", "line 1 has one ')' too many: dropped the last one")
    # a real block, a script that parses, and one no small edit mends: unchanged
    for code in ("if True:\n    x = 1\n", "x = 1\n", "def f(:\n    pass\n", "for i in range(3):\nprint(i)\n"):
        assert fixes.repair_syntax(code) == (code, None), code
    # the pipeline's request-free fixes begin with it
    assert fixes.FIXES[0] is fixes.repair_syntax


def test_an_undefined_name_close_to_one_the_script_defines_is_named_and_a_case_slip_is_fixed():
    """area_4 for the script's own area_4_0 (a real a07 candidate) gets 'did you mean area_4_0'; pitch
    for PITCH differs only in case and is renamed; a name like nothing defined gets no guess."""
    code = "PITCH = 3.0\narea_4_0 = 2.0\nprint(area_4 + 1)\nx = pitch * 2\nprint(x, lenght)\n"
    found, _ = checks.static_findings(code, "sandbox")
    msgs = " ".join(f["message"] for f in found)
    assert "undefined name 'area_4' (the script defines area_4_0: did you mean area_4_0?)" in msgs
    assert "undefined name 'lenght'" in msgs and "lenght' (" not in msgs
    fixed, done = fixes.request_free_fixes(code, "sandbox", lambda c: checks.static_findings(c, "sandbox")[0])
    assert "x = PITCH * 2" in fixed and "area_4 + 1" in fixed and "pitch -> PITCH (the name the script defines)" in done
    # a06 (advanced): Library for the script's own library is a KLayout class; its import is added and
    # the read is kept, not renamed to the variable it is about to make
    code = "library = Library()\nprint(library)\n"
    fixed, done = fixes.request_free_fixes(code, "sandbox", lambda c: checks.static_findings(c, "sandbox")[0])
    assert fixed.endswith("library = Library()\nprint(library)\n") and "import Library" in fixed.split("\n")[0], (fixed, done)


def test_a_manual_page_is_shown_under_a_title_no_model_imports():
    """A real a10 answer wrote `from klayout.guide.programming.database_api#the_cell_class#part3 import
    Cell`: the chunk's id was its heading. Guide pages get a title in words (also where a later part's
    text repeats the id); API entries keep their dotted names, which are what the script calls."""
    from pic_copilot.agents import retrieve

    page = "klayout.guide.programming.database_api#the_cell_class#part3"
    text = retrieve.format_docs([{"id": page, "db": "pya", "content": f"{page[:-6]} (part 3 of 4)\n\nA cell can be flattened."},
                                 {"id": "pya.Cell.flatten", "db": "pya", "content": "[const] void flatten (bool prune)"}])
    assert "#part" not in text and "api#" not in text and "klayout.guide" not in text
    assert "### KLayout guide: programming, database api, the cell class (part 3) (pya)" in text
    assert "### pya.Cell.flatten (pya)" in text
    assert retrieve.doc_title("pya.Cell.fill_region#part2") == "pya.Cell.fill_region (part 2)"


def test_a_method_read_as_a_value_is_named_and_called_when_it_takes_no_argument():
    """cell.shapes.clear() (a real a12 candidate) was told "pya.Cell.shapes has no attribute 'clear'";
    the method is named with its call, and layout.top_cell.name, whose method takes nothing, is
    called without a round. The fixed script runs on a real layout."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = "print(layout.top_cell.name)\ncell.shapes.clear()\n"
    find = lambda c: checks.static_findings(c, "interactive", idx, interactive_pya=True)[0]   # noqa: E731
    msgs = [f["message"] for f in find(code)]
    assert "line 2: cell.shapes is a method, not a value: call it, cell.shapes(layer_index), and ask its result for 'clear'." in msgs
    fixed, done = fixes.request_free_fixes(code, "interactive", find)
    assert fixed.startswith("print(layout.top_cell().name)\n") and "cell.shapes.clear()" in fixed
    assert "called layout.top_cell() (a method, not a value)" in done
    import klayout.db as kdb
    layout = kdb.Layout()
    layout.create_cell("TOP")
    exec(compile(fixed.splitlines()[0], "<fixed>", "exec"), {"layout": layout})


def test_a_star_import_of_pya_becomes_qualified_names_so_undefined_ones_are_found():
    """A real a12 candidate began `from pya import *` and used an undefined CELL_NAME and `shapes`
    for three rounds: pyflakes cannot tell undefined names behind a star import. The import goes,
    the API names it gave become pya.X, the undefined ones are then found, and the script's own
    names stay as they are."""
    code = ("from pya import *\nimport csv\nBox = 3\nr = Region(cell.begin_shapes_rec(layout.layer(1, 0)))\n"
            "print(CELL_NAME, r, DBox(0, 0, 1, 1), Box)\n")
    fixed, what = fixes.fix_star_import_of_klayout(code, "interactive")
    assert "from pya import" not in fixed and "r = pya.Region(" in fixed and "pya.DBox(0, 0, 1, 1), Box)" in fixed, fixed
    assert what and "star import" in what
    found, _ = checks.static_findings(fixed, "interactive", interactive_pya=True)
    assert any("undefined name 'CELL_NAME'" in f["message"] for f in found)
    sandbox, _ = fixes.fix_star_import_of_klayout("from klayout.db import *\nly = Layout()\nprint(ly)\n", "sandbox")
    assert sandbox == "import pya\nly = pya.Layout()\nprint(ly)\n"
    subprocess.run([sys.executable, "-c", sandbox], check=True, capture_output=True, timeout=60)
    assert fixes.fix_star_import_of_klayout("from math import *\nprint(pi)\n", "sandbox") == ("from math import *\nprint(pi)\n", None)


def test_another_librarys_name_for_a_box_side_becomes_klayouts_property():
    """cell.dbbox().xmin() / bb.ymax: gdsfactory's names for a KLayout DBox's sides (a real a16 candidate
    asked a DBox for 'min' and 'corners'); they become left/bottom/right/top, a call of them too,
    and the fixed script runs on a real layout."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = "bb = cell.dbbox()\nprint(cell.dbbox().xmin(), bb.ymax, bb.width())\n"
    find = lambda c: checks.static_findings(c, "interactive", idx, interactive_pya=True)[0]   # noqa: E731
    assert [f["suggestions"][0] for f in find(code)] == ["pya.DBox.left", "pya.DBox.top"]
    fixed, done = fixes.request_free_fixes(code, "interactive", find)
    assert fixed == "bb = cell.dbbox()\nprint(cell.dbbox().left, bb.top, bb.width())\n", fixed
    assert find(fixed) == []
    # all four at once (a real a16 candidate followed 'Did you mean: pya.DBox.center' for 'corners')
    four = "x0, y0, x1, y1 = cell.dbbox().corners()\nbb = cell.dbbox()\nl, b, r, t = bb.bounds\nprint(x0, y1, l, t)\n"
    assert [f["suggestions"] for f in find(four)][0] == ["pya.DBox.left", "pya.DBox.bottom", "pya.DBox.right", "pya.DBox.top"]
    sides, _ = fixes.request_free_fixes(four, "interactive", find)
    assert sides.startswith("x0, y0, x1, y1 = (_b := cell.dbbox()).left, _b.bottom, _b.right, _b.top\n"), sides
    assert "l, b, r, t = bb.left, bb.bottom, bb.right, bb.top\n" in sides and find(sides) == []
    import klayout.db as kdb
    layout = kdb.Layout()
    layout.dbu = 0.001
    cell = layout.create_cell("TOP")
    cell.shapes(layout.layer(1, 0)).insert(kdb.Box(-1000, 0, 2000, 500))
    out = subprocess.run([sys.executable, "-c", "import klayout.db as pya\nly = pya.Layout()\nly.dbu = 0.001\n"
                          "cell = ly.create_cell('T')\ncell.shapes(ly.layer(1, 0)).insert(pya.Box(-1000, 0, 2000, 500))\n" + fixed],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.split() == ["-1.0", "0.5", "3.0"], out.stderr


def test_names_a_dropped_star_import_hid_are_found_and_imported():
    """A real a10 candidate began `from klayout.guide.programming.database_api import *` (a manual
    page's id) and used json without importing it: the star import hid the undefined name, so the
    import that could only fail was dropped and json stayed undefined. After dropping it the check
    runs again and json is imported."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = ("from klayout.guide.programming.database_api import *\n\n"
            "data = {'cells': [c.name for c in layout.each_cell()]}\njson.dump(data, open('h.json', 'w'))\n")
    find = lambda c: checks.static_findings(c, "interactive", idx, interactive_pya=True)[0]   # noqa: E731
    fixed, done = fixes.request_free_fixes(code, "interactive", find)
    assert "klayout.guide" not in fixed and "import json" in fixed, (fixed, done)
    assert find(fixed) == []


def test_a_klayout_point_unpacked_like_a_tuple_is_unpacked_by_its_coordinates(tmp_path):
    """A real a16 run failed on "cannot unpack non-iterable DPoint object" (x, y = box.center()); the
    failing line's two-name unpacking reads .x and .y, in an assignment or a for loop, and runs."""
    from pic_copilot.execution.report import ExecutionReport

    def failed_run(code: str) -> ExecutionReport:
        run = run_script(tmp_path, code, timeout=60)
        assert run.returncode != 0 and "cannot unpack non-iterable" in run.stderr, run.stderr
        return ExecutionReport(ok=False, stderr=run.stderr,
                               exception={"type": "TypeError", "message": run.stderr.strip().splitlines()[-1]})

    head = "import klayout.db as pya\nbox = pya.DBox(0, 0, 4, 2)\npts = [box.p1, box.p2]\n"
    for body, expect in (("x, y = box.center()\nprint(x, y)\n", "2.0 1.0"),
                         ("for x, y in pts:\n    print(x + y)\n", "0.0\n6.0")):
        code = head + body
        fixed, done = fixes.unpack_points_by_coordinates(code, failed_run(code))
        assert done and "by its coordinates" in done[0], fixed
        run = subprocess.run([sys.executable, "-c", fixed], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0 and run.stdout.strip() == expect, (fixed, run.stderr)


def test_a_layer_pair_given_as_the_layer_number_is_spread():
    """Real a17 runs: layout.layer(VIA, DATATYPE) with VIA = (4, 0) (restored from a worked example)
    failed with "Value cannot be converted to an integer". The check names the pair and the fix
    writes layout.layer(*VIA); the fixed script runs on a real layout."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = "VIA = (4, 0)\nDATATYPE = 0\nli = layout.layer(VIA, DATATYPE)\nprint(layout.get_info(li))\n"
    find = lambda c: checks.static_findings(c, "interactive", idx, interactive_pya=True)[0]   # noqa: E731
    assert [f["message"] for f in find(code)] == [
        "line 3: layout.layer(VIA, DATATYPE): VIA is a (layer, datatype) pair, not a layer number: write layout.layer(*VIA)."]
    fixed, done = fixes.request_free_fixes(code, "interactive", find)
    assert "li = layout.layer(*VIA)\n" in fixed and find(fixed) == [] and done
    import klayout.db as kdb
    layout = kdb.Layout()
    out = {}
    exec(compile(fixed.replace("print(", "out['info'] = ("), "<f>", "exec"), {"layout": layout, "out": out})
    assert str(out["info"]) == "4/0"
    assert find("L = 4\nli = layout.layer(L, 0)\n") == []


def test_a_shape_given_tuples_for_points_gets_points(tmp_path):
    """A real a21 run failed on "expected argument of class DPoint, got tuple ... in DPath.__init__";
    DPolygon fails on the same with "No overload". The failing line's tuples become points (a list
    written out) or are converted item by item (a name), and the script runs in KLayout's pya."""
    from pic_copilot.execution.report import ExecutionReport

    for code, cls in (("w = 0.5\np = pya.DPath([(0, 0), (10.0, 0)], w)\nprint(p.length())\n", "DPath"),
                      ("pts = [(0, 0), (4, 0), (4, 2)]\nq = pya.DPolygon(pts)\nprint(q.area())\n", "DPolygon")):
        msg = (f"Unexpected object type (expected argument of class DPoint, got tuple) in {cls}.__init__"
               if cls == "DPath" else f"No overload with matching arguments in {cls}.__init__")
        rep = ExecutionReport(ok=False, exception={"type": "TypeError", "message": msg,
                                                   "traceback": 'File "<pic-copilot script>", line 2, in <module>'})
        fixed, done = fixes.make_points_of_tuples(code, rep)
        assert done and "pya.DPoint" in fixed, fixed
        script = tmp_path / "t.py"
        script.write_text(fixed)
        run = subprocess.run(["klayout", "-b", "-r", str(script)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and run.stdout.strip() in ("10.0", "4.0"), (fixed, run.stdout, run.stderr)


def test_a_pdk_activated_after_the_first_component_or_never_imported_is_activated_first(tmp_path):
    """A real composite request's candidates activated the PDK after building the MMI, or used gf
    without importing it (the activation fix ran before the import was added): both get the
    activation right after the import, and the script builds."""
    late = ("import gdsfactory as gf\n\nc = gf.Component()\nref = c << gf.components.mmi1x2()\n"
            "gf.gpdk.PDK.activate()\nprint(len(ref.ports))\n")
    fixed, what = fixes.fix_pdk_activation(late, "sandbox")
    assert fixed.startswith("import gdsfactory as gf\ngf.gpdk.PDK.activate()\n") and fixed.count("activate()") == 1, fixed
    assert "moved" in what
    run = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "3", run.stderr[-800:]
    unimported = "c = gf.components.mmi1x2()\nprint(len(c.ports))\n"
    fixed, done = fixes.request_free_fixes(unimported, "sandbox", lambda c: checks.static_findings(c, "sandbox")[0])
    assert "import gdsfactory as gf\ngf.gpdk.PDK.activate()\n" in fixed, (fixed, done)
    assert fixes.fix_pdk_activation(fixed, "sandbox") == (fixed, None)


def test_a_component_given_to_add_is_added_as_a_reference(tmp_path):
    """gdsfactory 9's Component.add takes instances: c.add(gf.components.mmi1x2()) failed with "'Cell'
    object has no attribute 'instance'" in a real composite request's candidates. It becomes
    add_ref, and the script builds; add of something else is left alone."""
    code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.Component()\nc.add(gf.components.mmi1x2())\n"
            "print(len(c.insts))\n")
    fixed, what = fixes.fix_component_added_as_reference(code, "sandbox")
    assert "c.add_ref(gf.components.mmi1x2())" in fixed and what
    run = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "1", run.stderr[-800:]
    other = "s = set()\ns.add(max(1, 2))\n"
    assert fixes.fix_component_added_as_reference(other, "sandbox") == (other, None)


def test_a_reference_adding_its_own_ports_is_dropped_and_the_script_builds(tmp_path):
    """`mmi.add_ports(mmi.ports)` after `mmi = top << ...` failed with "'Instance' object has no attribute
    'add_ports'" in all three candidates of a real a04 round: a placed reference has its ports already.
    The statement goes, in a loop too; the parent exposing a reference's ports stays."""
    code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\ntop = gf.Component('D')\n"
            "mmi = top << gf.components.mmi1x2()\nmmi.add_ports(mmi.ports)\n"
            "ring = top.add_ref(gf.components.ring_single(radius=10))\nring.add_ports(ring.ports)\nring.move((100, 0))\n"
            "top.add_ports(ring.ports, prefix='r_')\nfor i in range(2):\n    s = top << gf.components.straight()\n"
            "    s.add_ports(s.ports)\n    s.movey(20 * (i + 1))\nprint(len(top.insts), len(top.ports))\n")
    fixed, what = fixes.fix_reference_adding_its_own_ports(code, "sandbox")
    assert "mmi.add_ports" not in fixed and "ring.add_ports" not in fixed and "s.add_ports" not in fixed, fixed
    assert "top.add_ports(ring.ports, prefix='r_')" in fixed and "mmi.add_ports(mmi.ports)" in what
    run = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.split() == ["4", "2"], run.stderr[-800:]
    other = "c = gf.Component()\nc.add_ports(gf.components.mmi1x2().ports)\n"
    assert fixes.fix_reference_adding_its_own_ports(other, "sandbox") == (other, None)


def test_a_cross_section_placed_as_a_component_becomes_a_straight_of_it(tmp_path):
    """`top << gf.cross_section.rib(...)` failed with "Expected a Component, got CrossSection" in all
    three candidates of a real a04 round ("a straight rib waveguide"). The placed thing becomes a
    straight of that cross-section, also through a name set once; a cross-section given to a
    component is left alone, and the script builds."""
    code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\ntop = gf.Component('D')\n"
            "rib = top << gf.cross_section.rib(width=0.5)\nrib.movey(100)\n"
            "xs = gf.cross_section.strip(width=0.6)\nw = top.add_ref(xs)\n"
            "s = top << gf.components.straight(length=5, cross_section=gf.cross_section.rib())\n"
            "print(len(top.insts), sorted(round(i.cell.ports['o1'].width, 3) for i in top.insts))\n")
    fixed, what = fixes.fix_cross_section_placed_as_a_component(code, "sandbox")
    assert "top << gf.components.straight(cross_section=gf.cross_section.rib(width=0.5))" in fixed, fixed
    assert "top.add_ref(gf.components.straight(cross_section=xs))" in fixed and what
    assert "gf.components.straight(length=5, cross_section=gf.cross_section.rib())" in fixed
    run = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "3 [0.5, 0.5, 0.6]", (run.stdout, run.stderr[-800:])
    assert fixes.fix_cross_section_placed_as_a_component(fixed, "sandbox") == (fixed, None)


def test_a_klayout_iterator_loop_that_never_advances_is_found_and_advanced():
    """A real m12 candidate's `while not walker.at_end():` never called walker.next() and ran into the
    120 s limit in two rounds. The check finds it, the fix adds walker.next() as the body's last
    statement, and the fixed script ends on a real layout with texts in a sub-cell."""
    loop = ("table = []\nwalker = cell.begin_shapes_rec(layout.layer(10, 0))\nwhile not walker.at_end():\n"
            "    if walker.shape().is_text():\n        table.append(walker.shape().text_string)\nprint(sorted(table))\n")
    found, _ = checks.static_findings(loop, "interactive", interactive_pya=True)
    assert [f["kind"] for f in found] == ["loop"] and "never calls walker.next()" in found[0]["message"]
    fixed, done = fixes.request_free_fixes(loop, "interactive", lambda c: checks.static_findings(c, "interactive", interactive_pya=True)[0])
    assert "        table.append(walker.shape().text_string)\n    walker.next()\nprint(" in fixed, fixed
    assert checks.static_findings(fixed, "interactive", interactive_pya=True)[0] == []
    import klayout.db as kdb
    layout = kdb.Layout()
    cell, sub = layout.create_cell("TOP"), layout.create_cell("SUB")
    sub.shapes(layout.layer(10, 0)).insert(kdb.Text("B", 0, 0))
    cell.shapes(layout.layer(10, 0)).insert(kdb.Text("A", 0, 0))
    cell.insert(kdb.CellInstArray(sub.cell_index(), kdb.Trans()))
    out = {}
    exec(compile(fixed.replace("print(sorted(table))", "out['t'] = sorted(table)"), "<f>", "exec"),
         {"cell": cell, "layout": layout, "out": out})
    assert out["t"] == ["A", "B"]
    # a loop that advances, breaks or has its own continue: no finding, or no fix
    assert checks.endless_iterator_loops("while not it.at_end():\n    it.next()\n") == []
    assert checks.endless_iterator_loops("while not it.at_end():\n    break\n") == []
    cont = "while not it.at_end():\n    if x:\n        continue\n    y = 1\n"
    assert fixes.advance_iterator_loops(cont, checks.endless_iterator_loops(cont)) == (cont, [])


def test_a_klayout_parameter_given_by_position_and_by_keyword_is_given_once(tmp_path):
    """A real m07 candidate wrote metal.enclosing_check(via, int(round(MIN / layout.dbu)), whole_edges=True,
    d=100): KLayout answers "Can't match arguments". The check finds d given twice in every overload,
    the fix drops the keyword, and the script runs; a keyword past the positional ones stays."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = ("import klayout.db as pya\nly = pya.Layout()\ntop = ly.create_cell('T')\n"
            "metal = pya.Region(pya.Box(0, 0, 1000, 1000))\nvia = pya.Region(pya.Box(100, 100, 900, 900))\n"
            "short = metal.enclosing_check(via, int(round(0.2 / ly.dbu)), whole_edges=True, d=100)\nprint(short.count())\n")
    find = lambda c: checks.static_findings(c, "sandbox", idx)[0]   # noqa: E731
    found = find(code)
    assert [f.get("given_twice") for f in found] == ["d"] and "gets 'd' twice" in found[0]["message"]
    fixed, done = fixes.request_free_fixes(code, "sandbox", find)
    assert "enclosing_check(via, int(round(0.2 / ly.dbu)), whole_edges=True)\n" in fixed and find(fixed) == []
    run = subprocess.run([sys.executable, "-c", fixed], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "4", run.stderr   # 0.1 um all round < 0.2 um
    assert find("import klayout.db as pya\nr = pya.Region()\nprint(r.width_check(100, whole_edges=True))\n") == []


def test_a_port_position_of_older_gdsfactory_is_its_center(tmp_path):
    """A real m04 run failed on "'DPort' object has no attribute 'position'" in round 3: gdsfactory 9
    calls it center. The failing line's read is renamed and the script runs."""
    from pic_copilot.execution.report import ExecutionReport

    code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.components.mmi1x2()\n"
            "x, y = c.ports['o1'].position\nprint(x, y)\n")
    run = run_script(tmp_path, code, timeout=120)
    assert run.returncode != 0 and "object has no attribute 'position'" in run.stderr, run.stderr[-500:]
    rep = ExecutionReport(ok=False, stderr=run.stderr,
                          exception=last_exception(run, "AttributeError"))
    fixed, done = fixes.use_the_ports_center(code, rep)
    assert "x, y = c.ports['o1'].center\n" in fixed and done
    run = run_script(tmp_path, fixed, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "-10.0 0.0", run.stderr[-500:]


def test_a_box_indexed_like_gdsfactory_7s_bbox_array_gets_its_corners_by_name(tmp_path):
    """gdsfactory 7's bbox was [[xmin, ymin], [xmax, ymax]]; gdsfactory 9's is a KLayout DBox, and
    "'DBox' object is not subscriptable" (a real m08 candidate) proves the script indexed one. The
    failing line's box and point subscripts by 0/1 become p1/p2 and x/y, innermost first; a list
    indexed on the same line stays; the fixed script runs with the real gdsfactory."""
    code = ("import gdsfactory as gf\ngf.gpdk.PDK.activate()\nc = gf.components.mmi1x2()\nbb = c.bbox()\nxs = [2.0, 3.0]\n"
            "print(round(bb[1][0] - bb[0][0], 3), round((c.dbbox()[1] - c.dbbox()[0])[1] * xs[0], 3))\n")
    check_run_repair(tmp_path, fixes.name_box_and_point_parts, code, "'DBox' object is not subscriptable", "TypeError",
                     "print(round(bb.p2.x - bb.p1.x, 3), round((c.dbbox().p2 - c.dbbox().p1).y * xs[0], 3))",
                     "25.5 5.0", ("'list' object is not subscriptable", "'DBox' object has no attribute 'x'"),
                     timeout=180)
    # a value the script did not make as a box or point is not guessed at
    other = "import klayout.db as kdb\nd = {0: 1}\nprint(d[0], kdb.DBox(0, 0, 1, 1)[0])\n"
    from pic_copilot.execution.report import ExecutionReport
    run = run_script(tmp_path, other)
    fixed, done = fixes.name_box_and_point_parts(other, ExecutionReport(ok=False, stderr=run.stderr,
                                                                        exception=last_exception(run, "TypeError")))
    assert (fixed, done) == (other, []) and "not subscriptable" in run.stderr


def test_an_invented_component_name_is_told_the_real_one_its_words_name_in_the_cookbook():
    """A real a04 run wrote gf.components.allpass_ring in all nine candidates: the spelling
    suggestions offered seal_ring, nothing named ring_single. The verified recipes whose words
    match the invented name's say which real function the namespace has for it."""
    from pic_copilot.agents import retrieve

    code = ("import gdsfactory as gf\nc = gf.components.allpass_ring(radius=10)\n"
            "d = gf.components.double_bus_ring()\ne = gf.components.ring_singel()\ngf.Component.add_ring_label(c)\n")
    found = {f["name"]: f for f in retrieve.name_invented_apis(checks.api_check(code, retrieve.symbol_index()))}
    allpass = found["gdsfactory.components.allpass_ring"]
    assert allpass["suggestions"][0] == "gdsfactory.components.ring_single"
    assert "Did you mean: gdsfactory.components.ring_single," in allpass["message"]
    assert 'the verified recipe "All-pass ring resonator' in allpass["message"]
    assert "gdsfactory.components.ring_double" in found["gdsfactory.components.double_bus_ring"]["suggestions"][:2]
    # a typo keeps its spelling mend, and a class's unknown method gets no recipe's word
    typo = found["gdsfactory.components.ring_singel"]
    assert typo["suggestions"][0] == "gdsfactory.components.ring_single" and "verified recipe" not in typo["message"]
    assert "verified recipe" not in found["gdsfactory.Component.add_ring_label"]["message"]
    # without the cookbook's words the finding is left as it was
    assert retrieve.cookbook_meaning("gdsfactory.components.zz_qq") == ()


def test_an_integer_box_length_compared_with_micrometres_is_a_static_error():
    """A real a08 script tested `shape.bbox().width() < 0.5` to find rectangles narrower than 0.5 um:
    bbox() measures in database units, so nothing was found and the run looked fine. Scaled or
    micrometre boxes, and whole numbers (which may be database units), are left alone."""
    code = ("MIN_W = 0.5\nfor shape in cell.shapes(li):\n    if shape.bbox().width() < MIN_W:\n        pass\n"
            "    if 0.25 > shape.bbox().left:\n        pass\n    if shape.bbox().height() * dbu < 0.5:\n        pass\n"
            "    if shape.dbbox().width() < 0.5 or shape.bbox().width() < 500:\n        pass\n")
    found = checks.dbu_micron_comparisons(code)
    assert [f["line"] for f in found] == [3, 5]
    assert "shape.dbbox().width()" in found[0]["message"] and "MIN_W = 0.5 is in µm" in found[0]["message"]
    assert all(f["severity"] == "error" for f in found)
    assert any(f["kind"] == "units" for f in checks.static_findings(code, "interactive", None, interactive_pya=True)[0])
    # a real a08 candidate named the length first, in a loop
    named = "for shape in cell.shapes(li):\n    width = shape.bbox().width()\n    if width < 0.5:\n        pass\n"
    found = checks.dbu_micron_comparisons(named)
    assert [f["line"] for f in found] == [3] and "width (= shape.bbox().width())" in found[0]["message"]
    twice = "w = 1.0\nfor shape in cell.shapes(li):\n    w = shape.bbox().width()\n    if w < 0.5:\n        pass\n"
    assert checks.dbu_micron_comparisons(twice) == []


def test_an_integer_polygon_area_compared_with_square_micrometres_is_a_static_error():
    """A real a12 script looked for merged pieces "below 1 µm²" with ``shape.area() < 0.001`` over a
    Region's polygons: their area is in database units squared, so no piece was found and the run
    looked fine. A Region's own area, a name set to it, and perimeters count too; scaled areas,
    micrometre polygons and whole numbers are left alone."""
    code = ("merged = pya.Region(cell.shapes(li)).merged()\nLIMIT = 0.5\n"
            "for shape in merged:\n    if shape.area() < 0.001:\n        pass\n"          # 4
            "    if shape.area() * dbu ** 2 < 1.5:\n        pass\n"                          # 6: scaled
            "    a = shape.perimeter()\n    if a > 2.5:\n        pass\n"                    # 9
            "small = [p for p in merged.each_merged() if p.area() < LIMIT]\n"                  # 11
            "if pya.Region(cell.shapes(li)).sized(10).area() > 0.25:\n    pass\n"            # 12
            "for q in cell.shapes(li).each():\n    if q.dpolygon.area() < 0.5:\n        pass\n"  # 14: µm
            "if merged.area() < 1000:\n    pass\n")                                            # 16: whole
    found = checks.dbu_micron_comparisons(code)
    assert [f["line"] for f in found] == [4, 9, 11, 12]
    assert "database units squared" in found[0]["message"] and "shape.area() * layout.dbu ** 2" in found[0]["message"]
    assert "a (= shape.perimeter())" in found[1]["message"] and "µm²" not in found[1]["message"]
    assert "LIMIT = 0.5 is in µm²" in found[2]["message"]
    # the a12 candidate as it was written
    a12 = ("shapes = target.shapes(layout.layer(1, 0))\nmerged = pya.Region(shapes).merged()\n"
           "for shape in merged:\n    if shape.area() < 0.001:\n        print(shape)\n")
    assert [f["line"] for f in checks.dbu_micron_comparisons(a12)] == [4]
    # a cell's shapes are integer too, iterated directly, by .each() or through a name (a real a12
    # script of session 28: ``for shape in shapes: if shape.area() < 1e-6``); darea() is µm²
    shapes = ("shapes = target.shapes(layout.layer(1, 0))\nfor shape in shapes:\n    if shape.area() < 1e-6:\n        pass\n"
              "for s in cell.shapes(li).each():\n    if s.area() < 0.5:\n        pass\n"
              "for s in cell.shapes(li):\n    if s.darea() < 0.5:\n        pass\n")
    assert [f["line"] for f in checks.dbu_micron_comparisons(shapes)] == [3, 6]


def test_a_layer_pair_passed_as_a_layer_index_is_an_error_and_fixed():
    """A real a12 script moved its small pieces with ``target.shapes(LAYER99)``, LAYER99 = (1, 99):
    a pair where pya takes one index, which fails once it runs (it did not: no piece was moved). The
    check names layout.layer(*LAYER99), the fix writes it, and the fixed script runs on a real layout.
    gdsfactory scripts, whose layers are such pairs, are left alone."""
    from pic_copilot.agents.fixes import fix_gds_layer_numbers_as_indexes as fix
    from pic_copilot.checks.static import layer_number_check
    import klayout.db as kdb

    code = "LAYER99 = (1, 99)\ncell.shapes(LAYER99).insert(pya.DBox(0, 0, 1, 1))\nprint(cell.shapes((2, 0)).size())\n"
    found = layer_number_check(code)
    assert [f["line"] for f in found] == [2, 3] and "layout.layer(*LAYER99)" in found[0]["message"]
    assert "layout.layer(2, 0)" in found[1]["message"]
    fixed, what = fix(code, "interactive")
    assert fixed == ("LAYER99 = (1, 99)\ncell.shapes(layout.layer(*LAYER99)).insert(pya.DBox(0, 0, 1, 1))\n"
                     "print(cell.shapes(layout.layer(2, 0)).size())\n") and what
    layout = kdb.Layout()
    cell = layout.create_cell("TOP")
    exec(compile(fixed, "<fixed>", "exec"), {"layout": layout, "cell": cell, "pya": kdb, "print": lambda *a: None})
    assert cell.shapes(layout.find_layer(1, 99)).size() == 1
    gf = "import gdsfactory as gf\nL = (1, 0)\nc = gf.Component()\nprint(c.shapes(L))\n"
    assert layer_number_check(gf) == [] and fix(gf, "sandbox") == (gf, None)


def test_a_store_to_an_attribute_a_klayout_class_lacks_is_an_error():
    """A real b08 script "drew" its pad with pad_shape.layer = layout.layer(10, 0) and
    pad_shape.x_min = -50 on a pya.DBox: pya keeps such attributes silently, nothing was inserted,
    and the run looked fine. Setters the class has (box.left = ...) and other objects are left alone."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = ("pad_shape = pya.DBox(-50, -50, 50, 50)\npad_shape.layer = layout.layer(10, 0)\n"
            "pad_shape.x_min = -50\npad_shape.left = -50\ncell.shapes(layout.layer(10, 0)).insert(pad_shape)\n"
            "class Note:\n    pass\nn = Note()\nn.layer = 1\n")
    found = [f for f in checks.api_check(code, idx, checks.BRIDGE_GLOBALS) if "stores nothing" in f["message"]]
    assert [f["line"] for f in found] == [2, 3], found
    assert found[0]["severity"] == "error" and "pad_shape (pya.DBox) has no attribute 'layer'" in found[0]["message"]
    assert "Did you mean" not in found[0]["message"]   # another library's 'layer' is no answer


def test_a_class_member_is_suggested_from_its_own_library_only():
    """A real a04 round was told "layout.get_info(li) returns a klayout.db.LayerInfo, which has no
    attribute 'dbbox'. Did you mean: gdsfactory.Component.dbbox, ..." three rounds running: the
    object is a LayerInfo, so another library's class is no answer. A module's missing function
    still gets every library's suggestions."""
    from pic_copilot.retrieval import api

    idx = api.symbol_index()
    code = "import klayout.db as db\nly = db.Layout()\nli = ly.layer(1, 0)\nb = ly.get_info(li).dbbox()\n"
    found = [f for f in checks.api_check(code, idx) if f["line"] == 4]
    assert found and all(not x.startswith("gdsfactory") for f in found for x in f["suggestions"]), found
    assert "gdsfactory" not in found[0]["message"]
    assert checks._same_library_for_a_class("gdsfactory.read", ["klayout.db.Layout.read"]) == ["klayout.db.Layout.read"]
    assert checks._same_library_for_a_class(
        "pya.DBox.x_min", ["pya.DBox.left", "klayout.db.Box.left", "gdsfactory.Component.xmin"]) == \
        ["pya.DBox.left", "klayout.db.Box.left"]


def test_a_cell_placed_inside_itself_is_a_static_error():
    """A real a20 candidate wrote cell.insert(pya.DCellInstArray(cell.cell_index(), ...)): a
    recursive hierarchy, and KLayout aborted the trial run. Placing another cell, or the cell
    into another, is left alone; the index may be named first."""
    code = ("clip = layout.create_cell('CLIP')\n"
            "clip.insert(pya.DCellInstArray(clip.cell_index(), pya.DTrans(pya.DVector(-10, -10))))\n"   # 2
            "cell.insert(pya.DCellInstArray(clip.cell_index(), pya.DTrans()))\n"                       # 3: fine
            "ci = cell.cell_index()\ncell.insert(pya.CellInstArray(ci, pya.Trans()))\n"              # 5
            "clip.insert(pya.CellInstArray(ci, pya.Trans()))\n")                                       # 6: fine
    found = checks.cells_placed_in_themselves(code)
    assert [f["line"] for f in found] == [2, 5]
    assert "places clip inside itself" in found[0]["message"] and found[0]["severity"] == "error"
    assert any("inside itself" in f["message"]
               for f in checks.static_findings(code, "interactive", None, interactive_pya=True)[0])


def test_a_dtrans_of_two_integers_is_made_a_displacement():
    """pya.DTrans(200, 0) is DTrans(rot, mirrx): a real b08 instance meant for (200, 0) landed at 0,0
    and was accepted. Two integers that cannot be a rotation code and a mirror flag become floats;
    checked with the real klayout module."""
    import klayout.db as kdb

    code = "import klayout.db as kdb\nt = kdb.DTrans(200, 0)\nr = kdb.DTrans(1, 0)\nu = kdb.DTrans(-50, 25)\n"
    assert kdb.DTrans(200, 0).disp == kdb.DVector(0, 0)   # why: the integers are not a displacement
    fixed, what = fixes.fix_integer_displacements(code, "sandbox")
    assert "kdb.DTrans(200.0, 0.0)" in fixed and "kdb.DTrans(1, 0)" in fixed and "kdb.DTrans(-50.0, 25.0)" in fixed
    assert what and "rotation code" in what
    space = {}
    exec(fixed, space)
    assert space["t"].disp == kdb.DVector(200, 0) and space["u"].disp == kdb.DVector(-50, 25)
    assert fixes.fix_integer_displacements("t = kdb.DTrans(200.5, 0)\n", "sandbox") == ("t = kdb.DTrans(200.5, 0)\n", None)


def test_klayout_module_imports_in_an_open_layout_edit_become_pya():
    """Inside KLayout, pya holds every class of pip klayout's db, rdb, lay and tl modules: an edit
    of the open layout that imports any of them (a real a06 continuation: ``import klayout.rdb as
    rdb_api`` for its report database) keeps its names bound to pya and stays in KLayout, where the
    open layout is; the fixed script runs with the bridge's globals."""
    from pic_copilot.agents.fixes.rules import fix_pya_import_in_klayout
    code = ("import klayout.rdb as rdb_api\nfrom klayout import db\n"
            "rdb = rdb_api.ReportDatabase('checks')\nregion = db.Region(cell.begin_shapes_rec(layout.layer(1, 0)))\n"
            "cat = rdb.create_category('width')\nprint(cat.name(), region.count())\n")
    fixed, what = fix_pya_import_in_klayout(code, "interactive")
    assert "klayout" not in fixed and fixed.startswith("rdb_api = pya\ndb = pya\n"), fixed
    assert what == "removed `import klayout.rdb as rdb_api` (pya is predefined in KLayout)"
    assert fix_pya_import_in_klayout(code, "sandbox") == (code, None)
    import klayout.db
    import klayout.rdb

    class Pya:   # what pya is inside KLayout: db and rdb in one module
        Region, ReportDatabase, Box = klayout.db.Region, klayout.rdb.ReportDatabase, klayout.db.Box
    layout = klayout.db.Layout()
    cell = layout.create_cell("TOP")
    cell.shapes(layout.layer(1, 0)).insert(klayout.db.Box(0, 0, 100, 100))
    out: list = []
    exec(fixed, {"pya": Pya, "layout": layout, "cell": cell, "print": lambda *a: out.append(a)})
    assert out == [("width", 1)]
