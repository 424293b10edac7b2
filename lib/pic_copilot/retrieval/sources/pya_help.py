"""pya database: KLayout's ``pya`` API as the installed KLayout application (0.28.5) has it.

Runs ``klayout -b -r klayout_dump.py`` (the app's own interpreter; nothing else is imported
there), which writes the built-in help's class pages (``/code/class_<Name>.xml``), a few
programming-guide pages and the ``pya`` introspection to a JSON file. The class pages give
one entry per Python-visible method (all overloads with signatures, parameters, details);
the guide pages give one entry per section.
"""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from ..clean import first_paragraph, html_to_text, klayout_doc_to_text
from ..errors import RetrievalError
from . import SourceResult

DUMP_SCRIPT = Path(__file__).with_name("klayout_dump.py")
_METHOD = re.compile(r'<a name="method\d+"/><a name="m_([^"]*)"/>')
_NOTE_NAMES = re.compile(r"(?:also available as|also implements|available as|exposes a (?:readable|writable) attribute) '([^']+)'(?: and '([^']+)')?")


def klayout_binary() -> str | None:
    return shutil.which("klayout")


def installed_version() -> str | None:
    """``0.28.5`` from ``klayout -v`` (None when the app is not installed).

    Cached in ``~/.cache/pic-copilot/klayout-version.json`` keyed by the size and mtime of
    the binaries, so loading the databases does not start a process every time.
    """
    exe = klayout_binary()
    if not exe:
        return None
    import os

    real = [Path(exe).resolve(), Path("/usr/lib/klayout/klayout")]
    key = "|".join(f"{p}:{p.stat().st_size}:{p.stat().st_mtime_ns}" for p in real if p.exists())
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pic-copilot" / "klayout-version.json"
    try:
        data = json.loads(cache.read_text())
        if data.get("key") == key and data.get("version"):
            return data["version"]
    except (OSError, ValueError):
        pass
    try:
        out = subprocess.run([exe, "-v"], capture_output=True, text=True, timeout=20).stdout
    except Exception:
        return None
    m = re.search(r"(\d+\.\d+(?:\.\d+)?)", out)
    if m:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps({"key": key, "version": m.group(1)}))
        except OSError:
            pass
    return m.group(1) if m else None


