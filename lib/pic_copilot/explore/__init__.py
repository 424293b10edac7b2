"""Offline API self-exploration: learn what the installed APIs really do, and use it (Step 6).

- Systematic probes (no LLM): every gdsfactory component / cross-section factory and routing function
  (``gf_probes`` + ``gf_harness``, in the engine sandbox) and the most used KLayout pya classes
  (``pya_probes`` + ``pya_runner``, in ``klayout -b``), with defaults and counterfactual variants.
  ``engine.explore_database`` batches them, saves progress per batch and compiles
  ``databases/<db>/observations.json``.
- LLM-guided experiments (``guided.explore_llm``) on the entries with the biggest documentation gaps.
- Use (``store``): the "observed" section of ``get_api_details``, search summaries, the programmer's
  documentation context and the evaluator's API check (observed port names).

Command line: ``pic-copilot explore`` (``cli.register``).
"""
from ..retrieval.observations import annotate_hits, port_table, section, short_text

__all__ = ["annotate_hits", "port_table", "section", "short_text"]
