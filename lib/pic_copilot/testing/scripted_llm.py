"""A scripted OpenAI-compatible chat server on 127.0.0.1 for deterministic tests.

It speaks the real protocol (``POST /v1/chat/completions``, JSON or Server-Sent Events when
``stream`` is true, ``data: [DONE]`` at the end; ``GET /v1/models``; and Anthropic's
``POST /v1/messages`` with its named SSE events) and plays a list of
*steps*, one per request, to inject faults:

    {"content": "text"}                       a normal answer
    {"status": 429, "headers": {"Retry-After": "1"}}
    {"status": 500}
    {"content": "...", "drop_after": 2}       stream 2 chunks, then close without [DONE]
    {"delay": 5, "content": "..."}            sleep before answering (timeouts)
    {"raw": "not json"}                       a 200 answer whose body is not JSON
    {"content": "...", "finish_reason": "length"}  an answer cut off at max_tokens
    {"match": "substring", ...}               only used when the last user message contains it
    {"keepalive": 30, "content": "..."}       send ": keep-alive" SSE comments (streaming) or
                                              whitespace (plain JSON) every ``keepalive_every``
                                              seconds (default 1) for 30 s, then the answer
    {"status": 400, "echo_auth": True}        an error body that echoes the Authorization header
    {"content_bytes": 50_000_000}             an answer of that many characters

When the steps run out, the last step repeats. A step may also be chosen by ``match``:
steps with a ``match`` are tried first against the request's messages, in order.
Every request body is recorded in ``requests`` for assertions.

Run standalone (for tests that start the engine as another process)::

    python -m pic_copilot.testing.scripted_llm --steps steps.json --port-file port.txt
"""
from __future__ import annotations

