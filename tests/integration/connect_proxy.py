"""A loopback HTTP CONNECT proxy in a thread, for the kubeconfig ``proxy-url`` tests.

It answers only ``CONNECT host:port`` (what kubectl and client-go send for an https
server behind an http proxy), records each target, and relays bytes both ways. Host
names can be mapped to addresses (``routes``): a kubeconfig whose server is
``https://kubernetes.test.local:PORT`` reaches the test API server only through this
proxy, which proves that a client used it. Go's proxy-from-environment never proxies
loopback addresses, so that name, not 127.0.0.1, is what the environment-variable
tests use.

The bytes of a tunnel go through ``cutting_proxy.Relay``, the fault proxy's relay.
Stdlib only, like ``envtest.py``.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Mapping
from types import TracebackType

from tests.integration.cutting_proxy import Relay


class ConnectProxy:
    """``with ConnectProxy(routes) as proxy:`` serves on ``proxy.url`` until the block ends."""

    def __init__(self, routes: Mapping[str, str] | None = None) -> None:
        self.routes = dict(routes or {})
        #: ``host:port`` of every CONNECT seen, in order.
        self.connects: list[str] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._relays: set[Relay] = set()
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
        with self._lock:
            relays, self._relays = list(self._relays), set()
        for relay in relays:  # a tunnel its client left open
            relay.reset()

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
        client.settimeout(30)
        head = b""
        while b"\r\n\r\n" not in head:
            try:
                chunk = client.recv(4096)
            except OSError:
                chunk = b""
            if not chunk or len(head) > 65536:
                client.close()
                return
            head += chunk
        request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        method, _, rest = request_line.partition(" ")
        target = rest.partition(" ")[0]
        if method != "CONNECT":
            _answer(client, b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            return
        with self._lock:
            self.connects.append(target)
        host, _, port = target.rpartition(":")
        host = host.strip("[]")
        try:
            upstream = socket.create_connection((self.routes.get(host, host), int(port)), 10)
        except (OSError, ValueError):
            _answer(client, b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return
        try:
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            client.settimeout(None)
            upstream.settimeout(None)
            extra = head.split(b"\r\n\r\n", 1)[1]
            if extra:
                upstream.sendall(extra)
        except OSError:
            client.close()
            upstream.close()
            return
        relay = Relay(client, upstream)
        with self._lock:
            self._relays.add(relay)
        relay.start(self._forget)

    def _forget(self, relay: Relay) -> None:
        with self._lock:
            self._relays.discard(relay)


def _answer(client: socket.socket, response: bytes) -> None:
    """Send ``response`` and close (a refusal: no tunnel)."""
    with client, contextlib.suppress(OSError):
        client.sendall(response)
