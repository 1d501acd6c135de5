"""What the resource client and the reflector rely on below them: a connection per
thread, Go's TCP keep-alive, a watch's read deadline, and a watch ended from another
thread. Loopback servers stand in where the real API server cannot be made to stay
silent."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.transport import ServerConnection
from kubectl_crd.model.errors import ClusterUnreachableError
from tests.unit.kube.conftest import ScriptedServer, write_kubeconfig
from tests.unit.reconcile.fakes import wait_for

#: how long a test waits for what must happen (a read deadline firing, a blocked read
#: returning): a bound against a hang, never the promise measured; a loaded 2-core CI
#: machine may not run a thread for seconds
HANG_GUARD = 30.0


def _client(tmp_path: Path, url: str) -> KubeClient:
    kubeconfig = write_kubeconfig(
        tmp_path / "kubeconfig",
        clusters={"c": {"server": url}},
        users={"u": {"token": "t"}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    return KubeClient(ClusterConfig(kubeconfig=str(kubeconfig)), environ={"HOME": str(tmp_path)})


class SilentWatchServer:
    """Answers each request with the head of a chunked 200, then says nothing more;
    ``answered`` holds when (``time.monotonic``) each head was sent: the client's
    silence is timed from there, not from when a loaded machine got to the test."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.accepted: list[socket.socket] = []
        self.answered: list[float] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.accepted.append(conn)
            try:
                conn.recv(65536)
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n"
                )
                self.answered.append(time.monotonic())
            except OSError:
                # close() ran first (a test that ended before this thread, late under
                # load, got to answer: CI warned of its "Bad file descriptor")
                return

    def close(self) -> None:
        self.listener.close()
        for conn in self.accepted:
            conn.close()


@pytest.fixture
def silent_server() -> Iterator[SilentWatchServer]:
    server = SilentWatchServer()
    yield server
    server.close()


def test_sockets_have_gos_keepalive(silent_server: SilentWatchServer) -> None:
    connection = ServerConnection(
        "127.0.0.1", int(silent_server.url.rsplit(":", 1)[1]), tls_context=None, server_name=""
    )
    connection.connect()
    sock = connection.sock
    assert sock is not None
    try:
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        if hasattr(socket, "TCP_KEEPIDLE"):
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 15
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL) == 15
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == 9
    finally:
        connection.close()


def test_a_silent_watch_fails_at_its_read_deadline(
    tmp_path: Path, silent_server: SilentWatchServer
) -> None:
    stream = _client(tmp_path, silent_server.url).watch("/api/v1/configmaps", read_timeout=0.3)
    ended: list[tuple[float, BaseException]] = []
    began = time.monotonic()
    reader = threading.Thread(target=_first_event, args=(stream, ended), daemon=True)
    reader.start()
    # that the deadline fires at all is the promise (a watch without one, kubectl's,
    # blocks on this server for good); never sooner than 0.3 s, which a load only delays
    reader.join(HANG_GUARD)
    assert len(ended) == 1, f"a watch silent for {HANG_GUARD:.0f} s did not fail"
    at, error = ended[0]
    assert at - began > 0.25
    assert isinstance(error, ClusterUnreachableError)
    assert error.kubectl_line == (
        "Unable to connect to the server: net/http: request canceled "
        "(Client.Timeout exceeded while awaiting headers)"
    )


def _first_event(stream: Iterator[object], ended: list[tuple[float, BaseException]]) -> None:
    try:
        next(stream)
    except Exception as exc:
        ended.append((time.monotonic(), exc))


def test_a_watch_closed_from_another_thread_ends_at_once(
    tmp_path: Path, silent_server: SilentWatchServer
) -> None:
    stream = _client(tmp_path, silent_server.url).watch("/api/v1/configmaps")
    events: list[object] = ["not read"]
    reader = threading.Thread(target=lambda: events.__setitem__(0, list(stream)), daemon=True)
    reader.start()
    # the watch is open and answered: the reader blocks in (or is about to enter) a
    # read the server never satisfies, and no read deadline would end (none is set)
    wait_for(lambda: silent_server.answered, "the watch answered", HANG_GUARD)
    stream.close()
    # "at once": ended by the close, not by the server (silent for good) nor by a
    # deadline (none): that it ends at all is the promise; HANG_GUARD only bounds the wait
    reader.join(HANG_GUARD)
    assert not reader.is_alive(), f"the closed watch still read after {HANG_GUARD:.0f} s"
    assert events == [[]]  # no error: the stream just ends
    # closed before it started: no request at all
    closed = _client(tmp_path, silent_server.url).watch("/x")
    closed.close()
    assert list(closed) == [] and len(silent_server.accepted) == 1


def test_one_client_many_threads_one_connection_each(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    client = _client(tmp_path, scripted_server.url)
    ports: dict[str, list[int]] = {}
    barrier = threading.Barrier(4)

    def work(name: str) -> None:
        barrier.wait()
        for _ in range(3):
            client.request("GET", f"/api/v1/namespaces/{name}")

    threads = [threading.Thread(target=work, args=(f"n{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    for request in scripted_server.requests:
        ports.setdefault(request["path"].rsplit("/", 1)[1], []).append(request["client_port"])
    assert sorted(ports) == ["n0", "n1", "n2", "n3"]
    # each thread kept its connection alive; no two threads shared one
    assert all(len(set(used)) == 1 for used in ports.values())
    assert len({used[0] for used in ports.values()}) == 4
    client.close()
    assert client._opened == []


def test_a_silent_answer_fails_at_the_clients_idle_bound_and_only_with_one(
    tmp_path: Path, silent_server: SilentWatchServer
) -> None:
    """The dev loop's client (``idle_timeout``) notices a peer that stops sending in the
    middle of an answer; a one-shot command's client (none, as kubectl without
    ``--request-timeout``) keeps waiting."""
    bounded = _client(tmp_path, silent_server.url)
    bounded.idle_timeout = 0.3
    ended: list[tuple[float, BaseException]] = []

    def bounded_get() -> None:
        try:
            bounded.request("GET", "/api/v1/configmaps")
        except Exception as exc:
            ended.append((time.monotonic(), exc))

    began = time.monotonic()
    thread = threading.Thread(target=bounded_get, daemon=True)
    thread.start()
    # noticed at all is the promise; never sooner than the 0.3 s bound (a load delays it)
    thread.join(HANG_GUARD)
    assert len(ended) == 1, f"the silent answer was not noticed within {HANG_GUARD:.0f} s"
    assert ended[0][0] - began > 0.25
    assert isinstance(ended[0][1], ClusterUnreachableError)
    unbounded = _client(tmp_path, silent_server.url)
    failed: list[BaseException] = []

    def get() -> None:
        try:
            unbounded.request("GET", "/api/v1/configmaps")
        except Exception as exc:  # the server closing at the end of the test
            failed.append(exc)

    waiting = threading.Thread(target=get, daemon=True)
    waiting.start()
    # silent for three times the bounded client's idle bound, timed from the server's
    # head (not from the thread's start, which a loaded machine may delay past it)
    wait_for(lambda: len(silent_server.answered) == 2, "the second answer", HANG_GUARD)
    wait_for(lambda: time.monotonic() - silent_server.answered[1] >= 0.9, "0.9 s of silence")
    assert waiting.is_alive() and failed == []
    silent_server.close()
    waiting.join(HANG_GUARD)
    bounded.close()
    unbounded.close()