import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class ScriptedLLM:
    """Start with ``with ScriptedLLM(steps) as srv: srv.base_url``."""

    def __init__(self, steps: list[dict], model: str = "scripted-model"):
        self.steps = list(steps)
        self.model = model
        self.requests: list[dict] = []
        self._index = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> "ScriptedLLM":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "ScriptedLLM":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def next_step(self, body: dict) -> dict:
        with self._lock:
            self.requests.append(body)
            text = json.dumps(body.get("messages", [])[-1:])
            for step in self.steps:
                if "match" in step and step["match"] in text and not step.get("_used"):
                    if step.get("once"):
                        step["_used"] = True
                    return step
            plain = [s for s in self.steps if "match" not in s]
            if not plain:
                return {"content": ""}
            step = plain[min(self._index, len(plain) - 1)]
            self._index += 1
            return step

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": server.model, "object": "model"}]})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    self._json(400, {"error": {"message": "invalid JSON body"}})
                    return
                step = server.next_step(body)
                if step.get("delay"):
                    time.sleep(step["delay"])
                status = step.get("status", 200)
                if status != 200:
                    message = step.get("message", f"scripted HTTP {status}")
                    if step.get("echo_auth"):  # a careless proxy that quotes the request back
                        message += (f"; request headers: Authorization: {self.headers.get('Authorization')}, "
                                    f"x-api-key: {self.headers.get('x-api-key')}")
                    self._json(status, {"error": {"message": message}}, headers=step.get("headers"))
                    return
                if step.get("content_bytes"):
                    step = dict(step, content="x" * int(step["content_bytes"]))
                if step.get("keepalive") and not body.get("stream"):
                    self._plain_keepalive(body, step)
                    return
                if "raw" in step:
                    data = step["raw"].encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                content = step.get("content", "")
                if self.path.rstrip("/").endswith("/messages"):  # the Anthropic messages API
                    self._anthropic(body, content)
                elif body.get("stream"):
                    self._stream(content, step)
                else:
                    self._json(200, {
                        "id": "chatcmpl-scripted", "object": "chat.completion", "created": int(time.time()),
                        "model": server.model,
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                     "finish_reason": step.get("finish_reason", "stop")}],
                        "usage": {"prompt_tokens": _count(body), "completion_tokens": max(1, len(content) // 4),
                                  "total_tokens": _count(body) + max(1, len(content) // 4)},
                    })

            def _anthropic(self, body: dict, content: str):
                usage_in = _count(body)
                if not body.get("stream"):
                    self._json(200, {"id": "msg_scripted", "type": "message", "role": "assistant",
                                     "model": server.model, "content": [{"type": "text", "text": content}],
                                     "stop_reason": "end_turn",
                                     "usage": {"input_tokens": usage_in, "output_tokens": max(1, len(content) // 4)}})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                events = [("message_start", {"type": "message_start", "message": {
                              "id": "msg_scripted", "model": server.model, "usage": {"input_tokens": usage_in}}}),
                          ("content_block_start", {"type": "content_block_start", "index": 0,
                                                   "content_block": {"type": "text", "text": ""}})]
                events += [("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                    "delta": {"type": "text_delta", "text": content[i:i + 16]}})
                           for i in range(0, len(content), 16)]
                events += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
                           ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                                              "usage": {"output_tokens": max(1, len(content) // 4)}}),
                           ("message_stop", {"type": "message_stop"})]
                for name, ev in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(ev)}\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

            def _keepalive(self, step: dict, beat: bytes) -> bool:
                """Send ``beat`` every keepalive_every seconds for keepalive seconds; False if the client left."""
                end = time.monotonic() + float(step["keepalive"])
                while time.monotonic() < end:
                    try:
                        self.wfile.write(beat)
                        self.wfile.flush()
                    except OSError:
                        return False
                    time.sleep(float(step.get("keepalive_every", 1.0)))
                return True

            def _plain_keepalive(self, body: dict, step: dict):
                """A JSON answer preceded by whitespace trickled out (valid JSON, no Content-Length)."""
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Connection", "close")
                self.end_headers()
                if not self._keepalive(step, b" "):
                    return
                content = step.get("content", "")
                data = json.dumps({"id": "chatcmpl-scripted", "object": "chat.completion", "model": server.model,
                                   "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                                "finish_reason": "stop"}],
                                   "usage": {"prompt_tokens": _count(body), "completion_tokens": 1}}).encode()
                try:
                    self.wfile.write(data)
                    self.wfile.flush()
                except OSError:
                    pass
                self.close_connection = True

            def _stream(self, content: str, step: dict):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                if step.get("keepalive") and not self._keepalive(step, b": keep-alive\n\n"):
                    return
                size = step.get("chunk_chars", 16)
                chunks = [content[i:i + size] for i in range(0, len(content), size)] or [""]
                chunk_delay = step.get("chunk_delay", 0.0)
                for i, piece in enumerate(chunks):
                    if step.get("drop_after") is not None and i >= step["drop_after"]:
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    ev = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "model": server.model,
                          "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(ev)}\n\n".encode())
                    self.wfile.flush()
                    if chunk_delay:
                        time.sleep(chunk_delay)
                if step.get("invalid_chunk"):
                    self.wfile.write(b"data: {not json\n\n")
                    self.wfile.flush()
                    return
                final = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "model": server.model,
                         "choices": [{"index": 0, "delta": {}, "finish_reason": step.get("finish_reason", "stop")}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": max(1, len(content) // 4)}}
                self.wfile.write(f"data: {json.dumps(final)}\n\ndata: [DONE]\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

            def _json(self, status: int, obj: dict, headers: dict | None = None):
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        return Handler


def _count(body: dict) -> int:
    return sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4


def main() -> None:
    ap = argparse.ArgumentParser(description="scripted OpenAI-compatible server for tests")
    ap.add_argument("--steps", type=Path, required=True, help="JSON file with a list of steps")
    ap.add_argument("--port-file", type=Path, required=True, help="the chosen port is written here")
    ap.add_argument("--log", type=Path, help="append each request body as one JSON line here")
    args = ap.parse_args()
    srv = ScriptedLLM(json.loads(args.steps.read_text())).start()
    args.port_file.write_text(str(srv.port))
    try:
        seen = 0
        while True:
            time.sleep(0.2)
            if args.log and len(srv.requests) > seen:
                with open(args.log, "a") as f:
                    for r in srv.requests[seen:]:
                        f.write(json.dumps(r) + "\n")
                seen = len(srv.requests)
    except KeyboardInterrupt:
        srv.stop()


if __name__ == "__main__":
    main()
