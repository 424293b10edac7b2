"""The ``drc_deck`` generator: writes KLayout DRC decks (the DRC engine's Ruby DSL), not Python.

Same agents as every generator (query generator over its databases -> retrieval -> programmer,
with memory); what differs is the programmer's system prompt (prompts/programmer_deck.md, the
section ``[drc_deck]`` of domains.toml with its own per-mode rules), its revision prompt and the
code fence (```ruby). The deck's execution feedback comes from KLayout's own DRC engine
(:mod:`pic_copilot.execution.drc_deck`, chosen by :func:`pic_copilot.execution.routing.execute`).

Hooks into the rest of the pipeline (all small, listed in docs/DRC_DECKS.md):
:func:`make_generator` picks this class for the domain, :func:`system_prompt` serves the
single-shot baselines, and :func:`wants_deck` routes a request that asks for a deck.
"""
from __future__ import annotations

from ..execution import drc_deck
from .. import prompts
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

    def system_prompt(self, kind: str | None) -> str:
        return system_prompt(self.mode)

    def fixed_examples(self, kind: str | None) -> tuple:
        return prompts.fewshot(f"programmer_{self.domain}")

    def kind_for(self, task: str, request: str = "") -> str | None:
        return None   # a deck never edits the layout: no "edit"/"new" kinds

    def revision_message(self, script: str, instructions: str, docs: list[dict] | None = None) -> str:
        """As ScriptGenerator.revision_message, with the deck's revision prompt and fence."""
        from . import retrieve

        if docs is not None:
            self.docs = docs
        last = self.programmer.memory[-1]["content"] if self.programmer.memory else ""
        current = "" if script.strip() and script.strip() in last else \
            f"Current deck:\n```{FENCE}\n{drc_deck.deck_text(script).rstrip()}\n```\n"
        doc_text = ("DRC documentation:\n" + retrieve.format_docs(docs, budget=3000)) if docs else ""
        return prompts.render("programmer_deck_revise", instructions=current + instructions, docs=doc_text)


def make_generator(domains: str | tuple[str, ...], mode: str, databases: tuple[str, ...] | None = None) -> ScriptGenerator:
    """The generator for a request's domains: DeckGenerator for ``drc_deck``, ScriptGenerator otherwise."""
    key = (domains,) if isinstance(domains, str) else tuple(domains)
    cls = DeckGenerator if key == (DOMAIN,) else ScriptGenerator
    return cls(key, mode, databases=databases)
