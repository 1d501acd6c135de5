"""KubeClient's HTTP behaviour on a scripted loopback server: bodies, headers, keep-alive,
Retry-After, Warning headers, watch streams and 410, and kubectl's error lines."""

from __future__ import annotations

import base64
import json
import socket
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube import transport
from kubectl_crd.kube.client import APPLY_PATCH, TABLE_ACCEPT, KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.errors import (
    ApiError,
    ClusterUnreachableError,
    ResourceExpiredError,
    UnauthorizedError,
)
from tests.unit.kube.conftest import Reply, ScriptedServer, write_kubeconfig


def _client(
    tmp_path: Path,
    server: str,
    user: dict[str, Any] | None = None,
    warnings: list[str] | None = None,
    **flags: str,
) -> KubeClient:
    path = write_kubeconfig(
        tmp_path / "kubeconfig",
        clusters={"c": {"server": server}},
        users={"u": user or {}},
        contexts={"x": {"cluster": "c", "user": "u", "namespace": "team"}},
        current="x",
    )
    return KubeClient(
        ClusterConfig(kubeconfig=str(path), **flags),
        environ={"HOME": str(tmp_path)},
        on_warning=(warnings.append if warnings is not None else lambda _: None),
    )


def test_bodies_are_encoded_once(tmp_path: Path, scripted_server: ScriptedServer) -> None:
    client = _client(tmp_path, scripted_server.url)
    client.request("PATCH", "/a", body='{"spec":{"replicas":2}}', content_type=APPLY_PATCH)
    client.request("POST", "/b", body={"spec": {"replicas": 3}})
    client.request("PUT", "/c", body=b"raw")
    first, second, third = scripted_server.requests
    assert first["body"] == b'{"spec":{"replicas":2}}'
    assert first["headers"]["Content-Type"] == APPLY_PATCH
    assert json.loads(second["body"]) == {"spec": {"replicas": 3}}
    assert second["headers"]["Content-Type"] == "application/json"
    assert third["body"] == b"raw"


def test_one_connection_for_all_requests(tmp_path: Path, scripted_server: ScriptedServer) -> None:
    client = _client(tmp_path, scripted_server.url)
    for _ in range(3):
        client.request("GET", "/x")
    assert len({r["client_port"] for r in scripted_server.requests}) == 1


