"""The one exception type of the retrieval package.

Every problem a user can cause or fix (empty query, unknown database, missing or corrupt
database files, wrong embedding model, tool version drift) is raised as a
:class:`RetrievalError` whose message says what is wrong and which command fixes it. The
CLI prints the message and exits with code 2; it never shows a traceback for these.
:func:`read_json_file` reads the user-editable JSON files of a database folder that way.
"""
from __future__ import annotations

import json
from pathlib import Path


class RetrievalError(RuntimeError):
    """A retrieval problem with a message meant for the user (includes the fixing command)."""

    def __init__(self, message: str, *, suggestions: list[str] | None = None):
        super().__init__(message)
        self.suggestions = list(suggestions or [])


def read_json_file(path: Path, fix: str):
    """The parsed content of a JSON file, or None when the file does not exist.

    Args:
        path: the file, e.g. ``databases/<db>/review.json``.
        fix: what the user should do when the file is not valid JSON, e.g. "fix or delete it".

    Raises:
        RetrievalError: the file is not valid JSON; the message names the file, the error and ``fix``.
    """
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise RetrievalError(f"{path} is not valid JSON ({e}); {fix}") from e
