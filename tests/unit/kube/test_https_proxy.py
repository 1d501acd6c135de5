"""An https proxy in front of an https server: the server's TLS session runs inside the
proxy's (Go's Transport does this; ``ssl`` needs memory BIOs for it). The fixture API
server's matrix covers http proxies; this loopback pair covers what it does not."""

from __future__ import annotations

import http.server
import json
import select
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from tests.unit.kube.conftest import write_kubeconfig


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("pki")

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True)

    openssl(
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-subj",
        "/CN=test-ca",
        "-days",
        "1",
    )
    (directory / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    openssl(
        "req",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=server",
    )
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-out", "server.crt", "-days", "1", "-extfile", "ext.cnf")  # fmt: skip
    return {name: directory / name for name in ("ca.crt", "server.crt", "server.key")}


def _server_context(certificates: dict[str, Path]) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificates["server.crt"], certificates["server.key"])
    return context


@pytest.fixture
def https_server(certificates: dict[str, Path]) -> Iterator[tuple[int, list[str]]]:
    paths: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            paths.append(self.path)
            body = json.dumps({"path": self.path, "auth": self.headers["Authorization"]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.socket = _server_context(certificates).wrap_socket(httpd.socket, server_side=True)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield httpd.server_address[1], paths
    httpd.shutdown()
    httpd.server_close()


def _pipe(a: socket.socket, b: socket.socket) -> None:
    sockets = [a, b]
    while True:
        readable, _, _ = select.select(sockets, [], [], 5)
        if not readable:
            return
        for source in readable:
            data = source.recv(65536)
            if not data:
                return
            (b if source is a else a).sendall(data)


@pytest.fixture
def connect_proxy(certificates: dict[str, Path]) -> Iterator[tuple[str, list[str]]]:
    """A CONNECT proxy that speaks TLS to its clients (an https:// proxy URL)."""
    seen: list[str] = []
    listener = socket.create_server(("127.0.0.1", 0))
    context = _server_context(certificates)

    def serve() -> None:
        while True:
            try:
                raw, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=handle, args=(raw,), daemon=True).start()

    def handle(raw: socket.socket) -> None:
        with context.wrap_socket(raw, server_side=True) as client:
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                chunk = client.recv(1)
                if not chunk:
                    return
                head += chunk
            request_line = head.split(b"\r\n", 1)[0].decode()
            seen.append(request_line)
            method, target, _ = request_line.split(" ")
            if method != "CONNECT":
                client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
                return
            host, port = target.rsplit(":", 1)
            with socket.create_connection((host, int(port))) as upstream:
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                client.setblocking(True)
                _pipe(client, upstream)

    threading.Thread(target=serve, daemon=True).start()
    yield f"https://localhost:{listener.getsockname()[1]}", seen
    listener.close()


def test_https_server_through_an_https_proxy(
    tmp_path: Path,
    certificates: dict[str, Path],
    https_server: tuple[int, list[str]],
    connect_proxy: tuple[str, list[str]],
) -> None:
    port, paths = https_server
    proxy_url, seen = connect_proxy
    kubeconfig = write_kubeconfig(
        tmp_path / "kubeconfig",
        clusters={
            "c": {
                "server": f"https://127.0.0.1:{port}",
                "certificate-authority": str(certificates["ca.crt"]),
                "proxy-url": proxy_url,
            }
        },
        users={"u": {"token": "t"}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    client = KubeClient(ClusterConfig(kubeconfig=str(kubeconfig)), environ={"HOME": str(tmp_path)})
    assert client.request("GET", "/one") == {"path": "/one", "auth": "Bearer t"}
    assert client.request("GET", "/two")["path"] == "/two"  # the same tunnel, kept alive
    assert seen == [f"CONNECT 127.0.0.1:{port} HTTP/1.1"]
    assert paths == ["/one", "/two"]
