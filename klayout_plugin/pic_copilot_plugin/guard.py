"""Refuse imports that crash KLayout 0.28.5: pip `klayout`, `kfactory`, `gdsfactory` (stdlib only).

Importing them inside the KLayout application segfaults it (see docs/EXECUTION_CONTEXT.md).
The guard is installed for the whole KLayout session by the autorun macro; scripts that need
gdsfactory run in the engine's sandbox instead.
"""
from __future__ import annotations

import contextlib
import importlib.abc
import sys

BLOCKED = ("gdsfactory", "kfactory", "klayout", "gplugins")
MESSAGE = ("'{name}' cannot be imported inside the KLayout application: the pip packages gdsfactory, "
           "kfactory and klayout crash KLayout 0.28.5 in-process. pic-copilot runs such scripts in its "
           "sandbox (engine Python) instead; scripts that run on the open layout must use only 'pya'.")


class _Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        top = fullname.split(".")[0]
        if top in BLOCKED:
            raise ImportError(MESSAGE.format(name=top), name=fullname)
        return None


_BLOCKER = _Blocker()


def install() -> None:
    """Block the crashing imports for the rest of the process (idempotent)."""
    if _BLOCKER not in sys.meta_path:
        sys.meta_path.insert(0, _BLOCKER)


@contextlib.contextmanager
def blocking():
    """Block the crashing imports while the body runs (used around generated scripts)."""
    installed = _BLOCKER in sys.meta_path
    install()
    try:
        yield
    finally:
        if not installed:
            sys.meta_path.remove(_BLOCKER)
