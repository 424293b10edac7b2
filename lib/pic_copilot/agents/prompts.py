"""Load the agents' prompts and few-shot examples from lib/pic_copilot/prompts/."""
from __future__ import annotations

import functools
import json
import string
import tomllib
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parents[1] / "prompts"


@functools.lru_cache(maxsize=None)
def text(name: str) -> str:
    """The text of prompts/<name>.md (stripped)."""
    return (PROMPTS_DIR / f"{name}.md").read_text().strip()


def render(name: str, **values) -> str:
    """prompts/<name>.md with $placeholders filled in (unknown ones are left as they are)."""
    out = string.Template(text(name)).safe_substitute({k: "" if v is None else str(v) for k, v in values.items()})
    # drop lines left empty by optional placeholders, keep paragraph structure tidy
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
