"""The ``drc_deck`` generator: writes KLayout DRC decks (the DRC engine's Ruby DSL), not Python.

Same agents as every generator (query generator over its databases -> retrieval -> programmer,
with memory); what differs is the programmer's system prompt (prompts/programmer_deck.md, the
section ``[drc_deck]`` of domains.toml with its own per-mode rules), its revision prompt and the
code fence (```ruby). The deck's execution feedback comes from KLayout's own DRC engine
(:mod:`pic_copilot.drc_deck`, chosen by :func:`pic_copilot.execution.execute`).

Hooks into the rest of the pipeline (all small, listed in docs/DRC_DECKS.md):
:func:`make_generator` picks this class for the domain, :func:`system_prompt` serves the
single-shot baselines, and :func:`wants_deck` routes a request that asks for a deck.
"""
from __future__ import annotations

from .. import drc_deck
from . import prompts
from .base import extract_code
from .generators import ScriptGenerator

DOMAIN = "drc_deck"
FENCE = "ruby"

wants_deck = drc_deck.wants_deck


def mode_rules(mode: str) -> str:
    spec = prompts.domains()[DOMAIN]
    return (spec.get(f"mode_rules_{mode}") or "").strip()


def system_prompt(mode: str, with_rules: bool = True) -> str:
    """The deck programmer's system prompt (``with_rules=False`` for the zero-shot/icl-rag baselines,
    which get no domain rules, like every other domain's baseline)."""
    spec = prompts.domains()[DOMAIN]
    return prompts.render("programmer_deck", domain_title=spec["title"],
                          versions=spec.get("versions") or prompts.domains()["versions"]["text"],
                          domain_rules=spec["rules"].strip() if with_rules else "", mode_rules=mode_rules(mode))


class DeckGenerator(ScriptGenerator):
    """The generator of the ``drc_deck`` domain: its programmer answers with a deck in ```ruby."""

    def __init__(self, domain: str, mode: str, available: tuple[str, ...] | None = None,
                 databases: tuple[str, ...] | None = None):
        super().__init__(domain, mode, available=available, databases=databases)
        self.programmer.system = system_prompt(mode)
        self.programmer.examples = prompts.fewshot(f"programmer_{domain}")

    def examples_for_kind(self, kind: str) -> tuple:
        return prompts.fewshot(f"programmer_{self.domain}")

    def kind_for(self, task: str, request: str = "") -> str | None:
        return None   # a deck never edits the layout: no "edit"/"new" kinds

    def revise(self, client, script: str, instructions: str, docs: list[dict] | None = None, cancel=None,
               on_token=None) -> str:
        """As ScriptGenerator.revise, with the deck's revision prompt and fence."""
        if docs is not None:
            self.docs = docs
        last = self.programmer.memory[-1]["content"] if self.programmer.memory else ""
        current = "" if script.strip() and script.strip() in last else \
            f"Current deck:\n```{FENCE}\n{drc_deck.deck_text(script).rstrip()}\n```\n"
        from . import retrieve

        doc_text = ("DRC documentation:\n" + retrieve.format_docs(docs, budget=3000)) if docs else ""
        user = prompts.render("programmer_deck_revise", instructions=current + instructions, docs=doc_text)
        code = extract_code(self.programmer.ask_text(client, user, cancel=cancel, on_token=on_token))
        if code.strip() == script.strip():   # repeated itself: once more, hotter
            if on_token is not None:
                on_token(None)
            self.programmer.memory[-2:] = []
            code = extract_code(self.programmer.ask_text(
                client, user + "\nYour last answer repeated the same deck unchanged; change it to fix the errors.",
                cancel=cancel, on_token=on_token, temperature=0.7))
        if code.strip() == script.strip() and self._last_write is not None:   # still stuck: start over
            if on_token is not None:
                on_token(None)
            self.programmer.memory.clear()
            w = self._last_write
            code = self.write(client, w["subtask"], self.docs, w["layout_context"], cancel=cancel, on_token=on_token,
                              request=w["request"], avoid=instructions)
        return code


def make_generator(domain: str, mode: str, databases: tuple[str, ...] | None = None) -> ScriptGenerator:
    """The generator for a domain: DeckGenerator for ``drc_deck``, ScriptGenerator otherwise."""
    cls = DeckGenerator if domain == DOMAIN else ScriptGenerator
    return cls(domain, mode, databases=databases)
