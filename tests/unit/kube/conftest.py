"""Helpers for the cluster core's unit tests: kubeconfig files and a scripted loopback
HTTP server for what the real API server will not do on demand (429, Warning headers,
a watch that ends with 410, a server that closes idle connections)."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def write_kubeconfig(
    path: Path,
    *,
    clusters: dict[str, dict[str, Any]] | None = None,
    users: dict[str, dict[str, Any]] | None = None,
    contexts: dict[str, dict[str, Any]] | None = None,
    current: str | None = None,
) -> Path:
    document: dict[str, Any] = {"apiVersion": "v1", "kind": "Config"}
    if clusters is not None:
        document["clusters"] = [{"name": n, "cluster": c} for n, c in clusters.items()]
    if users is not None:
        document["users"] = [{"name": n, "user": u} for n, u in users.items()]
    if contexts is not None:
        document["contexts"] = [{"name": n, "context": c} for n, c in contexts.items()]
    if current is not None:
        document["current-context"] = current
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path


class Reply:
    def __init__(
        self,
        status: int = 200,
        body: Any = None,
        headers: list[tuple[str, str]] | None = None,
        lines: list[dict[str, Any]] | None = None,
        close: bool = False,
    ) -> None:
        self.status = status
        self.body = body
        self.headers = headers or []
        self.lines = lines
        self.close = close


class ScriptedServer:
    """Answers requests with queued ``Reply`` objects; records what it received."""

    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                server.requests.append(
                    {
                        "method": self.command,
                        "path": self.path,
                        "headers": dict(self.headers.items()),
                        "all_headers": list(self.headers.items()),
                        "body": body,
                        "client_port": self.client_address[1],
                    }
                )
                reply = server.replies.pop(0) if server.replies else Reply(200, {})
                self.send_response(reply.status)
                for name, value in reply.headers:
                    self.send_header(name, value)
                if reply.lines is not None:
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for line in reply.lines:
                        data = json.dumps(line).encode() + b"\n"
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.write(b"0\r\n\r\n")
                    return
                data = (
                    reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
                )
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if reply.close:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def scripted_server() -> Iterator[ScriptedServer]:
    server = ScriptedServer()
    yield server
    server.stop()
