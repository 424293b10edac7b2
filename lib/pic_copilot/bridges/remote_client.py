"""Reach a running KLayout's remote endpoint (klayout_plugin/pic_copilot_plugin/remote.py).

The designer switches the endpoint on in the pic-copilot panel; KLayout then listens on
127.0.0.1 and writes ``<data home>/remote.json`` (port, token, pid; mode 0600). This module
reads that file and talks to the endpoint (HTTP/1.1 + JSON, ``Authorization: Bearer <token>``).

:class:`RemoteBridge` implements the engine's Bridge protocol (``run_code``, ``insert_files``),
so ``execution.routing.execute(code, "interactive", RemoteBridge())`` runs a script on the open
layout, or runs a gdsfactory script in the sandbox and inserts what it wrote.
See docs/MCP.md.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import httpx

from ..config import data_home

DISCOVERY_NAME = "remote.json"
ALLOWED_HOSTS = ("127.0.0.1",)
PANEL_SWITCH = "Allow external agents (MCP) to act on this layout"
HOW_TO_ENABLE = (f"in KLayout's pic-copilot panel, tick '{PANEL_SWITCH}' "
                 "(off by default; it listens on 127.0.0.1 only)")
AGAIN = f"untick and tick '{PANEL_SWITCH}' again in KLayout's pic-copilot panel"


class RemoteError(RuntimeError):
    """Talking to KLayout failed; the message says why and what to do."""


class RemoteUnavailable(RemoteError):
    """No running KLayout offers the endpoint (not started, switched off, or closed)."""


def discovery_path() -> Path:
    """Where a running endpoint announces itself."""
    return data_home() / DISCOVERY_NAME


@dataclass(frozen=True)
class RemoteInfo:
    """A discovered endpoint (the token is never shown in repr)."""

    host: str
    port: int
    token: str
    pid: int | None = None
    path: str = ""

    def __repr__(self) -> str:
        return f"RemoteInfo(host={self.host!r}, port={self.port}, pid={self.pid}, token=***)"

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"


def _pid_alive(pid: int | None) -> bool:
    if not pid:
        return True  # cannot tell: let the connection decide
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError, OverflowError):
        return True
    return True


def discover(path: Path | None = None) -> RemoteInfo:
    """Read the discovery file.

    Raises:
        RemoteUnavailable: no file (endpoint off), a stale file (KLayout gone), or a file that
            points anywhere but 127.0.0.1.
    """
    p = Path(path) if path else discovery_path()
    try:
        info = json.loads(p.read_text())
    except FileNotFoundError:
        raise RemoteUnavailable(f"no running KLayout accepts outside requests (no {p}): {HOW_TO_ENABLE}") from None
    except (OSError, ValueError) as e:
        raise RemoteUnavailable(f"cannot read the KLayout discovery file {p}: {e}; {AGAIN}") from None
    if not isinstance(info, dict) or not isinstance(info.get("port"), int) or not info.get("token"):
        raise RemoteUnavailable(f"the KLayout discovery file {p} is incomplete; {AGAIN}")
    host = info.get("host", "127.0.0.1")
    if host not in ALLOWED_HOSTS:
        raise RemoteUnavailable(f"the KLayout discovery file {p} points at {host!r}; only 127.0.0.1 is accepted")
    if not _pid_alive(info.get("pid")):
        raise RemoteUnavailable(f"the KLayout that wrote {p} (pid {info.get('pid')}) is no longer running; "
                                f"start KLayout, then {HOW_TO_ENABLE}")
    return RemoteInfo(host=host, port=int(info["port"]), token=str(info["token"]), pid=info.get("pid"), path=str(p))


class RemoteBridge:
    """The Bridge protocol over KLayout's remote endpoint.

    Args:
        info: the endpoint (default: :func:`discover` now).
        timeout_s: how long one script may take in KLayout (the layout is blocked meanwhile).
    """

    def __init__(self, info: RemoteInfo | None = None, timeout_s: float = 600.0):
        self.info = info or discover()
        self.timeout_s = timeout_s
        # trust_env=False: a proxy from the environment must never see the token or the code
        self._client = httpx.Client(base_url=self.info.base_url, trust_env=False,
                                    headers={"Authorization": f"Bearer {self.info.token}"},
                                    timeout=httpx.Timeout(timeout_s, connect=5.0))

    def _call(self, method: str, path: str, body: dict | None = None) -> dict:
        where = f"{self.info.host}:{self.info.port}"
        try:
            r = self._client.request(method, path, json=body)
        except httpx.ConnectError:
            raise RemoteUnavailable(f"KLayout does not answer at {where} (closed, or external agents were "
                                    f"switched off): {HOW_TO_ENABLE}") from None
        except httpx.TimeoutException:
            raise RemoteError(f"KLayout did not answer within {self.timeout_s:.0f} s ({path})") from None
        except httpx.HTTPError as e:
            raise RemoteError(f"talking to KLayout at {where} failed: {type(e).__name__}: {e}") from None
        try:
            data = r.json()
        except ValueError:
            raise RemoteError(f"KLayout at {where} answered {r.status_code} with a body that is not JSON") from None
        if r.status_code == 401:
            raise RemoteUnavailable(f"KLayout at {where} refused the token (the discovery file is stale); {AGAIN}")
        if r.status_code != 200:
            raise RemoteError(f"KLayout refused the request ({r.status_code}): {data.get('error', data)}")
        return data

    def status(self) -> dict:
        """The endpoint's status: KLayout version, the open layout's summary (or None)."""
        return self._call("GET", "/v1/status")

    def run_code(self, code: str) -> dict:
        """Run a pya script on the open layout (one undoable transaction); the bridge result."""
        return self._call("POST", "/v1/run_code", {"code": code})

    def insert_files(self, paths: list[str]) -> dict:
        """Insert GDS/OAS files under the active cell (one undoable transaction); the bridge result."""
        return self._call("POST", "/v1/insert_files", {"paths": [str(Path(p).resolve()) for p in paths]})

    def undo(self) -> dict:
        """Undo the copilot's last change on the open layout (never a change the designer made)."""
        return self._call("POST", "/v1/undo", {})

    def run_deck(self, deck: str, report: str, deck_file: str) -> dict:
        """Run a KLayout DRC deck on the open layout's active cell; the report opens in the marker browser."""
        return self._call("POST", "/v1/run_deck", {"deck": deck, "report": report, "deck_file": deck_file})

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> "RemoteBridge":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
