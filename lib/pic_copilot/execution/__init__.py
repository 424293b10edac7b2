"""Running a generated script: where it runs and what it produced.

- :mod:`.routing`: decide where a script runs (KLayout through a bridge, or the sandbox) and run it;
- :mod:`.report`: what a run produced (:class:`.report.ExecutionReport`) and its summaries;
- :mod:`.drc_deck`: KLayout DRC decks (recognise, wrap as ``.lydrc``, run, summarise their reports);
- :mod:`.render`: thumbnails and KLayout-readable copies of the layouts a sandbox run wrote.

The sandbox itself is :mod:`pic_copilot.sandbox`; the bridges to KLayout are :mod:`pic_copilot.bridges`.
"""
