"""Symbol index: every name the databases know, with signature and parameter names.

Used by the evaluator's API check (does ``gf.components.mmi1x2`` exist? which parameters?
did you mean ...?). Names are canonical ids (``gdsfactory.components.mmi1x2``,
``pya.Region.width_check``, ``klayout.db.Region.delaunay``, ``sax.circuit``) plus aliases
(other public paths of the same object). ``gf.`` and ``kdb.`` prefixes are understood, and
``klayout.db.X`` falls back to the KLayout application's ``pya.X`` when the pip module does
not differ there.
"""
from __future__ import annotations

import difflib

PREFIXES = (("gf.", "gdsfactory."), ("kdb.", "klayout.db."), ("db.", "klayout.db."))


class SymbolIndex:
    def __init__(self, tables: dict[str, dict[str, dict]]):
        """``tables``: database name -> {name: {kind, signature, params, alias_of?}}."""
        self._names: dict[str, dict] = {}
        for db, table in tables.items():
            for name, rec in table.items():
                self._names.setdefault(name, {**rec, "db": db, "name": name})
        self._children: dict[str, list[str]] | None = None

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: str) -> bool:
        return self.has(name)

    def names(self) -> list[str]:
        return list(self._names)

    def _candidates(self, name: str) -> list[str]:
        name = name.strip().removesuffix("()")
        out = [name]
        for short, full in PREFIXES:
            if name.startswith(short):
                out.append(full + name[len(short):])
        for c in list(out):
            if c.startswith("klayout.db."):
                out.append("pya." + c[len("klayout.db."):])
            if c.startswith("klayout.lay."):
                out.append("pya." + c[len("klayout.lay."):])
        return out

    def lookup(self, name: str) -> dict | None:
        """{name, db, kind, signature, params, alias_of?} or None. Aliases resolve to their target's data."""
        for c in self._candidates(name):
            rec = self._names.get(c)
            if rec is not None:
                return rec
        return None

    def has(self, name: str) -> bool:
        return self.lookup(name) is not None or bool(self.members(name))

    def params(self, name: str) -> list[str] | None:
        rec = self.lookup(name)
        return list(rec.get("params", [])) if rec else None

    def signature(self, name: str) -> str | None:
        rec = self.lookup(name)
        return rec.get("signature") if rec else None

    def members(self, name: str) -> list[str]:
        """Direct attributes known under a module or class (e.g. all of ``gdsfactory.routing``)."""
        if self._children is None:
            ch: dict[str, set[str]] = {}
            for n in self._names:
                parts = n.split(".")
                for i in range(1, len(parts)):
                    ch.setdefault(".".join(parts[:i]), set()).add(parts[i])
            self._children = {k: sorted(v) for k, v in ch.items()}
        for c in self._candidates(name):
            if c in self._children:
                return list(self._children[c])
        return []

    def suggest(self, name: str, n: int = 5) -> list[str]:
        """"Did you mean" candidates (difflib), searched among siblings first, then globally."""
        cands = self._candidates(name)
        target = cands[-1] if len(cands) > 1 else cands[0]
        target = next((c for c in cands if c.rsplit(".", 1)[0] in (self._children or {}) ), target) if self._children else target
        out: list[str] = []
        for c in cands:
            parent, _, leaf = c.rpartition(".")
            sibs = self.members(parent) if parent else []
            for m in difflib.get_close_matches(leaf, sibs, n=n, cutoff=0.6):
                full = f"{parent}.{m}"
                if full not in out:
                    out.append(full)
            # the same leaf elsewhere (e.g. gf.write_gds -> gdsfactory.Component.write_gds)
            if leaf:
                for other in self._names:
                    if other.endswith("." + leaf) and other not in out and len(out) < 2 * n:
                        out.append(other)
        if len(out) < n:
            for m in difflib.get_close_matches(target, list(self._names), n=n, cutoff=0.75):
                if m not in out:
                    out.append(m)
        # prefer canonical names over aliases, keep order otherwise
        out.sort(key=lambda s: 1 if self._names.get(s, {}).get("alias_of") else 0)
        return out[:n]
