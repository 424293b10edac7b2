"""Build and verify the embedded LLM runtime: llama.cpp's ``llama-server``, from a pinned sdist on PyPI.

Run by ``scripts/setup.sh`` (stage llm-runtime); safe to run again (a verified binary is kept):

    python -m pic_copilot.setup.runtime build --data ~/.local/share/pic-copilot
    python -m pic_copilot.setup.runtime check --data ~/.local/share/pic-copilot [--smoke]

The source is the llama.cpp tree vendored in the llama-cpp-python sdist (:data:`SDIST`), fetched with
``pip download`` and checked against :data:`SDIST_SHA256` before anything is built. CMake builds only
the server (scripts/llama-server/CMakeLists.txt) for this machine's CPU (``-march=native`` without AMX,
which this kind of virtual machine advertises but traps on). The binary goes to
``<data>/llm-runtime/bin/llama-server`` with a stamp (``stamp.json``) holding the source hash, the build
recipe's hash, the CPU's feature flags, the binary's sha256 and its ``--version``: the engine finds and
verifies the binary from the stamp alone, without a network (:func:`verified_binary`).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from . import stage_main
from .assets import sha256_of

SDIST = "llama-cpp-python==0.3.36"
SDIST_FILE = "llama_cpp_python-0.3.36.tar.gz"
SDIST_SHA256 = "832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
VENDORED = "llama_cpp_python-0.3.36/vendor/llama.cpp/"
# AMX: advertised by the host CPU's flags on this kind of VM, but the tile instructions trap (SIGILL)
CPU_FLAGS = "-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
BUILD_TOOLS = ("cmake", "c++")


class RuntimeBuildError(RuntimeError):
    """The runtime could not be fetched, built or verified; the message says what to do."""


def runtime_dir(data: Path) -> Path:
    return data / "llm-runtime"


def binary_path(data: Path) -> Path:
    return runtime_dir(data) / "bin" / "llama-server"


def stamp_path(data: Path) -> Path:
    return runtime_dir(data) / "stamp.json"


def recipe_dir() -> Path:
    from ..config import project_root

    return project_root() / "scripts" / "llama-server"


def recipe_hash() -> str:
    """Hash of everything that decides the build: the wrapper CMakeLists, the flags, the pinned source."""
    h = hashlib.sha256()
    h.update((recipe_dir() / "CMakeLists.txt").read_bytes())
    h.update(f"{SDIST_SHA256} {CPU_FLAGS}".encode())
    return h.hexdigest()[:16]


def cpu_signature() -> str:
    """Hash of the CPU model and feature flags (a -march=native binary is only valid on the same kind of CPU)."""
    model = flags = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and not model:
                model = line.split(":", 1)[1].strip()
            elif line.startswith("flags") and not flags:
                flags = " ".join(sorted(line.split(":", 1)[1].split()))
    except OSError:
        pass
    return hashlib.sha256(f"{model}|{flags}".encode()).hexdigest()[:16]


def read_stamp(data: Path) -> dict | None:
    try:
        return json.loads(stamp_path(data).read_text())
    except (OSError, json.JSONDecodeError):
        return None


def runtime_problem(data: Path, rebuild_check: bool = False) -> str | None:
    """Why the installed llama-server cannot be used (None when it is verified).

    Args:
        data: the shared data folder.
        rebuild_check: also require the current checkout's build recipe (set-up rebuilds when it changed;
            the engine does not care which checkout built a binary that verifies).
    """
    binary = binary_path(data)
    if not binary.exists():
        return f"{binary} missing"
    st = read_stamp(data)
    if st is None:
        return f"{stamp_path(data)} missing or unreadable"
    if st.get("source_sha256") != SDIST_SHA256:
        return f"built from another source ({st.get('source')}); this version pins {SDIST}"
    if rebuild_check and st.get("recipe") != recipe_hash():
        return "built with another recipe (scripts/llama-server changed)"
    if st.get("cpu") != cpu_signature():
        return "built for another CPU"
    size = binary.stat().st_size
    if st.get("binary_size") != size or sha256_of(binary) != st.get("binary_sha256"):
        return f"{binary} does not match its stamp (modified after the build)"
    return None


def verified_binary(data: Path) -> Path | None:
    """The llama-server binary if its stamp verifies it for this source, recipe and CPU, else None."""
    return binary_path(data) if runtime_problem(data) is None else None


# ------------------------------------------------------------------------------------------ build
def _run(cmd: list[str], log, what: str, cwd: Path | None = None) -> None:
    log.write(f"$ {' '.join(cmd)}\n")
    log.flush()
    proc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=cwd)
    if proc.returncode != 0:
        raise RuntimeBuildError(f"{what} failed (exit {proc.returncode}); the last lines of {log.name} say why")


def _python_with_pip(work: Path, log) -> str:
    """This interpreter if it has pip (a bare Debian python3 has not), else a throw-away venv's."""
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode == 0:
        return sys.executable
    venv = work / "pip-venv"
    _run([sys.executable, "-m", "venv", str(venv)], log, "creating a venv for pip (Debian: apt-get install python3-venv)")
    return str(venv / "bin" / "python")


