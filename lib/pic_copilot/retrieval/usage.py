"""How often each member name is used: which methods of a class are the everyday ones.

Counted in the code the installed tools ship (gdsfactory, kfactory, sax and KLayout's own
Python modules: code written by the people who know these APIs best, and kfactory/gdsfactory are
built on KLayout's ``klayout.db``) plus the code in the KLayout programming guide. A use is
``.name(`` or ``.name`` as an attribute; counts are per short name, so they rank the members of
one class against each other (``Region.sized`` above ``Region.smoothed``), nothing more.
"""
from __future__ import annotations

import functools
import importlib.util
import re
from collections import Counter
from pathlib import Path

#: installed packages whose source is the usage corpus
PACKAGES = ("gdsfactory", "kfactory", "sax", "klayout")
#: KLayout's own Python modules next to the application (pya's helpers)
APP_PYMOD = Path("/usr/lib/klayout/pymod")

_ATTR = re.compile(r"\.([A-Za-z_]\w*)\b")


def package_dirs(packages: tuple[str, ...] = PACKAGES) -> list[Path]:
    """Source folders of the installed packages (those not installed are left out); ``klayout``
    includes the KLayout application's own Python modules."""
    out = []
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec and spec.submodule_search_locations:
            out += [Path(p) for p in spec.submodule_search_locations]
    if "klayout" in packages and APP_PYMOD.is_dir():
        out.append(APP_PYMOD)
    return out


def count_uses(texts) -> Counter:
    """Attribute/method uses per name in an iterable of source texts."""
    c: Counter = Counter()
    for t in texts:
        c.update(_ATTR.findall(t))
    return c


#: whose code shows how a database's API is used: SAX code for SAX names, code built on
#: klayout.db (kfactory, gdsfactory, KLayout's own modules) for KLayout names
DB_PACKAGES = {
    "gdsfactory": ("gdsfactory", "kfactory"),
    "pya": ("kfactory", "gdsfactory", "klayout"),
    "klayout_db": ("kfactory", "gdsfactory", "klayout"),
    "sax": ("sax",),
}


@functools.lru_cache(maxsize=None)
def corpus_counts(packages: tuple[str, ...] = PACKAGES) -> Counter:
    """Uses per name in the installed packages' Python source (cached per process)."""

    def texts():
        for d in package_dirs(packages):
            for p in sorted(d.rglob("*.py")):
                try:
                    yield p.read_text(errors="replace")
                except OSError:
                    continue

    return count_uses(texts())


def db_counts(db: str) -> Counter:
    """Uses per name in the code that uses this database's tool (all packages for other names)."""
    return corpus_counts(DB_PACKAGES.get(db, PACKAGES))


def rank_members(members: list[str], counts: Counter) -> list[str]:
    """Public members, most used first (ties keep the given order); names with a leading
    underscore (KLayout's ``_create``/``_manage`` object plumbing) are left out."""
    pub = [m for m in members if not m.startswith("_")]
    order = {m: i for i, m in enumerate(pub)}
    return sorted(pub, key=lambda m: (-counts.get(m, 0), order[m]))
