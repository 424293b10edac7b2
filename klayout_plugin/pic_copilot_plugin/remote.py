"""A local endpoint that lets outside tools (the MCP server, the command line) act on the open layout.

Off by default. When the designer switches it on in the panel, KLayout listens on 127.0.0.1 only,
on the port set by ``PIC_COPILOT_ENDPOINT_PORT`` / ``endpoint_port`` in the config file / the settings
dialog, or by default on a free port the system picks (never one of the peers' 8765-8799 and 8082), and accepts a request only if it carries this session's random token
(``secrets.token_urlsafe``, compared in constant time). The port and token are written to a
discovery file (``<PIC_COPILOT_HOME or ~/.local/share/pic-copilot>/remote.json``, mode 0600) that
is removed again when the endpoint stops. Each action runs through ``bridge.dispatch`` on the open
layout, in one undoable transaction, exactly like the panel's own scripts.

Protocol (HTTP/1.1, one request per connection, JSON bodies; see docs/MCP.md)::

    POST /v1/run_code      {"code": "...", "workdir": "..."?}  -> bridge result
    POST /v1/insert_files  {"paths": ["/abs/a.gds", ...]}        -> bridge result
    POST /v1/undo          {}                                    -> {"ok", "message"}: undo the copilot's last change
    POST /v1/run_deck      {"deck": "...", "report"?, "deck_file"?} -> bridge result of a KLayout DRC deck run
    GET  /v1/status                                             -> {"ok", "layout": summary or null, ...}
    header: Authorization: Bearer <token>

Uses ``pya.QTcpServer`` (event-driven, on KLayout's main thread): Python threads starve inside
the KLayout GUI, and layout objects must only be touched from the main thread anyway.
stdlib + pya only.
"""
from __future__ import annotations

import atexit
import hmac
import json
import os
import secrets
import time
import traceback

import pya

from . import bridge
from .paths import data_home

PROTOCOL_VERSION = 1
HOST = "127.0.0.1"
MAX_HEADER = 16 * 1024
MAX_BODY = 32 * 1024 * 1024
DISCOVERY_NAME = "remote.json"


def _port_rules():
    """The engine's port rules (``pic_copilot.config``: PIC_COPILOT_ENDPOINT_PORT, else ``endpoint_port`` in
    the config file, else a free port; the peers' ports; the message naming the setting), loaded by path.

    The one place left where this layer reads an engine file (stdlib-only): the endpoint must know its
    port when the designer switches it on, synchronously, and it serves external agents without the
    engine process (``klayout -b`` hosts too), so it cannot wait for an engine answer.
    """
    import importlib.util
    import sys

    from . import GRAIN_ROOT

    name = "pic_copilot_plugin._config"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, GRAIN_ROOT / "lib" / "pic_copilot" / "config.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


def discovery_path() -> str:
    """Where a running endpoint announces its port and token."""
    return os.path.join(data_home(), DISCOVERY_NAME)


_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 409: "Conflict", 413: "Payload Too Large", 500: "Internal Server Error"}


class _Request:
    """An HTTP request being read from one socket."""

    def __init__(self):
        self.buf = b""
        self.method = self.path = None
        self.headers: dict[str, str] = {}
        self.body_start = None
        self.length = 0

    def feed(self, data: bytes):
        """Add bytes; returns None while incomplete, else (status or 0, error message)."""
        self.buf += data
        if self.body_start is None:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return (413, "request header too large") if len(self.buf) > MAX_HEADER else None
            head = self.buf[:end].decode("latin-1")
            self.body_start = end + 4
            lines = head.split("\r\n")
            parts = lines[0].split()
            if len(parts) != 3 or not parts[2].startswith("HTTP/"):
                return 400, "malformed request line"
            self.method, self.path = parts[0].upper(), parts[1]
            for line in lines[1:]:
                if ":" in line:
                    k, v = line.split(":", 1)
                    self.headers[k.strip().lower()] = v.strip()
            try:
                self.length = int(self.headers.get("content-length", "0"))
            except ValueError:
                return 400, "bad Content-Length"
            if self.length < 0 or self.length > MAX_BODY:
                return 413, f"body larger than {MAX_BODY} bytes"
        if len(self.buf) - self.body_start < self.length:
            return None
        return 0, ""

    @property
    def body(self) -> bytes:
        return self.buf[self.body_start:self.body_start + self.length]


