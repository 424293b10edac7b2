"""Load the agents' prompts and few-shot examples from lib/pic_copilot/prompts/."""
from __future__ import annotations

import functools
import json
import string
import tomllib
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parent


class PromptError(ValueError):
    """A prompt template that cannot be rendered as written: an invalid ``$``, a placeholder no value
    was given for, or a value given for no placeholder (both mean the caller and the file disagree)."""


@functools.lru_cache(maxsize=None)
def text(name: str) -> str:
    """The text of prompts/<name>.md (stripped); a template with an invalid ``$`` is an error."""
    body = (PROMPTS_DIR / f"{name}.md").read_text().strip()
    if not string.Template(body).is_valid():
        raise PromptError(f"prompts/{name}.md: an invalid $ (write $$ for a literal dollar sign)")
    return body


def placeholders(name: str) -> set[str]:
    """The $placeholders of prompts/<name>.md."""
    return set(string.Template(text(name)).get_identifiers())


def render(name: str, **values) -> str:
    """prompts/<name>.md with every $placeholder filled in, strictly: a placeholder without a value
    or a value without a placeholder raises :class:`PromptError`. ``None`` renders as nothing, and
    lines left empty by empty values are dropped (paragraph breaks stay)."""
    wanted = placeholders(name)
    missing, unused = sorted(wanted - set(values)), sorted(set(values) - wanted)
    if missing or unused:
        raise PromptError(f"prompts/{name}.md: " + "; ".join(
            part for part in (f"no value for ${', $'.join(missing)}" if missing else "",
                              f"no placeholder for {', '.join(unused)}" if unused else "") if part))
    out = string.Template(text(name)).substitute({k: "" if v is None else str(v) for k, v in values.items()})
    lines = out.splitlines()
    cleaned = [l for i, l in enumerate(lines) if l.strip() or (i and lines[i - 1].strip())]
    return "\n".join(cleaned).strip()


@functools.lru_cache(maxsize=None)
def fewshot(name: str) -> tuple:
    """Few-shot examples of prompts/fewshot/<name>.json as chat messages (user/assistant pairs)."""
    path = PROMPTS_DIR / "fewshot" / f"{name}.json"
    if not path.exists():
        return ()
    msgs = []
    for ex in json.loads(path.read_text()):
        a = ex["assistant"]
        msgs.append({"role": "user", "content": ex["user"]})
        msgs.append({"role": "assistant", "content": a if isinstance(a, str) else json.dumps(a)})
    return tuple(msgs)


def programmer_examples() -> tuple:
    """Every programmer few-shot example (all domains and kinds), as chat messages."""
    names = sorted(p.stem for p in (PROMPTS_DIR / "fewshot").glob("programmer_*.json"))
    return tuple(m for n in names for m in fewshot(n))


@functools.lru_cache(maxsize=None)
def domains() -> dict:
    """prompts/domains.toml: per-domain databases and programmer rules, per-mode rules, versions."""
    return tomllib.loads((PROMPTS_DIR / "domains.toml").read_text())


DOMAINS = ("layout", "drc", "drc_deck", "simulation", "data")