def test_server_closing_the_connection_is_not_an_error(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    scripted_server.replies = [Reply(200, {"n": 1}, close=True), Reply(200, {"n": 2})]
    client = _client(tmp_path, scripted_server.url)
    assert client.request("GET", "/x") == {"n": 1}
    assert client.request("GET", "/x") == {"n": 2}


def test_query_accept_and_server_path_prefix(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    client = _client(tmp_path, scripted_server.url + "/k8s/clusters/c-1")
    client.request(
        "GET",
        "/apis/g/v1/things",
        query={"labelSelector": "a=b,c", "limit": 5, "watch": False, "continue": None},
        accept=TABLE_ACCEPT,
    )
    (request,) = scripted_server.requests
    assert (
        request["path"]
        == "/k8s/clusters/c-1/apis/g/v1/things?labelSelector=a%3Db%2Cc&limit=5&watch=false"
    )
    assert request["headers"]["Accept"] == TABLE_ACCEPT


def test_request_timeout_is_sent_to_the_server(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    _client(tmp_path, scripted_server.url, request_timeout="1m30s").request("GET", "/x")
    assert scripted_server.requests[0]["path"] == "/x?timeout=1m30s"  # Duration.String


def test_retry_after_is_honoured(tmp_path: Path, scripted_server: ScriptedServer) -> None:
    scripted_server.replies = [
        Reply(429, {"kind": "Status", "reason": "TooManyRequests"}, [("Retry-After", "0")]),
        Reply(503, b"busy", [("Retry-After", "0")]),
        Reply(200, {"ok": True}),
    ]
    assert _client(tmp_path, scripted_server.url).request("GET", "/x") == {"ok": True}
    assert len(scripted_server.requests) == 3


def test_retries_are_bounded(tmp_path: Path, scripted_server: ScriptedServer) -> None:
    scripted_server.replies = [Reply(429, b"", [("Retry-After", "0")]) for _ in range(20)]
    with pytest.raises(ApiError) as caught:
        _client(tmp_path, scripted_server.url).request("GET", "/x")
    assert caught.value.status == 429
    assert len(scripted_server.requests) == 11


def test_warning_headers_are_reported_once(tmp_path: Path, scripted_server: ScriptedServer) -> None:
    headers = [
        ("Warning", '299 - "v1 Thing is deprecated", 299 - "quoted \\"x\\""'),
        ("Warning", '199 - "not a 299"'),
    ]
    scripted_server.replies = [Reply(200, {}, headers), Reply(200, {}, headers)]
    seen: list[str] = []
    client = _client(tmp_path, scripted_server.url, warnings=seen)
    client.request("GET", "/x")
    client.request("GET", "/x")
    assert seen == ["v1 Thing is deprecated", 'quoted "x"']


def test_credentials_and_impersonation_headers(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    client = _client(
        tmp_path,
        scripted_server.url,
        user={
            "username": "me",
            "password": "MARKER-pw",
            "as": "alice",
            "as-uid": "42",
            "as-groups": ["g1", "g2"],
            "as-user-extra": {"scopes/x": ["a"]},
        },
    )
    client.request("GET", "/x")
    headers = scripted_server.requests[0]["all_headers"]
    assert ("Authorization", "Basic " + base64.b64encode(b"me:MARKER-pw").decode()) in headers
    assert ("Impersonate-User", "alice") in headers
    assert ("Impersonate-Uid", "42") in headers
    assert [v for k, v in headers if k == "Impersonate-Group"] == ["g1", "g2"]
    assert ("Impersonate-Extra-scopes%2Fx", "a") in headers
    assert "MARKER" not in repr(client) + repr(client.credentials)


def test_token_file_is_read_again_when_it_changes(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("first\n")
    client = _client(tmp_path, scripted_server.url, user={"tokenFile": str(token_file)})
    client.request("GET", "/x")
    token_file.write_text("second-token\n")
    client.request("GET", "/x")
    token_file.unlink()  # an unreadable file keeps the last token
    client.request("GET", "/x")
    assert [r["headers"]["Authorization"] for r in scripted_server.requests] == [
        "Bearer first",
        "Bearer second-token",
        "Bearer second-token",
    ]


def test_401_fails_and_refreshes_for_the_next_request(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("old")
    scripted_server.replies = [
        Reply(401, {"kind": "Status", "reason": "Unauthorized", "message": "Unauthorized"})
    ]
    client = _client(tmp_path, scripted_server.url, user={"tokenFile": str(token_file)})
    with pytest.raises(UnauthorizedError) as caught:
        client.request("GET", "/x")
    assert caught.value.kubectl_line == "error: You must be logged in to the server (Unauthorized)"
    assert len(scripted_server.requests) == 1


def test_watch_streams_events_and_bookmarks(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    scripted_server.replies = [
        Reply(
            lines=[
                {"type": "ADDED", "object": {"metadata": {"name": "a", "resourceVersion": "5"}}},
                {"type": "BOOKMARK", "object": {"metadata": {"resourceVersion": "7"}}},
                {
                    "type": "ERROR",
                    "object": {
                        "kind": "Status",
                        "code": 410,
                        "reason": "Expired",
                        "message": "too old resource version: 1 (7)",
                    },
                },
            ]
        )
    ]
    client = _client(tmp_path, scripted_server.url)
    events = client.watch(
        "/apis/g/v1/things", query={"resourceVersion": "1", "allowWatchBookmarks": True}
    )
    first = next(events)
    assert (first.type, first.resource_version) == ("ADDED", "5")
    bookmark = next(events)
    assert (bookmark.type, bookmark.resource_version) == ("BOOKMARK", "7")
    with pytest.raises(ResourceExpiredError) as caught:
        next(events)
    assert caught.value.kubectl_line == (
        "Error from server (Expired): too old resource version: 1 (7)"
    )
    assert scripted_server.requests[0]["path"] == (
        "/apis/g/v1/things?watch=true&resourceVersion=1&allowWatchBookmarks=true"
    )


def test_watch_answered_410(tmp_path: Path, scripted_server: ScriptedServer) -> None:
    scripted_server.replies = [Reply(410, {"kind": "Status", "code": 410, "reason": "Expired"})]
    with pytest.raises(ResourceExpiredError):
        next(_client(tmp_path, scripted_server.url).watch("/x"))


# (status, body, kubectl's line) - client-go's NewGenericServerResponse for non-Status bodies
STATUS_TABLE = [
    (
        403,
        {
            "kind": "Status",
            "reason": "Forbidden",
            "message": 'things.g is forbidden: User "u" cannot list resource "things"',
        },
        'Error from server (Forbidden): things.g is forbidden: User "u" cannot list resource "things"',
    ),
    (
        404,
        {"kind": "Status", "reason": "NotFound", "message": 'things.g "a" not found'},
        'Error from server (NotFound): things.g "a" not found',
    ),
    (
        404,
        b"404 page not found",
        "Error from server (NotFound): the server could not find the requested resource "
        "(get things.g a)",
    ),
    (
        400,
        b"Client sent an HTTP request to an HTTPS server.",
        "Error from server (BadRequest): the server rejected our request for an unknown reason "
        "(get things.g a)",
    ),
    (
        401,
        b"",
        "error: You must be logged in to the server (the server has asked for the client to "
        "provide credentials (get things.g a))",
    ),
    (
        500,
        b"boom",
        'Error from server (InternalError): an error on the server ("boom") has prevented the '
        "request from succeeding (get things.g a)",
    ),
    (418, b"", "Error from server: the server responded with the status code 418 but did not "
     "return more information (get things.g a)"),
]  # fmt: skip


@pytest.mark.parametrize(("status", "body", "line"), STATUS_TABLE)
def test_status_errors_read_as_kubectl(
    tmp_path: Path, scripted_server: ScriptedServer, status: int, body: Any, line: str
) -> None:
    scripted_server.replies = [Reply(status, body)]
    with pytest.raises(ApiError) as caught:
        _client(tmp_path, scripted_server.url).request("GET", "/apis/g/v1/namespaces/team/things/a")
    assert caught.value.kubectl_line == line
    assert caught.value.status == status


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_refused_connection(tmp_path: Path) -> None:
    port = _closed_port()
    with pytest.raises(ClusterUnreachableError) as caught:
        _client(tmp_path, f"https://127.0.0.1:{port}", user={"token": "t"}).request("GET", "/x")
    assert caught.value.kubectl_line == (
        f"The connection to the server 127.0.0.1:{port} was refused - "
        "did you specify the right host or port?"
    )
    assert caught.value.__cause__ is not None


def test_a_silent_server_times_out(tmp_path: Path) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = _client(tmp_path, f"http://127.0.0.1:{port}", request_timeout="0.3s")
        with pytest.raises(ClusterUnreachableError) as caught:
            client.request("GET", "/x")
    assert caught.value.kubectl_line == (
        "Unable to connect to the server: net/http: request canceled "
        "(Client.Timeout exceeded while awaiting headers)"
    )


def _silent_tls_line(tmp_path: Path, request_timeout: str) -> str:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = _client(
            tmp_path,
            f"https://127.0.0.1:{port}",
            user={"token": "t"},
            request_timeout=request_timeout,
        )
        with pytest.raises(ClusterUnreachableError) as caught:
            client.request("GET", "/x")
    return caught.value.kubectl_line


def test_a_silent_tls_server_within_the_request_timeout_is_a_request_canceled(
    tmp_path: Path,
) -> None:
    """The request's timeout passes while net/http waits for its connection (kubectl
    1.33 against a server that never answers the TLS handshake, --request-timeout=1s)."""
    assert _silent_tls_line(tmp_path, "0.3s") == (
        "Unable to connect to the server: net/http: request canceled while waiting for "
        "connection (Client.Timeout exceeded while awaiting headers)"
    )


def test_a_silent_tls_server_past_the_handshake_timeout_is_a_handshake_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The transport's own TLSHandshakeTimeout (10 s; shortened here) passes first."""
    monkeypatch.setattr(transport, "TLS_HANDSHAKE_TIMEOUT_SECONDS", 0.2)
    assert _silent_tls_line(tmp_path, "5s") == (
        "Unable to connect to the server: net/http: TLS handshake timeout"
    )


def test_a_body_is_json_the_servers_yaml_reader_keeps_as_it_is() -> None:
    """Non-ASCII as UTF-8 (no surrogate-pair escapes, which go-yaml refuses), and what
    go-yaml would refuse or fold (DEL, C1 controls, NEL, U+2028/9, a BOM, U+FFFE/F, a lone
    surrogate) escaped; the JSON reads back as the same object."""
    import json

    from kubectl_crd.kube.client import encode_body

    text = '\U0001f600 \u00e9 \x7f\x85\x9f \u2028\u2029\ufeff\ufffe\uffff \ud800 \t\n"\\'
    encoded = encode_body({"a": text})
    assert encoded == (
        b'{"a":"\xf0\x9f\x98\x80 \xc3\xa9 \\u007f\\u0085\\u009f '
        b'\\u2028\\u2029\\ufeff\\ufffe\\uffff \\ud800 \\t\\n\\"\\\\"}'
    )
    assert json.loads(encoded) == {"a": text}


def test_a_watch_closed_while_its_connection_is_made_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """close() from another thread between the stream's closed check and its connection
    being set saw no connection to abort: the read then waited on a silent server for
    ever (the reflector closed again every 0.1 s to get past it)."""
    with socket.socket() as listener:  # accepts (the backlog), never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = _client(tmp_path, f"http://127.0.0.1:{port}")
        stream = client.watch("/x", read_timeout=5.0)
        made = client._new_connection

        def closed_meanwhile(*, timeout: float | None) -> Any:
            connection = made(timeout=timeout)
            stream.close()  # the other thread, at the worst moment
            return connection

        monkeypatch.setattr(client, "_new_connection", closed_meanwhile)
        assert list(stream) == []
        # before: the request went out and its read waited out the 5 s read timeout
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):
            listener.accept()


def test_an_abort_before_the_socket_is_connected_still_shuts_it(tmp_path: Path) -> None:
    """abort() while connect() dials sees no socket yet; connect shuts down what it
    connects, so the read in the other thread ends at once instead of waiting."""
    from kubectl_crd.kube.transport import ServerConnection

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        connection = ServerConnection(
            "127.0.0.1", port, tls_context=None, server_name="127.0.0.1", timeout=5.0
        )
        connection.abort()
        connection.connect()
        try:
            assert connection.reader is not None
            # before: TimeoutError after 5 s (the socket open, the server silent)
            assert connection.reader.read(1) == b""
        finally:
            connection.close()
