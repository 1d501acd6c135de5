"""Cluster answers are not trusted: a peer whose answers are not what an API server
sends gets a one-line error and exit 1 from every command, never an internal error.

The peers are loopback stand-ins (``credentials.failing_peers`` and below), not the API
server: no API server sends these answers.
"""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
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


def _deep(depth: int) -> bytes:
    return b'{"kind":"APIGroupList","groups":[' + b'{"a":' * depth + b"1" + b"}" * depth + b"]}"


@pytest.fixture
def deep_peer() -> Iterator[str]:
    # deeper than Python's JSON reader goes (its recursion limit, about 1,000 levels)
    handler = type("Deep", (_FailingHandler,), {"status": 200, "body": _deep(5000)})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_answer_nested_too_deeply_is_one_error_line(
    deep_peer: str, tmp_path: Path, command: list[str]
) -> None:
    config = write_kubeconfig(
        tmp_path / "config",
        clusters={"c": {"server": deep_peer}},
        users={"u": {"token": "t"}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KUBE", "KUBECTL_CRD"))}
    env["HOME"] = str(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", *command, f"--kubeconfig={config}"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    # it was "error: internal error: RecursionError: ..." and exit 3
    assert (result.returncode, result.stderr) == (1, f"{TOO_DEEP}\n")
