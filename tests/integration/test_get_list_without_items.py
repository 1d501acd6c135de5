"""``get`` over a list answer without ``items``, side by side with the real ``kubectl get``.

No API server answers a list so, which is why the peer here is a loopback stand-in (the
style of ``tests/unit/security/test_hostile_peers.py``): it serves aggregated discovery
for one resource, ``foos``, and answers its list with a ``FooList`` that has no
``items`` key. client-go's unstructured decoder reads such an answer as one object
(``unstructuredJSONScheme.decode``: no ``items``, not a list), so kubectl prints one row
(NAME empty, AGE ``<unknown>``), one ``foolist.<group>/<unknown>`` name, or a ``List``
holding the FooList, and exits 0. Ours printed nothing (table) or "No resources found"
(``-o name``). Every output must now equal kubectl's, byte for byte, with its exit code.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from tests.integration.envtest import newest_kubectl
from tests.unit.kube.conftest import write_kubeconfig

GROUP, VERSION = "samplecontroller.k8s.io", "v1alpha1"
AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"


def _discovery(groups: list[dict[str, object]]) -> dict[str, object]:
    return {
        "kind": "APIGroupDiscoveryList",
        "apiVersion": "apidiscovery.k8s.io/v2",
        "metadata": {},
        "items": groups,
    }


FOOS = {
    "metadata": {"name": GROUP},
    "versions": [
        {
            "version": VERSION,
            "freshness": "Current",
            "resources": [
                {
                    "resource": "foos",
                    "singularResource": "foo",
                    "scope": "Namespaced",
                    "responseKind": {"group": GROUP, "version": VERSION, "kind": "Foo"},
                    "verbs": ["get", "list", "watch"],
                }
            ],
        }
    ],
}
#: the list answer: a list's kind and metadata, no items
LIST_WITHOUT_ITEMS = {
    "kind": "FooList",
    "apiVersion": f"{GROUP}/{VERSION}",
    "metadata": {"resourceVersion": "7"},
}


class _Peer(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    lists: ClassVar[list[str]] = []  # the list requests seen (paths with their queries)

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.partition("?")[0]
        content_type = "application/json"
        if path in ("/api", "/apis"):
            # aggregated discovery, which both clients ask for first
            content_type = AGGREGATED
            answer: object = _discovery([] if path == "/api" else [FOOS])
            status = 200
        elif path.endswith("/foos"):
            type(self).lists.append(self.path)
            answer, status = LIST_WITHOUT_ITEMS, 200
        else:
            answer = {"kind": "Status", "apiVersion": "v1", "status": "Failure"}
            answer.update(reason="NotFound", code=404, message="the server could not find it")
            status = 404
        body = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def kubeconfig(tmp_path: Path) -> Iterator[Path]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Peer)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield write_kubeconfig(
            tmp_path / "config",
            clusters={"c": {"server": f"http://127.0.0.1:{server.server_address[1]}"}},
            users={"u": {"token": "t"}},
            contexts={"x": {"cluster": "c", "user": "u", "namespace": "default"}},
            current="x",
        )
    finally:
        server.shutdown()
        server.server_close()


def _run(argv: list[str], kubeconfig: Path, home: Path) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KUBE", "KUBECTL_CRD"))}
    env["HOME"] = str(home)  # a fresh discovery cache for each run
    home.mkdir()
    done = subprocess.run(
        [*argv, f"--kubeconfig={kubeconfig}"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "flags",
    [[], ["-o", "wide"], ["-A"], ["--no-headers"], ["--show-labels"], ["-o", "name"],
     ["-o", "json"], ["-o", "yaml"], ["-o", "custom-columns=N:.metadata.name,K:.kind"]],
    ids=" ".join,
)  # fmt: skip
def test_a_list_answer_without_items_is_shown_as_kubectl_shows_it(
    kubeconfig: Path, tmp_path: Path, flags: list[str]
) -> None:
    _Peer.lists = []
    theirs = _run([newest_kubectl(), "get", "foos", *flags], kubeconfig, tmp_path / "kubectl")
    asked_by_kubectl = len(_Peer.lists)
    ours = _run(
        [sys.executable, "-m", "kubectl_crd", "get", "foos", *flags], kubeconfig, tmp_path / "ours"
    )
    assert asked_by_kubectl >= 1 and len(_Peer.lists) > asked_by_kubectl  # both read the list
    assert theirs[0] == 0, theirs  # the case is what kubectl shows, not an error
    assert ours == theirs
