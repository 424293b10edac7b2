"""gdsfactory probes: discovery, the probe plan (defaults + counterfactual variants), the sandbox backend.

Every component factory (``gdsfactory.components``), cross-section factory (``gdsfactory.cross_section``)
and routing function (``gdsfactory.routing``) of the installed version is called with its defaults
and with a few counterfactual variants per parameter: zero, negative, empty, None, another layer type
(name <-> (layer, datatype) tuple, an unknown layer name) and another cross-section form (name <->
CrossSection object, an unknown name). Routing functions get a parent component with placed devices
and their ports as fixtures. The probes run in the engine sandbox, many per run, each with its own
try/except and SIGALRM time guard (``gf_harness.py``).
"""
from __future__ import annotations

import json
from pathlib import Path

from ..retrieval import observations as store

HARNESS = Path(__file__).with_name("gf_harness.py")
MAX_VARIANTS = 18
#: parameter names a routing function gets from the fixtures
FIXTURE_PARAMS = ("component", "port1", "port2", "ports1", "ports2", "ports", "cross_section", "component_to_route")


class SandboxBackend:
    """Runs harness jobs in the engine sandbox (``pic_copilot.sandbox``)."""

    name = "sandbox"

    def __init__(self, sandbox=None, memory_mb: int = 3072):
        if sandbox is None:
            from ..sandbox import default_sandbox

            sandbox = default_sandbox()
        self.sandbox = sandbox
        self.memory_mb = memory_mb

    def _run(self, job: dict, timeout_s: float):
        return self.sandbox.run(HARNESS.read_text(), timeout_s=timeout_s, summarize=False, memory_mb=self.memory_mb,
                                inputs={"job.json": json.dumps(job)})

    def discover(self, timeout_s: float = 180) -> dict:
        r = self._run({"mode": "discover"}, timeout_s)
        p = Path(r.workdir) / "targets.json"
        if not p.exists():
            exc = r.exception or {}
            raise RuntimeError(f"gdsfactory discovery failed in the sandbox: {exc.get('type')}: {exc.get('message')} "
                               f"{(r.stderr or '')[-800:]}")
        return json.loads(p.read_text())

    def run(self, specs: list[dict], timeout_s: float, guard_s: float) -> dict:
        """One batch. Returns {records, hung, complete, reason, detail}."""
        r = self._run({"mode": "probe", "specs": specs, "guard_s": guard_s}, timeout_s)
        lines = store.read_json_lines(Path(r.workdir) / "results.jsonl")
        reason = "timeout" if r.timed_out else (r.killed_reason or (f"exit {r.exit_code}" if r.exit_code else None))
        detail = ""
        if r.exception and not r.timed_out:
            detail = f"{r.exception.get('type')}: {r.exception.get('message')}"
        elif r.stderr and not r.ok:
            detail = r.stderr.strip().splitlines()[-1][:300] if r.stderr.strip() else ""
        return parse_lines(lines, reason, detail)


def parse_lines(lines: list[dict], reason: str | None, detail: str) -> dict:
    records, started, done = [], None, False
    finished = set()
    for obj in lines:
        if "start" in obj:
            started = obj["start"]
        elif obj.get("batch_done"):
            done = True
        elif "id" in obj:
            records.append(obj)
            finished.add(obj["id"])
    hung = started if (started is not None and started not in finished and not done) else None
    return {"records": records, "hung": hung, "complete": done, "reason": reason or ("crashed" if not done else None),
            "detail": detail}


# ---------------------------------------------------------------------- planning
def _is_layer(p: dict) -> bool:
    ann, n = p.get("annotation") or "", p["name"]
    if "LayerSpecs" in ann or n == "layers" or n.endswith("layers"):
        return False
    return "LayerSpec" in ann or "LayerEnum" in ann or n == "layer" or n.startswith("layer_") or n.endswith("_layer")


def _is_xs(p: dict) -> bool:
    ann, n = p.get("annotation") or "", p["name"]
    return ("CrossSectionSpec" in ann and "CrossSectionSpecs" not in ann) or n in ("cross_section", "xs")


def _numeric_ann(ann: str) -> bool:
    a = ann.replace(" ", "")
    return any(t in a.split("|") for t in ("float", "int")) or a in ("float", "int", "float|None", "int|None")


def _lit(v):
    """A literal for the harness (tuples need a marker: JSON has only lists)."""
    if isinstance(v, (list, tuple)):
        return {"$tuple": [_lit(i) for i in v]}
    return v


def _show(v) -> str:
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(_show(i) for i in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, float):
        return f"{v:g}"
    return repr(v)


