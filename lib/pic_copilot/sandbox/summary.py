"""Summaries of files a sandboxed script wrote.

- GDS/OAS (pip ``klayout.db``): cells, top cells, layers (layer/datatype/name with shape
  counts), bbox in µm per top cell, dbu, ports (from kfactory/gdsfactory meta info when the
  file was written with metadata), first text labels.
- CSV/TSV: rows, columns, header (when it looks like one), the first row as written and the number
  of rows in all.  JSON: top-level type, keys / length; for files up to 1 MB also the scalar
  values (numbers, booleans, short strings, None) of a top-level object and of its small nested
  objects/lists, three levels deep, at most 500 (``values``), so an output contract can check computed numbers.
- .lyrdb (KLayout report database): categories and item counts.
- anything else: size and a kind guess (text files: line count).

In the sandbox this runs inside a confined child (no writable directory at all), so the
engine process never parses untrusted layout files itself. ``summarize_file`` can also be
used directly on trusted files.
"""
from __future__ import annotations

import csv
import json
import os
import re
import stat
from pathlib import Path

LAYOUT_EXT = {".gds", ".gds2", ".gdsii", ".oas", ".oasis", ".gds.gz", ".oas.gz"}
MAX_TABLE_BYTES = 50 * 1024 * 1024
MAX_JSON_BYTES = 50 * 1024 * 1024
MAX_JSON_VALUES_BYTES = 1024 * 1024   # larger JSON files get keys/length but no values
MAX_JSON_VALUE_ITEMS = 100            # per object/list level
MAX_JSON_STRING = 200
MAX_JSON_VALUES = 500                 # scalars kept in all


def _kind(path: str) -> str:
    low = path.lower()
    for ext in (".gds.gz", ".oas.gz"):
        if low.endswith(ext):
            return "layout"
    ext = os.path.splitext(low)[1]
    if ext in LAYOUT_EXT:
        return "layout"
    if ext in (".csv", ".tsv"):
        return "table"
    if ext == ".json":
        return "json"
    if ext in (".lyrdb", ".rdb"):
        return "rdb"
    if ext in (".png", ".jpg", ".jpeg", ".svg", ".gif", ".bmp"):
        return "image"
    if ext in (".txt", ".log", ".md", ".py", ".yaml", ".yml", ".lyp", ".drc", ".lydrc", ".sp",
               ".cir", ".net", ".xml"):
        return "text"
    if ext in (".npy", ".npz"):
        return "array"
    return "other"


def summarize_layout(path: str, max_cells: int = 50, max_ports: int = 64) -> dict:
    import klayout.db as db

    ly = db.Layout()
    ly.read(path)
    dbu = ly.dbu
    layers = []
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        n = 0
        for c in ly.each_cell():
            n += c.shapes(li).size()
        layers.append({"layer": info.layer, "datatype": info.datatype,
                       **({"name": info.name} if info.name else {}), "shapes": n})
    layers.sort(key=lambda d: (d["layer"], d["datatype"]))
    xs_width: dict[str, float] = {}
    try:
        for m in ly.each_meta_info():
            if m.name.startswith("kfactory:cross_section:") and isinstance(m.value, dict):
                w = m.value.get("width")
                if isinstance(w, (int, float)):
                    xs_width[m.name.split(":", 2)[2]] = w * dbu
    except Exception:
        pass
    tops = []
    for t in ly.top_cells()[:max_cells]:
        bb = t.dbbox()
        entry: dict = {"name": t.name,
                       "bbox": None if bb.empty() else [round(bb.left, 6), round(bb.bottom, 6),
                                                         round(bb.right, 6), round(bb.top, 6)],
                       "instances": t.child_instances()}
        ports = _ports(t, dbu, xs_width, max_ports)
        if ports:
            entry["ports"] = ports
        labels = []
        for li in ly.layer_indexes():
            for sh in t.shapes(li).each(db.Shapes.STexts):
                labels.append(sh.text_string)
                if len(labels) >= 20:
                    break
            if len(labels) >= 20:
                break
        if labels:
            entry["labels"] = labels
        tops.append(entry)
    return {"dbu": dbu, "cells": ly.cells(), "cell_names": [c.name for c in ly.each_cell()][:max_cells],
            "top_cells": tops, "layers": layers, "max_placements": max_placements(ly),
            "max_device_placements": max_placements(ly, skip=ROUTE_PIECE),
            "placement_grid": placement_grid(ly), "shape_boxes": shape_boxes(ly), "texts": texts(ly),
            "instance_origins": instance_origins(ly),
            "metadata": any(m.name.startswith("kfactory:") for c in ly.top_cells()[:1]
                            for m in c.each_meta_info())}


