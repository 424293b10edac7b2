"""Glue between the engine process, the bridge and a view (the panel, or the headless runner).

The controller owns the engine process, answers its ``exec`` messages by running scripts on
the open layout through the bridge, and forwards every other event to ``on_event``.
"""
from __future__ import annotations

import itertools

from . import bridge
from .engine_process import EngineProcess

_ids = itertools.count(1)


class Controller:
    """One designer's conversation with the copilot.

    Args:
        session_provider: returns the bridge Session to run on (the GUI's current layout,
            or a fixed headless session), or None when no layout is open.
        on_event: called with every engine message and with local events
            ({"type": "exec_done", ...}, {"type": "engine_died", "message": ...}).
    """

    def __init__(self, session_provider, on_event):
        self.session_provider = session_provider
        self.on_event = on_event
        self.engine = EngineProcess(self._on_message, self._on_exit)
        self.current_id: str | None = None
        self.finished = False
        self.last_result: dict | None = None
        self.last_exec: dict | None = None
        self.undo_available = False

    # -- requests
    def send_request(self, prompt: str, mode: str = "interactive", config: str | None = None,
                     max_rounds: int | None = None) -> str:
        """Start a request; returns its id. Raises RuntimeError if the engine cannot start."""
        self.engine.start()
        rid = f"r{next(_ids)}"
        session = self.session_provider()
        context = bridge.layout_summary(session) if session is not None else None
        msg = {"type": "request", "id": rid, "prompt": prompt, "mode": mode, "context": context}
        if config:
            msg["config"] = config
        if max_rounds:
            msg["max_rounds"] = max_rounds
        self.current_id = rid
        self.finished = False
        self.engine.send(msg)
        return rid

    def send_feedback(self, text: str) -> None:
        """Continue the last request with the designer's correction."""
        if self.current_id is None:
            raise RuntimeError("there is no earlier request to give feedback on")
        self.finished = False
        self.engine.send({"type": "feedback", "id": self.current_id, "text": text})

    def cancel(self) -> None:
        if self.current_id is not None and self.engine.running():
            self.engine.send({"type": "cancel", "id": self.current_id})

    def undo_last_run(self) -> bool:
        """Undo the last change the copilot made to the layout (one transaction)."""
        session = self.session_provider()
        if session is None or not self.undo_available:
            return False
        self.undo_available = False
        return session.undo()

    def shutdown(self, stop_llm: bool = False) -> None:
        self.engine.stop(stop_llm=stop_llm)

    # -- engine messages
    def _on_message(self, msg: dict) -> None:
        t = msg.get("type")
        if t == "exec":
            self._exec(msg)
            return
        if t in ("result", "error") and msg.get("id") == self.current_id:
            self.finished = True
            self.last_result = msg
        self.on_event(msg)

    def _exec(self, msg: dict) -> None:
        session = self.session_provider()
        if session is None:
            result = {"ok": False, "exception": {"type": "NoLayout", "traceback": "",
                                                 "message": "no layout is open in KLayout: open or create one first"}}
        else:
            try:
                if msg.get("action") == "insert_files":
                    result = bridge.insert_layout_files(session, list(msg.get("paths") or []))
                else:
                    result = bridge.execute(session, msg.get("code", ""))
            except Exception as e:  # noqa: BLE001 - never let a bridge bug kill KLayout's event loop
                result = {"ok": False, "exception": {"type": type(e).__name__, "message": str(e), "traceback": ""}}
            if result.get("ok") and result.get("undoable") and (result.get("changes") or {}).get("changed"):
                self.undo_available = True
            if session.view is not None:
                session.view.add_missing_layers()
                session.view.zoom_fit()
        self.last_exec = result
        self.on_event({"type": "exec_done", "id": msg.get("id"), "request": msg.get("request"), "result": result})
        if self.engine.running():
            self.engine.send({"type": "exec_result", "id": msg.get("id"), "result": result})

    def _on_exit(self, code, reason: str) -> None:
        self.finished = True
        self.on_event({"type": "engine_died", "id": self.current_id, "message": reason})
