# Runs INSIDE the KLayout application:  klayout -b -r pya_runner.py -rd job=JOB.json -rd out=RESULTS.jsonl
# stdlib + pya only. NEVER import gdsfactory / kfactory / pip klayout here (they crash KLayout 0.28.5).
#
# job.json: {"specs": [...], "guard_s": 5}. Each spec:
#   {"id", "cls": "Box", "member": "enlarge", "call": "method"|"static"|"new"|"get"|"set",
#    "args": [{"t": "int", "n": "dx", "v"?: literal, "none"?: true, "alt"?: "DBox"}...]}
# For every spec: a {"start": id} line, then {"id", "ok", "s", "returns"|"error"|"timeout", "self_after"?}.
# A fresh set of sample objects is made for every probe (methods may modify or destroy them).
import itertools
import json
import signal
import time

import pya

job_path = globals().get("job")
out_path = globals().get("out")
JOB = json.load(open(job_path))


class ProbeTimeout(BaseException):
    pass


def _alarm(signum, frame):
    raise ProbeTimeout()


try:
    signal.signal(signal.SIGALRM, _alarm)
    HAVE_ALARM = True
except Exception:  # noqa: BLE001
    HAVE_ALARM = False


def _arm(t):
    if HAVE_ALARM:
        signal.setitimer(signal.ITIMER_REAL, t)


