"""A kubeconfig full of marker secrets, and peers that fail: the material of the sweep.

Every secret a kubeconfig can hold is a distinct marker string (and the base64 forms in
which the file holds some of them), so a leak names what leaked. The failing peers are
tiny loopback HTTP servers that answer every request with one status: they stand in for
a cluster that refuses (401, 403) or breaks (500, a body that is not JSON), not for the
API server's semantics (the real one is in ``tests/integration``).
"""

from __future__ import annotations

import base64
import http.server
import json
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

MARKER = "MARKERSECRET"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _pem(kind: str, marker: str) -> str:
    body = base64.b64encode(marker.encode() * 4).decode()
    return f"-----BEGIN {kind}-----\n{body}\n-----END {kind}-----\n"


def _exec_plugin(folder: Path) -> str:
    """A credential plugin whose ExecCredential carries a marker token."""
    credential = {
        "apiVersion": "client.authentication.k8s.io/v1",
        "kind": "ExecCredential",
        "status": {"token": f"{MARKER}-exec-output"},
    }
    path = folder / "credential-plugin"
    path.write_text(f"#!{sys.executable}\nprint({json.dumps(credential)!r})\n")
    path.chmod(0o755)
    return str(path)


def marker_users(folder: Path) -> dict[str, dict[str, Any]]:
    """Every kind of kubeconfig user, each holding marker secrets."""
    token_file = folder / "token"
    token_file.write_text(f"{MARKER}-token-file\n")
    return {
        "token": {"token": f"{MARKER}-token"},
        "token-file": {"tokenFile": str(token_file)},
        "basic": {"username": "someone", "password": f"{MARKER}-password"},
        "client-cert": {
            "client-certificate-data": _b64(_pem("CERTIFICATE", f"{MARKER}-cert")),
            "client-key-data": _b64(_pem("PRIVATE KEY", f"{MARKER}-key")),
        },
        "exec": {
            "exec": {
                "apiVersion": "client.authentication.k8s.io/v1",
                "command": _exec_plugin(folder),
                "interactiveMode": "Never",
            }
        },
        "oidc": {
            "auth-provider": {
                "name": "oidc",
                "config": {
                    "client-id": "kubectl-crd",
                    "client-secret": f"{MARKER}-oidc-client-secret",
                    "id-token": f"{MARKER}-oidc-id-token",
                    "refresh-token": f"{MARKER}-oidc-refresh-token",
                    "idp-issuer-url": "http://127.0.0.1:1",
                },
            }
        },
    }


def secrets_of(users: dict[str, dict[str, Any]]) -> list[str]:
    """Every string that must never be printed or written: the marker itself and each
    secret as the kubeconfig holds it (base64 data included)."""
    found = [MARKER]

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, str) and (MARKER in value or value.startswith("LS0t")):
            found.append(value)

    walk(users)
    return found


def write_marker_kubeconfig(path: Path, servers: dict[str, str]) -> list[str]:
    """One kubeconfig with a context per (server, user) pair, named ``server.user``;
    returns the context names. Every user's secrets are in the file whichever is used."""
    users = marker_users(path.parent)
    document: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": name, "cluster": {"server": url}} for name, url in servers.items()],
        "users": [{"name": name, "user": user} for name, user in users.items()],
        "contexts": [
            {"name": f"{server}.{user}", "context": {"cluster": server, "user": user}}
            for server in servers
            for user in users
        ],
        "current-context": f"{next(iter(servers))}.token",
    }
    path.write_text(json.dumps(document, indent=2))
    return [entry["name"] for entry in document["contexts"]]


class _FailingHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    status = 500
    body = b""

    def log_message(self, *args: object) -> None:
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer


def _status_body(code: int, reason: str, message: str) -> bytes:
    status = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    }
    return json.dumps(status).encode()


#: name -> (status, body) of each failing peer
PEERS: dict[str, tuple[int, bytes]] = {
    "unauthorized": (401, _status_body(401, "Unauthorized", "Unauthorized")),
    "forbidden": (
        403,
        _status_body(403, "Forbidden", 'forbidden: User "someone" cannot list resource "foos"'),
    ),
    "broken": (500, _status_body(500, "InternalError", "etcd is on fire")),
    "not-json": (200, b"<html>a proxy's login page</html>"),
}


@contextmanager
def failing_peers() -> Iterator[dict[str, str]]:
    """The failing peers, started on loopback, and an unreachable address: name -> URL."""
    servers: list[http.server.ThreadingHTTPServer] = []
    urls = {"unreachable": "http://127.0.0.1:1"}
    try:
        for name, (status, body) in PEERS.items():
            handler = type(f"{name}Handler", (_FailingHandler,), {"status": status, "body": body})
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
            urls[name] = f"http://127.0.0.1:{server.server_address[1]}"
        yield urls
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