def fetch_source(work: Path, log) -> Path:
    """Download the pinned sdist into ``work``, verify its sha256 and extract only the vendored llama.cpp."""
    req = work / "requirements.txt"
    req.write_text(f"{SDIST} --hash=sha256:{SDIST_SHA256}\n")
    _run([_python_with_pip(work, log), "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "--require-hashes",
          "-r", str(req), "-d", str(work)], log, f"pip download {SDIST}")
    sdist = work / SDIST_FILE
    if not sdist.exists():
        raise RuntimeBuildError(f"pip download {SDIST} did not produce {SDIST_FILE}")
    digest = sha256_of(sdist)
    if digest != SDIST_SHA256:
        raise RuntimeBuildError(f"{SDIST_FILE}: sha256 {digest} does not match the pinned {SDIST_SHA256}; "
                                "refusing to build it")
    src = work / "src"
    with tarfile.open(sdist) as tf:
        members = [m for m in tf.getmembers() if m.name.startswith(VENDORED)]
        if not members:
            raise RuntimeBuildError(f"{SDIST_FILE} has no {VENDORED}")
        for m in members:
            if m.name.startswith("/") or ".." in Path(m.name).parts or not (m.isfile() or m.isdir()):
                raise RuntimeBuildError(f"{SDIST_FILE}: unexpected member {m.name!r}; refusing to extract it")
        tf.extractall(src, members=members)
    sdist.unlink()
    return src / VENDORED


def build(data: Path, jobs: int | None = None, log_path: Path | None = None) -> Path:
    """Fetch, verify, build and install llama-server under ``data``; returns the binary. Idempotent."""
    if runtime_problem(data, rebuild_check=True) is None:
        return binary_path(data)
    missing = [t for t in BUILD_TOOLS if shutil.which(t) is None]
    if missing:
        raise RuntimeBuildError(f"build tools missing: {', '.join(missing)} (Debian: apt-get install cmake g++ ninja-build)")
    rt = runtime_dir(data)
    rt.mkdir(parents=True, exist_ok=True)
    log_path = log_path or rt / "build.log"
    t0 = time.monotonic()
    with open(log_path, "a") as log, tempfile.TemporaryDirectory(dir=rt, prefix="build-") as tmp:
        work = Path(tmp)
        src = fetch_source(work, log)
        t_fetch = time.monotonic() - t0
        bdir = work / "build"
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        _run(["cmake", "-S", str(recipe_dir()), "-B", str(bdir), *gen, f"-DLLAMA_SRC={src}",
              "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_C_FLAGS={CPU_FLAGS}", f"-DCMAKE_CXX_FLAGS={CPU_FLAGS}",
              "-DLLAMA_BUILD_NUMBER=0", f"-DLLAMA_BUILD_COMMIT={SDIST.replace('==', '-')}"], log, "cmake configure")
        _run(["cmake", "--build", str(bdir), "--target", "llama-server", "-j", str(jobs or os.cpu_count() or 2)],
             log, "building llama-server")
        built = bdir / "bin" / "llama-server"
        if not built.exists():
            raise RuntimeBuildError(f"the build finished without {built}")
        target = binary_path(data)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp_bin = target.with_name(".llama-server.new")
        shutil.copy2(built, tmp_bin)
        version = _version(tmp_bin)
        tmp_bin.replace(target)
    write_stamp(data, version, fetch_s=t_fetch, build_s=time.monotonic() - t0 - t_fetch)
    return target