class Ctx:
    """Sample objects: a layout (dbu 0.001) with TOP (index 0) holding a box on 1/0 (layer 0), layer 2/0 (layer 1),
    and a CHILD cell instantiated once in TOP."""

    def __init__(self):
        self.ly = pya.Layout()
        self.ly.dbu = 0.001
        self.top = self.ly.create_cell("TOP")
        self.child = self.ly.create_cell("CHILD")
        self.l0 = self.ly.layer(pya.LayerInfo(1, 0))
        self.l1 = self.ly.layer(pya.LayerInfo(2, 0))
        self.shape = self.top.shapes(self.l0).insert(pya.Box(0, 0, 1000, 500))
        self.child.shapes(self.l1).insert(pya.Box(0, 0, 200, 200))
        self.inst = self.top.insert(pya.CellInstArray(self.child.cell_index(), pya.Trans(pya.Vector(2000, 0))))

    def obj(self, t, name=""):
        t = t.replace("const ", "").replace(" ptr", "").strip()
        ly = self.ly
        P, DP = pya.Point, pya.DPoint
        table = {
            "Box": lambda: pya.Box(0, 0, 1000, 500),
            "DBox": lambda: pya.DBox(0, 0, 1.0, 0.5),
            "Point": lambda: P(100, 200),
            "DPoint": lambda: DP(0.1, 0.2),
            "Vector": lambda: pya.Vector(100, 200),
            "DVector": lambda: pya.DVector(0.1, 0.2),
            "Edge": lambda: pya.Edge(0, 0, 1000, 0),
            "DEdge": lambda: pya.DEdge(0, 0, 1.0, 0),
            "EdgePair": lambda: pya.EdgePair(pya.Edge(0, 0, 1000, 0), pya.Edge(0, 100, 1000, 100)),
            "DEdgePair": lambda: pya.DEdgePair(pya.DEdge(0, 0, 1, 0), pya.DEdge(0, 0.1, 1, 0.1)),
            "Polygon": lambda: pya.Polygon(pya.Box(0, 0, 1000, 500)),
            "DPolygon": lambda: pya.DPolygon(pya.DBox(0, 0, 1.0, 0.5)),
            "SimplePolygon": lambda: pya.SimplePolygon(pya.Box(0, 0, 1000, 500)),
            "DSimplePolygon": lambda: pya.DSimplePolygon(pya.DBox(0, 0, 1.0, 0.5)),
            "Path": lambda: pya.Path([P(0, 0), P(1000, 0), P(1000, 1000)], 100),
            "DPath": lambda: pya.DPath([DP(0, 0), DP(1, 0), DP(1, 1)], 0.1),
            "Text": lambda: pya.Text("T", pya.Trans(P(0, 0))),
            "DText": lambda: pya.DText("T", pya.DTrans(DP(0, 0))),
            "Trans": lambda: pya.Trans(1, False, 100, 200),
            "DTrans": lambda: pya.DTrans(1, False, 0.1, 0.2),
            "ICplxTrans": lambda: pya.ICplxTrans(2.0, 90.0, False, 100, 200),
            "DCplxTrans": lambda: pya.DCplxTrans(2.0, 90.0, False, 0.1, 0.2),
            "CplxTrans": lambda: pya.CplxTrans(0.001),
            "VCplxTrans": lambda: pya.VCplxTrans(1000.0),
            "Region": lambda: pya.Region(pya.Box(0, 0, 1000, 1000)) + pya.Region(pya.Box(500, 500, 2000, 1500)),
            "Edges": lambda: pya.Edges(pya.Box(0, 0, 1000, 1000)),
            "EdgePairs": lambda: pya.EdgePairs(),
            "Texts": lambda: pya.Texts(pya.Text("T", pya.Trans())),
            "LayerInfo": lambda: pya.LayerInfo(1, 0),
            "Layout": lambda: ly,
            "Cell": lambda: self.top,
            "Shapes": lambda: self.top.shapes(self.l0),
            "Shape": lambda: self.shape,
            "Instance": lambda: self.inst,
            "CellInstArray": lambda: pya.CellInstArray(self.child.cell_index(), pya.Trans()),
            "DCellInstArray": lambda: pya.DCellInstArray(self.child.cell_index(), pya.DTrans()),
            "RecursiveShapeIterator": lambda: ly.begin_shapes(self.top, self.l0),
            "SaveLayoutOptions": lambda: pya.SaveLayoutOptions(),
            "LoadLayoutOptions": lambda: pya.LoadLayoutOptions(),
            "Manager": lambda: pya.Manager(),
            "Metrics": lambda: pya.Region.Euclidian,
            "Region::RectFilter": lambda: pya.Region.NoRectFilter,
            "Region::OppositeFilter": lambda: pya.Region.NoOppositeFilter,
            "PropertyConstraint": lambda: pya.Region.IgnoreProperties,
            "Point[]": lambda: [P(0, 0), P(1000, 0), P(1000, 1000)],
            "DPoint[]": lambda: [DP(0, 0), DP(1, 0), DP(1, 1)],
            "Box[]": lambda: [pya.Box(0, 0, 100, 100)],
            "DBox[]": lambda: [pya.DBox(0, 0, 0.1, 0.1)],
            "Polygon[]": lambda: [pya.Polygon(pya.Box(0, 0, 100, 100))],
            "unsigned int[]": lambda: [0],
        }
        if t in table:
            return table[t]()
        n = (name or "").lower()
        if t in ("int", "unsigned int", "long", "unsigned long", "short", "unsigned short", "long long", "unsigned long long"):
            if n in ("layer_index", "layer", "index", "li", "cell_index", "ci", "target_layer", "source_layer", "layer_from", "layer_to",
                     "src", "dest", "prop_id", "lindex", "cell", "parent_cell_index", "child_cell_index") or n.endswith("_index"):
                return 0
            if n in ("mode",):
                return 2
            if n in ("rot", "rotation", "angle_code"):
                return 1
            if n in ("datatype",):
                return 0
            if n in ("n", "count", "num", "nx", "ny", "na", "nb"):
                return 2
            return 100
        if t in ("double", "float"):
            if n in ("mag", "magnification"):
                return 2.0
            if n in ("dbu",):
                return 0.001
            return 1.5
        if t == "bool":
            return True
        if t == "string":
            if "file" in n or "path" in n:
                return "probe_out.gds"
            if "name" in n or n in ("cell",):
                return "CHILD"
            return "probe"
        if t == "variant":
            return 100
        raise LookupError(f"no sample for type {t!r}")


ALT = {"Box": "DBox", "DBox": "Box", "Point": "DPoint", "DPoint": "Point", "Vector": "DVector", "DVector": "Vector",
       "Trans": "DTrans", "DTrans": "Trans", "ICplxTrans": "DCplxTrans", "DCplxTrans": "ICplxTrans",
       "Polygon": "DPolygon", "DPolygon": "Polygon", "Path": "DPath", "DPath": "Path", "Region": "Polygon",
       "Edge": "DEdge", "DEdge": "Edge", "SimplePolygon": "Box", "Text": "DText", "DText": "Text",
       "LayerInfo": "unsigned int", "Edges": "Region"}


def value(ctx, a):
    if a.get("none"):
        return None
    if "v" in a:
        return a["v"]
    if a.get("alt"):
        alt = a["alt"]
        if alt == "unsigned int":
            return 0
        if alt == "LayerInfo":
            return pya.LayerInfo(1, 0)
        return ctx.obj(alt)
    return ctx.obj(a["t"], a.get("n", ""))


