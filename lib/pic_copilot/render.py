"""Thumbnails of layout files for the KLayout panel, rendered in the engine process.

Uses the pip ``klayout.lay`` LayoutView headless (no display needed, ~0.02 s per file). The
engine calls :func:`layout_previews` after a sandbox run: every GDS/OAS the script wrote gets
a PNG thumbnail and a copy that KLayout 0.28.5 can read (gdsfactory 9 metadata stripped), so
the panel can show the picture and offer "insert into the open layout".

Like ``sandbox.gds_compat``, this parses layout files with native code in the engine process;
the files come from the designer's own (sandboxed) script run.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

LAYOUT_SUFFIXES = (".gds", ".gds2", ".oas", ".oasis", ".gds.gz", ".oas.gz")
REPORT_SUFFIXES = (".lyrdb", ".rdb")
THUMB_W, THUMB_H = 480, 300


def is_layout_file(name: str) -> bool:
    return name.lower().endswith(LAYOUT_SUFFIXES)


def render_png(layout_path: str | Path, png_path: str | Path, width: int = THUMB_W, height: int = THUMB_H) -> Path:
    """Render a layout file's top cell (all hierarchy levels, zoomed to fit) into a PNG."""
    import klayout.lay as lay

    view = lay.LayoutView()
    view.load_layout(str(layout_path), True)
    view.max_hier()
    view.zoom_fit()
    view.save_image(str(png_path), int(width), int(height))
    return Path(png_path)


def layout_previews(workdir: str | Path, files: list[dict], out_dir: str | Path | None = None,
                    limit: int = 6) -> list[dict]:
    """Thumbnails and KLayout-0.28.5-readable copies of the layout files a run wrote.

    Args:
        workdir: the run's work directory (``files`` paths are relative to it).
        files: the run's file summaries (``RunResult.files``: dicts with ``path``).
        out_dir: where to write PNGs and copies (a new temp folder when None).
        limit: at most this many files.

    Returns:
        one dict per layout file: ``path`` (as written by the script), ``source`` (absolute),
        ``png`` (absolute, or None if rendering failed), ``compat`` (absolute GDS KLayout 0.28.5
        reads, or None), ``error`` (text or None).
    """
    from .sandbox.gds_compat import strip_metadata

    out = Path(out_dir) if out_dir else Path(tempfile.mkdtemp(prefix="pic-copilot-preview-"))
    out.mkdir(parents=True, exist_ok=True)
    previews = []
    for i, f in enumerate([f for f in files if is_layout_file(str(f.get("path", "")))][:limit]):
        rel = str(f["path"])
        src = Path(workdir) / rel
        stem = f"{i:02d}_{Path(rel).name.split('.')[0]}"
        entry = {"path": rel, "source": str(src), "png": None, "compat": None, "error": None}
        try:
            compat = strip_metadata(src, out / f"{stem}.gds")
            entry["compat"] = str(compat)
            entry["png"] = str(render_png(compat, out / f"{stem}.png"))
        except Exception as e:  # noqa: BLE001 - a broken file must not break the result
            entry["error"] = f"{type(e).__name__}: {e}"
        previews.append(entry)
    return previews


def report_files(workdir: str | Path, files: list[dict]) -> list[str]:
    """Absolute paths of report databases (.lyrdb/.rdb) among a run's files."""
    return [str(Path(workdir) / f["path"]) for f in files
            if str(f.get("path", "")).lower().endswith(REPORT_SUFFIXES)]
