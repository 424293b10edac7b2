"""Glue between the engine process, the bridge and a view (the panel, or the headless runner).

The controller owns the engine process, answers its ``exec`` messages by running scripts on
the open layout through the bridge, and forwards every other event to ``on_event``.
"""
from __future__ import annotations

import itertools

import pya

from . import bridge
from .engine_process import EngineProcess
from .session_macro import SessionLog

CANCEL_GRACE_MS = 600   # a job the engine has not confirmed cancelled by then is stopped by stopping the engine
SETTINGS_TIMEOUT_MS = 30000   # a settings question the engine has not answered by then fails (it may be starting on a busy machine)

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
        self.current_id: str | None = None     # the last request (feedback continues it)
        self.active_id: str | None = None      # the job running now: request, sandbox run or explanation
        self.active_kind: str | None = None
        self.finished = False
        self.last_result: dict | None = None
        self.last_exec: dict | None = None
        self.undo_available = False
        self.engine_info: dict | None = None   # the engine's "ready" message
        self.session_log = SessionLog()        # the copilot's changes still on the layout ("Save session as macro")
        self._cancel_timer = None
        self._settings_waiting: dict = {}       # settings message id -> (on_answer, its timeout QTimer)

    @property
    def busy(self) -> bool:
        return self.active_id is not None and not self.finished

    # -- requests
    def layout_context(self) -> dict | None:
        """The compact description of the open layout sent with a request (None if none is open)."""
        session = self.session_provider()
        return bridge.layout_summary(session) if session is not None else None

    def _begin(self, kind: str, prefix: str) -> str:
        if self.busy:
            raise RuntimeError("the copilot is still working on the last job; press Stop first")
        self.engine.start()
        jid = f"{prefix}{next(_ids)}"
        self.active_id, self.active_kind, self.finished = jid, kind, False
        return jid

    def send_request(self, prompt: str, mode: str = "interactive", config: str | None = None,
                     max_rounds: int | None = None, previous_script: str | None = None,
                     feedback: list[str] | None = None) -> str:
        """Start a request; returns its id. Raises RuntimeError if the engine cannot start.

        ``previous_script`` + ``feedback`` make it a revision of an existing script (fix a macro).
        """
        context = self.layout_context()
        rid = self._begin("request", "r")
        msg = {"type": "request", "id": rid, "prompt": prompt, "mode": mode, "context": context}
        if config:
            msg["config"] = config
        if max_rounds:
            msg["max_rounds"] = max_rounds
        if previous_script:
            msg["previous_script"] = previous_script
            msg["feedback"] = list(feedback or [])
        self.current_id = rid
        self.session_log.note_request(rid, prompt)
        self._send(msg)
        return rid

    def send_feedback(self, text: str) -> None:
        """Continue the last request with the designer's correction."""
        if self.current_id is None:
            raise RuntimeError("there is no earlier request to give feedback on")
        if self.busy:
            raise RuntimeError("the copilot is still working; wait for the result or press Stop")
        self.engine.start()
        self.active_id, self.active_kind, self.finished = self.current_id, "request", False
        self.session_log.note_feedback(self.current_id, text)
        self._send({"type": "feedback", "id": self.current_id, "text": text})

    def run_in_sandbox(self, code: str) -> str:
        """Run a script in the engine's sandbox (no LLM); the answer is a ``run_result``."""
        jid = self._begin("run", "s")
        self._send({"type": "run", "id": jid, "code": code})
        return jid

    def explain(self, code: str, name: str = "", question: str = "") -> str:
        """Ask for a plain-language explanation of a script; the answer is an ``explanation``."""
        jid = self._begin("explain", "e")
        self._send({"type": "explain", "id": jid, "code": code, "name": name, "question": question})
        return jid

    def fix(self, code: str, name: str = "", complaint: str = "", mode: str = "interactive",
            config: str | None = None) -> str:
        """Ask the engine to fix a script (it runs it first, then revises it); the answer is a ``fix_result``."""
        context = self.layout_context() if mode == "interactive" else None
        jid = self._begin("fix", "f")
        msg = {"type": "fix", "id": jid, "code": code, "name": name, "complaint": complaint, "mode": mode,
               "context": context}
        if config:
            msg["config"] = config
        self.session_log.note_request(jid, f"fix the macro {name}" + (f": {complaint}" if complaint else ""))
        self._send(msg)
        return jid

    def _send(self, msg: dict) -> None:
        try:
            self.engine.send(msg)
        except RuntimeError:
            self.finished = True
            raise

    def cancel(self) -> bool:
        """Stop the running job. The engine answers with a ``cancelled`` error at once; if it has not
        within CANCEL_GRACE_MS (it hangs), it is stopped and the job reported cancelled anyway."""
        if self.busy and self.engine.running():
            jid = self.active_id
            self.engine.send({"type": "cancel", "id": jid})
            t = pya.QTimer()
            t.singleShot = True
            t.interval = CANCEL_GRACE_MS
            t.timeout = lambda: self._cancel_overdue(jid)
            t.start()
            self._cancel_timer = t
            return True
        return False

    def _cancel_overdue(self, jid: str) -> None:
        try:
            if self.busy and self.active_id == jid:
                self._fail_settings("the engine was stopped before it answered")
                self.engine.kill()
                self._on_message({"type": "error", "id": jid, "kind": "cancelled",
                                  "message": "cancelled (the engine did not answer, so it was stopped; it restarts "
                                             "with the next request)"})
        except Exception:  # noqa: BLE001 - a timer handler must never raise
            pass

    # -- the settings dialog's questions (answered by the engine; never read from its files here)
    def settings(self, action: str, on_answer, values: dict | None = None, api_key: str | None = None) -> str:
        """Ask the engine for the settings dialog's content (``get``) or have it save them (``save``).

        Works while a job runs (the engine answers at once). ``on_answer(msg)`` is called once, on the
        main thread, with the ``settings_result``, or with a failed one (``ok`` false, ``message``) when
        the engine refused the message, stopped, or did not answer within SETTINGS_TIMEOUT_MS.

        Args:
            action: "get" or "save".
            on_answer: called with the answer.
            values: the dialog's values (save).
            api_key: a new key to store (save); "" removes the stored key; None keeps it.

        Raises:
            RuntimeError: the engine cannot start (nothing was sent; the message says why).
        """
        self.engine.start()
        sid = f"c{next(_ids)}"
        msg = {"type": "settings", "id": sid, "action": action}
        if values is not None:
            msg["values"] = values
        if api_key is not None:
            msg["api_key"] = api_key
        t = pya.QTimer()
        t.singleShot = True
        t.interval = SETTINGS_TIMEOUT_MS
        t.timeout = lambda: self._settings_answer(sid, {
            "ok": False, "message": f"the engine did not answer within {SETTINGS_TIMEOUT_MS // 1000} s; "
                                    f"see {self.engine.stderr_log}"})
        self._settings_waiting[sid] = (on_answer, t)
        try:
            self.engine.send(msg)
        except RuntimeError:
            self._settings_waiting.pop(sid, None)
            raise
        t.start()
        return sid

    def _settings_answer(self, sid: str, msg: dict) -> None:
        """Hand a settings answer to whoever asked (once); never raises (it runs in Qt signal handlers)."""
        waiting = self._settings_waiting.pop(sid, None)
        if waiting is None:
            return
        on_answer, timer = waiting
        try:
            timer.stop()
            on_answer({"type": "settings_result", "id": sid, **msg})
        except Exception:  # noqa: BLE001 - the dialog shows its own errors
            pass

    def _fail_settings(self, reason: str) -> None:
        for sid in list(self._settings_waiting):
            self._settings_answer(sid, {"ok": False, "message": reason})

    def restart_engine(self) -> None:
        """Stop the engine (if it runs) and start a fresh one (e.g. after new settings)."""
        self._fail_settings("the engine was restarted before it answered")
        self.engine.stop()
        self.finished = True
        self.engine_info = None
        self.engine.start()

    def note_layout_change(self, result: dict) -> None:
        """Remember a successful, undoable change of the open layout (for Undo last run)."""
        if result.get("ok") and result.get("undoable") and (result.get("changes") or {}).get("changed"):
            self.undo_available = True
            self.last_cells_added = list((result.get("changes") or {}).get("cells_added") or [])

    def undo_last_run(self) -> bool:
        """Undo the last change the copilot made to the layout (one transaction).

        Cells the run created are removed too when the undo left them behind (KLayout 0.28.5
        does not always undo cell creation), so the layout is as before.
        """
        session = self.session_provider()
        self.last_undo_message = "there is nothing of the copilot's to undo"
        if session is None or not self.undo_available:
            return False
        # the bridge's undo action: only the copilot's own transaction, a change the designer made since is left alone
        res = bridge.dispatch(session, "undo", {})
        self.last_undo_message = res.get("message", "")
        if not res.get("ok"):
            return False
        self.undo_available = False
        self.session_log.undone()
        ly = session.layout
        for name in getattr(self, "last_cells_added", []):
            c = ly.cell(name)
            if c is not None and c.is_top():
                ly.delete_cell_rec(c.cell_index())  # an orphan the undo left behind
        self.last_cells_added = []
        session.refresh()
        return True

    def shutdown(self, stop_llm: bool = False) -> None:
        self._fail_settings("the engine was shut down before it answered")
        self.engine.stop(stop_llm=stop_llm)

    # -- engine messages
    def _on_message(self, msg: dict) -> None:
        t = msg.get("type")
        if t == "exec":
            self._exec(msg)
            return
        if t == "settings_result" or (t == "error" and msg.get("id") in self._settings_waiting):
            self._settings_answer(str(msg.get("id")), msg if t == "settings_result" else
                                  {"ok": False, "message": str(msg.get("message") or "the engine refused it")})
            return
        if t == "ready":
            self.engine_info = msg
        if t in ("result", "fix_result"):
            self.session_log.verdict(str(msg.get("id")), bool(msg.get("ok")), msg.get("script") or "")
        if t in ("result", "error", "run_result", "explanation", "fix_result") and msg.get("id") == self.active_id:
            self.finished = True
            self.last_result = msg
        elif t == "error" and msg.get("id") is None and self.busy:
            self.finished = True   # the engine could not take the job (e.g. a bad configuration)
            self.last_result = msg
        self.on_event(msg)

    def apply(self, action: str, payload: dict, request_id: str = "", texts: list[str] | None = None) -> dict:
        """Run one bridge action on the open layout (run_code, insert_files, undo, run_deck), record it in the session
        log and return the bridge result. Never raises (a bridge bug must not kill KLayout's event loop)."""
        session = self.session_provider()
        if session is None:
            return {"ok": False, "exception": {"type": "NoLayout", "traceback": "",
                                               "message": "no layout is open in KLayout: open or create one first"}}
        selection = []
        try:
            if action == "run_code":
                selection = session.selection()   # what the script saw, for the session macro's replay
            result = bridge.dispatch(session, action, payload)
        except Exception as e:  # noqa: BLE001
            result = {"ok": False, "exception": {"type": type(e).__name__, "message": str(e), "traceback": ""}}
        if action == "copy_layout":   # read only: nothing to record, show or zoom
            return result
        try:
            self.session_log.record(action, payload, result, request_id=request_id, layout=session.layout,
                                    selection=selection, texts=texts)
        except Exception as e:  # noqa: BLE001 - the log must not lose the result
            result.setdefault("note", f"not recorded for the session macro: {type(e).__name__}: {e}")
        if action != "undo":
            self.note_layout_change(result)
        if session.view is not None and action != "run_deck":   # a deck's markers keep the view
            session.view.zoom_fit()   # (new layers were added inside the bridge's transaction)
        return result

    def _exec(self, msg: dict) -> None:
        """Answer the engine's ``exec`` (job ``id``, call ``exec_id``) with the bridge result."""
        action = msg.get("action") or "run_code"
        result = self.apply(action, msg, request_id=str(msg.get("id") or ""))
        self.last_exec = result
        self.on_event({"type": "exec_done", "id": msg.get("id"), "exec_id": msg.get("exec_id"), "action": action,
                       "result": result})
        if self.engine.running():
            self.engine.send(bridge.exec_result(msg, result))

    def _on_exit(self, code, reason: str) -> None:
        self._fail_settings(reason)
        self.finished = True
        self.engine_info = None
        self.on_event({"type": "engine_died", "id": self.active_id, "message": reason})
