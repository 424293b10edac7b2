"""SAX database: the installed SAX circuit simulator's public API (+ gplugins' SAX/femwell helpers if installed)."""
from __future__ import annotations

import importlib.util
from importlib.metadata import version as dist_version
from pathlib import Path

from . import SourceResult
from .pyintrospect import walk

MODULES = ["sax", "sax.models", "sax.models.rf", "sax.backends", "sax.netlists", "sax.circuits", "sax.fit", "sax.parsers", "sax.utils", "sax.s", "sax.multimode", "sax.interpolation", "sax.loss"]
GPLUGINS = ["gplugins.sax", "gplugins.sax.models", "gplugins.femwell", "gplugins.femwell.mode_solver"]


def installed_version() -> str:
    return dist_version("sax")


def collect(workdir: Path) -> SourceResult:
    version = installed_version()
    mods = list(MODULES)
    src = f"installed sax {version}"
    if importlib.util.find_spec("gplugins") is not None:
        mods += GPLUGINS
        src += f", gplugins {dist_version('gplugins')}"
    entries, aliases = walk(mods, expand_classes=False, owner_prefixes=("sax", "gplugins"), source=f"sax {version} signatures and docstrings", version=version)
    return SourceResult(tool="sax", tool_version=version, source=src, entries=entries, aliases=aliases)
