"""Cleaning: HTML/XML help pages and KLayout ``@brief`` docstrings to plain text."""
from __future__ import annotations

import html
import re

_BLOCK = re.compile(r"<\s*(br|/p|p|/tr|/li|li|/h\d|h\d|/pre|/table|/div|/ul|/ol)\b[^>]*>", re.I)
_TAG = re.compile(r"<[^>]+>")
_IMG = re.compile(r"<img\b[^>]*>", re.I)
_PRE = re.compile(r"<pre\b[^>]*>(.*?)</pre>", re.S | re.I)


def html_to_text(fragment: str) -> str:
    """Strip markup and images, keep text and code (``<pre>`` kept verbatim)."""
    pres: list[str] = []

    def keep_pre(m: re.Match) -> str:
        pres.append(html.unescape(_TAG.sub("", m.group(1))))
        return f"\n\x00PRE{len(pres) - 1}\x00\n"

    s = _IMG.sub("", fragment)
    s = _PRE.sub(keep_pre, s)
    s = re.sub(r"</td>\s*<td[^>]*>", " ", s)
    s = _BLOCK.sub("\n", s)
    s = _TAG.sub("", s)
    s = html.unescape(s)
    s = re.sub(r"[ \t\r\f\v]+", " ", s)
    s = re.sub(r" *\n *", "\n", s)
    s = re.sub(r"\n{3,}", "\n\n", s).strip()
    for i, p in enumerate(pres):
        s = s.replace(f"\x00PRE{i}\x00", p.strip("\n"))
    return s


def klayout_doc_to_text(doc: str) -> str:
    """KLayout GSI docstring (``@brief``, ``@param``, ``\\Class`` links, ``@code``) -> text."""
    s = doc.replace("@brief ", "").replace("@code", "").replace("@/code", "")
    s = re.sub(r"@param (\w+)", r"\1:", s)
    s = re.sub(r"@return(s)?\b", "Returns:", s)
    s = re.sub(r"\\(\w)", r"\1", s)
    s = re.sub(r"@\w+ ?", "", s)
    s = re.sub(r"[ \t]+", " ", s)
    return re.sub(r"\n{3,}", "\n\n", s).strip()


def first_paragraph(text: str, limit: int = 300) -> str:
    """The first paragraph (or sentence group) of ``text``, at most ``limit`` characters."""
    text = text.strip()
    para = re.split(r"\n\s*\n", text, maxsplit=1)[0].strip()
    para = re.sub(r"\s+", " ", para)
    if len(para) > limit:
        cut = para[:limit]
        dot = cut.rfind(". ")
        para = cut[: dot + 1] if dot > limit // 3 else cut.rstrip() + "..."
    return para
