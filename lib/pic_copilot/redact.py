"""The one place where API keys are masked out of text before it leaves the process.

Every error text, log line, protocol message, history record, CLI output and MCP answer goes
through :func:`scrub` (the engine's stdout channel and stderr, ``pic-copilot`` stdout/stderr,
the MCP server's answers, :class:`pic_copilot.history.RunRecord`, the LLM client's error
messages). An endpoint may echo the request's ``Authorization`` header in an error body, so
the text of an error is never trusted to be key-free.
"""
from __future__ import annotations

import os

MASK = "***"
KEY_ENV_VARS = ("PIC_COPILOT_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY")


def known_secrets(settings=None, extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """API keys this process knows: the environment, the credentials file, ``settings.api_key``
    and ``extra``; longest first, so a key that contains another is masked whole.

    Args:
        settings: a :class:`pic_copilot.config.Settings` (or None).
        extra: more secrets to mask.
    """
    from .config import read_api_key_file

    keys = {os.environ.get(v, "") for v in KEY_ENV_VARS}
    try:
        keys.add(read_api_key_file())
    except Exception:  # noqa: BLE001 - an unreadable credentials file holds nothing to mask
        pass
    if settings is not None:
        keys.add(getattr(settings, "api_key", "") or "")
    keys.update(extra)
    return sorted((k for k in keys if k and len(k) >= 4), key=len, reverse=True)


def scrub(text: str, secrets: list[str] | None = None) -> str:
    """``text`` with every secret replaced by ``***``.

    Args:
        text: any text bound for a log, a record, stdout/stderr, the panel or MCP.
        secrets: the keys to mask; None = :func:`known_secrets`.
    """
    if not isinstance(text, str):
        text = str(text)
    for k in (known_secrets() if secrets is None else secrets):
        if k and k in text:
            text = text.replace(k, MASK)
    return text


class ScrubbingStream:
    """A text stream wrapper that masks secrets in everything written to it (stdout/stderr).

    Args:
        stream: the wrapped stream.
        secrets: the keys to mask (a list that may be extended later); None = known_secrets()
            at construction.
    """

    def __init__(self, stream, secrets: list[str] | None = None):
        self._stream = stream
        self.secrets = known_secrets() if secrets is None else secrets

    def write(self, text):
        return self._stream.write(scrub(text, self.secrets))

    def flush(self):
        self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def scrub_streams(settings=None) -> list[str]:
    """Wrap ``sys.stdout`` and ``sys.stderr`` (once) so nothing printed shows a key; returns
    the list of masked secrets (extend it when a key becomes known later)."""
    import sys

    secrets = known_secrets(settings)
    for name in ("stdout", "stderr"):
        cur = getattr(sys, name)
        if isinstance(cur, ScrubbingStream):
            for k in secrets:
                if k not in cur.secrets:
                    cur.secrets.append(k)
            cur.secrets.sort(key=len, reverse=True)
        else:
            setattr(sys, name, ScrubbingStream(cur, list(secrets)))
    return secrets


def scrub_obj(obj, secrets: list[str] | None = None):
    """A copy of a JSON-like value (dicts, lists, strings) with every string scrubbed."""
    secrets = known_secrets() if secrets is None else secrets
    if isinstance(obj, str):
        return scrub(obj, secrets)
    if isinstance(obj, dict):
        return {scrub_obj(k, secrets) if isinstance(k, str) else k: scrub_obj(v, secrets) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(scrub_obj(v, secrets) for v in obj)
    return obj