def run_dump(workdir: Path, what: str = "help") -> dict:
    """Run the dump script inside ``klayout -b`` and return its JSON."""
    exe = klayout_binary()
    if not exe:
        raise RetrievalError("the KLayout application is not installed (needed to read its pya help); install it with: sudo apt-get install -y klayout")
    out = workdir / f"klayout_{what}.json"
    cmd = [exe, "-b", "-r", str(DUMP_SCRIPT), "-rd", f"out={out}", "-rd", f"what={what}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=workdir)
    if proc.returncode != 0 or not out.exists():
        raise RetrievalError(f"reading KLayout's help with `{' '.join(cmd)}` failed (exit {proc.returncode}): {proc.stderr.strip()[-800:]}")
    return json.loads(out.read_text())


def _class_name(page: str) -> tuple[str, str]:
    """``class_Region++RectFilter.xml`` -> (``Region.RectFilter``, ``Region::RectFilter``)."""
    core = page[len("class_") : -len(".xml")]
    return core.replace("++", "."), core.replace("++", "::")


_OPERATORS = {
    "&": "__and__", "|": "__or__", "+": "__add__", "-": "__sub__", "^": "__xor__", "*": "__mul__", "/": "__truediv__",
    "==": "__eq__", "!=": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__", "[]": "__getitem__",
    "&=": "__iand__", "|=": "__ior__", "+=": "__iadd__", "-=": "__isub__", "^=": "__ixor__", "*=": "__imul__",
    "-@": "__neg__", "~": "__invert__", "%": "__mod__", "<<": "__lshift__", ">>": "__rshift__",
}


def _python_names(raw: str, notes: str, members: set[str] | None) -> list[str]:
    """Python names of a help method (``is_empty?`` -> ``is_empty``; ``&`` -> ``__and__``)."""
    cands = [_OPERATORS[raw]] if raw in _OPERATORS else []
    base = raw.rstrip("?=")
    if re.fullmatch(r"[A-Za-z_]\w*", base):
        cands.append(base)
    for m in _NOTE_NAMES.finditer(notes):
        cands += [g for g in m.groups() if g]
    out = []
    for c in cands:
        if c not in out and (members is None or c in members or c in ("new",)):
            out.append(c)
    return out


def _parse_detail(block: str) -> dict:
    sig_m = re.search(r"<b>(?:\(\d+\) )?Signature</b>:(.*?)</p>", block, re.S)
    signature = html_to_text(sig_m.group(1)).replace("\n", " ").strip() if sig_m else ""
    desc_m = re.search(r"<b>Description</b>:(.*?)</p>", block, re.S)
    brief = html_to_text(desc_m.group(1)).strip() if desc_m else ""
    params = []
    for pm in re.finditer(r"<tr><td><b>(\w+)</b>:</td><td>(.*?)</td></tr>", block, re.S):
        if pm.group(1) != "Returns":
            params.append({"name": pm.group(1), "description": html_to_text(pm.group(2)).strip()})
    notes_m = re.search(r"Python specific notes: </b><br/>(.*?)</p>", block, re.S)
    notes = html_to_text(notes_m.group(1)) if notes_m else ""
    text = html_to_text(block)
    return {"signature": signature, "brief": brief, "params": params, "notes": notes, "text": text}


def _sig_params(signature: str) -> list[str]:
    m = re.search(r"\((.*)\)\s*$", signature)
    if not m:
        return []
    names = []
    for part in m.group(1).split(","):
        part = part.split("=")[0].strip()
        w = re.findall(r"(\w+)\s*$", part)
        if w:
            names.append(w[0])
    return names


def parse_class_page(page: str, xml: str, module: str, intro: dict, version: str) -> tuple[list[dict], dict[str, str]]:
    """Entries (class + one per Python method name) from one class page."""
    dotted, cpp = _class_name(page)
    members = set(intro.get(dotted, {}).get("members", {})) if "." not in dotted else None
    cls_id = f"pya.{dotted}"
    src = f"KLayout {version} built-in help /code/{page}"
    detail_at = xml.find("Detailed description</h2>")
    detail = xml[detail_at:] if detail_at >= 0 else xml
    head = xml[:detail_at] if detail_at >= 0 else ""
    # class description: the intro doc is the cleanest, the page header has the hierarchy
    cdoc = klayout_doc_to_text(intro.get(dotted, {}).get("doc", "")) if "." not in dotted else ""
    if not cdoc:
        m = re.search(r"<b>Description</b>:(.*?)</p>", head, re.S)
        cdoc = html_to_text(m.group(1)) if m else ""
    hier = re.search(r"<b>Class hierarchy</b>:(.*?)</p>", head, re.S)
    deprecated = set(re.findall(r'<a href="#method\d+">([^<]+)</a></b></td><td>[^<]*</td><td>Use of this method is deprecated', head))
    positions = [(m.start(), html.unescape(m.group(1))) for m in _METHOD.finditer(detail)]
    groups: dict[str, dict] = {}
    for i, (pos, raw) in enumerate(positions):
        end = positions[i + 1][0] if i + 1 < len(positions) else len(detail)
        block = detail[pos:end]
        block = re.split(r'</td></tr>\s*(?:<tr class="bigrow|</table>\s*(?:<a name="h2|</body>|$))', block)[0]
        d = _parse_detail(block)
        names = _python_names(raw, d["notes"], members)
        if not names:
            continue
        key = names[0]
        g = groups.setdefault(key, {"aliases": set(), "overloads": [], "raw": set()})
        g["aliases"].update(names[1:])
        g["raw"].add(raw)
        g["overloads"].append(d)
    entries = []
    aliases: dict[str, str] = {}
    for name, g in groups.items():
        fq = f"{cls_id}.{name}"
        ovs = g["overloads"]
        kind = "property" if any(r.endswith("=") for r in g["raw"]) or "exposes a" in " ".join(o["notes"] for o in ovs) else ("constructor" if name == "new" else "method")
        params, seen = [], set()
        for o in ovs:
            for p in o["params"] or [{"name": n, "description": ""} for n in _sig_params(o["signature"])]:
                if p["name"] not in seen:
                    seen.add(p["name"])
                    params.append(p)
        parts = [f"{kind} {fq}"]
        for j, o in enumerate(ovs, 1):
            parts.append(o["text"])
        content = "\n\n".join(parts)
        is_dep = bool(g["raw"] & deprecated) and all("deprecated" in o["brief"].lower() for o in ovs)
        entries.append({
            "id": fq,
            "kind": kind,
            "content": content,
            "metadata": {
                "module": "pya",
                "class": cls_id,
                "signature": ovs[0]["signature"],
                "signatures": [o["signature"] for o in ovs],
                "parameters": params,
                "source": src,
                "version": version,
                "doc": "; ".join(dict.fromkeys(o["brief"].rstrip(". ") for o in ovs if o["brief"])),
                "deprecated": is_dep,
                "help_names": sorted(g["raw"]),
                "context": f"method of {cls_id}: {first_paragraph(cdoc, 120)}",
            },
        })
        for a in g["aliases"]:
            aliases[f"{cls_id}.{a}"] = fq
    member_names = sorted(groups)
    content = f"class {cls_id} (C++ {cpp}, module {module})\n"
    if hier:
        content += "Class hierarchy: " + html_to_text(hier.group(1)).replace("\n", " ") + "\n"
    content += "\n" + cdoc + "\n\nMembers: " + ", ".join(member_names)
    entries.insert(0, {
        "id": cls_id,
        "kind": "class",
        "content": content,
        "metadata": {"module": "pya", "signature": f"{cls_id}(...)", "parameters": [], "source": src, "version": version, "doc": cdoc, "members": member_names},
    })
    return entries, aliases


def guide_entries(xml: str, page: str, version: str, module: str, page_id: str, clean) -> list[dict]:
    """One entry per section of a KLayout help page (ids ``<module>.<page_id>#<section>``): the
    text before the first ``<h2>`` as "Introduction", then one per ``<h2>``; sections under 80
    characters are left out.

    Args:
        xml: the page as the help dump holds it.
        page: the page's path in KLayout's built-in help (also the title when it has no ``<title>``).
        version: the KLayout version the help comes from.
        module: "klayout.guide" or "drc.guide".
        page_id: the page's part of the entry ids.
        clean: ``clean(text, title)``: a section's plain text without the page title it repeats.
    """
    title_m = re.search(r"<title>(.*?)</title>", xml, re.S)
    title = html.unescape(title_m.group(1)).strip() if title_m else page
    body = xml.split("<body>", 1)[-1]
    pieces = re.split(r"(<h2>.*?</h2>)", body, flags=re.S)
    sections = [("Introduction", pieces[0])] + [(html_to_text(pieces[i]).strip(), pieces[i + 1])
                                                 for i in range(1, len(pieces) - 1, 2)]
    out = []
    for heading, frag in sections:
        text = clean(html_to_text(frag), title)
        if len(text) < 80:
            continue
        slug = re.sub(r"[^a-z0-9]+", "_", heading.lower()).strip("_") or "intro"
        out.append({
            "id": f"{module}.{page_id}#{slug}",
            "kind": "guide",
            "content": f"guide {title} - {heading}\n\n{text}",
            "metadata": {"module": module, "signature": f"{title} - {heading}", "parameters": [],
                         "source": f"KLayout {version} built-in help {page}", "version": version, "doc": text[:400],
                         "title": title, "section": heading},
        })
    return out


def parse_guide_page(path: str, xml: str, version: str) -> list[dict]:
    """One entry per ``<h2>`` section of a programming-guide page."""
    return guide_entries(xml, path, version, "klayout.guide", path.strip("/").replace(".xml", "").replace("/", "."),
                         lambda text, title: re.sub(r"^" + re.escape(title) + r"\s*", "", text))


def collect(workdir: Path) -> SourceResult:
    dump = run_dump(workdir, "help")
    m = re.search(r"(\d+\.\d+(?:\.\d+)?)", dump.get("klayout_version", ""))
    version = m.group(1) if m else (installed_version() or "unknown")
    entries: list[dict] = []
    aliases: dict[str, str] = {}
    for page, rec in sorted(dump["classes"].items()):
        if not rec.get("xml"):
            continue
        e, a = parse_class_page(page, rec["xml"], rec["module"], dump["intro"], version)
        entries += e
        aliases.update(a)
    for path, xml in dump["pages"].items():
        if xml:
            entries += parse_guide_page(path, xml, version)
    # keep the introspection (member docs) for the klayout_db source's comparison
    (workdir / "pya_intro.json").write_text(json.dumps(dump["intro"]))
    return SourceResult(tool="klayout", tool_version=version, source=f"KLayout {version} application: pya.HelpSource class pages + programming guide (klayout -b)", entries=entries, aliases=aliases)