def write_stamp(data: Path, version: str, fetch_s: float | None = None, build_s: float | None = None) -> dict:
    """Record the installed binary (its hash, the source, the recipe, the CPU) so it verifies offline."""
    target = binary_path(data)
    stamp = {"source": SDIST, "source_sha256": SDIST_SHA256, "recipe": recipe_hash(), "cpu": cpu_signature(),
             "binary_sha256": sha256_of(target), "binary_size": target.stat().st_size, "version": version,
             "built": time.strftime("%Y-%m-%dT%H:%M:%S"),
             "fetch_s": None if fetch_s is None else round(fetch_s, 1),
             "build_s": None if build_s is None else round(build_s, 1)}
    tmp = stamp_path(data).with_suffix(".tmp")
    tmp.write_text(json.dumps(stamp, indent=1))
    tmp.replace(stamp_path(data))
    return stamp


def _version(binary: Path) -> str:
    try:
        p = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RuntimeBuildError(f"{binary} --version could not run: {e}") from None
    out = (p.stdout + p.stderr).strip()
    if p.returncode != 0 or "version" not in out:
        raise RuntimeBuildError(f"{binary} --version failed (exit {p.returncode}): {out[-300:]}")
    return out.splitlines()[0]


def smoke_test(binary: Path, model: Path, timeout_s: float = 180.0) -> float:
    """Start the binary on a free port with the model, ask for one token, stop it; returns seconds.

    Catches a binary that loads but dies on the first matrix product (an instruction the CPU lacks).
    """
    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([str(binary), "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
                                 "--ctx-size", "512", "--parallel", "1", "--no-webui"],
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            while time.monotonic() - t0 < timeout_s:
                if proc.poll() is not None:
                    out.seek(0)
                    tail = out.read().decode("utf-8", "replace")[-600:]
                    raise RuntimeBuildError(f"{binary} exited with code {proc.returncode} while loading {model.name}"
                                            f"{' (illegal instruction: the binary uses an instruction this CPU does not execute)' if proc.returncode == -4 else ''}:"
                                            f"\n{tail}")
                try:
                    r = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", timeout=60,
                                   json={"messages": [{"role": "user", "content": "hi"}], "max_tokens": 1})
                    if r.status_code == 200 and r.json().get("choices"):
                        return time.monotonic() - t0
                except (httpx.HTTPError, ValueError):
                    pass
                time.sleep(0.3)
            raise RuntimeBuildError(f"{binary} did not answer within {timeout_s:.0f} s")
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


@stage_main(RuntimeBuildError)
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pic_copilot.setup.runtime", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p_b = sub.add_parser("build", help="fetch, verify and build llama-server unless a verified one is installed")
    p_c = sub.add_parser("check", help="exit 0 if the installed llama-server is verified (and, with --model, answers)")
    for p in (p_b, p_c):
        p.add_argument("--data", type=Path, required=True, help="shared data folder")
        p.add_argument("--smoke", action="store_true",
                       help="also start the binary with the embedded model and ask for one token")
    p_b.add_argument("--jobs", type=int, help="parallel compile jobs (default: the cores)")
    args = ap.parse_args(argv)
    if args.what == "build":
        was = runtime_problem(args.data, rebuild_check=True) is None
        binary = build(args.data, jobs=args.jobs)
        st = read_stamp(args.data) or {}
        print("verified earlier" if was else f"built in {st.get('build_s')} s (source {st.get('fetch_s')} s)",
              end=" ")
    else:
        problem = runtime_problem(args.data)
        if problem:
            print(f"llama-server not usable: {problem}", file=sys.stderr)
            return 1
        binary = binary_path(args.data)
    if args.smoke:
        from .assets import llm_model_path

        model = llm_model_path(args.data)
        if not model.exists():
            raise RuntimeBuildError(f"{model} missing: install the model first (setup.assets llm)")
        s = smoke_test(binary, model)
        print(f"answers ({s:.1f} s)", end=" ")
    print((read_stamp(args.data) or {}).get("version", ""), end=" ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
