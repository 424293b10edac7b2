"""Sources of the tool-manual databases: each reads one installed tool's documentation.

Every source module exposes ``collect(workdir: Path) -> SourceResult``.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SourceResult:
    """What a source produced: entries (id, kind, content, metadata) and provenance."""

    tool: str
    tool_version: str
    source: str
    entries: list[dict] = field(default_factory=list)
    #: extra names the symbol index should know: alias -> canonical id
    aliases: dict[str, str] = field(default_factory=dict)


#: database name -> (module under pic_copilot.retrieval.sources, description)
SOURCES: dict[str, tuple[str, str]] = {
    "gdsfactory": ("gdsfactory_src", "gdsfactory public API (signatures + docstrings) and shipped samples"),
    "pya": ("pya_help", "KLayout application's pya API (built-in help, class pages) and programming guide"),
    "klayout_db": ("klayout_db", "pip klayout.db (0.30.x) where it differs from the KLayout application"),
    "sax": ("sax_src", "SAX circuit simulation API"),
    "drc_ref": ("drc_ref", "KLayout DRC deck language (Ruby DSL of .lydrc decks): the application's DRC reference and manual"),
}
