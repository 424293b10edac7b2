"""Systematic exploration: run probe batches, save progress per batch, compile observations.

    from pic_copilot.explore.engine import explore_database
    report = explore_database("gdsfactory")      # or "pya"

Incremental and resumable: raw results go to ``<state>/<db>-<version>.jsonl`` after every batch;
a rerun skips probes already done, and a database whose observations are complete for the installed
version is skipped altogether (``force=True`` starts again). Timeouts and crashes of single probes are
recorded as observations, never fatal: the batch resumes after the probe that hung.
"""
from __future__ import annotations

import fnmatch
import json
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from ..retrieval import observations as store

DEFAULTS = {
    "gdsfactory": {"batch_size": 40, "guard_s": 20.0, "batch_timeout_s": 300.0},
    "pya": {"batch_size": 400, "guard_s": 5.0, "batch_timeout_s": 180.0},
}
DATABASES = tuple(DEFAULTS)


class ExploreError(RuntimeError):
    """The exploration cannot run at all (e.g. the sandbox or KLayout does not start)."""


class Progress:
    """A progress bar on stderr: label, bar, done/total, elapsed, ETA."""

    def __init__(self, label: str, total: int, quiet: bool = False, stream=None):
        self.label, self.total, self.quiet = label, max(total, 1), quiet
        self.stream = stream or sys.stderr
        self.done, self.t0, self.extra = 0, time.monotonic(), ""

    def update(self, done: int, extra: str = "") -> None:
        self.done, self.extra = done, extra
        if self.quiet:
            return
        el = time.monotonic() - self.t0
        frac = min(done / self.total, 1.0)
        eta = (el / frac - el) if frac > 0 else 0
        bar = "#" * int(28 * frac) + "-" * (28 - int(28 * frac))
        self.stream.write(f"\r{self.label:<11} [{bar}] {done}/{self.total} {el:6.0f}s eta {eta:5.0f}s {extra[:40]:<40}")
        self.stream.flush()

    def close(self) -> None:
        if not self.quiet:
            self.stream.write("\n")
            self.stream.flush()


