"""Helpers for the check.py of DRC-deck tasks (domains contain "drc_deck"): run the produced deck with
the KLayout binary on a layout, read its report, compare the markers per category with the truth.

The truth is computed by the check itself, independently of the deck, with ``klayout.db`` Region
operations (width_check, space_check, separation_check, enclosing_check, booleans ...). Markers are
compared per category as multisets of their bounding boxes (1 nm grid), so a deck with the right
count of wrong markers fails too. A check runs the deck on the prepared in.gds and on layouts it
makes itself, so a value or layer that happens to give the right markers on one layout fails on another.

Runs in the sandbox (the benchmark worker runs deck tasks' checks in the worker's pid namespace,
which KLayout needs; see pic_copilot.sandbox README) or anywhere with ``klayout`` on PATH.
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

DECK = "deck.lydrc"


def _klayout_env() -> dict:
    home = Path(os.environ.get("HOME") or tempfile.gettempdir()) / ".klayout-check"
    home.mkdir(parents=True, exist_ok=True)
    return dict(os.environ, KLAYOUT_HOME=str(home))


def run_deck(layout: str | Path, deck: str | Path = DECK, report: str | Path | None = None, timeout_s: float = 120) -> dict:
    """Run ``deck`` on ``layout`` as ``klayout -b -r deck -rd input=layout -rd report=report``.

    Returns:
        {category: [marker bbox, ...]} for every category of the report (an empty list when the
        category has no markers); a bbox is (left, bottom, right, top) in um rounded to 1 nm.

    Raises:
        AssertionError: the deck is missing, KLayout failed (its error text is in the message) or
            no report database was written.
    """
    deck = Path(deck)
    assert deck.is_file(), f"the deck {deck} was not written"
    report = Path(report or Path(tempfile.mkdtemp(prefix="deck-check-")) / "check.lyrdb")
    if report.exists():
        report.unlink()
    cmd = ["klayout", "-b", "-r", str(deck), "-rd", f"input={layout}", "-rd", f"report={report}"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, env=_klayout_env())
    assert p.returncode == 0, f"the deck failed on {Path(layout).name} (exit {p.returncode}): {p.stderr.strip()[-1500:]}"
    assert report.is_file(), f"the deck wrote no report database on {Path(layout).name} (is $report used?)"
    return markers(report)


def _bbox(b) -> tuple:
    return tuple(round(v, 3) for v in (b.left, b.bottom, b.right, b.top))


def markers(report: str | Path) -> dict:
    """{category: sorted marker bboxes} of a report database (edge pairs, polygons, boxes, edges)."""
    import klayout.rdb as rdb

    db = rdb.ReportDatabase("")
    db.load(str(report))
    out: dict[str, list] = {}
    for cat in db.each_category():
        boxes = []
        for item in db.each_item_per_category(cat.rdb_id()):
            for v in item.each_value():
                for kind in ("edge_pair", "polygon", "box", "edge", "path"):
                    if getattr(v, f"is_{kind}")():
                        boxes.append(_bbox(getattr(v, kind)().bbox()))
                        break
        out[cat.name()] = sorted(boxes)
    return out


def truth_boxes(result, dbu: float) -> list:
    """Sorted bboxes (um, 1 nm) of a klayout.db EdgePairs / Region / Edges result."""
    return sorted(_bbox(x.bbox().to_dtype(dbu)) for x in result.each())


def compare(got: dict, want: dict, where: str) -> None:
    """Assert that every wanted category exists in the report and holds exactly the wanted markers.

    Args:
        got: ``run_deck``'s result.
        want: {category: truth bboxes (``truth_boxes``)}.
        where: which layout, for the message.
    """
    missing = [c for c in want if c not in got]
    assert not missing, f"{where}: the report has no categor(ies) {', '.join(missing)} (it has: {', '.join(got) or 'none'})"
    for cat, boxes in want.items():
        g, w = Counter(got[cat]), Counter(boxes)
        if g != w:
            extra, lost = list((g - w).elements())[:4], list((w - g).elements())[:4]
            raise AssertionError(f"{where}: category {cat}: {sum(g.values())} marker(s), expected {sum(w.values())}"
                                 + (f"; unexpected markers at {extra}" if extra else "")
                                 + (f"; missed violations at {lost}" if lost else ""))


def region(layout, layer: int, datatype: int = 0):
    """All shapes of a layer, all hierarchy levels, flattened (what a flat deck's input(layer, datatype) holds)."""
    import klayout.db as kdb

    top = layout.top_cell()
    return kdb.Region(top.begin_shapes_rec(layout.layer(layer, datatype)))


def um(value: float, layout) -> int:
    """A distance in um as database units of the layout."""
    return int(round(value / layout.dbu))
