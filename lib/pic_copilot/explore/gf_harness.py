# Runs INSIDE the engine sandbox (plain Python with gdsfactory; no pic_copilot imports).
# Reads job.json from the working directory:
#   {"mode": "discover"}                      -> writes targets.json (factories + parameters)
#   {"mode": "probe", "specs": [...], "guard_s": 10}
#                                              -> appends one JSON line per probe to results.jsonl:
#      {"start": id} before a probe, then {"id", "ok", "s", "returns"|"error"|"timeout", "warning"?}
# Every probe has its own try/except and a SIGALRM time guard; nothing here is fatal.
import importlib
import inspect
import json
import math
import signal
import sys
import time
import traceback
import warnings

import gdsfactory as gf

try:
    gf.get_active_pdk()
except Exception:  # noqa: BLE001
    gf.gpdk.PDK.activate()

JOB = json.load(open("job.json"))


class ProbeTimeout(BaseException):
    pass


def _alarm(signum, frame):
    raise ProbeTimeout()


signal.signal(signal.SIGALRM, _alarm)


# ------------------------------------------------------------------ describing values
def _num(x, nd=4):
    try:
        f = float(x)
    except Exception:  # noqa: BLE001
        return str(x)
    if math.isnan(f) or math.isinf(f):
        return str(f)
    r = round(f, nd)
    return int(r) if r == int(r) else r


_LAYER_NAMES = {}


def _layer(x):
    """(name, [layer, datatype]) for a layer enum / index / tuple."""
    if not _LAYER_NAMES:
        try:
            for info in gf.get_active_pdk().layers:
                t = tuple(info)
                _LAYER_NAMES[(int(t[0]), int(t[1]))] = info.name
        except Exception:  # noqa: BLE001
            _LAYER_NAMES[None] = None
    try:
        if isinstance(x, (tuple, list)) and len(x) == 2:
            t = (int(x[0]), int(x[1]))
            return _LAYER_NAMES.get(t, str(t)), list(t)
        if isinstance(x, str):
            info = gf.get_layer(x)
            t = tuple(info)
            return x, [int(t[0]), int(t[1])]
        info = gf.get_layer(x)
        t = tuple(info)
        t = (int(t[0]), int(t[1]))
        return getattr(info, "name", None) or _LAYER_NAMES.get(t, str(t)), list(t)
    except Exception:  # noqa: BLE001
        return str(x), None


def describe_port(p):
    name, ld = _layer(p.layer)
    try:
        center = [_num(p.center[0]), _num(p.center[1])]
    except Exception:  # noqa: BLE001
        center = None
    return {"name": p.name, "orientation": _num(p.orientation, 2) if p.orientation is not None else None,
            "width": _num(p.width), "layer": name, "ld": ld, "type": getattr(p, "port_type", None), "center": center}


def _bbox(c):
    try:
        b = c.dbbox()
        if b.empty():
            return None
        return [[_num(b.left), _num(b.bottom)], [_num(b.right), _num(b.top)]]
    except Exception:  # noqa: BLE001
        return None


def describe_component(c):
    out = {"type": type(c).__name__, "cell": str(getattr(c, "name", ""))[:120]}
    try:
        out["function"] = getattr(c, "function_name", None)
    except Exception:  # noqa: BLE001
        pass
    try:
        out["ports"] = [describe_port(p) for p in c.ports]
    except Exception as e:  # noqa: BLE001
        out["ports_error"] = f"{type(e).__name__}: {e}"[:200]
    out["bbox"] = _bbox(c)
    try:
        layers = []
        for t in c.layers:
            name, ld = _layer(t)
            layers.append([name, ld])
        out["layers"] = layers
    except Exception as e:  # noqa: BLE001
        out["layers_error"] = f"{type(e).__name__}: {e}"[:200]
    try:
        out["instances"] = len(list(c.insts))
    except Exception:  # noqa: BLE001
        pass
    return out