class ProgressLog:
    """Append-only raw probe results (one JSON line each), written once per batch."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def load(self) -> dict[str, dict]:
        out: dict[str, dict] = {}
        for rec in store.read_json_lines(self.path):
            if isinstance(rec, dict) and rec.get("id"):
                out[rec["id"]] = rec
        return out

    def append(self, records: list[dict]) -> None:
        if not records:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = "".join(json.dumps(r, default=str) + "\n" for r in records)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    def reset(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass


def run_batches(specs: list[dict], backend, log: ProgressLog, *, batch_size: int, guard_s: float, batch_timeout_s: float,
                progress: Progress | None = None, done: dict | None = None, max_batches: int | None = None,
                deadline: float | None = None) -> dict:
    """Run the specs not yet in ``done`` in batches; append every batch's results to ``log``.

    Returns counts {ran, batches, hard_timeouts, crashes, stopped}.
    """
    done = dict(done if done is not None else log.load())
    pending = [s for s in specs if s["id"] not in done]
    total_done = len(specs) - len(pending)
    stats = {"ran": 0, "batches": 0, "hard_timeouts": 0, "crashes": 0, "stopped": None}
    idle = 0
    while pending:
        if max_batches is not None and stats["batches"] >= max_batches:
            stats["stopped"] = "max_batches"
            break
        if deadline is not None and time.monotonic() > deadline:
            stats["stopped"] = "deadline"
            break
        batch = pending[:batch_size]
        res = backend.run(batch, batch_timeout_s, guard_s)
        recs = [r for r in res["records"] if r.get("id") in {s["id"] for s in batch}]
        hung = res.get("hung")
        if hung:
            reason = res.get("reason") or "crashed"
            if reason == "timeout":
                recs.append({"id": hung, "ok": False, "timeout": True, "hard": True,
                             "error": {"type": "Timeout", "message": f"no answer within the batch limit ({batch_timeout_s:.0f} s); the process was killed"}})
                stats["hard_timeouts"] += 1
            else:
                recs.append({"id": hung, "ok": False, "crashed": True,
                             "error": {"type": "Crash", "message": f"the process crashed ({reason}) {res.get('detail') or ''}".strip()}})
                stats["crashes"] += 1
        log.append(recs)
        got = {r["id"] for r in recs}
        for r in recs:
            done[r["id"]] = r
        stats["batches"] += 1
        stats["ran"] += len(got)
        if not got:
            idle += 1
            if idle >= 2:
                raise ExploreError(f"the {getattr(backend, 'name', 'probe')} runner made no progress twice "
                                   f"({res.get('reason')}: {res.get('detail')})")
        else:
            idle = 0
        pending = [s for s in pending if s["id"] not in got]
        total_done = len(specs) - len(pending)
        if progress:
            progress.update(total_done, batch[-1]["id"].split("|")[0].rsplit(".", 1)[-1])
    return stats


# ---------------------------------------------------------------------- compiling
def _err_text(rec: dict) -> str:
    if rec.get("timeout"):
        return "timeout" + (" (killed)" if rec.get("hard") else "")
    e = rec.get("error") or {}
    msg = " ".join(str(e.get("message", "")).split())
    return f"{e.get('type', 'Error')}: {msg}"[:260]


MAX_PORT_DETAILS = 24   # ports described in full in a default call (all names are kept in port_names)
MAX_VARIANT_PORTS = 24  # port names listed for a variant whose ports differ from the default


def _port_names(ret: dict | None) -> list[str] | None:
    if not ret or "ports" not in ret:
        return None
    return [p.get("name") for p in ret["ports"]]


def _trim_returns(ret: dict | None) -> dict | None:
    """Keep the stored file small: dies with hundreds of pads keep their first ports in full."""
    if not ret or len(ret.get("ports") or []) <= MAX_PORT_DETAILS:
        return ret
    return {**ret, "ports": ret["ports"][:MAX_PORT_DETAILS], "ports_total": len(ret["ports"])}


def compile_entry(target: dict, specs: list[dict], records: dict[str, dict]) -> dict | None:
    group = target["group"]
    done = [(s, records[s["id"]]) for s in specs if s["id"] in records]
    if not done:
        return None
    e: dict = {"kind": group, "probes": len(done), "ok": sum(1 for _, r in done if r.get("ok"))}
    if specs and specs[0].get("setup"):
        e["setup"] = specs[0]["setup"]
    accepted, rejected, timeouts = [], [], []
    if group == "pya":
        defaults = [(s, r) for s, r in done if s["label"] == "typical"]
        first_ok = next(((s, r) for s, r in defaults if r.get("ok")), None) or (defaults[0] if defaults else None)
        if first_ok:
            s, r = first_ok
            e["default"] = {"ok": bool(r.get("ok")), "call": r.get("call") or s["member"]}
            if r.get("ok"):
                e["default"]["returns"] = r.get("returns")
                for k in ("self_after", "returns_self"):
                    if r.get(k):
                        e["default"][k] = r[k]
            else:
                e["default"]["error"] = _err_text(r)
        seen_calls = {(first_ok[1].get("call") if first_ok else None)}
        for s, r in done:
            if first_ok and s["id"] == first_ok[0]["id"]:
                continue
            label = r.get("call") or s["label"]
            if label in seen_calls:  # const and non-const overloads give the same call
                continue
            seen_calls.add(label)
            if r.get("timeout"):
                timeouts.append({"args": label})
            elif r.get("ok"):
                a = {"args": label, "returns": r.get("returns")}
                if r.get("self_after"):
                    a["self_after"] = r["self_after"]
                accepted.append(a)
            else:
                rejected.append({"args": label, "error": _err_text(r)})
    else:
        d = records.get(f"{target['id']}|default")
        default_ports = None
        if d is not None:
            if d.get("ok"):
                e["default"] = {"ok": True, "returns": _trim_returns(d.get("returns")), "s": d.get("s")}
                if d.get("warning"):
                    e["default"]["warning"] = d["warning"]
                default_ports = _port_names(d.get("returns"))
            else:
                e["default"] = {"ok": False, "error": _err_text(d)}
        names: list[str] = list(default_ports or [])
        vary = False
        port_params: list[str] = []
        for s, r in done:
            if s["label"] == "default":
                continue
            if r.get("timeout"):
                timeouts.append({"args": s["label"]})
            elif r.get("ok"):
                ret = r.get("returns") or {}
                a: dict = {"args": s["label"]}
                pn = _port_names(ret)
                if "bbox" in ret:
                    a["bbox"] = ret.get("bbox")
                    if ret.get("bbox") is None:
                        a["empty"] = True
                if pn is not None:
                    for n in pn:
                        if n not in names:
                            names.append(n)
                    if default_ports is not None and pn != default_ports:
                        a["ports"] = pn[:MAX_VARIANT_PORTS]
                        if len(pn) > MAX_VARIANT_PORTS:
                            a["ports_total"] = len(pn)
                        vary = True
                        pname = s["label"].split("=", 1)[0]
                        if pname not in port_params:
                            port_params.append(pname)
                elif group != "component":
                    a["returns"] = {k: v for k, v in ret.items() if k in ("type", "value", "len", "width", "layer", "attrs")}
                if r.get("warning"):
                    a["warning"] = r["warning"]
                accepted.append(a)
            else:
                rejected.append({"args": s["label"], "error": _err_text(r)})
        if group == "component" and (default_ports is not None or names):
            e["port_names"] = names
            e["port_sets_vary"] = vary
            if port_params:
                e["port_params"] = port_params  # parameters whose probed values changed the port names
    e["accepted"], e["rejected"] = accepted, rejected
    if timeouts:
        e["timeouts"] = timeouts
    return e


def compile_observations(db: str, targets: list[dict], specs: list[dict], records: dict[str, dict], header: dict,
                         previous: dict | None = None) -> dict:
    by_target: dict[str, list[dict]] = {}
    for s in specs:
        by_target.setdefault(s["id"].split("|", 1)[0], []).append(s)
    entries = {}
    prev_entries = (previous or {}).get("entries") or {}
    for t in targets:
        e = compile_entry(t, by_target.get(t["id"], []), records)
        if e is None:
            continue
        if prev_entries.get(t["id"], {}).get("llm"):
            e["llm"] = prev_entries[t["id"]]["llm"]
        entries[t["id"]] = e
    for k, pe in prev_entries.items():  # LLM-only findings on entries outside the plan
        if k not in entries and pe.get("llm"):
            entries[k] = {"kind": pe.get("kind", "other"), "probes": 0, "ok": 0, "accepted": [], "rejected": [], "llm": pe["llm"]}
    ids = {s["id"] for s in specs}
    done = [records[i] for i in ids if i in records]
    stats = {
        "targets": len(targets),
        "targets_probed": sum(1 for t in targets if t["id"] in entries and entries[t["id"]].get("probes")),
        "with_observations": sum(1 for e in entries.values() if e.get("probes")),
        "default_ok": sum(1 for e in entries.values() if (e.get("default") or {}).get("ok")),
        "probes_planned": len(specs),
        "probes_done": len(done),
        "accepted": sum(1 for r in done if r.get("ok")),
        "rejected": sum(1 for r in done if not r.get("ok") and not r.get("timeout")),
        "timeouts": sum(1 for r in done if r.get("timeout")),
        "crashes": sum(1 for r in done if r.get("crashed")),
        "probe_seconds": round(sum(float(r.get("s") or 0) for r in done), 1),
        "llm_explored": sum(1 for e in entries.values() if e.get("llm")),
    }
    return {"format": store.FORMAT, "database": db, **header, "complete": len(done) == len(specs), "stats": stats,
            "entries": entries}


# ---------------------------------------------------------------------- per database
def _known_ids(root: Path, db: str) -> set[str] | None:
    try:
        syms = json.loads((root / db / "symbols.json").read_text())
    except (OSError, json.JSONDecodeError):
        return None
    return {k for k, v in syms.items() if not v.get("alias_of")}


def _select(targets: list[dict], only: list[str] | None, limit: int | None) -> set[str]:
    ids = [t["id"] for t in targets]
    if only:
        ids = [i for i in ids if any(fnmatch.fnmatchcase(i, p) or fnmatch.fnmatchcase(i.rsplit(".", 1)[-1], p)
                                     or i.endswith("." + p) for p in only)]
    if limit is not None:
        ids = ids[:limit]
    return set(ids)


def installed_version(db: str, backend=None) -> str | None:
    if db == "gdsfactory":
        try:
            from importlib.metadata import version

            return version("gdsfactory")
        except Exception:  # noqa: BLE001
            return None
    if db == "pya":
        return backend.version() if backend is not None else None
    return None


def explore_database(db: str, *, root: str | Path | None = None, state: str | Path | None = None, force: bool = False,
                     only: list[str] | None = None, limit: int | None = None, batch_size: int | None = None,
                     guard_s: float | None = None, batch_timeout_s: float | None = None, quiet: bool = False,
                     backend=None, max_batches: int | None = None, max_seconds: float | None = None,
                     max_variants: int | None = None, recompile_only: bool = False) -> dict:
    """Probe one database's APIs (``gdsfactory`` or ``pya``) and write ``databases/<db>/observations.json``.

    ``recompile_only``: no probes; compile the observations again from the saved raw results."""
    if db not in DEFAULTS:
        raise ExploreError(f"no systematic probes for database {db!r}; explorable: {', '.join(DATABASES)}")
    t0 = time.monotonic()
    root = store.databases_root(root)
    cfg = dict(DEFAULTS[db])
    for k, v in (("batch_size", batch_size), ("guard_s", guard_s), ("batch_timeout_s", batch_timeout_s)):
        if v is not None:
            cfg[k] = v
    own_backend = backend is None
    if db == "gdsfactory":
        from . import gf_probes

        backend = backend or gf_probes.SandboxBackend()
    else:
        from . import pya_probes

        if backend is None:
            try:
                backend = pya_probes.KlayoutBackend()
            except RuntimeError as e:
                raise ExploreError(str(e)) from e
    try:
        version = installed_version(db, backend)
        prev = store.load(db, root)
        partial = bool(only or limit)
        if (not force and not partial and not recompile_only and prev and prev.get("complete") and version
                and prev.get("tool_version") == version):
            return {"database": db, "skipped": True, "tool_version": version,
                    "message": f"{db} {version} is already explored ({prev['stats'].get('probes_done')} probes, "
                               f"{prev.get('explored_at', '')[:10]}); use --force to probe again",
                    "stats": prev.get("stats", {})}
        if db == "gdsfactory":
            disc = backend.discover()
            version = disc["versions"].get("gdsfactory") or version
            kw = {"max_variants": max_variants} if max_variants is not None else {}
            targets, specs = gf_probes.plan(disc, _known_ids(root, db), **kw)
            header = {"tool": "gdsfactory", "tool_version": version,
                      "environment": {**disc.get("versions", {}), "pdk": disc.get("pdk")}}
        else:
            kw = {"max_per_entry": max_variants} if max_variants is not None else {}
            targets, specs = pya_probes.plan(root / "pya", **kw)
            header = {"tool": "klayout", "tool_version": version,
                      "environment": {"klayout_app": version, "classes": list(pya_probes.CLASSES)}}
        if not version:
            raise ExploreError(f"cannot tell the installed version of {db}")
        log = ProgressLog(store.state_dir(state) / f"{db}-{version}.jsonl")
        if force:
            log.reset()
        records = log.load()
        if recompile_only:
            if not records:
                raise ExploreError(f"no saved probe results for {db} {version} in {log.path}; run: pic-copilot explore {db}")
            header["explored_at"] = (prev or {}).get("explored_at") or datetime.now(timezone.utc).isoformat(timespec="seconds")
            header["explorer"] = (prev or {}).get("explorer") or {}
            data = compile_observations(db, targets, specs, records, header,
                                        previous=prev if prev and prev.get("tool_version") == version else None)
            for k in ("wall_seconds_this_run", "wall_seconds_total"):
                if ((prev or {}).get("stats") or {}).get(k) is not None:
                    data["stats"][k] = prev["stats"][k]
            path = store.save(db, data, root)
            return {"database": db, "skipped": False, "recompiled": True, "tool_version": version, "path": str(path),
                    "stats": data["stats"], "complete": data["complete"], "progress_file": str(log.path)}
        chosen = _select(targets, only, limit)
        run_specs = [s for s in specs if s["id"].split("|", 1)[0] in chosen]
        todo = sum(1 for s in run_specs if s["id"] not in records)
        prog = Progress(db, len(run_specs), quiet)
        prog.update(len(run_specs) - todo, "resuming" if records and todo < len(run_specs) else "")
        deadline = time.monotonic() + max_seconds if max_seconds else None
        interrupted = False
        try:
            st = run_batches(run_specs, backend, log, batch_size=int(cfg["batch_size"]), guard_s=float(cfg["guard_s"]),
                             batch_timeout_s=float(cfg["batch_timeout_s"]), progress=prog, done=records,
                             max_batches=max_batches, deadline=deadline)
        except KeyboardInterrupt:
            interrupted = True
            st = {"stopped": "interrupted"}
        finally:
            prog.close()
        records = log.load()
        header["explored_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        header["explorer"] = {"guard_s": cfg["guard_s"], "batch_size": cfg["batch_size"],
                              "backend": getattr(backend, "name", "?")}
        data = compile_observations(db, targets, specs, records, header,
                                    previous=prev if prev and prev.get("tool_version") == version else None)
        wall = round(time.monotonic() - t0, 1)
        prev_secs = float(((prev or {}).get("stats") or {}).get("wall_seconds_total") or 0) if prev and prev.get("tool_version") == version and not force else 0.0
        data["stats"]["wall_seconds_this_run"] = wall
        data["stats"]["wall_seconds_total"] = round(prev_secs + wall, 1)
        path = store.save(db, data, root)
        if interrupted:
            raise KeyboardInterrupt
        return {"database": db, "skipped": False, "tool_version": version, "path": str(path), "run": st,
                "stats": data["stats"], "complete": data["complete"], "progress_file": str(log.path)}
    finally:
        if own_backend and hasattr(backend, "close"):
            backend.close()
