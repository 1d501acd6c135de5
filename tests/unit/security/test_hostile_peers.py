"""Cluster answers are not trusted: a peer whose answers are not what an API server
sends gets a one-line error and exit 1 from every command, never an internal error.

The peers are loopback stand-ins (``credentials.failing_peers`` and below), not the API
server: no API server sends these answers.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kubectl_crd.kube.client import TOO_DEEP
from tests.unit.kube.conftest import write_kubeconfig
from tests.unit.security.credentials import _FailingHandler

REPO = Path(__file__).resolve().parents[3]
COMMANDS = [
    ["get", "foos"],
    ["explain", "foos"],
    ["scale", "foos/x", "--replicas=2"],
    ["dev", str(REPO / "examples" / "foo" / "reconciler.py"), "--once"],
]


#: answers of the right kind with the wrong shapes inside (a list where a mapping goes, a
#: number where a list goes), for discovery and the CRD list alike
SHAPES = {
    "items-string": b'{"kind":"APIGroupDiscoveryList","items":"x","resources":"z"}',
    "items-numbers": b'{"kind":"APIGroupDiscoveryList","items":[1,2],"resources":[1]}',
    "inner-shapes": json.dumps(
        {
            "kind": "APIGroupDiscoveryList",
            "items": [
                {"metadata": "x", "versions": "y"},
                {
                    "metadata": {"name": "samplecontroller.k8s.io"},
                    "versions": [
                        {
                            "version": "v1alpha1",
                            "resources": [
                                {
                                    "resource": "foos",
                                    "responseKind": "Foo",
                                    "shortNames": 5,
                                    "subresources": "s",
                                },
                                7,
                            ],
                        }
                    ],
                },
            ],
        }
    ).encode(),
    # a CRD no API server serves: properties a string (cluster CRDs skip the structural
    # check, which the server made)
    "crd-schema": json.dumps(
        {
            "kind": "CustomResourceDefinitionList",
            "items": [
                {"metadata": {"name": "foos.samplecontroller.k8s.io"}, "spec": "x"},
                {
                    "metadata": {"name": "foos.samplecontroller.k8s.io"},
                    "spec": {
                        "group": "samplecontroller.k8s.io",
                        "names": {"plural": "foos", "kind": "Foo"},
                        "scope": "Namespaced",
                        "versions": [
                            {
                                "name": "v1alpha1",
                                "served": True,
                                "storage": True,
                                "schema": {
                                    "openAPIV3Schema": {"type": "object", "properties": "p"}
                                },
                            }
                        ],
                    },
                },
            ],
        }
    ).encode(),
}


def _deep(depth: int) -> bytes:
    return b'{"kind":"APIGroupList","groups":[' + b'{"a":' * depth + b"1" + b"}" * depth + b"]}"


@contextmanager
def _peer(body: bytes) -> Iterator[str]:
    handler = type("Peer", (_FailingHandler,), {"status": 200, "body": body})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _run(peer: str, tmp_path: Path, command: list[str]) -> subprocess.CompletedProcess[str]:
    config = write_kubeconfig(
        tmp_path / "config",
        clusters={"c": {"server": peer}},
        users={"u": {"token": "t"}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KUBE", "KUBECTL_CRD"))}
    env["HOME"] = str(tmp_path)
    return subprocess.run(
        [sys.executable, "-m", "kubectl_crd", *command, f"--kubeconfig={config}"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_answer_nested_too_deeply_is_one_error_line(tmp_path: Path, command: list[str]) -> None:
    # deeper than Python's JSON reader goes (its recursion limit, about 1,000 levels)
    with _peer(_deep(5000)) as peer:
        result = _run(peer, tmp_path, command)
    # it was "error: internal error: RecursionError: ..." and exit 3
    assert (result.returncode, result.stderr) == (1, f"{TOO_DEEP}\n")


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_answers_of_the_wrong_shape_are_no_internal_error(
    tmp_path: Path, command: list[str], shape: str
) -> None:
    with _peer(SHAPES[shape]) as peer:
        result = _run(peer, tmp_path, command)
    # they were "internal error: AttributeError/TypeError ..." and exit 3 (discovery's
    # resources_of, the cluster CRD source, the resolver's CRD names, explain's schema)
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    if command[0] == "get" and shape == "inner-shapes":
        # foos is found; its list answer is then the same body: a list whose items take
        # the list's kind, read as client-go's unstructured decoder reads them (apimachinery's
        # unstructured/helpers.go decodeToList), shown by name and age as kubectl shows an
        # answer that is no Table: an item whose metadata is no mapping has no name
        assert (result.returncode, result.stderr) == (0, ""), result.stderr
        assert result.stdout.splitlines() == [
            "NAME                      AGE",
            "                          <unknown>",
            "samplecontroller.k8s.io   <unknown>",
        ]
    else:
        assert result.returncode == 1, result.stderr
        lines = result.stderr.strip().splitlines()
        errors = [line for line in lines if line.startswith(("error:", "Error from server"))]
        assert len(errors) == 1, result.stderr  # warnings and hints may surround it
