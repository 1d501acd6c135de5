"""A loopback TCP proxy in threads that breaks live connections on demand (issue 30).

It relays bytes between its clients and one target (kube-apiserver; TLS passes through
untouched, and the serving certificate names 127.0.0.1, so a kubeconfig whose server is
the proxy's address verifies as before). Three faults, as a network gives them:

- ``cut()``: every live connection is reset (``SO_LINGER`` 0 then close: the peer reads
  ``ECONNRESET``, no orderly end of the stream), both towards the client and the server;
- ``stall()`` ... ``resume()``: nothing is forwarded either way, and nothing is closed
  (a NAT entry or a load balancer that forgot the flow). Bytes read meanwhile are held
  and sent on ``resume()``; only a client-side deadline can notice a stalled watch;
- ``refuse()`` ... ``accept_again()``: the listening socket is closed (a dial is
  refused, as while kube-apiserver restarts) and every live connection cut; then the
  same port is listened on again.

Counters: ``connections`` accepted, ``resets`` (connections cut). ``Relay`` (one
relayed connection, a pump each way) is also the tunnel of ``connect_proxy.ConnectProxy``.
Stdlib only, like ``envtest.py``.
"""

from __future__ import annotations

import contextlib
import select
import socket
import struct
import threading
import time
from types import TracebackType

#: how often a pump looks at its flags while it waits
_POLL = 0.05


class CuttingProxy:
    """``with CuttingProxy(("127.0.0.1", port)) as proxy:`` relays on ``proxy.port``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.connections = 0
        self.resets = 0
        self._lock = threading.Lock()
        self._live: set[Relay] = set()
        self._stalled = threading.Event()
        self._closing = threading.Event()
        self._listener: socket.socket | None = None
        self.port = 0
        self._listen()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> CuttingProxy:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop listening and reset every live connection."""
        self._closing.set()
        self._stalled.clear()
        self._close_listener()
        self.cut()

    # -- faults -------------------------------------------------------------------------

    def cut(self) -> int:
        """Reset every live connection; how many were cut."""
        with self._lock:
            pairs, self._live = list(self._live), set()
        for pair in pairs:
            pair.reset()
        self.resets += len(pairs)
        return len(pairs)

    def stall(self) -> None:
        self._stalled.set()

    def resume(self) -> None:
        self._stalled.clear()

    def refuse(self) -> int:
        """Close the listener (dials are refused) and cut every live connection."""
        self._close_listener()
        return self.cut()

    def accept_again(self) -> None:
        self._listen(self.port)

    @property
    def live(self) -> int:
        with self._lock:
            return len(self._live)

    def last_down(self) -> float | None:
        """When (``time.monotonic()``) a byte last went to a client over a live
        connection; None without one."""
        with self._lock:
            pairs = list(self._live)
        return max((pair.last_down for pair in pairs), default=None)

    def describe(self) -> list[str]:
        """Each live connection: its age, bytes relayed each way, seconds since the
        last byte towards the client (for a post-mortem)."""
        now = time.monotonic()
        with self._lock:
            pairs = list(self._live)
        return [
            f"age {now - pair.opened:.1f} s, up {pair.up} B, down {pair.down} B, "
            f"last down {now - pair.last_down:.1f} s ago"
            for pair in sorted(pairs, key=lambda pair: pair.opened)
        ]

    # -- relaying -----------------------------------------------------------------------

    def _listen(self, port: int = 0) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(128)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _close_listener(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()

    def _accept(self, listener: socket.socket) -> None:
        while not self._closing.is_set():
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=10)
            except OSError:
                _reset(client)
                continue
            pair = Relay(client, upstream, self._stalled)
            with self._lock:
                self._live.add(pair)
                self.connections += 1
            pair.start(self._forget)

    def _forget(self, pair: Relay) -> None:
        with self._lock:
            self._live.discard(pair)


class Relay:
    """One relayed connection: a pump each way; an end one way is passed on (a
    half-close) and the other way stays open. ``stalled`` (set: nothing forwarded)
    is ``CuttingProxy``'s; a relay without it never stalls."""

    def __init__(
        self,
        client: socket.socket,
        upstream: socket.socket,
        stalled: threading.Event | None = None,
    ) -> None:
        self.client, self.upstream = client, upstream
        self.stalled = stalled or threading.Event()
        self._dead = threading.Event()
        self._ends = 0
        self.opened = self.last_down = time.monotonic()
        self.up = self.down = 0
        self._lock = threading.Lock()

    def start(self, forget: object) -> None:
        for source, sink in ((self.client, self.upstream), (self.upstream, self.client)):
            threading.Thread(target=self._pump, args=(source, sink, forget), daemon=True).start()

    def reset(self) -> None:
        if self._dead.is_set():
            return
        self._dead.set()
        _reset(self.client)
        _reset(self.upstream)

    def _pump(self, source: socket.socket, sink: socket.socket, forget: object) -> None:
        held = b""
        try:
            while not self._dead.is_set():
                if self.stalled.is_set():
                    self._dead.wait(_POLL)
                    continue
                if held:
                    sink.sendall(held)
                    if sink is self.client:
                        self.down += len(held)
                        self.last_down = time.monotonic()
                    else:
                        self.up += len(held)
                    held = b""
                ready, _, _ = select.select([source], [], [], _POLL)
                if not ready:
                    continue
                chunk = source.recv(65536)
                if not chunk:
                    # an orderly end one way: pass it on, keep the other way open
                    with contextlib.suppress(OSError):
                        sink.shutdown(socket.SHUT_WR)
                    break
                held = chunk
        except (OSError, ValueError):  # reset, or closed by ``reset`` from another thread
            pass
        with self._lock:
            self._ends += 1
            both = self._ends == 2
        if both or self._dead.is_set():
            self._dead.set()
            for sock in (self.client, self.upstream):
                with contextlib.suppress(OSError):
                    sock.close()
            forget(self)  # type: ignore[operator]


def _reset(sock: socket.socket) -> None:
    """Close with an RST instead of a FIN."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.close()
