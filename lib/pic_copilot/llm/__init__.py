"""LLM access: the httpx client, its error types, usage records and the embedded local server."""
from __future__ import annotations

from dataclasses import replace

from ..config import Settings, load_settings
from .client import ChatResult, LLMClient
from .errors import (
    LLMAuthError, LLMCancelled, LLMConnectionError, LLMError, LLMProtocolError, LLMRateLimitError,
    LLMRequestError, LLMServerError, LLMStreamError, LLMStructuredOutputError, LLMTimeoutError,
)
from .usage import UsageRecorder

__all__ = [
    "ChatResult", "LLMClient", "UsageRecorder", "make_client", "resolve_endpoint",
    "LLMError", "LLMAuthError", "LLMCancelled", "LLMConnectionError", "LLMProtocolError", "LLMRateLimitError",
    "LLMRequestError", "LLMServerError", "LLMStreamError", "LLMStructuredOutputError", "LLMTimeoutError",
]


def resolve_endpoint(settings: Settings) -> Settings:
    """Fill in the base URL of the embedded server (starting it if needed) for provider "local"."""
    if settings.provider != "local" or settings.base_url:
        return settings
    from . import local_server

    info = local_server.start()
    return replace(settings, base_url=info.base_url)


def make_client(settings: Settings | None = None, usage: UsageRecorder | None = None) -> LLMClient:
    """A client for the configured endpoint; with nothing configured, the embedded local model
    (started on demand, and started again if it is stopped while the client lives)."""
    s = resolve_endpoint(settings or load_settings())
    return LLMClient(s, usage=usage, reconnect=_restart_local_server if s.provider == "local" else None)


def _restart_local_server() -> str:
    from . import local_server

    return local_server.start().base_url
