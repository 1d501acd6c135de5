"""Stopping ``kubectl crd dev`` with a few hundred objects carrying its finalizer: the
real command in a subprocess against the real API server.

bench/soak_dev.py found the loop deaf to SIGINT at 1,000 objects: it had been started
from a script's ``cmd &`` (SIGINT ignored, so Python installs no KeyboardInterrupt), ran
on until SIGKILL, and left its finalizer on every object. Here the loop is started with
SIGINT ignored the same way; a SIGINT must still stop it, remove every finalizer it
added (``--remove-finalizers-on-exit``), and exit 0 within seconds. A second SIGINT
during the stop leaves at once with one line counting the finalizers left.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.resources import ResourceClient
from tests.integration.envtest import ControlPlane
from tests.integration.test_dev_cli import GROUP, Loop, eventually, gizmos_crd, loop_env

__all__ = ["gizmos_crd", "loop_env"]  # the fixtures, shared with test_dev_cli

FINALIZER = "kubectl-crd.dev/finalizer"
OBJECTS = 300

FINALIZING = """\
import time

FOR = "gizmos.cli.dev.example.com/v1"


def reconcile(obj, ctx):
    if obj["metadata"]["name"] == "slow":
        time.sleep(60)
    return {"status": {"message": obj["spec"].get("message", "")}}


def finalize(obj, ctx):
    return True
"""


@pytest.fixture
def gizmos(
    apiserver: ControlPlane, gizmos_crd: str, namespace: str, tmp_path: Path
) -> Iterator[ResourceClient]:
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}) as client:
        yield ResourceClient(client, GROUP, "v1", "gizmos", namespaced=True, namespace=namespace)


def create(gizmos: ResourceClient, names: list[str]) -> None:
    def one(name: str) -> Any:
        body = {"apiVersion": f"{GROUP}/v1", "kind": "Gizmo", "metadata": {"name": name}}
        return gizmos.create({**body, "spec": {"message": "x"}})

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(one, names))


def carrying(gizmos: ResourceClient) -> set[str]:
    return {
        o["metadata"]["name"]
        for o in gizmos.items()
        if FINALIZER in (o["metadata"].get("finalizers") or ())
    }


def ignoring_sigint() -> None:
    """In the child before exec: SIGINT ignored, as a script's ``cmd &`` leaves it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_sigint_stops_a_loop_started_with_sigint_ignored_and_removes_every_finalizer(
    apiserver: ControlPlane,
    gizmos: ResourceClient,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "rec.py").write_text(FINALIZING)
    names = [f"g-{i:04}" for i in range(OBJECTS)]
    create(gizmos, names)
    args = ["rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig)]
    monkeypatch.setattr(subprocess, "Popen", partial(subprocess.Popen, preexec_fn=ignoring_sigint))
    loop = Loop([*args, "--remove-finalizers-on-exit"], tmp_path, loop_env)
    monkeypatch.undo()
    try:
        eventually(lambda: carrying(gizmos) == set(names), "the finalizer on every object", loop)
        began = time.monotonic()
        code = loop.interrupt(timeout=20)  # fails with the loop's threads and lines
        took = time.monotonic() - began
    finally:
        loop.kill()
    assert code == 0, loop.output()[-2000:]
    assert carrying(gizmos) == set()
    assert took < 10, took
    assert not any("Traceback" in line for line in loop.err), loop.output()[-2000:]
    (removed,) = [line for line in loop.out if "removed the loop's finalizer from" in line]
    assert removed.count(f"{namespace}/g-") == OBJECTS
    assert "warning" not in loop.output()


def test_a_second_sigint_leaves_at_once_counting_the_finalizers_left(
    apiserver: ControlPlane,
    gizmos: ResourceClient,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    (tmp_path / "rec.py").write_text(FINALIZING)
    names = ["slow", *(f"g-{i}" for i in range(5))]
    create(gizmos, names)
    args = ["rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig)]
    loop = Loop([*args, "--remove-finalizers-on-exit", "--log-format", "json"], tmp_path, loop_env)
    try:
        eventually(lambda: carrying(gizmos) == set(names), "the finalizer on every object", loop)
        loop.proc.send_signal(signal.SIGINT)
        loop.wait_for_line('"event": "Stopping"')
        time.sleep(0.5)
        assert loop.proc.poll() is None  # finishing the slow reconcile
        began = time.monotonic()
        assert loop.interrupt(timeout=10) == 130
        assert time.monotonic() - began < 5
    finally:
        loop.kill()
    assert carrying(gizmos) == set(names)
    warnings = [json.loads(line) for line in loop.out if '"event": "warning"' in line]
    assert [w["message"] for w in warnings] == [
        "interrupted again: 6 objects still carry the loop's finalizer and cannot be "
        "deleted until a loop removes it (let the stop finish, or run again with "
        "--remove-finalizers-on-exit)"
    ]
    assert not any("Traceback" in line for line in loop.err), loop.output()
