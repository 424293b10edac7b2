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


def job_file_copy(workdir: str | Path, rel: str, dst: str | Path, max_bytes: int = 1 << 30) -> Path:
    """Copy a file a sandboxed job wrote to a host-owned file before anything parses it.

    The job chose the name and what it is: no symbolic link is followed (neither the file nor
    a folder on the way), a FIFO or device is refused without blocking, and at most
    ``max_bytes`` are read. Raises ``sandbox.JobFileError`` (or ValueError) otherwise.

    Args:
        workdir: the run's work directory.
        rel: the file's path relative to it (as in ``RunResult.files``).
        dst: where to write the copy.
        max_bytes: size limit.
    """
    from ..sandbox.runner import read_job_file

    base = Path(workdir).resolve()
    src = Path(workdir) / rel
    if Path(rel).is_absolute() or ".." in Path(rel).parts or Path(src.parent).resolve() != (base / rel).parent:
        raise ValueError(f"{rel!r} is not a plain path inside the work directory")
    data = read_job_file(src, max_bytes=max_bytes)
    dst = Path(dst)
    dst.write_bytes(data)
    return dst


def _written(f: dict) -> bool:
    """A file summary that is a regular file the job wrote (not a link or special file)."""
    return f.get("kind") not in ("symlink", "special", "error", "truncated")


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
    from ..sandbox.gds_compat import strip_metadata

    out = Path(out_dir) if out_dir else Path(tempfile.mkdtemp(prefix="pic-copilot-preview-"))
    out.mkdir(parents=True, exist_ok=True)
    previews = []
    for i, f in enumerate([f for f in files if is_layout_file(str(f.get("path", ""))) and _written(f)][:limit]):
        rel = str(f["path"])
        src = Path(workdir) / rel
        stem = f"{i:02d}_{Path(rel).name.split('.')[0]}"
        entry = {"path": rel, "source": str(src), "png": None, "compat": None, "error": None}
        try:
            raw = job_file_copy(workdir, rel, out / f"{stem}.raw{''.join(Path(rel).suffixes[-2:]) or '.gds'}")
            compat = strip_metadata(raw, out / f"{stem}.gds")
            raw.unlink(missing_ok=True)
            entry["compat"] = str(compat)
            entry["png"] = str(render_png(compat, out / f"{stem}.png"))
        except Exception as e:  # noqa: BLE001 - a broken file must not break the result
            entry["error"] = f"{type(e).__name__}: {e}"
        previews.append(entry)
    return previews


def report_files(workdir: str | Path, files: list[dict]) -> list[str]:
    """Absolute paths of report databases (.lyrdb/.rdb) among a run's files."""
    return [str(Path(workdir) / f["path"]) for f in files
            if str(f.get("path", "")).lower().endswith(REPORT_SUFFIXES) and _written(f)]
