"""One exception type per way an LLM call can fail, so callers and the panel can say what happened."""
from __future__ import annotations


class LLMError(RuntimeError):
    """Base class. ``retryable`` says whether the client may try the call again."""

    retryable = False
    kind = "llm-error"

    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.status = status


class LLMConnectionError(LLMError):
    """The endpoint could not be reached (refused, DNS, reset before any answer)."""

    retryable = True
    kind = "connection"


class LLMTimeoutError(LLMError):
    """The endpoint did not answer (or stopped streaming) within the timeout."""

    retryable = True
    kind = "timeout"


class LLMRateLimitError(LLMError):
    """HTTP 429. ``retry_after`` is the delay the server asked for, in seconds."""

    retryable = True
    kind = "rate-limit"

    def __init__(self, message: str, *, retry_after: float | None = None, status: int | None = 429):
        super().__init__(message, status=status)
        self.retry_after = retry_after


class LLMServerError(LLMError):
    """HTTP 5xx from the endpoint."""

    retryable = True
    kind = "server"


class LLMStreamError(LLMError):
    """The streamed answer ended before the server said it was complete."""

    retryable = True
    kind = "stream"


class LLMProtocolError(LLMError):
    """The endpoint answered with something that is not the expected protocol (invalid JSON...)."""

    retryable = False
    kind = "protocol"


class LLMAuthError(LLMError):
    """HTTP 401/403: the API key is missing or wrong."""

    kind = "auth"


class LLMRequestError(LLMError):
    """HTTP 4xx other than 401/403/429: the request was rejected (unknown model, bad parameters)."""

    kind = "request"


class LLMCancelled(LLMError):
    """The caller cancelled the request."""

    kind = "cancelled"


class LLMStructuredOutputError(LLMError):
    """The model's answer is not valid JSON for the requested schema, even after one repair attempt."""

    kind = "structured-output"
