"""Sentence embeddings with onnxruntime + a ``tokenizers`` tokenizer (no torch, no hub).

Models live in ``models/<name>/{model.onnx,tokenizer.json}`` (installed and sha256-checked by
``python -m pic_copilot.setup.assets embedding --models models``). Output vectors are
mean-pooled over the attention mask and L2-normalised, float32.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import RetrievalError
from .paths import models_dir


@dataclass(frozen=True)
class ModelSpec:
    name: str
    max_length: int
    #: which output to use: "last_hidden_state" (mean-pool it) or an int index of an
    #: output that is already a pooled sentence embedding
    output: str | int


MODELS: dict[str, ModelSpec] = {
    "all-MiniLM-L6-v2-int8": ModelSpec("all-MiniLM-L6-v2-int8", 256, "last_hidden_state"),
    "paraphrase-MiniLM-L3-v2": ModelSpec("paraphrase-MiniLM-L3-v2", 128, 3),
}

#: the model used for new builds (chosen by the retrieval evaluation, see databases/README.md)
DEFAULT_MODEL = "all-MiniLM-L6-v2-int8"

FIX_MODEL = "python -m pic_copilot.setup.assets embedding --models models"

_HASH_CACHE: dict[tuple[str, int, int], str] = {}


def file_sha256(path: Path) -> str:
    """sha256 of a file, cached per (path, size, mtime) in the process and in a
    ``<file>.sha256`` stamp next to it (so loading does not re-hash 23 MB every time)."""
    st = path.stat()
    key = (str(path), st.st_size, int(st.st_mtime_ns))
    if key not in _HASH_CACHE:
        stamp = path.with_name(path.name + ".sha256")
        tag = f"{st.st_size} {st.st_mtime_ns}"
        try:
            digest, stamp_tag = stamp.read_text().split(" ", 1)
            if stamp_tag.strip() == tag and len(digest) == 64:
                _HASH_CACHE[key] = digest
                return digest
        except (OSError, ValueError):
            pass
        h = hashlib.sha256()
        with open(path, "rb") as f:
            while block := f.read(1 << 20):
                h.update(block)
        _HASH_CACHE[key] = h.hexdigest()
        try:
            stamp.write_text(f"{_HASH_CACHE[key]} {tag}")
        except OSError:
            pass
    return _HASH_CACHE[key]


class Embedder:
    """Embeds texts into L2-normalised float32 vectors."""

    def __init__(self, name: str = DEFAULT_MODEL, directory: Path | None = None, threads: int | None = None):
        if name not in MODELS:
            raise RetrievalError(f"unknown embedding model {name!r}; known: {', '.join(MODELS)}")
        self.spec = MODELS[name]
        self.name = name
        self.dir = Path(directory) if directory else models_dir() / name
        self.model_path = self.dir / "model.onnx"
        tok_path = self.dir / "tokenizer.json"
        for p in (self.model_path, tok_path):
            if not p.is_file():
                raise RetrievalError(f"embedding model file {p} is missing; install it with: {FIX_MODEL} --name {name}")
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as e:  # pragma: no cover - dependency problem
            raise RetrievalError(f"{e}; install the engine with: pip install -e .") from e
        self.tokenizer = Tokenizer.from_file(str(tok_path))
        # the shipped tokenizer pads to a fixed 128: pad only to the longest in a batch
        self.tokenizer.no_padding()
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self.tokenizer.enable_truncation(max_length=self.spec.max_length)
        so = ort.SessionOptions()
        n = threads or int(os.environ.get("PIC_COPILOT_ORT_THREADS", "0") or 0) or min(2, os.cpu_count() or 1)
        so.intra_op_num_threads = n
        so.inter_op_num_threads = 1
        so.log_severity_level = 3
        # idle ORT worker threads spin-wait by default and starve numpy's BLAS right after a
        # query embedding (measured: dense scoring 0.1 ms -> 16 ms); do not let them spin
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self.session = ort.InferenceSession(str(self.model_path), so, providers=["CPUExecutionProvider"])
        except Exception as e:
            raise RetrievalError(f"cannot load the embedding model {self.model_path}: {e}; reinstall it with: {FIX_MODEL}") from e
        self.input_names = [i.name for i in self.session.get_inputs()]
        self.output_names = [o.name for o in self.session.get_outputs()]
        self.dim = int(self.session.get_outputs()[0].shape[-1]) if isinstance(self.session.get_outputs()[0].shape[-1], int) else 384

    @property
    def sha256(self) -> str:
        return file_sha256(self.model_path)

    def embed(self, texts: list[str], batch_size: int = 32, progress=None) -> np.ndarray:
        """Embed ``texts`` -> (n, dim) float32, L2-normalised. Sorted by length for speed."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            vecs = self._run([texts[i] for i in idx])
            out[idx] = vecs
            if progress:
                progress(len(idx))
        return out

    def embed_one(self, text: str) -> np.ndarray:
        return self._run([text])[0]

    def _run(self, texts: list[str]) -> np.ndarray:
        enc = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        feeds = {k: v for k, v in feeds.items() if k in self.input_names}
        if isinstance(self.spec.output, int):
            vec = self.session.run([self.output_names[self.spec.output]], feeds)[0].astype(np.float32)
        else:
            hidden = self.session.run([self.spec.output] if self.spec.output in self.output_names else [self.output_names[0]], feeds)[0]
            m = mask[:, :, None].astype(np.float32)
            vec = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        norm = np.linalg.norm(vec, axis=1, keepdims=True)
        return (vec / np.clip(norm, 1e-12, None)).astype(np.float32)


_EMBEDDERS: dict[str, Embedder] = {}


def get_embedder(name: str = DEFAULT_MODEL) -> Embedder:
    """A cached :class:`Embedder` per model name (and per models folder)."""
    key = f"{models_dir()}::{name}"
    if key not in _EMBEDDERS:
        _EMBEDDERS[key] = Embedder(name)
    return _EMBEDDERS[key]