#: cells a router places between devices (gdsfactory's route_single/route_bundle pieces)
ROUTE_PIECE = re.compile(r"^(?:straight|bend|taper|wire|via_corner)(?:_|$)", re.IGNORECASE)


def max_placements(ly, max_cells: int = 5000, skip: re.Pattern | None = None) -> int:
    """The most cell placements inside one cell (each element of an array instance counts): what
    "an array of 4 x 3 rings" or "four couplers in a row" must leave behind.

    Args:
        ly: the layout.
        max_cells: cells looked at, at most.
        skip: placements of cells whose name this matches do not count (:data:`ROUTE_PIECE`: the
            straights and bends a route adds are not the devices it connects).
    """
    from itertools import islice

    def counted(inst) -> bool:
        return skip is None or not skip.match(ly.cell(inst.cell_index).name)

    return max([sum(inst.na * inst.nb if inst.is_regular_array() else 1 for inst in cell.each_inst() if counted(inst))
                for cell in islice(ly.each_cell(), max_cells)] or [0])


def shape_boxes(ly, per_layer: int = 50, max_cells: int = 200) -> dict[str, list]:
    """The bounding boxes [l, b, r, t] (µm, each in its own cell's coordinates) of the first shapes of
    each layer, for a contract that asks for a box at a stated place. The plugin's bridge.py has the
    same function for the open layout."""
    from itertools import islice

    out: dict[str, list] = {}
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        boxes: list = []
        for cell in islice(ly.each_cell(), max_cells):
            for sh in cell.shapes(li).each():
                if len(boxes) >= per_layer:
                    break
                if sh.is_text():
                    continue
                b = sh.dbbox()
                boxes.append([round(b.left, 6), round(b.bottom, 6), round(b.right, 6), round(b.top, 6)])
        if boxes:
            out[f"{info.layer}/{info.datatype}"] = boxes
    return out


def texts(ly, per_layer: int = 100, max_cells: int = 200) -> dict[str, list[str]]:
    """The strings of the text objects on each layer ("L/D" -> strings, first ``per_layer``, every
    cell): what "label each coupler GC0, GC1, ... on layer 10/0" must leave behind. The plugin's
    bridge.py has the same function for the open layout."""
    from itertools import islice

    import klayout.db as db

    out: dict[str, list[str]] = {}
    for li in ly.layer_indexes():
        info = ly.get_info(li)
        found: list[str] = []
        for cell in islice(ly.each_cell(), max_cells):
            for sh in cell.shapes(li).each(db.Shapes.STexts):
                if len(found) >= per_layer:
                    break
                found.append(sh.text_string)
        if found:
            out[f"{info.layer}/{info.datatype}"] = found
    return out


def instance_origins(ly, max_cells: int = 5000, max_points: int = 500) -> list[list[float]]:
    """The distinct origins [x, y] (µm, in the placing cell's coordinates) of every cell placement,
    each element of an array counting: what "the second MMI moved by (200, 50) µm" must leave
    behind. The plugin's bridge.py has the same function for the open layout."""
    from itertools import islice

    seen: dict[tuple[float, float], None] = {}
    for cell in islice(ly.each_cell(), max_cells):
        for inst in cell.each_inst():
            d = inst.dcplx_trans.disp
            na, nb = (inst.na, inst.nb) if inst.is_regular_array() else (1, 1)
            a, b = (inst.da, inst.db) if inst.is_regular_array() else (None, None)
            for i in range(min(na, max_points)):
                for j in range(min(nb, max_points)):
                    x, y = (d.x + i * a.x + j * b.x, d.y + i * a.y + j * b.y) if a is not None else (d.x, d.y)
                    seen[(round(x, 4), round(y, 4))] = None
                    if len(seen) >= max_points:
                        return [list(p) for p in seen]
    return [list(p) for p in seen]