def param_variants(p: dict, layer_map: dict[str, list[int]]) -> dict[str, list[tuple[str, object]]]:
    """Counterfactual values for one parameter, grouped by priority: (label, harness value)."""
    g: dict[str, list] = {"type": [], "num": [], "empty": [], "none": []}
    n, dt, d = p["name"], p["dtype"], p.get("default")
    rev = {tuple(v): k for k, v in layer_map.items()}
    if _is_layer(p):
        if dt in ("str", "layer") and isinstance(d, str) and d:
            if d in layer_map:
                g["type"].append((f"{n}={_show(tuple(layer_map[d]))}", _lit(layer_map[d])))
            g["type"].append((f"{n}='NOT_A_LAYER'", "NOT_A_LAYER"))
        elif dt == "tuple" and isinstance(d, list) and len(d) == 2 and all(isinstance(i, int) for i in d):
            if tuple(d) in rev:
                g["type"].append((f"{n}={rev[tuple(d)]!r}", rev[tuple(d)]))
            g["type"].append((f"{n}=(999, 999)", _lit([999, 999])))
    elif _is_xs(p):
        if dt == "str" and isinstance(d, str) and d:
            g["type"].append((f"{n}=CrossSection object ({d})", {"$xs_obj": d}))
            g["type"].append((f"{n}='not_a_cross_section'", "not_a_cross_section"))
            # another kind of cross-section: port names follow it (o1/o2 optical, e1/e2 electrical)
            other = "metal_routing" if d != "metal_routing" else "strip"
            g["type"].append((f"{n}={other!r}", other))
    if dt in ("int", "float") and not isinstance(d, bool) and isinstance(d, (int, float)):
        if d != 0:
            g["num"].append((f"{n}=0", 0))
        neg = -d if d > 0 else (-1 if d == 0 else None)
        if neg is not None:
            neg = int(neg) if dt == "int" else float(neg)
            g["num"].append((f"{n}={_show(neg)}", neg))
    elif dt == "none" and _numeric_ann(p.get("annotation") or "") and not _is_layer(p) and not _is_xs(p):
        g["num"].append((f"{n}=0", 0))
        g["num"].append((f"{n}=-1", -1))
    if dt == "str" and isinstance(d, str) and d and not _is_layer(p):
        g["empty"].append((f"{n}=''", ""))
    if dt == "tuple" and isinstance(d, list) and d and not _is_layer(p):
        g["empty"].append((f"{n}=()", {"$tuple": []}))
    if dt in ("str", "tuple", "callable", "int", "float", "layer", "crosssection") and d not in (None,):
        g["none"].append((f"{n}=None", None))
    return g


def plan_target(t: dict, layer_map: dict[str, list[int]], max_variants: int = MAX_VARIANTS) -> list[dict]:
    """Probe specs for one target: the default call first, then counterfactual variants."""
    tid, group = t["id"], t["group"]
    base: dict = {}
    fixtures = group == "route"
    if fixtures:
        for p in t["params"]:
            if p["kind"] in ("VAR_POSITIONAL", "VAR_KEYWORD"):
                continue
            if p["name"] in FIXTURE_PARAMS and (p["dtype"] == "required" or (p["name"] in ("ports1", "ports2") and p["dtype"] == "none")):
                base[p["name"]] = {"$fixture": p["name"]}
    setup = None
    if fixtures:
        leaf = tid.rsplit(".", 1)[-1]
        electrical = "electrical" in leaf or leaf == "route_quad"
        setup = ("fixtures: component = a new parent Component; port1/port2 (ports1/ports2 lists) = facing ports of two "
                 + ("pads placed 400 um apart (e3 -> e1)" if electrical else "straights placed 100 um apart (o2 -> o1)"))
    specs = [{"id": f"{tid}|default", "target": tid, "group": group, "label": "default", "kwargs": dict(base),
              "fixtures": fixtures}]
    names = {p["name"]: p for p in t["params"]}
    if fixtures and "cross_section" in names and "cross_section" not in base:
        # the default call may need a cross-section; vary the other parameters on a call that can work
        xs = "metal_routing" if electrical else "strip"
        base = {**base, "cross_section": xs}
        specs.append({"id": f"{tid}|cross_section={xs!r}", "target": tid, "group": group, "label": f"cross_section={xs!r}",
                      "kwargs": dict(base), "fixtures": True})
    if setup:
        for sp in specs:
            sp["setup"] = setup
    groups: dict[str, list] = {"type": [], "num": [], "empty": [], "none": []}
    for p in t["params"]:
        if p["kind"] in ("VAR_POSITIONAL", "VAR_KEYWORD", "POSITIONAL_ONLY") or p["dtype"] == "required":
            continue
        if p["name"] in base and isinstance(base[p["name"]], dict):
            continue  # a fixture
        for k, vs in param_variants(p, layer_map).items():
            groups[k].extend((p["name"], lab, v) for lab, v in vs)
    chosen = groups["type"][:6] + groups["num"][:10] + groups["empty"][:2] + groups["none"][:2]
    rest = groups["type"][6:] + groups["num"][10:] + groups["empty"][2:] + groups["none"][2:]
    chosen = (chosen + rest)[: max(0, max_variants)]
    taken = {sp["id"] for sp in specs}
    for name, label, v in chosen:
        sp = {"id": f"{tid}|{label}", "target": tid, "group": group, "label": label,
              "kwargs": {**base, name: v}, "fixtures": fixtures}
        if setup:
            sp["setup"] = setup
            extra = [f"{k}={v!r}" for k, v in base.items() if not isinstance(v, dict) and k != name]
            if extra:
                sp["label"] = label + " (with " + ", ".join(extra) + ")"
                sp["id"] = f"{tid}|{sp['label']}"
        if sp["id"] in taken:  # e.g. the variant equals the working base call
            continue
        taken.add(sp["id"])
        specs.append(sp)
    return specs


def plan(discovery: dict, known_ids: set[str] | None = None, max_variants: int = MAX_VARIANTS) -> tuple[list[dict], list[dict]]:
    """(targets, specs). ``known_ids``: database entry ids; targets outside the database are left out."""
    layer_map = discovery.get("layers") or {}
    targets = [t for t in discovery["targets"] if known_ids is None or t["id"] in known_ids]
    specs = []
    for t in targets:
        specs.extend(plan_target(t, layer_map, max_variants))
    return targets, specs
