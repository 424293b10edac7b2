"""gdsfactory database: the public API of the installed gdsfactory + its shipped samples."""
from __future__ import annotations

import ast
from importlib.metadata import version as dist_version
from pathlib import Path

from . import SourceResult
from .pyintrospect import walk

MODULES = [
    "gdsfactory",
    "gdsfactory.components",
    "gdsfactory.routing",
    "gdsfactory.cross_section",
    "gdsfactory.path",
    "gdsfactory.port",
    "gdsfactory.pdk",
    "gdsfactory.gpdk",
    "gdsfactory.functions",
    "gdsfactory.read",
    "gdsfactory.export",
    "gdsfactory.labels",
    "gdsfactory.add_pins",
    "gdsfactory.add_ports",
    "gdsfactory.add_padding",
    "gdsfactory.containers",
    "gdsfactory.technology",
    "gdsfactory.schematic",
    "gdsfactory.snap",
    "gdsfactory.utils",
]


def installed_version() -> str:
    return dist_version("gdsfactory")


def _samples(version: str) -> list[dict]:
    import gdsfactory

    root = Path(gdsfactory.__file__).parent / "samples"
    out = []
    for p in sorted(root.rglob("*.py")):
        if p.name.startswith("_") or "test" in p.name:
            continue
        text = p.read_text(errors="replace")
        if len(text.strip()) < 40:
            continue
        rel = p.relative_to(root).with_suffix("")
        doc = ""
        try:
            doc = ast.get_docstring(ast.parse(text)) or ""
        except SyntaxError:
            pass
        sid = "gdsfactory.samples." + ".".join(rel.parts)
        out.append({
            "id": sid,
            "kind": "sample",
            "content": f"sample {sid} ({p.name})\n\n{text}",
            "metadata": {"module": "gdsfactory.samples", "signature": sid, "parameters": [], "source": f"gdsfactory/samples/{rel}.py", "version": version, "doc": doc},
        })
    return out


def collect(workdir: Path) -> SourceResult:
    import gdsfactory  # noqa: F401  (imports are slow: only here)

    version = installed_version()
    entries, aliases = walk(MODULES, expand_classes=True, owner_prefixes=("gdsfactory", "kfactory"), source=f"gdsfactory {version} signatures and docstrings", version=version)
    entries += _samples(version)
    return SourceResult(tool="gdsfactory", tool_version=version, source=f"installed gdsfactory {version} (import + inspect), gdsfactory/samples", entries=entries, aliases=aliases)