def placement_grid(ly, max_cells: int = 5000, max_positions: int = 200) -> dict | None:
    """Where the most-placed cell sits inside the cell that places most: {"cell", "child", "count",
    "x", "y"} with the distinct x and y of its placements' origins in µm (each element of an array
    counts). What "4 columns and 3 rows at 60 x 40 µm pitch" must leave behind; None when no cell
    places anything. The plugin's bridge.py has the same function for the open layout."""
    from itertools import islice

    best = None
    for cell in islice(ly.each_cell(), max_cells):
        spots: dict[int, list] = {}
        for inst in cell.each_inst():
            d = inst.dcplx_trans.disp
            if inst.is_regular_array():
                a, b = inst.da, inst.db
                pts = [(d.x + i * a.x + j * b.x, d.y + i * a.y + j * b.y)
                       for i in range(min(inst.na, max_positions)) for j in range(min(inst.nb, max_positions))]
            else:
                pts = [(d.x, d.y)]
            spots.setdefault(inst.cell_index, []).extend(pts)
        for child, pts in spots.items():
            if best is None or len(pts) > best["count"]:
                best = {"cell": cell.name, "child": ly.cell(child).name, "count": len(pts),
                        "x": sorted({round(x, 3) for x, _ in pts})[:max_positions],
                        "y": sorted({round(y, 3) for _, y in pts})[:max_positions]}
    return best


def _ports(cell, dbu: float, xs_width: dict, max_ports: int) -> list[dict]:
    ports = []
    try:
        metas = list(cell.each_meta_info())
    except Exception:
        return ports
    for m in metas:
        if not m.name.startswith("kfactory:ports:") or not isinstance(m.value, dict):
            continue
        v = m.value
        p: dict = {"name": v.get("name"), "port_type": v.get("port_type")}
        tr = v.get("trans")
        dtr = v.get("dcplx_trans")
        try:
            if tr is not None and hasattr(tr, "disp"):
                p["x"], p["y"] = round(tr.disp.x * dbu, 6), round(tr.disp.y * dbu, 6)
                p["orientation"] = tr.angle * 90
            elif dtr is not None and hasattr(dtr, "disp"):
                p["x"], p["y"] = round(dtr.disp.x, 6), round(dtr.disp.y, 6)
                p["orientation"] = round(dtr.angle, 6)
        except Exception:
            pass
        xs = v.get("cross_section")
        if isinstance(xs, str) and xs in xs_width:
            p["width"] = round(xs_width[xs], 6)
        ports.append(p)
        if len(ports) >= max_ports:
            break
    return ports


def summarize_table(path: str) -> dict:
    delim = "\t" if path.lower().endswith(".tsv") else ","
    with open(path, "rb") as fb:
        raw = fb.read(MAX_TABLE_BYTES + 1)
    truncated = len(raw) > MAX_TABLE_BYTES
    text = raw[:MAX_TABLE_BYTES].decode("utf-8", "replace")
    sample = text[:65536]
    try:
        delim = csv.Sniffer().sniff(sample, delimiters=",;\t ").delimiter
    except csv.Error:
        pass
    try:
        has_header = csv.Sniffer().has_header(sample) if sample else False
    except csv.Error:
        has_header = False
    rows, cols, header = 0, 0, None
    body: list[list[str]] = []
    for i, row in enumerate(csv.reader(text.splitlines(), delimiter=delim)):
        if i == 0:
            header = row
        else:
            body.append(row)
        cols = max(cols, len(row))
        rows += 1
    rows_total = rows
    if has_header:
        rows -= 1
    out = {"rows": rows, "columns": cols,
           "header": (header[:50] if (header and has_header) else None), "delimiter": delim,
           # what a contract compares: the first row as written (the sniffer's header guess
           # fails on all-text tables) and every row including that first one
           "first_row": [h.strip() for h in header[:50]] if header else [], "rows_total": rows_total,
           "sorted_columns": _sorted_columns(header or [], body),
           "column_spans": _column_spans(header or [], body),
           "column_samples": _column_samples(header or [], body)}
    ragged = [r for r in body if r and header and len(r) != len(header)]
    if ragged:   # data rows with more or fewer fields than the first row names
        out["ragged_rows"] = {"count": len(ragged), "first": ragged[0][:12]}
    if truncated:
        out["truncated"] = True
    return out


def _column_samples(header: list[str], body: list[list[str]], n: int = 8) -> dict[str, list[str]]:
    """The first ``n`` values of each column (named by the first row), as written: what a contract
    compares with the form a request gives a column ("layer (as "layer/datatype")")."""
    return {name: [r[j].strip()[:40] for r in body[:n] if j < len(r)]
            for j, name in enumerate(h.strip() for h in header[:50])}


