"""Make gdsfactory-9 layout files readable by KLayout 0.28.5.

gdsfactory 9 (kfactory, klayout 0.30) writes "context info" (meta info such as ports and
settings) that KLayout 0.28.5 rejects with ``Invalid record inside a context info cell``.
``strip_metadata`` re-saves the file with the pip ``klayout.db`` without context info.

Run this in the engine process only on files you trust, or inside the sandbox (the layout
reader is native code).
"""
from __future__ import annotations

from pathlib import Path


def _format_for(path: Path) -> str:
    low = path.name.lower()
    if low.endswith((".oas", ".oasis", ".oas.gz")):
        return "OASIS"
    return "GDS2"


def strip_metadata(src: str | Path, dst: str | Path | None = None) -> Path:
    """Rewrite ``src`` (GDS/OAS) to ``dst`` (default: overwrite ``src``) without kfactory /
    gdsfactory context info, cell and file meta info. Geometry, cell names, layers and
    texts are unchanged. Returns the path written."""
    import klayout.db as db

    src = Path(src)
    dst = Path(dst) if dst is not None else src
    ly = db.Layout()
    ly.read(str(src))
    opts = db.SaveLayoutOptions()
    opts.format = _format_for(dst)
    opts.write_context_info = False
    tmp = dst.with_name(dst.name + ".tmp-strip")
    if dst.name.lower().endswith(".gz"):
        tmp = dst.with_name(dst.name[:-3] + ".tmp-strip.gz")
    ly.write(str(tmp), opts)
    tmp.replace(dst)
    return dst
