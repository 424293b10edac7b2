"""The common agent machinery: role prompt, few-shot examples, per-agent memory, JSON output with repair."""
from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from typing import Callable

from .. import prompts
from .client import LLMClient
from .errors import LLMStructuredOutputError

MEMORY_EXCHANGES = 2  # earlier (user, assistant) exchanges an agent keeps in its prompt


class Cancelled(Exception):
    """Internal marker; the pipeline raises pic_copilot.llm.LLMCancelled to callers."""


@dataclass
class Agent:
    """One LLM agent.

    Attributes:
        name: agent name (usage records, per-agent model overrides, token stream label).
        system: the role prompt.
        examples: few-shot messages (user/assistant pairs) placed after the system prompt.
        memory: this agent's earlier exchanges in the current request (and its feedback continuations).
        last_finish: why the latest free-text answer ended ("stop"; "length"/"max_tokens" = cut off).
    """

    name: str
    system: str
    examples: tuple = ()
    memory: list[dict] = field(default_factory=list)
    last_finish: str | None = None   # finish reason of the latest answer ("length": cut off)

    def messages(self, user: str, with_memory: bool = True, answer_start: str | None = None) -> list[dict]:
        """The chat for ``user``; ``answer_start``: the beginning of the answer, for the model to continue."""
        msgs = [{"role": "system", "content": self.system}, *self.examples]
        if with_memory:
            msgs += self.memory[-2 * MEMORY_EXCHANGES:]
        msgs.append({"role": "user", "content": user})
        if answer_start:
            msgs.append({"role": "assistant", "content": answer_start})
        return msgs

    def remember(self, user: str, answer: str) -> None:
        self.memory += [{"role": "user", "content": user}, {"role": "assistant", "content": answer}]

    # ------------------------------------------------------------------ calls
    def ask_text(self, client: LLMClient, user: str, *, cancel: threading.Event | None = None,
                 on_token: Callable[[str | None], None] | None = None, with_memory: bool = True,
                 max_tokens: int | None = None, temperature: float | None = None) -> str:
        """A free-text answer (streamed when on_token is given); remembered."""
        res = client.chat(self.messages(user, with_memory), agent=self.name, stream=on_token is not None,
                          on_token=on_token, cancel=cancel, max_tokens=max_tokens, temperature=temperature)
        self.remember(user, res.text)
        self.last_finish = res.finish_reason
        return res.text

    def sample(self, client: LLMClient, user: str, *, cancel: threading.Event | None = None,
               on_token: Callable[[str | None], None] | None = None, with_memory: bool = True,
               max_tokens: int | None = None, temperature: float | None = None,
               answer_start: str | None = None) -> tuple[str, str | None]:
        """One free-text answer that is NOT remembered (a candidate; see :meth:`remember`):
        (text, finish reason).

        ``answer_start``: the answer's beginning, which the model continues (only for an endpoint
        that continues answers, see LLMClient.continues_answers); the text returned begins with it."""
        start = answer_start or ""
        relay = on_token
        if start and on_token is not None:
            def relay(t: str | None) -> None:   # a retry restarts the stream: the given start again
                on_token(t)
                if t is None:
                    on_token(start)
            on_token(start)
        res = client.chat(self.messages(user, with_memory, answer_start), agent=self.name,
                          stream=on_token is not None, on_token=relay, cancel=cancel, max_tokens=max_tokens,
                          temperature=temperature)
        self.last_finish = res.finish_reason
        return start + res.text, res.finish_reason

    def ask_json(self, client: LLMClient, user: str, schema: dict, *, cancel: threading.Event | None = None,
                 with_memory: bool = True, max_tokens: int | None = None) -> dict:
        """A JSON answer validated against ``schema``; one repair attempt, then LLMStructuredOutputError."""
        msgs = self.messages(user, with_memory)
        res = client.chat(msgs, agent=self.name, json_schema=schema, cancel=cancel, max_tokens=max_tokens)
        try:
            obj = parse_json(res.text, schema)
        except ValueError as e:
            repair = prompts.render("repair_json", error=str(e), schema=json.dumps(schema, separators=(",", ":")))
            res2 = client.chat(msgs + [{"role": "assistant", "content": res.text}, {"role": "user", "content": repair}],
                               agent=self.name, json_schema=schema, cancel=cancel, max_tokens=max_tokens)
            try:
                obj = parse_json(res2.text, schema)
            except ValueError as e2:
                raise LLMStructuredOutputError(
                    f"the {self.name} answered with invalid JSON twice (first: {e}; after one repair attempt: {e2}); "
                    f"answer began: {res2.text[:160]!r}") from None
        self.remember(user, json.dumps(obj))
        return obj


# ---------------------------------------------------------------------- JSON helpers
def _extract_json_text(text: str) -> str:
    t = text.strip()
    m = re.search(r"```(?:json)?\s*(.*?)```", t, re.S)
    if m:
        t = m.group(1).strip()
    if not t.startswith("{"):
        i, j = t.find("{"), t.rfind("}")
        if i >= 0 and j > i:
            t = t[i:j + 1]
    return t


def parse_json(text: str, schema: dict) -> dict:
    """Parse an answer as JSON and check it against a (small subset of) JSON schema.

    Raises:
        ValueError: with a short reason.
    """
    raw = _extract_json_text(text)
    if not raw:
        raise ValueError("the answer is empty")
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e.msg} at character {e.pos}") from None
    validate(obj, schema, "answer")
    return obj


_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "integer": int, "number": (int, float)}


def validate(obj, schema: dict, where: str) -> None:
    """Validate type/required/properties/items/enum/minItems/maxItems; raise ValueError on the first problem."""
    t = schema.get("type")
    if t and not isinstance(obj, _TYPES[t]):
        raise ValueError(f"{where} must be a {t}")
    if "enum" in schema and obj not in schema["enum"]:
        raise ValueError(f"{where} must be one of {schema['enum']}, not {obj!r}")
    if t == "object":
        for k in schema.get("required", []):
            if k not in obj:
                raise ValueError(f"{where} lacks the key {k!r}")
        for k, sub in schema.get("properties", {}).items():
            if k in obj:
                validate(obj[k], sub, f"{where}.{k}")
    if t == "array":
        if len(obj) < schema.get("minItems", 0):
            raise ValueError(f"{where} needs at least {schema['minItems']} items")
        if "maxItems" in schema and len(obj) > schema["maxItems"]:
            del obj[schema["maxItems"]:]  # tolerate long lists: keep the first ones
        for i, item in enumerate(obj):
            validate(item, schema.get("items", {}), f"{where}[{i}]")


def extract_code(text: str) -> str:
    """The code in an answer: the longest ```python block (also ```ruby/```drc/```lydrc for a KLayout
    DRC deck; an unclosed block counts), else the text."""
    blocks = re.findall(r"```(?:python|py|ruby|rb|drc|lydrc)?[ \t]*\n(.*?)```", text, re.S)
    if not blocks:
        m = re.search(r"```(?:python|py|ruby|rb|drc|lydrc)?[ \t]*\n(.*)$", text, re.S)
        if m:
            blocks = [m.group(1)]
    code = max(blocks, key=len) if blocks else text
    return code.strip("\n") + "\n"