def self_obj(ctx, cls):
    if cls in ("Layout",):
        return ctx.ly
    if cls == "Cell":
        return ctx.top
    return ctx.obj(cls)


def _short(v, n=160):
    try:
        s = str(v)
    except Exception as e:  # noqa: BLE001
        s = f"<str failed: {e}>"
    return s if len(s) <= n else s[:n] + "..."


def describe(v):
    if v is None or isinstance(v, (bool, int, float)):
        return {"type": type(v).__name__, "value": v}
    if isinstance(v, str):
        return {"type": "str", "value": v[:160]}
    if isinstance(v, (list, tuple)):
        return {"type": type(v).__name__, "len": len(v), "items": [_short(i, 60) for i in v[:3]]}
    tn = type(v).__name__
    if tn in ("Layout",):
        return {"type": tn, "cells": v.cells(), "layers": v.layers()}
    if tn in ("Cell",):
        return {"type": tn, "name": v.name}
    if hasattr(v, "__next__") or tn.endswith("Iterator") or tn == "generator":
        try:
            items = list(itertools.islice(v, 4))
            return {"type": "iterator", "first": [_short(i, 60) for i in items]}
        except Exception as e:  # noqa: BLE001
            return {"type": tn, "iter_error": str(e)[:100]}
    r = _short(v)
    out = {"type": tn} if " object at 0x" in r else {"type": tn, "repr": r}
    for k in ("count", "size"):
        if tn in ("Region", "Edges", "EdgePairs", "Texts", "Shapes") and hasattr(v, k):
            try:
                out[k] = getattr(v, k)()
                break
            except Exception:  # noqa: BLE001
                pass
    return out


def probe(spec, guard):
    rec = {"id": spec["id"]}
    t0 = time.perf_counter()
    _arm(float(spec.get("guard_s") or guard))
    try:
        ctx = Ctx()
        cls = getattr(pya, spec["cls"])
        args = [value(ctx, a) for a in spec.get("args", [])]
        call = spec["call"]
        shown = ", ".join((a.get("n") + "=" if a.get("n") else "") + _short(v, 40) for a, v in zip(spec.get("args", []), args))
        rec["call"] = {"new": f"{spec['cls']}({shown})", "get": f"{spec['cls']}.{spec['member']}",
                       "set": f"{spec['cls']}.{spec['member']} = {shown}"}.get(call, f"{spec['cls']}.{spec['member']}({shown})")
        me = None
        if call == "new":
            res = cls(*args)
        elif call == "static":
            res = getattr(cls, spec["member"])(*args)
        else:
            me = self_obj(ctx, spec["cls"])
            before = _short(me, 200) if spec["cls"] not in ("Layout", "Cell", "Shapes") else None
            if call == "get":
                res = getattr(me, spec["member"])
            elif call == "set":
                setattr(me, spec["member"], args[0])
                res = getattr(me, spec["member"], None)
            else:
                res = getattr(me, spec["member"])(*args)
        rec["returns"] = describe(res)
        if me is not None and before is not None:
            after = _short(me, 200)
            if after != before:
                rec["self_after"] = after
            if res is me:
                rec["returns_self"] = True
        _arm(0)
        rec["ok"] = True
    except ProbeTimeout:
        rec["ok"] = False
        rec["timeout"] = True
    except BaseException as e:  # noqa: BLE001
        _arm(0)
        rec["ok"] = False
        rec["error"] = {"type": type(e).__name__, "message": str(e)[:500]}
    finally:
        _arm(0)
    rec["s"] = round(time.perf_counter() - t0, 5)
    return rec


guard = float(JOB.get("guard_s", 5))
with open(out_path, "a", buffering=1) as out:
    out.write(json.dumps({"klayout": pya.Application.instance().version() if pya.Application.instance() else ""}) + "\n")
    for spec in JOB["specs"]:
        out.write(json.dumps({"start": spec["id"]}) + "\n")
        out.flush()
        try:
            line = json.dumps(probe(spec, guard), default=str)
        except BaseException as e:  # noqa: BLE001
            line = json.dumps({"id": spec["id"], "ok": False, "error": {"type": type(e).__name__, "message": str(e)[:300]}})
        out.write(line + "\n")
        out.flush()
    out.write(json.dumps({"batch_done": True}) + "\n")
