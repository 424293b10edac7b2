"""Output contracts: what a script must have produced, checked against its execution report.

One type serves two callers: a cookbook recipe's ``[expect]`` table (databases/cookbook/,
COOKBOOK_SPEC) and the contract extracted from a designer's request (files, CSV headers, JSON
keys, cell names, layers ...). ``check(report)`` compares it with an execution report
(:class:`pic_copilot.execution.report.ExecutionReport`, as :func:`pic_copilot.execution.routing.execute`
returns it; the cookbook runner and the benchmark convert the sandbox's dicts with ``from_dict``) and
returns human-readable violations (empty: the contract holds).

What a report must carry for each field:
  - ``files``: ``[{path, kind, summary, error?}]`` (pic_copilot.sandbox.summary.summarize_dir)
    for files, cells/layers/bbox of written layouts, CSV headers/rows, JSON keys/values, .lyrdb
    categories and item counts;
  - ``summary``: the bridge's open-layout summary (klayout_plugin bridge.layout_summary) for the
    cells, layers, shapes per layer of the active cell (``cell_shapes``) and its bbox after an edit;
  - ``stdout``: the script's printout.
Cells, layers and bboxes are looked up in every layout the report describes (written files and
the open layout): the contract says what must exist, not where the script put it.

    c = OutputContract.from_dict({"files": ["ring.gds"], "cells": ["RING"], "layers": ["1/0"]})
    c.check(report)   # -> ["cell 'RING' not found (cells seen: RING_1)"]
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, fields
from typing import Any

from ..execution.report import ExecutionReport

LAYER_RE = re.compile(r"^\d+/\d+$")
REL_TOL = 1e-6
GRID_KEYS = ("columns", "rows", "pitch_x", "pitch_y")
GRID_TOL_UM = 0.002   # a placement pitch may be off by rounding to the database unit, no more
ABS_TOL = 1e-9
BBOX_TOL_UM = 1e-3


class ContractError(ValueError):
    """A contract (e.g. a recipe's [expect] table) is malformed."""


_JSON_TYPES = {"object": "dict", "array": "list"}   # contract word -> the file summary's "type"
_SHAPES = {"number": "a number", "list": "a list", "pairs": "a list of [x, y] pairs"}


_COUNT_KEY = re.compile(r"^(n|num|count|total|number|n_\w+|num_\w+|\w+_count|number_of_\w+)$", re.IGNORECASE)


def power_of_ten_off(got, want) -> float | None:
    """The power of ten (1e3, 1e-3, 1e6, ...) every value of ``got`` is of ``want``'s, or None."""
    if not all(w for w in want) or not all(g for g in got):
        return None
    ratios = [g / w for g, w in zip(got, want)]
    for f in (1e3, 1e-3, 1e6, 1e-6, 1e9, 1e-9):
        if all(abs(r / f - 1) < 1e-6 for r in ratios):
            return f
    return None


def _scaled_by(got, want) -> str:
    """", each value 1000 times the requested one: ..." when a column is off by a power of ten
    (written in nm under a _um name, a real run): the usual way a unit goes wrong."""
    f = power_of_ten_off(got, want)
    if f is None:
        return ""
    times = f"{f:g} times" if f > 1 else f"1/{1 / f:g} of"
    return f"; each value is {times} the requested one: write the values in the column's own unit, unconverted"


def _count_disagrees(name: str, shapes: dict[str, str], summary: dict) -> list[str]:
    """``{"count": N, "centers": [[x, y], ...]}``: a request that shows one count next to one list
    means the number of items listed; a count of all vias beside an empty list of the failing ones
    (a real run) breaks it. Only when the shapes name exactly one count-like number key and one list."""
    counts = [k for k, v in shapes.items() if v == "number" and _COUNT_KEY.match(k)]
    lists = [k for k, v in shapes.items() if v in ("list", "pairs")]
    values, lengths = summary.get("values") or {}, summary.get("list_lengths") or {}
    if len(counts) != 1 or len(lists) != 1 or lists[0] not in lengths or not _is_number(values.get(counts[0])):
        return []
    n, k = values[counts[0]], lengths[lists[0]]
    if n == k:
        return []
    return [f"{name}: {counts[0]!r} is {n:g} but {lists[0]!r} holds {k} item{'s' if k != 1 else ''}; the count is "
            f"the number of {lists[0]} listed, each computed from the layout"]


def _shape_of(v) -> str:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return "number"
    if isinstance(v, list):
        pairs = v and all(isinstance(i, list) and len(i) == 2 and all(_is_number(n) for n in i) for i in v)
        return "pairs" if pairs else "list"
    return type(v).__name__


def shape_fits(value, shape: str) -> bool:
    """True when a JSON value has the shape a request asks of it ("number", "list", "pairs"; a list
    of pairs is a list too, and an empty list is no pairs yet)."""
    got = _shape_of(value)
    return got == shape or (shape == "list" and got == "pairs") or (shape == "pairs" and value == [])


def _key_form(example: str) -> str:
    """A pattern for keys of an example key's form: its digit runs stand for any number
    (``"1/0"`` -> ``-?\\d+(?:\\.\\d+)?/-?\\d+(?:\\.\\d+)?``), everything else is literal."""
    parts = re.split(r"-?\d+(?:\.\d+)?", example)
    return r"-?\d+(?:\.\d+)?".join(re.escape(p) for p in parts)


@dataclass
class OutputContract:
    """What a script must produce.

    Args:
        files: relative names of files that must be written.
        cells: cell names that must exist (written layouts or the open layout).
        layers: "L/D" layers that must hold shapes.
        csv_columns: file -> exact header (first row) of a CSV.
        csv_rows: file -> number of data rows below the header.
        csv_sorted: file -> the column (by its header name) the data rows must be sorted by, ascending.
        csv_spans: file -> {column: [low, high]}: the smallest and largest value of a numeric column
            (a swept variable), at 1e-6 of the span.
        csv_forms: file -> {column: example value}: every value of that column must have the example's
            form (``{"stats.csv" = {"layer" = "1/0"}}``: each is number/number; digit runs stand for any number).
        json_keys: file -> top-level keys a JSON object must have (for a list of objects: the first item's keys).
        json_values: file -> {key: value} exact top-level values (numbers at 1e-6 relative; nested
            objects/lists compared recursively, three levels deep at most).
        json_types: file -> "object" or "array": what the JSON file's top level must be.
        json_shapes: file -> {key: "number" | "list" | "pairs"}: what a top-level value must be
            ("pairs": a list of [x, y] lists), as a request's ``{"count": N, "centers": [[x, y], ...]}`` shows;
            the key "*": every value (``{"1/0": 3}``).
        json_record_keys: file -> keys that every value of the JSON object must have: the request
            writes it as records keyed by names (``{cell name: {"children": ..., "own_shapes": ...}}``).
        json_key_forms: file -> example keys whose form every top-level key of the JSON object must
            have (``["1/0"]``: each key is number/number; digit runs stand for any number).
        stdout: substrings the printout must contain.
        shapes: "L/D" -> number of shapes on that layer in the active cell itself (edits of the open layout).
        rdb_categories: file -> categories a KLayout report database (.lyrdb) must have.
        rdb_items: file -> {category: number of items} in a report database.
        absent_cells: cell names that must not exist after the run ("the VIA cell is deleted"), in
            the open layout or a requested layout file.
        bbox: cell name -> [left, bottom, right, top] in um of that (top or active) cell (1 nm tolerance).
        placements: at least this many cell placements inside one cell (each element of an array
            counts: 4 x 3 is 12), in a written layout or the open layout.
        placed_devices: the placements counted are devices ("place two MMIs"), so the straights and
            bends a router adds between them do not count (where the layout summary tells them apart).
        boxes: "L/D" -> [left, bottom, right, top] in µm: a shape on that layer must span exactly this
            box in its cell's coordinates (a box drawn at a stated place; 1 nm tolerance).
        origins: [x, y] points in µm where some cell placement must have its origin ("the second
            MMI moved by (200, 50) µm"), in a written or the open layout (1 nm tolerance).
        labels: "L/D" (or "" for any layer) -> strings that text objects on that layer must read
            ("label the couplers GC0, GC1, GC2 on layer 10/0"), in any cell of a written or the open layout.
        grid: how those placements are arranged, {"columns": C, "rows": R, "pitch_x": PX, "pitch_y": PY}
            (µm; 0 = not stated): the most-placed cell's placements must have C distinct x and R
            distinct y positions, PX and PY apart. Checked only where that cell is placed C x R times
            (placements of different cells, a sweep's variants, are not a grid of one cell).
    """

    files: list[str] = field(default_factory=list)
    cells: list[str] = field(default_factory=list)
    absent_cells: list[str] = field(default_factory=list)
    layers: list[str] = field(default_factory=list)
    csv_columns: dict[str, list[str]] = field(default_factory=dict)
    csv_rows: dict[str, int] = field(default_factory=dict)
    csv_sorted: dict[str, str] = field(default_factory=dict)
    csv_spans: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    csv_forms: dict[str, dict[str, str]] = field(default_factory=dict)
    json_keys: dict[str, list[str]] = field(default_factory=dict)
    json_values: dict[str, dict[str, Any]] = field(default_factory=dict)
    json_types: dict[str, str] = field(default_factory=dict)
    json_shapes: dict[str, dict[str, str]] = field(default_factory=dict)
    json_key_forms: dict[str, list[str]] = field(default_factory=dict)
    json_record_keys: dict[str, list[str]] = field(default_factory=dict)
    stdout: list[str] = field(default_factory=list)
    shapes: dict[str, int] = field(default_factory=dict)
    rdb_categories: dict[str, list[str]] = field(default_factory=dict)
    rdb_items: dict[str, dict[str, int]] = field(default_factory=dict)
    bbox: dict[str, list[float]] = field(default_factory=dict)
    placements: int = 0
    placed_devices: bool = False
    grid: dict[str, float] = field(default_factory=dict)
    boxes: dict[str, list[float]] = field(default_factory=dict)
    labels: dict[str, list[str]] = field(default_factory=dict)
    origins: list[list[float]] = field(default_factory=list)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict, source: str = "contract") -> "OutputContract":
        """Build and validate a contract from a plain dict (a TOML ``[expect]`` table).

        Args:
            data: the table.
            source: what to name in error messages (e.g. the recipe file).

        Raises:
            ContractError: unknown keys or values of the wrong type, naming ``source``.
        """
        if not isinstance(data, dict):
            raise ContractError(f"{source}: the expectations must be a table, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ContractError(f"{source}: unknown expectation(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")

        def strs(key: str) -> list[str]:
            v = data.get(key, [])
            if not (isinstance(v, list) and all(isinstance(x, str) and x for x in v)):
                raise ContractError(f'{source}: {key} must be a list of non-empty strings, e.g. {key} = ["..."]')
            return list(v)

        def table(key: str, check, example: str) -> dict:
            v = data.get(key, {})
            if not isinstance(v, dict) or not all(isinstance(k, str) and k and check(x) for k, x in v.items()):
                raise ContractError(f"{source}: {key} must be a table like {example}")
            return dict(v)

        def is_strs(x) -> bool:
            return isinstance(x, list) and all(isinstance(s, str) for s in x)

        def is_count(x) -> bool:
            return isinstance(x, int) and not isinstance(x, bool) and x >= 0

        out = cls(
            files=strs("files"), cells=strs("cells"), absent_cells=strs("absent_cells"), layers=strs("layers"), stdout=strs("stdout"),
            csv_columns=table("csv_columns", lambda x: is_strs(x) and bool(x), '{"ports.csv" = ["name", "x", "y"]}'),
            csv_rows=table("csv_rows", is_count, '{"ports.csv" = 4}'),
            csv_sorted=table("csv_sorted", lambda x: isinstance(x, str) and bool(x), '{"labels.csv" = "text"}'),
            csv_spans=table("csv_spans", lambda x: isinstance(x, dict) and all(
                isinstance(v, list) and len(v) == 2 and all(_is_number(n) for n in v) for v in x.values()),
                '{"mzi.csv" = {"wavelength_um" = [1.5, 1.6]}}'),
            csv_forms=table("csv_forms", lambda x: isinstance(x, dict) and bool(x) and all(
                isinstance(v, str) and v for v in x.values()), '{"stats.csv" = {"layer" = "1/0"}}'),
            json_keys=table("json_keys", lambda x: is_strs(x) and bool(x), '{"width.json" = ["violations"]}'),
            json_values=table("json_values", lambda x: isinstance(x, dict) and bool(x), '{"width.json" = {"violations" = 3}}'),
            json_types=table("json_types", lambda x: x in _JSON_TYPES, '{"counts.json" = "object"}'),
            json_shapes=table("json_shapes", lambda x: isinstance(x, dict) and all(v in _SHAPES for v in x.values()),
                              '{"enclosure.json" = {"count" = "number", "centers" = "pairs"}}'),
            json_key_forms=table("json_key_forms", lambda x: is_strs(x) and bool(x), '{"layer_counts.json" = ["1/0"]}'),
            json_record_keys=table("json_record_keys", lambda x: is_strs(x) and bool(x),
                                   '{"hierarchy.json" = ["children", "own_shapes"]}'),
            shapes=table("shapes", is_count, '{"2/0" = 1}'),
            rdb_categories=table("rdb_categories", lambda x: is_strs(x) and bool(x), '{"space.lyrdb" = ["space_0.3"]}'),
            rdb_items=table("rdb_items", lambda x: isinstance(x, dict) and all(isinstance(k, str) and is_count(n) for k, n in x.items()),
                            '{"space.lyrdb" = {"space_0.3" = 2}}'),
            bbox=table("bbox", lambda x: isinstance(x, list) and len(x) == 4 and all(_is_number(n) for n in x),
                       '{"TOP" = [0.0, 0.0, 10.0, 5.0]}'),
            placements=data.get("placements", 0),
            placed_devices=data.get("placed_devices", False),
            grid=dict(data.get("grid", {})) if isinstance(data.get("grid", {}), dict) else data.get("grid"),
            boxes=table("boxes", lambda x: isinstance(x, list) and len(x) == 4 and all(_is_number(n) for n in x),
                        '{"1/0" = [0.0, 0.0, 10.0, 5.0]}'),
            labels=table("labels", lambda x: is_strs(x) and bool(x), '{"10/0" = ["GC0", "GC1"]}'),
            origins=data.get("origins", []),
        )
        if not (isinstance(out.origins, list) and all(isinstance(p, list) and len(p) == 2 and all(_is_number(v) for v in p)
                                                      for p in out.origins)):
            raise ContractError(f"{source}: origins must be a list of [x, y] points, e.g. origins = [[200, 50]]")
        if not isinstance(out.placed_devices, bool):
            raise ContractError(f"{source}: placed_devices must be true or false")
        if not is_count(out.placements):
            raise ContractError(f"{source}: placements must be a whole number, e.g. placements = 12")
        if not isinstance(out.grid, dict) or set(out.grid) - set(GRID_KEYS) or \
                not all(_is_number(v) and v >= 0 for v in out.grid.values()):
            raise ContractError(f"{source}: grid must be a table like {{columns = 4, rows = 3, pitch_x = 60, pitch_y = 40}}")
        bad = [l for l in [*out.layers, *out.shapes, *(k for k in out.labels if k)] if not LAYER_RE.match(l)]
        if bad:
            raise ContractError(f'{source}: layers are written "L/D" (e.g. "1/0"), got {", ".join(map(repr, bad))}')
        return out

    def to_dict(self) -> dict:
        """The non-empty fields as a plain dict (round-trips through :meth:`from_dict`)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}

    def is_empty(self) -> bool:
        return not self.to_dict()

    def can_fail(self) -> bool:
        """True if something beyond "these files exist" is checked (a value, a count, a header, a name)."""
        return any(v for k, v in self.to_dict().items() if k != "files")

    def required_files(self) -> list[str]:
        """Every file the contract names (``files`` and the keys of the per-file tables), in order."""
        names: list[str] = []
        for n in [*self.files, *self.csv_columns, *self.csv_rows, *self.csv_sorted, *self.csv_spans, *self.csv_forms, *self.json_keys, *self.json_values,
                  *self.json_types, *self.json_shapes, *self.json_key_forms, *self.json_record_keys, *self.rdb_categories, *self.rdb_items]:
            if n not in names:
                names.append(n)
        return names

    # -- checking ----------------------------------------------------------------------------
    def check(self, report: ExecutionReport) -> list[str]:
        """Violations of this contract by an execution report (empty list: it holds).

        Args:
            report: an execution report (see the module docstring for the keys used).

        Returns:
            one human-readable sentence per violation.
        """
        problems: list[str] = []
        if report.has("ok") and report.ok is False:
            exc = report.exception or {}
            problems.append(f"the script failed: {exc.get('type', 'error')}: {str(exc.get('message', ''))[:300]}".rstrip(": "))
        files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
        written = sorted(p for p in files if p and p != "...")
        for name in self.required_files():
            f = files.get(name)
            if f is None:
                problems.append(f"file {name!r} was not written (written: {', '.join(written) or 'none'})")
            elif f.get("error"):
                problems.append(f"file {name!r} could not be read: {f['error']}")
        for name, f in files.items() if not self.is_empty() else ():   # a method written without its call
            for r in ((f.get("summary") or {}).get("object_reprs") or [])[:1] if isinstance(f.get("summary"), dict) else []:
                m = re.match(r"<(?:built-in |bound )?method (\w+) of (?:[\w.]+\.)?(\w+)", r)
                how = (f": {m.group(2)}.{m.group(1)} is a method, call it ({m.group(1)}())" if m else
                       ": write the value, not the object")
                problems.append(f"{name} holds {r!r} where a value belongs{how}")
        layouts = _layouts(report, files)
        self._check_cells(layouts, problems)
        self._check_absent_cells(report, files, problems)
        self._check_layers(layouts, problems)
        self._check_bbox(layouts, problems)
        self._check_placements(layouts, problems)
        self._check_grid(layouts, problems)
        self._check_boxes(layouts, problems)
        self._check_labels(layouts, problems)
        self._check_origins(layouts, problems)
        self._check_tables(files, problems)
        self._check_json(files, problems)
        self._check_rdb(files, problems)
        self._check_counts_of_categories(files, problems)
        out = report.stdout or ""
        for s in self.stdout:
            if s not in out:
                tail = out.strip().splitlines()[-3:] if out.strip() else []
                problems.append(f"the printout does not contain {s!r} (last lines: {' | '.join(tail) or 'nothing printed'})")
        if self.shapes:
            cell_shapes = (report.summary or {}).get("cell_shapes")
            if cell_shapes is None:
                problems.append("shapes per layer of the active cell are unknown (the report has no open-layout summary)")
            else:
                for layer, n in self.shapes.items():
                    got = int(cell_shapes.get(layer, 0))
                    if got != n:
                        problems.append(f"the active cell has {got} shape(s) on {layer}, expected {n}")
        return problems

    def _check_cells(self, layouts: list[dict], problems: list[str]) -> None:
        if not self.cells:
            return
        seen: list[str] = []
        for lay in layouts:
            seen += [c for c in lay["cells"] if c not in seen]
        for c in self.cells:
            if c not in seen:
                more = " ..." if len(seen) > 12 else ""
                where = "no layout was written or open" if not layouts else f"cells seen: {', '.join(seen[:12])}{more}"
                problems.append(f"cell {c!r} not found ({where})")
                continue
            again = [s for s in seen if re.fullmatch(re.escape(c) + r"\$\d+", s) and s not in self.cells]
            if again:   # KLayout names a second create_cell("PAD") "PAD$1": the shapes may be in the copy
                problems.append(f"cell {c!r} was created more than once ({', '.join([c, *again])}): create it once and "
                                f"draw into that cell")

    def _check_absent_cells(self, report: ExecutionReport, files: dict, problems: list[str]) -> None:
        """A deleted cell must be gone from the open layout and from the layout files the request
        names (an input file the run read is not judged)."""
        if not self.absent_cells:
            return
        requested = {n: f for n, f in files.items() if n in self.files}
        for lay in _layouts(report, requested):
            for c in self.absent_cells:
                if c in lay["cells"]:
                    problems.append(f"cell {c!r} still exists; the request deletes it (after its placements are "
                                    f"handled, delete the cell itself, e.g. layout.delete_cell(cell_index))")

    def _check_layers(self, layouts: list[dict], problems: list[str]) -> None:
        if not self.layers:
            return
        filled: set[str] = set()
        for lay in layouts:
            filled |= {k for k, n in lay["layers"].items() if n > 0}
        for l in self.layers:
            if l not in filled:
                problems.append(f"no shapes on layer {l} (layers with shapes: {', '.join(sorted(filled, key=_layer_key)) or 'none'})")

    def _check_placements(self, layouts: list[dict], problems: list[str]) -> None:
        if not self.placements:
            return
        devices = self.placed_devices and any(isinstance(lay.get("max_device_placements"), int) for lay in layouts)
        known = _known(layouts, "max_device_placements" if devices else "max_placements", int)
        if not known:
            problems.append(f"{self.placements} placed cells expected, but no layout was written or open to count them in")
        elif max(known) < self.placements:
            tops = {n: k for lay in layouts for n, k in (lay.get("top_instances") or {}).items()}
            what = "; ".join(f"the top cell {n!r} places {k} instance{'s' if k != 1 else ''}" for n, k in list(tops.items())[:3])
            problems.append(f"{self.placements} cells placed in one cell expected (each element of an array counts), "
                            f"but no cell places more than {max(known)}"
                            + (" besides the straights and bends of routes" if devices else "") + (f" ({what})" if what else ""))

    def _check_grid(self, layouts: list[dict], problems: list[str]) -> None:
        if not self.grid:
            return
        cols, rows = int(self.grid.get("columns", 0)), int(self.grid.get("rows", 0))
        px, py = float(self.grid.get("pitch_x", 0)), float(self.grid.get("pitch_y", 0))
        for lay in layouts:
            g = lay.get("placement_grid")
            if not g or not cols or not rows or g.get("count") != cols * rows:
                continue
            wrong = []
            for axis, n, pitch, got in (("x", cols, px, g.get("x") or []), ("y", rows, py, g.get("y") or [])):
                if len(got) != n:
                    wrong.append(f"{len(got)} distinct {axis} position{'s' if len(got) != 1 else ''} "
                                 f"({_positions(got)}) instead of {n} (one per {'column' if axis == 'x' else 'row'})")
                elif pitch and n > 1:
                    steps = sorted({round(b - a, 3) for a, b in zip(got, got[1:])})
                    if any(abs(step - pitch) > GRID_TOL_UM for step in steps):
                        wrong.append(f"{axis} positions {_positions(got)} are {', '.join(f'{v:g}' for v in steps)} µm apart, "
                                     f"not {pitch:g} µm")
            if wrong:
                want = f"{cols} x {rows} grid" + (f" at {px:g} x {py:g} µm pitch" if px and py else "")
                problems.append(f"a {want} expected, but the cell {g.get('cell')!r} places {g.get('child')!r} "
                                f"{g.get('count')} times with " + "; ".join(wrong))

    def missing_boxes(self, report: ExecutionReport) -> dict[str, list]:
        """The requested boxes' layers that a run left without them, "L/D" -> the boxes it shows on
        that layer ([] where none); {} when the run shows no shape boxes at all."""
        files = {f.get("path"): f for f in report.files or [] if isinstance(f, dict)}
        return self._missing_boxes(_layouts(report, files))

    def _missing_boxes(self, layouts: list[dict]) -> dict[str, list]:
        known = _known(layouts, "shape_boxes", dict)
        out: dict[str, list] = {}
        for layer, want in self.boxes.items() if known else ():
            seen = [b for boxes in known for b in boxes.get(layer) or []]
            if not any(all(abs(float(x) - float(y)) <= BBOX_TOL_UM for x, y in zip(b, want)) for b in seen):
                out[layer] = seen
        return out

    def _check_boxes(self, layouts: list[dict], problems: list[str]) -> None:
        for layer, seen in self._missing_boxes(layouts).items():
            want = self.boxes[layer]
            shown = "; ".join(_fmt_box(b) for b in seen[:3]) or "none"
            problems.append(f"no shape on layer {layer} spans {_fmt_box(want)} um (left, bottom, right, top), where the "
                            f"request places it (shapes on {layer}: {shown})")

    def _check_origins(self, layouts: list[dict], problems: list[str]) -> None:
        if not self.origins:
            return
        known = _known(layouts, "instance_origins", list)
        if not known:
            problems.append("placed cells expected, but no layout was written or open to find them in")
            return
        points = [p for pts in known for p in pts]
        for x, y in self.origins:
            if not any(abs(px - x) <= 1e-3 and abs(py - y) <= 1e-3 for px, py in points):
                shown = ", ".join(f"({px:g}, {py:g})" for px, py in points[:6]) + (", ..." if len(points) > 6 else "")
                problems.append(f"no cell is placed with its origin at ({x:g}, {y:g}) µm (placements at: {shown or 'none'}); "
                                f"place the device there, e.g. create it at the origin and move it by ({x:g}, {y:g})")

    def _check_labels(self, layouts: list[dict], problems: list[str]) -> None:
        if not self.labels:
            return
        known = _known(layouts, "texts", dict)
        if not known:
            problems.append("text labels expected, but no layout was written or open to read them in")
            return
        on: dict[str, set[str]] = {}
        for texts in known:
            for layer, strings in texts.items():
                on.setdefault(layer, set()).update(strings)
        everywhere = set().union(*on.values()) if on else set()
        for layer, wanted in self.labels.items():
            have = on.get(layer, set()) if layer else everywhere
            missing = [t for t in wanted if t not in have]
            if not missing:
                continue
            where = f" on layer {layer}" if layer else ""
            seen = sorted(have)[:8]
            elsewhere = sorted({f"{t!r} on {l}" for l, ts in on.items() if l != layer for t in ts if t in missing})[:4]
            problems.append(f"text label{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))} not found{where} "
                            f"(texts there: {', '.join(map(repr, seen)) or 'none'}"
                            + (f"; found {', '.join(elsewhere)}" if elsewhere else "") + ")")

    def _check_bbox(self, layouts: list[dict], problems: list[str]) -> None:
        for cell, want in self.bbox.items():
            boxes = [lay["bboxes"][cell] for lay in layouts if cell in lay["bboxes"]]
            if not boxes:
                problems.append(f"no bounding box known for cell {cell!r} (it must be a top cell of a written layout or the active cell)")
            elif not any(b and all(abs(float(x) - float(y)) <= BBOX_TOL_UM for x, y in zip(b, want)) for b in boxes):
                problems.append(f"cell {cell!r} spans {_fmt_box(boxes[0])} um, expected {_fmt_box(want)} um")

    def _check_tables(self, files: dict, problems: list[str]) -> None:
        for name, col, s in _readable(files, self.csv_sorted):
            if "sorted_columns" in s and col in (s.get("first_row") or []) and col not in s["sorted_columns"]:
                problems.append(f"{name}: the rows are not sorted by {col!r} (ascending), as the request asks")
        for name, spans, s in _readable(files, self.csv_spans):
            for col, (lo, hi) in spans.items():
                got = (s.get("column_spans") or {}).get(col)
                tol = 1e-6 * max(abs(hi - lo), abs(hi), abs(lo), 1e-12)
                if got is not None and not (abs(got[0] - lo) <= tol and abs(got[1] - hi) <= tol):
                    problems.append(f"{name}: column {col!r} runs from {got[0]:g} to {got[1]:g}, the request sweeps it "
                                    f"from {lo:g} to {hi:g} (in the column's unit)" + _scaled_by(got, (lo, hi)))
        for name, forms, s in _readable(files, self.csv_forms):
            for col, example in forms.items():
                form = re.compile(_key_form(example))
                odd = [v for v in (s.get("column_samples") or {}).get(col, []) if not form.fullmatch(v)]
                if odd:
                    problems.append(f"{name}: column {col!r} holds {odd[0]!r}; the request writes its values in the form "
                                    f"{example!r}")
        for name, cols, s in _readable(files, self.csv_columns):
            first = [str(c).strip() for c in s.get("first_row") or s.get("header") or []]
            if first != [c.strip() for c in cols]:
                problems.append(f"{name}: header is {first}, expected {list(cols)}")
            ragged = s.get("ragged_rows")
            if isinstance(ragged, dict) and ragged.get("count"):
                row = ragged.get("first") or []
                problems.append(f"{name}: {ragged['count']} data row(s) do not have one value per header column (the "
                                f"header has {len(first)}; the first such row has {len(row)}: {','.join(map(str, row))}); "
                                f"write one value for each of {', '.join(cols)}, in that order")
        for name, n, s in _readable(files, self.csv_rows):
            total = s.get("rows_total")
            got = (total - 1) if isinstance(total, int) else s.get("rows")
            if got != n:
                problems.append(f"{name}: {got} data row(s) below the header, expected {n}")

    def _check_json(self, files: dict, problems: list[str]) -> None:
        for name, want, s in _readable(files, self.json_types):
            if s.get("type") is None:
                continue
            if s.get("type") != _JSON_TYPES[want]:
                got = {"dict": "an object", "list": "an array"}.get(s.get("type"), str(s.get("type")))
                problems.append(f"{name}: the top level is {got}, the request shows a JSON {want}")
        for name, keys, s in _readable(files, self.json_keys):
            have = s.get("keys") if s.get("type") == "dict" else s.get("item_keys")
            missing = [k for k in keys if k not in (have or [])]
            if missing:
                form = _json_form(keys, self.json_shapes.get(name) or {}) if s.get("type") == "dict" else ""
                problems.append(f"{name}: missing key(s) {', '.join(map(repr, missing))} (has: {', '.join(have or []) or 'none'})"
                                + (f"; write it in the request's form {form}" if form else ""))
        for name, examples, s in _readable(files, self.json_key_forms):
            if s.get("type") != "dict":
                continue   # json_types' finding
            forms = [re.compile(_key_form(k)) for k in examples]
            odd = [k for k in s.get("keys") or [] if not any(f.fullmatch(k) for f in forms)]
            if odd:
                problems.append(f"{name}: key(s) {', '.join(map(repr, odd[:4]))} do not have the form of the request's "
                                f"example key(s) {', '.join(map(repr, examples))}")
        for name, keys, s in _readable(files, self.json_record_keys):
            if s.get("type") == "dict":
                problems += _record_problems(name, keys, s.get("value_keys") or {})
        for name, want, s in _readable(files, self.json_shapes):
            values = s.get("values") if s.get("type") == "dict" else None
            for key, shape in want.items():
                if key == "*" and values is not None:   # every value (keys that are patterns, "1/0")
                    odd = next(((k, v) for k, v in values.items() if v is not None and _shape_of(v) != shape), None)
                    if odd is not None:
                        problems.append(f"{name}: every value must be {_SHAPES[shape]}, as the request's example shows; "
                                        f"{odd[0]!r} is {json.dumps(odd[1])[:80]}")
                    continue
                if values is None or key not in values or values[key] is None:
                    continue   # a missing key is json_keys' finding; a value too large to summarise is not judged
                if not shape_fits(values[key], shape):
                    sample = json.dumps(values[key])[:80]
                    problems.append(f"{name}: {key!r} must be {_SHAPES[shape]}, got {sample}")
            problems += _count_disagrees(name, want, s)
        for name, want, s in _readable(files, self.json_values):
            values = s.get("values")
            if values is None:
                problems.append(f"{name}: values unknown (not a JSON object, or larger than the summary reads)")
                continue
            for key, exp in want.items():
                if key not in values:
                    problems.append(f"{name}: key {key!r} missing (has: {', '.join(list(values)[:12]) or 'none'})")
                    continue
                diff = _value_diff(values[key], exp, key)
                if diff:
                    problems.append(f"{name}: {diff}")

    def _check_rdb(self, files: dict, problems: list[str]) -> None:
        for name, cats, s in _readable(files, self.rdb_categories):
            have = s.get("categories") or []
            missing = [c for c in cats if c not in have]
            if missing:
                problems.append(f"{name}: missing categor(ies) {', '.join(map(repr, missing))} (has: {', '.join(have) or 'none'})")
        for name, items, s in _readable(files, self.rdb_items):
            per = s.get("items_per_category") or {}
            for cat, n in items.items():
                got = int(per.get(cat, 0))
                if got != n:
                    problems.append(f"{name}: category {cat!r} has {got} item(s), expected {n}")


    def _check_counts_of_categories(self, files: dict, problems: list[str]) -> None:
        """A count a requested JSON file gives under the name of a category of a requested report
        database is that category's number of items, 0 for an empty one (a real a06 script wrote
        {"width": n, "space": n} with both from the last check's result: 3 and 3 beside a report of
        5 width items)."""
        wanted = self.required_files()
        reports = [(n, _items_of_every_category(_summary(files, n) or {})) for n in wanted
                   if n.lower().endswith((".lyrdb", ".rdb"))]
        for name in (n for n in wanted if n.lower().endswith(".json")):
            values = (_summary(files, name) or {}).get("values")
            for key, v in (values.items() if isinstance(values, dict) else ()):
                for rdb, per in reports:
                    if key in per and isinstance(v, int) and not isinstance(v, bool) and v != int(per[key]):
                        problems.append(f"{name}: {key!r} is {v}, but {rdb}'s category {key!r} holds {per[key]} "
                                        f"item(s): write each category's own count")


# -- helpers -----------------------------------------------------------------------------------
def _items_of_every_category(summary: dict) -> dict[str, int]:
    """A report database summary's items per category, a category without items at 0 (a real in-parts
    a06 script made the categories width and space, put no item in either, and wrote counts of 3
    beside them: the empty categories were left out of the comparison and it was accepted)."""
    return {**{c: 0 for c in summary.get("categories") or []}, **(summary.get("items_per_category") or {})}


def _record_problems(name: str, keys: list[str], value_keys: dict) -> list[str]:
    """What is wrong with a JSON object whose every value must be a record with ``keys``, given the
    summary's ``value_keys`` (top-level key -> the value's keys, or the value's type name); the first
    wrong record is named, with the form each must have."""
    form = "{" + ", ".join(f'"{k}": ...' for k in keys) + "}"
    for top, have in value_keys.items():
        if not isinstance(have, list):
            return [f"{name}: the value of {top!r} is a {have}, not a record; every value of the top-level "
                    f"object must be an object {form} (the keys of the top level name the records)"]
        missing = [k for k in keys if k not in have]
        if missing:
            return [f"{name}: the record {top!r} has no key(s) {', '.join(map(repr, missing))} (has: "
                    f"{', '.join(have) or 'none'}); every value of the top-level object must be {form}"]
    return []


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _layer_key(l: str):
    a, _, b = l.partition("/")
    return (int(a), int(b)) if a.isdigit() and b.isdigit() else (1 << 30, 0)


def _fmt_box(b) -> str:
    return "[" + ", ".join(f"{float(x):g}" for x in b) + "]" if b else "nothing (empty)"


def _summary(files: dict, name: str) -> dict | None:
    f = files.get(name)
    if f is None or f.get("error"):
        return None  # already reported as missing / unreadable
    return f.get("summary") or {}


def _readable(files: dict, table: dict):
    """``(name, expected, summary)`` for each file named in ``table`` that the run wrote and that
    could be read (the others are already reported as missing / unreadable).

    Args:
        files: the report's files by path.
        table: one of the contract's per-file tables, file name -> what is expected of it.
    """
    for name, want in table.items():
        s = _summary(files, name)
        if s is not None:
            yield name, want, s


_FORMS = {"number": "<number>", "list": "[...]", "pairs": "[[x, y], ...]"}


def _json_form(keys: list[str], shapes: dict[str, str]) -> str:
    """The JSON object the request asks for, with a placeholder per value: ``{"count": <number>,
    "centers": [[x, y], ...]}`` (a 1.5B model told only "missing key(s) 'count', 'centers'" kept its
    worked example's keys for three rounds)."""
    return "{" + ", ".join(f"{json.dumps(k)}: {_FORMS.get(shapes.get(k, ''), '...')}" for k in keys) + "}"


def _known(layouts: list[dict], key: str, kind: type) -> list:
    """The ``key`` fact of every layout summary that has it (of type ``kind``): the written files and
    the open layout a check reads; empty when none recorded it."""
    return [lay[key] for lay in layouts if isinstance(lay.get(key), kind) and not isinstance(lay.get(key), bool)]


def _positions(values: list[float], shown: int = 6) -> str:
    text = ", ".join(f"{v:g}" for v in values[:shown])
    return text + (", ..." if len(values) > shown else "")


def _layouts(report: ExecutionReport, files: dict) -> list[dict]:
    """Every layout a report describes as {cells, layers: {"L/D": shapes}, bboxes: {cell: box}}."""
    out = []
    for f in files.values():
        s = f.get("summary")
        if f.get("kind") != "layout" or not isinstance(s, dict):
            continue
        cells = list(s.get("cell_names") or [])
        cells += [t["name"] for t in s.get("top_cells") or [] if t.get("name") not in cells]
        out.append({"cells": cells,
                    "layers": {f"{l['layer']}/{l['datatype']}": int(l.get("shapes", 0)) for l in s.get("layers") or []},
                    "bboxes": {t["name"]: t.get("bbox") for t in s.get("top_cells") or []},
                    "max_placements": s.get("max_placements"), "max_device_placements": s.get("max_device_placements"),
                    "placement_grid": s.get("placement_grid"), "shape_boxes": s.get("shape_boxes"), "texts": s.get("texts"),
                    "instance_origins": s.get("instance_origins"),
                    "top_instances": {t["name"]: t["instances"] for t in s.get("top_cells") or []
                                      if isinstance(t.get("instances"), int)}})
    s = report.summary
    if isinstance(s, dict) and "layers" in s and "cells" in s:  # the bridge's open-layout summary
        bboxes = {s["active_cell"]: s.get("bbox_um")} if s.get("active_cell") else {}
        out.append({"cells": list(s.get("cells") or []),
                    "layers": {f"{l['layer']}/{l['datatype']}": int(l.get("shapes", 0)) for l in s.get("layers") or []},
                    "bboxes": bboxes, "max_placements": s.get("max_placements"),
                    "placement_grid": s.get("placement_grid"), "shape_boxes": s.get("shape_boxes"),
                    "texts": s.get("texts"), "instance_origins": s.get("instance_origins")})
    return out


def _value_diff(got, exp, path: str) -> str | None:
    """None if ``got`` matches ``exp`` (numbers at REL_TOL), else a sentence saying how it differs."""
    if isinstance(exp, dict):
        if not isinstance(got, dict):
            return f"{path} is {got!r}, expected an object"
        for k, v in exp.items():
            if k not in got:
                return f"{path}.{k} missing"
            d = _value_diff(got[k], v, f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(exp, list):
        if not isinstance(got, list) or len(got) != len(exp):
            return f"{path} is {got!r}, expected {exp!r}"
        for i, (g, e) in enumerate(zip(got, exp)):
            d = _value_diff(g, e, f"{path}[{i}]")
            if d:
                return d
        return None
    if _is_number(exp) and _is_number(got):
        if math.isclose(float(got), float(exp), rel_tol=REL_TOL, abs_tol=ABS_TOL):
            return None
        return f"{path} is {got!r}, expected {exp!r}"
    if got == exp and type(got) is type(exp):
        return None
    return f"{path} is {got!r}, expected {exp!r}"