def _column_spans(header: list[str], body: list[list[str]]) -> dict[str, list[float]]:
    """[smallest, largest] value of each column (named by the first row) whose values below it are
    all numbers: what "sweep from 1.50 to 1.60 µm" must leave in a wavelength_um column."""
    out: dict[str, list[float]] = {}
    for j, name in enumerate(h.strip() for h in header[:50]):
        try:
            vals = [float(r[j]) for r in body]
        except (ValueError, IndexError):
            continue
        if vals and all(v == v for v in vals):   # no NaN
            out[name] = [min(vals), max(vals)]
    return out


def _sorted_columns(header: list[str], body: list[list[str]]) -> list[str]:
    """The columns (named by the first row) whose values below it never decrease: as numbers when
    every value is one, else as text. What "sorted by text" must leave behind."""
    out = []
    for j, name in enumerate(h.strip() for h in header[:50]):
        vals = [r[j].strip() for r in body if j < len(r)]
        try:
            keys = [float(v) for v in vals]
        except ValueError:
            keys = vals
        if len(vals) == len(body) and all(a <= b for a, b in zip(keys, keys[1:])):
            out.append(name)
    return out


def summarize_json(path: str) -> dict:
    if os.path.getsize(path) > MAX_JSON_BYTES:
        return {"error": "too large to parse"}
    with open(path, encoding="utf-8", errors="replace") as f:
        obj = json.load(f)
    out: dict = {"type": type(obj).__name__}
    if isinstance(obj, dict):
        out["keys"] = [str(k) for k in list(obj)[:50]]
        out["length"] = len(obj)
        # how many items each top-level list holds, however long: what {"count": N, "centers": [...]} must agree on
        out["list_lengths"] = {str(k): len(v) for k, v in list(obj.items())[:50] if isinstance(v, list)}
        if os.path.getsize(path) <= MAX_JSON_VALUES_BYTES:
            out["values"] = _json_values(obj, depth=3)
        # what each top-level value is, as its keys when it is an object ({cell: {"children": ...}})
        out["value_keys"] = {str(k): [str(x) for x in list(v)[:50]] if isinstance(v, dict) else type(v).__name__
                             for k, v in list(obj.items())[:50]}
    elif isinstance(obj, list):
        out["length"] = len(obj)
        if obj:
            out["item_type"] = type(obj[0]).__name__
            if isinstance(obj[0], dict):
                out["item_keys"] = [str(k) for k in list(obj[0])[:50]]
    else:
        out["value"] = obj if isinstance(obj, (int, float, bool)) or obj is None else str(obj)[:200]
    return out


def _json_values(obj, depth: int, budget: list[int] | None = None):
    """Scalars of a JSON object/list, nested objects/lists down to ``depth`` levels, bounded in size.

    Containers deeper than ``depth`` or with more than MAX_JSON_VALUE_ITEMS items are left out (in a
    list: None), and at most MAX_JSON_VALUES scalars are kept in all (later ones are left out).
    """
    budget = budget if budget is not None else [MAX_JSON_VALUES]
    if isinstance(obj, bool) or obj is None or isinstance(obj, (int, float, str)):
        budget[0] -= 1
        return obj[:MAX_JSON_STRING] if isinstance(obj, str) else obj
    if depth <= 0 or len(obj) > MAX_JSON_VALUE_ITEMS:
        return None
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if budget[0] <= 0:
                break
            if isinstance(v, (dict, list)) and (depth <= 1 or len(v) > MAX_JSON_VALUE_ITEMS):
                continue
            out[str(k)] = _json_values(v, depth - 1, budget)
        return out
    items = []
    for v in obj:
        if budget[0] <= 0:
            break
        items.append(_json_values(v, depth - 1, budget))
    return items


def summarize_rdb(path: str) -> dict:
    import xml.etree.ElementTree as ET

    root = ET.parse(path).getroot()
    cats: list[str] = []

    def walk(el, prefix=""):
        for c in el.findall("category"):
            name = (c.findtext("name") or "").strip()
            full = f"{prefix}.{name}" if prefix else name
            cats.append(full)
            sub = c.find("categories")
            if sub is not None:
                walk(sub, full)

    top = root.find("categories")
    if top is not None:
        walk(top)
    counts: dict[str, int] = {}
    boxes: dict[str, list] = {}
    items = root.find("items")
    n = 0
    if items is not None:
        for it in items.findall("item"):
            cat = (it.findtext("category") or "").strip().strip("'")
            counts[cat] = counts.get(cat, 0) + 1
            n += 1
            if n <= MAX_RDB_BOXES:
                box = _item_box(it)
                if box is not None:
                    boxes.setdefault(cat, []).append(box)
    return {"categories": cats[:200], "items": n, "items_per_category": counts, "boxes_per_category": boxes}


