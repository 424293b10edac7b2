"""Where the databases and models live (overridable by environment variables)."""
from __future__ import annotations

import os
from pathlib import Path

#: the checkout (``lib/pic_copilot/retrieval/paths.py`` -> repo root)
REPO_ROOT = Path(__file__).resolve().parents[3]


def databases_dir() -> Path:
    """``$PIC_COPILOT_DATABASES`` or ``<repo>/databases``."""
    return Path(os.environ.get("PIC_COPILOT_DATABASES") or REPO_ROOT / "databases")


def models_dir() -> Path:
    """``$PIC_COPILOT_MODELS`` or ``<repo>/models``."""
    return Path(os.environ.get("PIC_COPILOT_MODELS") or REPO_ROOT / "models")
