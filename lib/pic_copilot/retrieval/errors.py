"""The one exception type of the retrieval package.

Every problem a user can cause or fix (empty query, unknown database, missing or corrupt
database files, wrong embedding model, tool version drift) is raised as a
:class:`RetrievalError` whose message says what is wrong and which command fixes it. The
CLI prints the message and exits with code 2; it never shows a traceback for these.
"""
from __future__ import annotations


class RetrievalError(RuntimeError):
    """A retrieval problem with a message meant for the user (includes the fixing command)."""

    def __init__(self, message: str, *, suggestions: list[str] | None = None):
        super().__init__(message)
        self.suggestions = list(suggestions or [])
