"""Run records: one JSON file per request in the history folder, rewritten after every step.

The folder is ``data_home()/"history"`` unless ``PIC_COPILOT_HISTORY`` names another one.
Each write goes to a temporary file that is then renamed over the record, so a crash (KLayout
dying, the engine being killed) leaves the last complete state on disk. The API key is never
written: settings go through :meth:`Settings.public_dict`, and every string is scrubbed of the
key before writing, in case it leaked into an error message.
"""
from __future__ import annotations

import json
import os
import re
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from .config import Settings, data_home
from .redact import known_secrets, scrub


def history_dir() -> Path:
    """The folder that holds the run records."""
    return Path(os.environ.get("PIC_COPILOT_HISTORY") or data_home() / "history")


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:60] or "request"


class RunRecord:
    """The record of one request, written incrementally.

    Args:
        request_id: the driver's id for the request.
        prompt: the request text.
        settings: effective settings (only their public part is stored).
        meta: extra fields (mode, config, feedback...).
    """

    def __init__(self, request_id: str, prompt: str, settings: Settings | None = None, meta: dict | None = None,
                 folder: Path | None = None):
        self._secret = settings.api_key if settings is not None else ""
        self._lock = threading.Lock()
        self.t0 = time.monotonic()
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S_%f")
        self.folder = Path(folder) if folder else history_dir()
        self.path = self.folder / f"{stamp}_{_safe_name(request_id)}.json"
        self.data: dict = {
            "id": request_id,
            "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "prompt": prompt,
            "settings": settings.public_dict() if settings is not None else {},
            **(meta or {}),
            "status": "running",
            "plan": None,
            "queries": [],
            "retrieved": [],
            "rounds": [],
            "events": [],
            "stage_time_s": {},
            "final_script": None,
        }
        self.write()

    # -- mutation helpers (each one persists)
    def set(self, key: str, value) -> None:
        with self._lock:
            self.data[key] = value
        self.write()

    def append(self, key: str, value) -> None:
        with self._lock:
            self.data.setdefault(key, []).append(value)
        self.write()

    def event(self, stage: str, message: str, data=None) -> None:
        with self._lock:
            self.data["events"].append({"t": round(time.monotonic() - self.t0, 3), "stage": stage,
                                        "message": message, **({"data": data} if data is not None else {})})
        self.write()

    def add_time(self, stage: str, seconds: float) -> None:
        with self._lock:
            st = self.data["stage_time_s"]
            st[stage] = round(st.get(stage, 0.0) + seconds, 3)

    def finish(self, status: str, **fields) -> None:
        with self._lock:
            self.data.update(fields)
            self.data["status"] = status
            self.data["duration_s"] = round(time.monotonic() - self.t0, 3)
        self.write()

    # -- persistence
    def _scrub(self, text: str) -> str:
        return scrub(text, known_secrets(extra=[self._secret] if self._secret else []))

    def write(self) -> None:
        """Persist the record atomically; never raises (a full disk must not break the request)."""
        try:
            with self._lock:
                text = json.dumps(self.data, indent=1, default=str)
            text = self._scrub(text)
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".json.tmp")
            tmp.write_text(text)
            os.replace(tmp, self.path)
        except OSError:
            pass
