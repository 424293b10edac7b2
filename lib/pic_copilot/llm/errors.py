"""One exception type per way an LLM call can fail, so callers and the panel can say what happened."""
from __future__ import annotations


class LLMError(RuntimeError):
    """Base class. ``kind`` names the failure for callers and the panel; ``retryable`` says whether
    the client may try the call again.

    A subclass states both in its header, ``class LLMXError(LLMError, kind="x", retryable=True)``;
    what it leaves out it inherits.
    """

    retryable = False
    kind = "llm-error"

    def __init_subclass__(cls, *, kind: str | None = None, retryable: bool | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if kind is not None:
            cls.kind = kind
        if retryable is not None:
            cls.retryable = retryable

    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.status = status


class LLMConnectionError(LLMError, kind="connection", retryable=True):
    """The endpoint could not be reached (refused, DNS, reset before any answer)."""


class LLMTimeoutError(LLMError, kind="timeout", retryable=True):
    """The endpoint did not answer (or stopped streaming) within the timeout."""


class LLMRateLimitError(LLMError, kind="rate-limit", retryable=True):
    """HTTP 429. ``retry_after`` is the delay the server asked for, in seconds."""

    def __init__(self, message: str, *, retry_after: float | None = None, status: int | None = 429):
        super().__init__(message, status=status)
        self.retry_after = retry_after


class LLMServerError(LLMError, kind="server", retryable=True):
    """HTTP 5xx from the endpoint."""


class LLMStreamError(LLMError, kind="stream", retryable=True):
    """The streamed answer ended before the server said it was complete."""


class LLMProtocolError(LLMError, kind="protocol", retryable=False):
    """The endpoint answered with something that is not the expected protocol (invalid JSON...)."""


class LLMAuthError(LLMError, kind="auth"):
    """HTTP 401/403: the API key is missing or wrong."""


class LLMRequestError(LLMError, kind="request"):
    """HTTP 4xx other than 401/403/429: the request was rejected (unknown model, bad parameters)."""


class LLMCancelled(LLMError, kind="cancelled"):
    """The caller cancelled the request."""


class LLMStructuredOutputError(LLMError, kind="structured-output"):
    """The model's answer is not valid JSON for the requested schema, even after one repair attempt."""
