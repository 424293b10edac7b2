"""Checks of a script and of what it produced.

- :mod:`.static`: evidence gathered without running it (syntax, pyflakes, API names, the check library);
- :mod:`.output_contract`: what a script must have produced, checked against its execution report.
"""