def describe_xs(x):
    out = {"type": type(x).__name__}
    try:
        out["layer"] = _layer(x.layer)[0]
    except Exception:  # noqa: BLE001
        pass
    for k in ("name", "width", "radius", "radius_min", "port_names", "port_types"):
        try:
            v = getattr(x, k)
            out[k] = _num(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else (str(v) if not isinstance(v, (tuple, list)) else [str(i) for i in v])
        except Exception:  # noqa: BLE001
            pass
    try:
        out["sections"] = [{"name": s.name, "layer": str(s.layer), "width": _num(s.width), "offset": _num(s.offset)} for s in x.sections][:8]
    except Exception:  # noqa: BLE001
        pass
    return out


def describe(v, depth=0):
    if v is None or isinstance(v, (bool, int, float, str)):
        return {"type": type(v).__name__, "value": v if not isinstance(v, str) else v[:120]}
    if isinstance(v, gf.Component) or type(v).__name__ in ("Component", "ComponentAllAngle"):
        return describe_component(v)
    if type(v).__name__ == "CrossSection":
        return describe_xs(v)
    if type(v).__name__ in ("ComponentReference", "Instance", "DInstance"):
        out = {"type": type(v).__name__}
        try:
            out["cell"] = str(v.cell.name)[:120]
            out["ports"] = [describe_port(p) for p in v.ports]
        except Exception:  # noqa: BLE001
            pass
        return out
    if isinstance(v, (list, tuple)):
        out = {"type": type(v).__name__, "len": len(v)}
        if depth < 2 and v:
            out["items"] = [describe(i, depth + 1) for i in list(v)[:3]]
        return out
    if isinstance(v, dict):
        return {"type": "dict", "keys": [str(k) for k in list(v)[:12]]}
    out = {"type": type(v).__module__.split(".")[0] + "." + type(v).__qualname__}
    if depth < 2:
        attrs = {}
        for k in dir(v):
            if k.startswith("_") or len(attrs) >= 12:
                continue
            try:
                a = getattr(v, k)
            except Exception:  # noqa: BLE001
                continue
            if callable(a):
                continue
            if isinstance(a, (bool, int, float)):
                attrs[k] = _num(a) if not isinstance(a, bool) else a
            elif isinstance(a, str):
                attrs[k] = a[:60]
            elif isinstance(a, (list, tuple)):
                attrs[k] = f"{type(a).__name__}[{len(a)}]"
        out["attrs"] = attrs
    return out


# ------------------------------------------------------------------ discovery
def _classify(v):
    if v is inspect.Parameter.empty:
        return "required", None
    if v is None:
        return "none", None
    if isinstance(v, bool):
        return "bool", v
    if isinstance(v, int):
        return "int", v
    if isinstance(v, float):
        return "float", v if math.isfinite(v) else str(v)
    if type(v).__name__ == "LAYER" or (hasattr(v, "layer") and hasattr(v, "datatype") and hasattr(v, "name")):
        return "layer", getattr(v, "name", str(v))
    if isinstance(v, str):
        return "str", v
    if isinstance(v, (tuple, list)):
        try:
            json.dumps(v)
            return "tuple", list(v)
        except Exception:  # noqa: BLE001
            return "tuple", None
    if type(v).__name__ == "CrossSection":
        return "crosssection", getattr(v, "name", None)
    if callable(v):
        return "callable", getattr(v, "__name__", None) or getattr(getattr(v, "func", None), "__name__", None)
    return "other", None


def discover():
    groups = [("gdsfactory.components", "component", ("Component",)),
              ("gdsfactory.cross_section", "cross_section", ("CrossSection",)),
              ("gdsfactory.routing", "route", None)]
    targets = []
    for modname, group, want in groups:
        mod = importlib.import_module(modname)
        for name in sorted(dir(mod)):
            if name.startswith("_"):
                continue
            obj = getattr(mod, name)
            if isinstance(obj, type) or not callable(obj):
                continue
            try:
                sig = inspect.signature(obj)
            except Exception:  # noqa: BLE001
                continue
            ret = sig.return_annotation
            ret = "" if ret is inspect.Signature.empty else (ret if isinstance(ret, str) else getattr(ret, "__name__", str(ret)))
            if want and not any(w in str(ret) for w in want):
                continue
            params = []
            for p in sig.parameters.values():
                dtype, dv = _classify(p.default)
                ann = p.annotation
                ann = "" if ann is inspect.Parameter.empty else (ann if isinstance(ann, str) else str(ann))
                params.append({"name": p.name, "kind": p.kind.name, "dtype": dtype, "default": dv, "annotation": ann[:120]})
            targets.append({"id": f"{modname}.{name}", "group": group, "params": params, "returns": str(ret)[:120]})
    versions = {}
    for dist in ("gdsfactory", "kfactory", "klayout"):
        try:
            from importlib.metadata import version

            versions[dist] = version(dist)
        except Exception:  # noqa: BLE001
            pass
    versions["python"] = sys.version.split()[0]
    layers = {}
    try:
        for info in gf.get_active_pdk().layers:
            t = tuple(info)
            layers[info.name] = [int(t[0]), int(t[1])]
    except Exception:  # noqa: BLE001
        pass
    json.dump({"targets": targets, "versions": versions, "pdk": gf.get_active_pdk().name, "layers": layers},
              open("targets.json", "w"))


# ------------------------------------------------------------------ probing
def _resolve(path):
    """The object at a dotted path: attributes win over same-named submodules
    (gdsfactory.routing.route_single is a function and a module)."""
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except Exception:  # noqa: BLE001
            continue
        try:
            for p in parts[cut:]:
                obj = getattr(obj, p)
            return obj
        except AttributeError:
            continue
    return importlib.import_module(path)


def fixtures(target):
    """Arguments a routing function needs: a parent component with placed devices and their ports."""
    fx = {}
    name = target.rsplit(".", 1)[-1]
    electrical = "electrical" in name or name in ("route_quad",)
    c = gf.Component()
    fx["component"] = c
    if electrical:
        p1 = c << gf.components.pad()
        p2 = c << gf.components.pad()
        p2.move((400, 300))
        fx["port1"], fx["port2"] = p1.ports["e3"], p2.ports["e1"]
        p3 = c << gf.components.pad()
        p4 = c << gf.components.pad()
        p3.move((0, 200))
        p4.move((400, 500))
        fx["ports1"], fx["ports2"] = [p1.ports["e3"], p3.ports["e3"]], [p2.ports["e1"], p4.ports["e1"]]
        fx["cross_section"] = "metal_routing"
    else:
        s1 = c << gf.components.straight(length=10)
        s2 = c << gf.components.straight(length=10)
        s2.move((100, 50))
        fx["port1"], fx["port2"] = s1.ports["o2"], s2.ports["o1"]
        s3 = c << gf.components.straight(length=10)
        s4 = c << gf.components.straight(length=10)
        s3.move((0, 20))
        s4.move((100, 70))
        fx["ports1"], fx["ports2"] = [s1.ports["o2"], s3.ports["o2"]], [s2.ports["o1"], s4.ports["o1"]]
        fx["cross_section"] = "strip"
    fx["ports"] = fx["ports1"]
    if name.startswith("add_") or name == "fanout2x2":
        fx["component"] = gf.components.straight_heater_metal() if ("pads" in name or "electrical" in name) else gf.components.mmi2x2()
    if name == "route_south":
        fx["component_to_route"] = c << gf.components.mmi2x2()
    return fx


def materialize(v, fx):
    if isinstance(v, list):
        return [materialize(i, fx) for i in v]
    if not isinstance(v, dict):
        return v
    if "$tuple" in v:
        return tuple(materialize(i, fx) for i in v["$tuple"])
    if "$layer_tuple" in v:
        return tuple(int(i) for i in tuple(gf.get_layer(v["$layer_tuple"])))
    if "$layer_enum" in v:
        return gf.get_layer(v["$layer_enum"])
    if "$layer_name" in v:
        return gf.get_layer(tuple(v["$layer_name"])).name
    if "$xs_obj" in v:
        return gf.get_cross_section(v["$xs_obj"])
    if "$component" in v:
        return gf.get_component(v["$component"])
    if "$fixture" in v:
        return fx[v["$fixture"]]
    if "$call" in v:  # a value built by calling a function: {"$call": "itertools.repeat", "args": [1, 3]}
        return _resolve(v["$call"])(*[materialize(a, fx) for a in v.get("args", [])])
    return v


def probe(spec, guard):
    rec = {"id": spec["id"]}
    t0 = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, float(spec.get("guard_s") or guard))
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fn = _resolve(spec["target"])
            fx = fixtures(spec["target"]) if spec.get("fixtures") else {}
            args = [materialize(a, fx) for a in spec.get("args", [])]
            kwargs = {k: materialize(a, fx) for k, a in (spec.get("kwargs") or {}).items()}
            res = fn(*args, **kwargs)
            rec["returns"] = describe(res)
        signal.setitimer(signal.ITIMER_REAL, 0)
        rec["ok"] = True
        useful = [w for w in caught if not issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning, FutureWarning))]
        if useful:
            rec["warning"] = f"{useful[0].category.__name__}: {useful[0].message}"[:300]
    except ProbeTimeout:
        rec["ok"] = False
        rec["timeout"] = True
    except BaseException as e:  # noqa: BLE001 - SystemExit, MemoryError, ... are observations too
        signal.setitimer(signal.ITIMER_REAL, 0)
        rec["ok"] = False
        tb = traceback.extract_tb(e.__traceback__)
        where = next((f"{f.filename.split('site-packages/')[-1]}:{f.lineno}" for f in reversed(tb)), "")
        rec["error"] = {"type": type(e).__name__, "message": str(e)[:600], "where": where}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    rec["s"] = round(time.perf_counter() - t0, 4)
    return rec


def run_probes():
    guard = float(JOB.get("guard_s", 10))
    with open("results.jsonl", "a", buffering=1) as out:
        for spec in JOB["specs"]:
            out.write(json.dumps({"start": spec["id"]}) + "\n")
            out.flush()
            try:
                rec = probe(spec, guard)
                line = json.dumps(rec, default=str)
            except BaseException as e:  # noqa: BLE001 - even describing failed
                line = json.dumps({"id": spec["id"], "ok": False, "error": {"type": type(e).__name__, "message": str(e)[:300]}})
            out.write(line + "\n")
            out.flush()
        out.write(json.dumps({"batch_done": True}) + "\n")


if JOB.get("mode") == "discover":
    discover()
else:
    run_probes()
