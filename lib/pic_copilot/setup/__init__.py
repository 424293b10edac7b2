"""Set-up (run by ``scripts/setup.sh``): :mod:`.assets` fetches and verifies the model files,
:mod:`.runtime` builds and verifies the embedded LLM runtime. stdlib only (the runtime stage
runs with the system's python3 before the engine venv exists).
"""
from __future__ import annotations

import functools
import sys
from typing import Callable


def stage_main(error: type[Exception]) -> Callable:
    """Decorate a set-up stage's ``main(argv) -> int`` so that ``error`` ends it the way
    scripts/setup.sh reports a failed stage: ``ERROR: <message>`` on stderr and exit code 2.

    Args:
        error: the stage's own exception type (its message says what to fix).
    """
    def wrap(main: Callable[..., int]) -> Callable[..., int]:
        @functools.wraps(main)
        def run(argv: list[str] | None = None) -> int:
            try:
                return main(argv)
            except error as e:
                print(f"\nERROR: {e}", file=sys.stderr)
                return 2
        return run
    return wrap
