"""The agents: task planner, per-domain script generators, synthesizer and evaluator.

Entry point: :func:`run_request` (see pipeline.py for the configurations).
"""
from __future__ import annotations

from .pipeline import CONFIGS, forget, run_request

__all__ = ["run_request", "forget", "CONFIGS"]