#: items of a report database whose marker bounding boxes are summarised
MAX_RDB_BOXES = 500
_RDB_POINT = re.compile(r"(-?\d+(?:\.\d+)?(?:e-?\d+)?),(-?\d+(?:\.\d+)?(?:e-?\d+)?)")


def _item_box(item) -> list[float] | None:
    """The bounding box [l, b, r, t] (µm) of a report item's geometric values (polygon, box, edge,
    edge pair, path: KLayout writes them as "kind: (x,y;x,y...)"), None when it has none."""
    xs: list[float] = []
    ys: list[float] = []
    values = item.find("values")
    for v in (values.findall("value") if values is not None else []):
        text = v.text or ""
        if not re.match(r"\s*(?:polygon|box|edge|edge-pair|path|text)\b", text):
            continue
        for x, y in _RDB_POINT.findall(text):
            xs.append(float(x))
            ys.append(float(y))
    if not xs:
        return None
    return [min(xs), min(ys), max(xs), max(ys)]


#: a Python object's description written where a value was meant ("<built-in method width of DBox object at 0x...>")
_OBJECT_REPR = re.compile(r"<(?:built-in method|bound method|method|function|[\w.]+ object) [^<>\n]{0,80}?at 0x[0-9a-f]+>")


def object_reprs(path: str, limit: int = 3) -> list[str]:
    """The first distinct Python object descriptions in a data file (a method written without calling it)."""
    with open(path, "rb") as f:
        text = f.read(MAX_TABLE_BYTES).decode("utf-8", errors="replace")
    return list(dict.fromkeys(_OBJECT_REPR.findall(text)))[:limit]


def summarize_file(path: str | Path) -> dict:
    path = str(path)
    kind = _kind(path)
    out: dict = {"kind": kind}
    try:
        if kind == "layout":
            out["summary"] = summarize_layout(path)
        elif kind == "table":
            out["summary"] = summarize_table(path)
        elif kind == "json":
            out["summary"] = summarize_json(path)
        elif kind == "rdb":
            out["summary"] = summarize_rdb(path)
        elif kind == "text" and os.path.getsize(path) < MAX_TABLE_BYTES:
            with open(path, "rb") as f:
                out["summary"] = {"lines": f.read().count(b"\n")}
        if kind in ("table", "json", "text") and isinstance(out.get("summary"), dict):
            reprs = object_reprs(path)
            if reprs:
                out["summary"]["object_reprs"] = reprs
    except Exception as e:  # noqa: BLE001 - a broken output file is a finding, not a crash
        out["error"] = f"{type(e).__name__}: {str(e)[:500]}"
    return out


def summarize_dir(work: str, skip: dict | None = None, max_files: int = 200,
                  parse_layouts: bool = True) -> list[dict]:
    """Summaries of the files under ``work`` (relative paths), except ``script.py`` and files
    whose (size, mtime_ns) match ``skip[relpath]`` (unchanged inputs). Symlinks are reported,
    never followed. ``parse_layouts=False`` reports layout files by kind only (no native parser)."""
    skip = skip or {}
    out: list[dict] = []
    for dirpath, dirnames, filenames in os.walk(work, followlinks=False):
        dirnames.sort()
        for fn in sorted(filenames):
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, work)
            if rel == "script.py":
                continue
            try:
                st = os.lstat(full)
            except OSError:
                continue
            prev = skip.get(rel)
            if prev and list(prev) == [st.st_size, st.st_mtime_ns]:
                continue
            entry: dict = {"path": rel, "size": st.st_size}
            if stat.S_ISLNK(st.st_mode):
                entry.update(kind="symlink", target=os.readlink(full)[:500])
            elif not stat.S_ISREG(st.st_mode):
                entry.update(kind="special")
            elif not parse_layouts and _kind(full) == "layout":
                entry.update(kind="layout")
            else:
                entry.update(summarize_file(full))
            out.append(entry)
            if len(out) >= max_files:
                out.append({"path": "...", "kind": "truncated", "size": 0})
                return out
    return out


def snapshot(work: str) -> dict:
    """{relpath: [size, mtime_ns]} of regular files, for ``skip``."""
    snap = {}
    for dirpath, _dirs, files in os.walk(work, followlinks=False):
        for fn in files:
            full = os.path.join(dirpath, fn)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            snap[os.path.relpath(full, work)] = [st.st_size, st.st_mtime_ns]
    return snap
