"""KLayout pya probes: the plan (from the pya database's typed overload signatures) and the ``klayout -b`` backend.

For the classes scripts use most, every Python-visible method, property and constructor is called on
fresh sample objects with typical arguments per overload and with counterfactual variants (zero,
negative, a float where an int is expected, empty string/list, None, the other coordinate type:
Box <-> DBox, Point <-> DPoint, Trans <-> DTrans, layer index <-> LayerInfo, ...). The calls run in one
``klayout -b`` process per batch against the application's own pya (``pya_runner.py``; stdlib + pya).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..retrieval import observations as store

RUNNER = Path(__file__).with_name("pya_runner.py")
CLASSES = ("Region", "Edges", "Layout", "Cell", "Shapes", "Box", "DBox", "Path", "DPath", "Trans", "DTrans",
           "ICplxTrans", "DCplxTrans", "Polygon", "DPolygon", "SimplePolygon", "LayerInfo", "Text", "Point", "DPoint")
MAX_PER_ENTRY = 12
MAX_OVERLOADS = 8
INT_TYPES = ("int", "unsigned int", "long", "unsigned long", "short", "unsigned short", "long long", "unsigned long long")
FLOAT_TYPES = ("double", "float")
KNOWN_TYPES = set(INT_TYPES) | set(FLOAT_TYPES) | {
    "bool", "string", "variant", "Box", "DBox", "Point", "DPoint", "Vector", "DVector", "Edge", "DEdge", "EdgePair",
    "DEdgePair", "Polygon", "DPolygon", "SimplePolygon", "DSimplePolygon", "Path", "DPath", "Text", "DText", "Trans",
    "DTrans", "ICplxTrans", "DCplxTrans", "CplxTrans", "VCplxTrans", "Region", "Edges", "EdgePairs", "Texts", "LayerInfo",
    "Layout", "Cell", "Shapes", "Shape", "Instance", "CellInstArray", "DCellInstArray", "RecursiveShapeIterator",
    "SaveLayoutOptions", "LoadLayoutOptions", "Manager", "Metrics", "Region::RectFilter", "Region::OppositeFilter",
    "PropertyConstraint", "Point[]", "DPoint[]", "Box[]", "DBox[]", "Polygon[]", "unsigned int[]"}
ALT = {"Box": "DBox", "DBox": "Box", "Point": "DPoint", "DPoint": "Point", "Vector": "DVector", "DVector": "Vector",
       "Trans": "DTrans", "DTrans": "Trans", "ICplxTrans": "DCplxTrans", "DCplxTrans": "ICplxTrans",
       "Polygon": "DPolygon", "DPolygon": "Polygon", "Path": "DPath", "DPath": "Path", "Region": "Polygon",
       "Edge": "DEdge", "DEdge": "Edge", "SimplePolygon": "Box", "Text": "DText", "DText": "Text",
       "LayerInfo": "unsigned int", "Edges": "Region"}
LAYER_NAMES = ("layer_index", "layer", "li", "target_layer", "source_layer", "lindex")
SKIP = {"destroy", "destroyed", "is_const_object", "create", "manage", "unmanage", "keep", "release"}


def klayout_exe() -> str | None:
    return os.environ.get("PIC_COPILOT_KLAYOUT") or shutil.which("klayout")


class KlayoutBackend:
    """Runs pya probe batches in ``klayout -b`` (a private KLAYOUT_HOME, a temporary working directory)."""

    name = "klayout"

    def __init__(self, klayout: str | None = None, memory_mb: int = 2048):
        self.memory_mb = memory_mb
        self.exe = klayout or klayout_exe()
        if not self.exe:
            raise RuntimeError("KLayout is not installed (no `klayout` on PATH); pya probes need the application")
        self._tmp = Path(tempfile.mkdtemp(prefix="pic-copilot-explore-pya-"))
        (self._tmp / "home").mkdir(exist_ok=True)

    def version(self) -> str:
        try:
            out = subprocess.run([self.exe, "-v"], capture_output=True, text=True, timeout=60,
                                 env=dict(os.environ, KLAYOUT_HOME=str(self._tmp / "home"))).stdout
            m = re.search(r"(\d+\.\d+(?:\.\d+)?)", out)
            return m.group(1) if m else ""
        except Exception:  # noqa: BLE001
            return ""

    def run(self, specs: list[dict], timeout_s: float, guard_s: float) -> dict:
        from .gf_probes import parse_lines

        work = Path(tempfile.mkdtemp(prefix="batch-", dir=self._tmp))
        job, out = work / "job.json", work / "results.jsonl"
        job.write_text(json.dumps({"specs": specs, "guard_s": guard_s}))
        cmd = [self.exe, "-b", "-r", str(RUNNER), "-rd", f"job={job}", "-rd", f"out={out}"]
        env = dict(os.environ, KLAYOUT_HOME=str(self._tmp / "home"))
        reason, detail = None, ""
        mem = self.memory_mb

        def limits():  # a runaway probe (e.g. round_corners(n=-1)) must not eat the shared machine's memory
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (mem << 20, mem << 20))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

        proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, preexec_fn=limits)
        try:
            _, err = proc.communicate(timeout=timeout_s)
            if proc.returncode != 0:
                rc = proc.returncode
                reason = {11: "segmentation fault", -11: "segmentation fault", 6: "abort", -6: "abort",
                          -9: "killed"}.get(rc, f"exit {rc}")
                errs = [ln.strip() for ln in (err or "").splitlines() if ln.strip().startswith(("ERROR", "Internal error"))]
                detail = errs[0][:200] if errs else ""
        except subprocess.TimeoutExpired:
            reason = "timeout"
            for sig in (15, 9):  # KLayout may ignore SIGTERM
                try:
                    os.killpg(proc.pid, sig)
                except OSError:
                    pass
                try:
                    proc.wait(timeout=3)
                    break
                except subprocess.TimeoutExpired:
                    continue
        lines = store.read_json_lines(out)
        self.klayout_version = next((x["klayout"] for x in lines if "klayout" in x), "")
        shutil.rmtree(work, ignore_errors=True)
        return parse_lines(lines, reason, detail)

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)


# ---------------------------------------------------------------------- signatures
def split_args(s: str) -> list[str]:
    """Top-level ', '-separated arguments (defaults such as ``0,0`` and ``map<string,variant>`` stay whole)."""
    out, depth, cur = [], 0, ""
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0 and s[i + 1: i + 2] == " ":
            out.append(cur.strip())
            cur = ""
            i += 2
            continue
        cur += ch
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_arg(a: str) -> dict:
    default = None
    if " = " in a:
        a, default = a.split(" = ", 1)
    toks = a.split()
    name = toks[-1] if len(toks) > 1 else ""
    typ = " ".join(toks[:-1]) if len(toks) > 1 else a
    typ = typ.replace("const ", "").replace(" ptr", "").strip()
    return {"t": typ, "n": name, "default": default}


def parse_signature(sig: str) -> dict | None:
    """'[static] new Box ptr new (int l, int b, int r, int t)' -> {static, setter, args}."""
    m = re.match(r"^(\[[^\]]*\]\s*)?(.*?)\s*(\((.*)\))?\s*$", sig.strip())
    if not m:
        return None
    flags = m.group(1) or ""
    head = m.group(2) or ""
    args = [parse_arg(a) for a in split_args(m.group(4))] if m.group(4) else []
    h = head.rstrip()
    setter = h.endswith("=") and not h.endswith(("==", "!=", "<=", ">="))
    return {"static": "static" in flags, "setter": setter, "args": args, "raw": sig}


# ---------------------------------------------------------------------- planning
def _variants_for(arg: dict) -> list[tuple[str, dict]]:
    t, n = arg["t"], arg["n"]
    out = []
    if t in INT_TYPES:
        out.append((f"{n}=0", {"v": 0}))
        out.append((f"{n}=-1" if "unsigned" in t or n in LAYER_NAMES else f"{n}=-100", {"v": -1 if ("unsigned" in t or n in LAYER_NAMES) else -100}))
        out.append((f"{n}=0.5 (float)", {"v": 0.5}))
        if n in LAYER_NAMES or n.endswith("layer_index"):
            out.append((f"{n}=LayerInfo(1, 0)", {"alt": "LayerInfo"}))
    elif t in FLOAT_TYPES:
        out.append((f"{n}=0", {"v": 0.0}))
        out.append((f"{n}=-1.5", {"v": -1.5}))
    elif t == "string":
        out.append((f"{n}=''", {"v": ""}))
    elif t.endswith("[]"):
        out.append((f"{n}=[]", {"v": []}))
    elif t in ALT:
        out.append((f"{n}={ALT[t]} instead of {t}", {"alt": ALT[t]}))
    if t not in INT_TYPES and t not in FLOAT_TYPES and t != "bool":
        out.append((f"{n}=None", {"none": True}))
    return out


def plan_entry(e: dict, max_per_entry: int = MAX_PER_ENTRY) -> list[dict]:
    """Probe specs for one pya database entry (method, property or constructor)."""
    eid = e["id"]
    parts = eid.split(".")
    if len(parts) != 3:
        return []
    cls, member = parts[1], parts[2]
    if member.startswith("_") and not (member.startswith("__") and member.endswith("__")):
        return []
    if member in SKIP or member in ("__init__", "__repr__", "__str__", "__hash__", "__copy__", "__deepcopy__"):
        return []
    md = e.get("metadata") or {}
    sigs = md.get("signatures") or ([md["signature"]] if md.get("signature") else [])
    defaults, variants = [], []
    for oi, sig in enumerate(sigs[:MAX_OVERLOADS]):
        ps = parse_signature(sig)
        if ps is None:
            continue
        dunder = member.startswith("__")
        if e["kind"] == "property" and not dunder:
            call = "set" if ps["setter"] else "get"
        elif member == "new" or e["kind"] == "constructor":
            call = "new"
        else:
            call = "static" if ps["static"] else "method"
        req = [a for a in ps["args"] if a["default"] is None]
        if any(a["t"] not in KNOWN_TYPES for a in req):
            continue
        base = [{"t": a["t"], "n": a["n"]} for a in req]
        if call == "set" and len(base) != 1:
            continue
        spec = {"cls": cls, "member": member, "call": call, "sig": sig}
        defaults.append({**spec, "id": f"{eid}|{oi}|default", "label": "typical", "args": base})
        for i, a in enumerate(req):
            for lab, val in _variants_for(a):
                args = [dict(x) for x in base]
                args[i] = {**args[i], **val}
                variants.append({**spec, "id": f"{eid}|{oi}|{lab}", "label": lab, "args": args})
    # the typical call of every overload first, then variants round-robin over the overloads
    by_ov: dict[str, list] = {}
    for v in variants:
        by_ov.setdefault(v["id"].split("|")[1], []).append(v)
    mixed = []
    while any(by_ov.values()):
        for k in list(by_ov):
            if by_ov[k]:
                mixed.append(by_ov[k].pop(0))
    return (defaults + mixed)[:max_per_entry]


def load_entries(db_dir: Path, classes=CLASSES) -> list[dict]:
    want = {f"pya.{c}" for c in classes}
    out = []
    with open(db_dir / "entries.jsonl", encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            if "#" in e["id"] or e["kind"] not in ("method", "property", "constructor"):
                continue
            if (e.get("metadata") or {}).get("class") in want:
                out.append(e)
    return out


def plan(db_dir: Path, classes=CLASSES, max_per_entry: int = MAX_PER_ENTRY) -> tuple[list[dict], list[dict]]:
    """(targets, specs) for the pya classes scripts use most."""
    targets, specs = [], []
    for e in load_entries(db_dir, classes):
        ss = plan_entry(e, max_per_entry)
        if ss:
            targets.append({"id": e["id"], "group": "pya"})
            specs.extend(ss)
    return targets, specs
