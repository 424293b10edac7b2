"""Benchmark harness logic: task loading, metrics, report (stdlib only, importable inside KLayout),
plus the engine-side worker (``python -m pic_copilot.bench.worker``) and the ``bench`` CLI command.

The KLayout-side driver is ``benchmark/bench.py``; the task format is documented in
``benchmark/README.md``.
"""
