# Runs INSIDE the KLayout application:  klayout -b -r klayout_dump.py -rd out=/tmp/x.json [-rd what=help|intro|drc]
# Dumps KLayout's own built-in API help (class pages, selected guide pages) and the pya
# introspection (class -> method -> __doc__) as JSON for the engine to parse; what=drc dumps only
# the DRC language reference (/about/drc_ref*.xml) and the DRC manual pages (no introspection).
# Never import gdsfactory / kfactory / pip klayout here (they crash KLayout 0.28.5).
import json
import re
import sys
import time

import pya

t0 = time.time()
what = globals().get("what", "help")
out_path = globals().get("out")
if not out_path:
    sys.stderr.write("klayout_dump.py: pass -rd out=FILE\n")
    sys.exit(3)

result = {"klayout_version": pya.Application.instance().version() if pya.Application.instance() else "", "classes": {}, "pages": {}, "intro": {}}

# -- introspection: every non-Qt class, its members and their __doc__
for cname in (dir(pya) if what != "drc" else []):
    if cname.startswith("_") or cname.startswith("Q"):
        continue
    cls = getattr(pya, cname)
    if not isinstance(cls, type):
        continue
    members = {}
    for m in dir(cls):
        if m.startswith("__") and m not in ("__init__", "__add__", "__sub__", "__mul__", "__and__", "__or__", "__xor__", "__eq__", "__lt__", "__len__", "__getitem__", "__iter__", "__str__", "__repr__"):
            continue
        try:
            doc = getattr(cls, m).__doc__ or ""
        except Exception:
            doc = ""
        members[m] = doc
    result["intro"][cname] = {"doc": cls.__doc__ or "", "members": members}

if what == "help":
    hs = pya.HelpSource.plain() if hasattr(pya.HelpSource, "plain") else pya.HelpSource()
    index = hs.get("/code/index.xml")
    pairs = re.findall(r'href="(class_[^"#]+\.xml)"[^<]*</a>.*?href="module_(\w+)\.xml"', index)
    seen = set()
    for page, module in pairs:
        if module not in ("db", "lay", "rdb", "tl") or page in seen:
            continue
        seen.add(page)
        try:
            result["classes"][page] = {"module": module, "xml": hs.get("/code/" + page)}
        except Exception as e:  # a page that does not render: record and go on
            result["classes"][page] = {"module": module, "xml": "", "error": str(e)}
    guide = ["/programming/" + p for p in re.findall(r'href="([a-z_]+\.xml)"', hs.get("/programming/index.xml"))]
    guide += ["/manual/drc.xml", "/manual/drc_basic.xml", "/manual/drc_runsets.xml", "/manual/lvs_intro.xml" if False else "/about/drc_ref.xml"]
    for p in guide:
        try:
            result["pages"][p] = hs.get(p)
        except Exception as e:
            result["pages"][p] = ""

if what == "drc":
    hs = pya.HelpSource.plain() if hasattr(pya.HelpSource, "plain") else pya.HelpSource()
    index = hs.get("/about/drc_ref.xml")
    pages = ["/about/" + p for p in re.findall(r'href="(drc_ref_[a-z_]+\.xml)"', index)]
    manual = hs.get("/manual/drc.xml")
    pages += ["/manual/" + p for p in re.findall(r'href="(drc_[a-z_]+\.xml)"', manual)]
    for p in dict.fromkeys(pages):
        try:
            result["pages"][p] = hs.get(p)
        except Exception as e:  # a page that does not render: record and go on
            result["pages"][p] = ""

result["seconds"] = time.time() - t0
with open(out_path, "w") as f:
    json.dump(result, f)
