"""Text tokenizer for BM25 that understands code identifiers.

``route_single`` -> ``route_single route single``; ``CrossSection`` -> ``crosssection cross
section``; ``gdsfactory.routing.route_single`` -> the dotted name, each part, and each part's
pieces. Words are lower-cased, stop words dropped, and a light suffix stripper maps
``ports``/``port``, ``connecting``/``connect`` to the same term.
"""
from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*|\d+(?:\.\d+)?")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z]+|[A-Z]+|\d+")

STOPWORDS = frozenset(
    """a an and are as at be by can do does for from has have how i if in into is it its me my
    of on or so such than that the their them then there these this to was we what when where
    which while will with you your want need should would could please let all any""".split()
)

_UNITS = {"µm": " um ", "μm": " um ", "°": " deg "}


def stem(word: str) -> str:
    """A tiny, predictable suffix stripper (not Porter): enough for plural/verb forms."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for suf, rep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            if suf == "s" and word.endswith(("ss", "us", "is")):
                return word
            if suf == "es" and not word.endswith(("ches", "shes", "xes", "zes", "sses")):
                return _drop_e(word[:-1])
            base = word[: len(word) - len(suf)] + rep
            if suf in ("ing", "ed") and len(base) >= 4 and base[-1] == base[-2] and base[-1] not in "ls":
                base = base[:-1]  # "mapped" -> "map", "spacing" keeps "spac"
            return _drop_e(base)
    return _drop_e(word)


def _drop_e(word: str) -> str:
    return word[:-1] if len(word) >= 4 and word.endswith("e") and not word.endswith("ee") else word


def split_identifier(token: str) -> list[str]:
    """Split a code identifier into its parts (lower case), whole identifier first.

    >>> split_identifier("gf.routing.route_single")
    ['gf.routing.route_single', 'gf', 'routing', 'route_single', 'route', 'single']
    """
    out: list[str] = []
    low = token.lower()
    out.append(low)
    dotted = token.split(".") if "." in token else [token]
    for part in dotted:
        if len(dotted) > 1 and part:
            out.append(part.lower())
        snake = [p for p in part.split("_") if p]
        for s in snake:
            if len(snake) > 1:
                out.append(s.lower())
            camel = _CAMEL.findall(s)
            if len(camel) > 1:
                out.extend(c.lower() for c in camel)
                out.append(s.lower()) if len(snake) <= 1 else None
    # keep order, drop exact duplicates of adjacent pieces
    seen: list[str] = []
    for t in out:
        if t and (not seen or t not in seen):
            seen.append(t)
    return seen


def tokenize(text: str) -> list[str]:
    """Tokens for BM25: identifiers split, lower-cased, stop words removed, stemmed."""
    for k, v in _UNITS.items():
        text = text.replace(k, v)
    tokens: list[str] = []
    for m in _WORD.finditer(text):
        for piece in split_identifier(m.group(0)):
            if piece in STOPWORDS or len(piece) == 1 and not piece.isdigit():
                continue
            tokens.append(stem(piece) if "." not in piece and "_" not in piece else piece)
    return tokens


#: boolean words a designer writes in capitals ("AND of two layers", "boolean NOT") -> the tokens of
#: the operator methods that do them (``Region.__and__`` / ``and_``): the plain words are stop words
_OPERATOR_WORDS = {"AND": ("__and__", "and_"), "OR": ("__or__", "or_"), "NOT": ("__sub__", "not_"),
                   "XOR": ("__xor__", "xor_")}


def operator_tokens(query: str) -> list[str]:
    """Extra BM25 tokens for the boolean operators a query names in capitals (query side only)."""
    return [t for w in re.findall(r"\b(AND|OR|NOT|XOR)\b", query) for t in _OPERATOR_WORDS[w]]
