"""The folders the plugin reads and writes, each derived in one place (stdlib + pya only).

- the shared data home: ``PIC_COPILOT_HOME`` or ``~/.local/share/pic-copilot``, the same rule as
  the engine's ``pic_copilot.config.data_home`` (the plugin cannot import the engine);
- KLayout's home: the application's data path, else ``KLAYOUT_HOME``, else ``~/.klayout``.
"""
from __future__ import annotations

import os
from pathlib import Path

import pya


def data_home() -> str:
    """The shared data folder (the embedded LLM, history, logs, the remote endpoint's discovery file)."""
    return os.environ.get("PIC_COPILOT_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share", "pic-copilot")


def data_folder(name: str) -> Path:
    """A folder in the shared data home, created if missing.

    Args:
        name: the folder's name, e.g. "logs" or "macro-history".
    """
    d = Path(data_home()) / name
    d.mkdir(parents=True, exist_ok=True)
    return d


def klayout_folder(name: str) -> Path:
    """A folder in KLayout's home, created if missing.

    Args:
        name: the folder's name, e.g. "drc" (the DRC macros) or "pymacros" (the IDE's Python macros).
    """
    home = ""
    try:
        home = pya.Application.instance().application_data_path()
    except Exception:  # noqa: BLE001
        home = ""
    home = home or os.environ.get("KLAYOUT_HOME") or os.path.expanduser("~/.klayout")
    d = Path(home) / name
    d.mkdir(parents=True, exist_ok=True)
    return d
