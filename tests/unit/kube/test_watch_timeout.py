"""``KubeClient.watch(timeout=...)``: the whole request's deadline, client-go's
``http.Client.Timeout`` (``--request-timeout``). The live side by side with kubectl is
``tests/integration/test_get_watch_timeout.py``; these are the two ends a real server
cannot be made to show on demand: a server that answers and then goes quiet (the stream
ends, no error, the events before kept), and one that never answers (net/http's error).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.errors import ClusterUnreachableError
from tests.unit.kube.conftest import write_kubeconfig

EVENT = {"type": "ADDED", "object": {"kind": "Thing", "metadata": {"resourceVersion": "7"}}}


class _QuietServer:
    """Answers one watch with one event, then sends nothing and keeps the connection
    open until stopped; ``answer=False``: reads the request and never answers."""

    def __init__(self, *, answer: bool) -> None:
        self.answer = answer
        self.request = b""
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        peer, _ = self.listener.accept()
        with peer:
            while b"\r\n\r\n" not in self.request:
                self.request += peer.recv(4096)
            if self.answer:
                data = json.dumps(EVENT).encode() + b"\n"
                peer.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n%s\r\n" % (len(data), data)
                )
            self.done.wait(30)

    def stop(self) -> None:
        self.done.set()
        self.thread.join(30)
        self.listener.close()


def _client(tmp_path: Path, port: int) -> KubeClient:
    path = write_kubeconfig(
        tmp_path / "kubeconfig",
        clusters={"c": {"server": f"http://127.0.0.1:{port}"}},
        users={"u": {}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    return KubeClient(ClusterConfig(kubeconfig=str(path)), environ={"HOME": str(tmp_path)})


def test_a_quiet_watch_ends_at_its_timeout_with_its_events(tmp_path: Path) -> None:
    server = _QuietServer(answer=True)
    try:
        started = time.monotonic()
        # long enough for the server's thread to answer first on a loaded machine (at
        # 0.3 s a CI run at load 7 saw the timer fire while awaiting the headers)
        stream = _client(tmp_path, server.port).watch("/x", timeout=1.5)
        events = [(event.type, event.resource_version) for event in stream]
        elapsed = time.monotonic() - started
    finally:
        server.stop()
    # before: the read waited on the quiet server for ever (no read timeout given)
    assert events == [("ADDED", "7")]
    assert 1.5 <= elapsed < 10, elapsed
    assert stream.expired
    # rest/request.go URL(): the timeout is sent with every request, watches too
    target = server.request.split(b" ")[1].decode()
    assert dict(parse_qsl(urlsplit(target).query)) == {"timeout": "1.5s", "watch": "true"}


def test_a_watch_unanswered_at_its_timeout_fails_as_net_http(tmp_path: Path) -> None:
    server = _QuietServer(answer=False)
    try:
        started = time.monotonic()
        with pytest.raises(ClusterUnreachableError) as caught:
            list(_client(tmp_path, server.port).watch("/x", timeout=0.3))
        elapsed = time.monotonic() - started
    finally:
        server.stop()
    assert caught.value.kubectl_line == (
        "Unable to connect to the server: net/http: request canceled "
        "(Client.Timeout exceeded while awaiting headers)"
    )
    assert elapsed < 5, elapsed
