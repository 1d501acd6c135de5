"""A loopback HTTP CONNECT proxy in a thread, for the kubeconfig ``proxy-url`` tests.

It answers only ``CONNECT host:port`` (what kubectl and client-go send for an https
server behind an http proxy), records each target, and relays bytes both ways. Host
names can be mapped to addresses (``routes``): a kubeconfig whose server is
``https://kubernetes.test.local:PORT`` reaches the test API server only through this
proxy, which proves that a client used it. Go's proxy-from-environment never proxies
loopback addresses, so that name, not 127.0.0.1, is what the environment-variable
tests use.

Stdlib only, like ``envtest.py``.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Mapping
from types import TracebackType


class ConnectProxy:
    """``with ConnectProxy(routes) as proxy:`` serves on ``proxy.url`` until the block ends."""

    def __init__(self, routes: Mapping[str, str] | None = None) -> None:
        self.routes = dict(routes or {})
        #: ``host:port`` of every CONNECT seen, in order.
        self.connects: list[str] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self._listener.getsockname()[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> ConnectProxy:
        self._spawn(self._accept_loop)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        for thread in list(self._threads):
            thread.join(timeout=5)

    def _spawn(self, target: object, *args: object) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)  # type: ignore[arg-type]
        with self._lock:
            self._threads.append(thread)
        thread.start()

    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self._spawn(self._serve, client)

    def _serve(self, client: socket.socket) -> None:
        with client:
            client.settimeout(30)
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(4096)
                if not chunk:
                    return
                head += chunk
                if len(head) > 65536:
                    return
            request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
            method, _, rest = request_line.partition(" ")
            target = rest.partition(" ")[0]
            if method != "CONNECT":
                client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
                return
            with self._lock:
                self.connects.append(target)
            host, _, port = target.rpartition(":")
            host = host.strip("[]")
            try:
                upstream = socket.create_connection((self.routes.get(host, host), int(port)), 10)
            except (OSError, ValueError):
                client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            with upstream:
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                client.settimeout(None)
                upstream.settimeout(None)
                extra = head.split(b"\r\n\r\n", 1)[1]
                if extra:
                    upstream.sendall(extra)
                back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
                back.start()
                _pump(client, upstream)
                back.join(timeout=30)


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Copy ``source`` to ``sink`` until either side closes, then half-close ``sink``."""
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
