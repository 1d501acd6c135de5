"""The server-URL splitter and query encoder that stand in for urllib.parse on the
start-up path, checked against urllib.parse itself."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import pytest

from kubectl_crd.kube.transport import ServerURL, query_string

SERVERS = [
    "https://127.0.0.1:6443",
    "https://api.example.com",
    "http://localhost:8080",
    "https://[fd00::1]:6443/k8s/clusters/c-1",
    "https://[::1]",
    "https://user@host.example:443/prefix/?x=1#frag",
    "https://Kube.Example.COM:8443/",
]


@pytest.mark.parametrize("server", SERVERS)
def test_server_url_agrees_with_urlsplit(server: str) -> None:
    ours, theirs = ServerURL(server), urlsplit(server)
    assert ours.scheme == theirs.scheme
    assert ours.host.lower() == theirs.hostname
    assert ours.port == (theirs.port or (443 if theirs.scheme == "https" else 80))
    assert ours.path == theirs.path
    assert ours.hostport == theirs.netloc.rpartition("@")[2]


@pytest.mark.parametrize(
    "pairs",
    [
        [("labelSelector", "app in (a, b),tier!=x")],
        [("fieldSelector", "metadata.name=a/b"), ("limit", "500")],
        [("continue", "eyJ2Ijoi+/=="), ("dryRun", "All")],
        [("fieldManager", "kubectl-crd é~_.-")],
    ],
)
def test_query_string_agrees_with_urlencode(pairs: list[tuple[str, str]]) -> None:
    assert query_string(pairs) == urlencode(pairs)