class RemoteEndpoint:
    """The designer-controlled local endpoint (off until :meth:`start`).

    Args:
        session_provider: a callable returning the ``bridge.Session`` to act on (e.g.
            ``bridge.Session.current_gui``), or None when no layout is open.

    Attributes:
        running: True while listening.
        port: the TCP port on 127.0.0.1 (None when off).
        token: this session's secret (None when off); a new one on every start.
        requests: number of requests answered since start.
        last_error: the last problem (listen failure), or "".
        on_change: optional callable(endpoint) called after start/stop (the panel updates its state).
        on_request: optional callable(action, result_dict) called after each executed request
            (the panel may show "remote: run_code ok" in its transcript).
    """

    def __init__(self, session_provider):
        self.session_provider = session_provider
        self.running = False
        self.port = None
        self.token = None
        self.requests = 0
        self.last_error = ""
        self.on_change = None
        self.on_request = None
        self._server = None
        self._sockets: dict[int, tuple] = {}
        self._busy = False
        self._next_id = 0

    # ------------------------------------------------------------------ control
    def start(self) -> int:
        """Listen on 127.0.0.1 (the configured port, else a free one), write the discovery file; returns the port.

        Raises:
            RuntimeError: the port could not be opened (message from Qt).
        """
        if self.running:
            return self.port
        server = self._listen()
        addr = server.serverAddress().toString()
        if addr != HOST:  # never serve on anything but loopback
            server.close()
            self.last_error = f"refusing to serve on {addr}"
            raise RuntimeError(self.last_error)
        server.newConnection = self._on_new_connection
        self._server = server
        self.port = int(server.serverPort())
        self.token = secrets.token_urlsafe(32)
        self.requests = 0
        self.running = True
        self.last_error = ""
        try:
            self._write_discovery()
        except OSError as e:
            self.stop()
            self.last_error = f"cannot write the discovery file {discovery_path()}: {e}"
            raise RuntimeError(self.last_error) from None
        if not getattr(self, "_atexit_registered", False):  # KLayout closed without switching it off
            atexit.register(self._remove_discovery)
            self._atexit_registered = True
        self._changed()
        return self.port

    def _listen(self):
        """A QTcpServer on 127.0.0.1 at the configured port (PIC_COPILOT_ENDPOINT_PORT / ``endpoint_port``),
        or at a free port the system picks that no peer tool uses (never 8765-8799 or 8082).

        Raises:
            RuntimeError: the configured port is taken or invalid (the message names the setting).
        """
        cfg = _port_rules()
        try:
            choice = cfg.endpoint_port()
        except ValueError as e:
            self.last_error = str(e)
            raise RuntimeError(self.last_error) from None
        for _attempt in range(20):
            server = pya.QTcpServer()
            if not server.listen(pya.QHostAddress(HOST), choice.port):
                if choice.port:
                    why = str(server.errorString())
                    self.last_error = (choice.in_use_message("the endpoint for external agents") if "in use" in why.lower()
                                       else f"cannot listen on {HOST}:{choice.port} ({why}); the port comes from "
                                            f"{choice.setting}")
                else:
                    self.last_error = f"cannot listen on {HOST}: {server.errorString()}"
                raise RuntimeError(self.last_error)
            if choice.port or int(server.serverPort()) not in cfg.PEER_PORTS:
                return server
            server.close()  # the system picked a port a peer tool (klink, KlayoutClaw, klive) expects
        self.last_error = "the system offered only ports that peer tools use (8765-8799, 8082); set endpoint_port"
        raise RuntimeError(self.last_error)

    def stop(self) -> None:
        """Stop listening, drop open connections and remove the discovery file."""
        if self._server is not None:
            self._server.close()
            self._server = None
        for sock, _req in list(self._sockets.values()):
            try:
                sock.abort()
            except Exception:
                pass
        self._sockets.clear()
        was_running = self.running
        self._remove_discovery()
        self.running = False
        self.port = None
        self.token = None
        if was_running:
            self._changed()

    def status_text(self) -> str:
        """One line for the panel."""
        if self.running:
            return f"on: external agents may act on this layout via {HOST}:{self.port} ({self.requests} requests)"
        return "off: external agents cannot act on this layout" + (f" ({self.last_error})" if self.last_error else "")

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change(self)
            except Exception:
                traceback.print_exc()

    # ------------------------------------------------------------------ discovery file
    def _write_discovery(self) -> None:
        path = discovery_path()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        info = {"version": PROTOCOL_VERSION, "host": HOST, "port": self.port, "token": self.token,
                "pid": os.getpid(), "started": time.time()}
        tmp = f"{path}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, json.dumps(info).encode())
        finally:
            os.close(fd)
        os.replace(tmp, path)

    def _remove_discovery(self) -> None:
        """Remove the discovery file if it is ours (another KLayout may have replaced it)."""
        path = discovery_path()
        try:
            with open(path) as f:
                info = json.load(f)
        except (OSError, ValueError):
            return
        if self.token is not None and hmac.compare_digest(str(info.get("token", "")), self.token):
            try:
                os.unlink(path)
            except OSError:
                pass

    # ------------------------------------------------------------------ connections
    def _on_new_connection(self) -> None:
        server = self._server
        while server is not None and server.hasPendingConnections():
            sock = server.nextPendingConnection()
            if sock is None:
                break
            peer = sock.peerAddress().toString()
            if not (peer.startswith("127.") or peer.startswith("::ffff:127.")):  # loopback only
                sock.abort()
                continue
            self._next_id += 1
            sid = self._next_id
            self._sockets[sid] = (sock, _Request())
            sock.readyRead = lambda sid=sid: self._on_ready_read(sid)
            sock.disconnected = lambda sid=sid: self._forget(sid)

    def _forget(self, sid: int) -> None:
        entry = self._sockets.pop(sid, None)
        if entry is not None:
            entry[0].deleteLater()

    def _on_ready_read(self, sid: int) -> None:
        entry = self._sockets.get(sid)
        if entry is None:
            return
        sock, req = entry
        state = req.feed(bytes(sock.readAll()))
        if state is None:
            return
        status, message = state
        if status:
            self._respond(sid, status, {"ok": False, "error": message})
            return
        try:
            status, obj = self._handle(req)
        except Exception as e:  # noqa: BLE001 - never let a request take KLayout down
            status, obj = 500, {"ok": False, "error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()}
        self._respond(sid, status, obj)

    def _respond(self, sid: int, status: int, obj: dict) -> None:
        entry = self._sockets.get(sid)
        if entry is None:
            return
        sock = entry[0]
        body = json.dumps(obj, default=str).encode("utf-8")
        head = (f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n")
        sock.write(head.encode("latin-1") + body)
        sock.flush()
        sock.disconnectFromHost()

    # ------------------------------------------------------------------ requests
    def _authorised(self, req: _Request) -> bool:
        if not self.running or not self.token:
            return False
        auth = req.headers.get("authorization", "")
        given = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
        return hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))

    def _handle(self, req: _Request) -> tuple[int, dict]:
        if "origin" in req.headers:  # a web page in a browser: never
            return 403, {"ok": False, "error": "requests from web pages are refused"}
        if not self._authorised(req):
            return 401, {"ok": False, "error": "missing or wrong token (read it from the discovery file)"}
        path = req.path.split("?", 1)[0]
        routes = {"/v1/status": ("GET", self._status), "/v1/run_code": ("POST", self._run_code),
                  "/v1/insert_files": ("POST", self._insert_files), "/v1/undo": ("POST", self._undo),
                  "/v1/run_deck": ("POST", self._run_deck)}
        if path not in routes:
            return 404, {"ok": False, "error": f"unknown path {path}; use {', '.join(routes)}"}
        method, fn = routes[path]
        if req.method != method:
            return 405, {"ok": False, "error": f"{path} takes {method}"}
        args = {}
        if method == "POST":
            try:
                args = json.loads(req.body.decode("utf-8") or "{}")
            except (ValueError, UnicodeDecodeError) as e:
                return 400, {"ok": False, "error": f"body is not JSON: {e}"}
            if not isinstance(args, dict):
                return 400, {"ok": False, "error": "body must be a JSON object"}
        if self._busy:
            return 409, {"ok": False, "error": "KLayout is busy with another remote request; try again"}
        self._busy = True
        try:
            return fn(args)
        finally:
            self._busy = False

    def _session(self):
        return self.session_provider() if self.session_provider is not None else None

    def _status(self, _args: dict) -> tuple[int, dict]:
        session = self._session()
        version = pya.Application.instance().version() if pya.Application.instance() else ""
        return 200, {"ok": True, "protocol": PROTOCOL_VERSION, "klayout": version, "pid": os.getpid(),
                     "layout": bridge.layout_summary(session) if session is not None else None,
                     "filename": session.filename if session is not None else None,
                     "undoable": session.undoable if session is not None else None}

    def _no_layout(self) -> tuple[int, dict]:
        return 409, {"ok": False, "error": "no layout is open in KLayout: open or create one (File > New Layout) first"}

    def _run_code(self, args: dict) -> tuple[int, dict]:
        code = args.get("code")
        if not isinstance(code, str):
            return 400, {"ok": False, "error": "run_code needs {\"code\": \"...\"}"}
        workdir = args.get("workdir") if isinstance(args.get("workdir"), str) else None
        return self._on_layout("run_code", {"code": code, "workdir": workdir,
                                            "description": "pic-copilot (outside tool)"})

    def _insert_files(self, args: dict) -> tuple[int, dict]:
        paths = args.get("paths")
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            return 400, {"ok": False, "error": "insert_files needs {\"paths\": [\"/abs/file.gds\", ...]}"}
        return self._on_layout("insert_files", {"paths": paths, "description": "pic-copilot insert (outside tool)"})

    def _run_deck(self, args: dict) -> tuple[int, dict]:
        deck = args.get("deck")
        if not isinstance(deck, str):
            return 400, {"ok": False, "error": "run_deck needs {\"deck\": \"...\"}"}
        return self._on_layout("run_deck", {"deck": deck, "report": args.get("report"),
                                            "deck_file": args.get("deck_file")})

    def _undo(self, _args: dict) -> tuple[int, dict]:
        return self._on_layout("undo", {})

    def _on_layout(self, action: str, payload: dict) -> tuple[int, dict]:
        """Run one bridge action on the open layout's session (bridge.dispatch) and record it; 409 when
        no layout is open.

        Args:
            action: the bridge action (its name is also what the panel's request log shows).
            payload: its fields, checked by the caller.
        """
        session = self._session()
        if session is None:
            return self._no_layout()
        result = bridge.dispatch(session, action, payload)
        self._done(action, result)
        return 200, result

    def _done(self, action: str, result: dict) -> None:
        self.requests += 1
        self._changed()
        if self.on_request is not None:
            try:
                self.on_request(action, result)
            except Exception:
                traceback.print_exc()
