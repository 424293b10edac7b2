"""The agents: task planner, per-domain script generators, synthesizer and evaluator.

Entry point: :func:`run_request` (see pipeline.py for the configurations); per-request memory is a
:class:`pic_copilot.contracts.SessionStore` its caller owns.
"""
from __future__ import annotations

from .pipeline import CONFIGS, run_request

__all__ = ["run_request", "CONFIGS"]
