"""The embedded runtime's offline verification: a llama-server binary is used only when its stamp says it
was built from the pinned source for this CPU and the file is unchanged since."""
import json
import os

import pytest

from pic_copilot.setup import runtime as sr


def _install_fake(data, text="#!/bin/sh\necho 'version: 0.5.0-test'\n"):
    b = sr.binary_path(data)
    b.parent.mkdir(parents=True)
    b.write_text(text)
    b.chmod(0o755)
    return sr.write_stamp(data, sr._version(b))


def test_a_stamped_binary_verifies_and_any_change_is_named(tmp_path):
    assert sr.verified_binary(tmp_path) is None
    assert "missing" in sr.runtime_problem(tmp_path)
    stamp = _install_fake(tmp_path)
    assert stamp["version"] == "version: 0.5.0-test" and stamp["source_sha256"] == sr.SDIST_SHA256
    assert sr.verified_binary(tmp_path) == sr.binary_path(tmp_path)
    assert sr.runtime_problem(tmp_path, rebuild_check=True) is None

    path = sr.stamp_path(tmp_path)
    for key, value, words in [("cpu", "0" * 16, "another CPU"), ("source_sha256", "f" * 64, "another source"),
                              ("recipe", "x", "another recipe")]:
        bad = dict(stamp, **{key: value})
        path.write_text(json.dumps(bad))
        problem = sr.runtime_problem(tmp_path, rebuild_check=True)
        assert problem and words in problem, (key, problem)
    path.write_text(json.dumps(stamp))
    # the engine does not rebuild for a recipe change, set-up does
    path.write_text(json.dumps(dict(stamp, recipe="x")))
    assert sr.verified_binary(tmp_path) is not None
    path.write_text(json.dumps(stamp))
    with open(sr.binary_path(tmp_path), "a") as f:
        f.write("# tampered\n")
    assert "does not match its stamp" in sr.runtime_problem(tmp_path)
    path.write_text("{not json")
    assert "unreadable" in sr.runtime_problem(tmp_path)


def test_build_without_a_compiler_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(sr.RuntimeBuildError, match="apt-get install cmake"):
        sr.build(tmp_path / "data")


def test_a_binary_that_cannot_run_fails_version_check(tmp_path):
    b = tmp_path / "llama-server"
    b.write_text("#!/bin/sh\necho boom >&2\nexit 3\n")
    b.chmod(0o755)
    with pytest.raises(sr.RuntimeBuildError, match="exit 3"):
        sr._version(b)


def test_cpu_signature_is_stable():
    assert sr.cpu_signature() == sr.cpu_signature() and len(sr.cpu_signature()) == 16
    assert os.path.exists(sr.recipe_dir() / "CMakeLists.txt")
