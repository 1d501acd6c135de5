"""Stopping ``kubectl crd dev`` with a few hundred objects carrying its finalizer: the
real command in a subprocess against the real API server.

bench/soak_dev.py found the loop deaf to SIGINT at 1,000 objects: it had been started
from a script's ``cmd &`` (SIGINT ignored, so Python installs no KeyboardInterrupt), ran
on until SIGKILL, and left its finalizer on every object. Here the loop is started with
SIGINT ignored the same way; a SIGINT must still stop it, remove every finalizer it
added (``--remove-finalizers-on-exit``), and exit 0, the stop ending by itself (not
at its timeout). A second SIGINT during the stop leaves at once, without waiting for the
reconcile in flight, with one line counting the finalizers left.
"""

from __future__ import annotations

import json
import signal
import subprocess
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
#: how long a graceful stop waits for the reconciles in flight (Controller.stop's default)
STOP_TIMEOUT = 30.0

FINALIZING = """\
import time

FOR = "gizmos.cli.dev.example.com/v1"


def reconcile(obj, ctx):
    if obj["metadata"]["name"] == "slow":
        time.sleep(3600)  # in flight for good: only the stop's timeout or exit ends it
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


def stamp_of(loop: Loop, text: str) -> float:
    """The ``HH:MM:SS.mmm`` stamp of the loop's line that says ``text`` (``stopping``, also
    as ``stopping, finishing 1 in flight``), in seconds of its day (a difference of two
    is taken modulo a day: a stop may span midnight)."""
    (line,) = [line for line in loop.out if line.partition(" ")[2].split(",")[0] == text]
    hours, minutes, seconds = line.split(" ", 1)[0].split(":")
    return (int(hours) * 60 + int(minutes)) * 60 + float(seconds)


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
        code = loop.interrupt()  # fails with the loop's threads and lines at HANG_GUARD
    finally:
        loop.kill()
    assert code == 0, loop.output()[-2000:]
    assert carrying(gizmos) == set()
    # the stop, finalizers and all, timed by the loop's own clock (its lines' stamps),
    # not by the test's, which adds the signal, the interpreter's exit and a loaded CI
    # machine's delays. The promise is a stop that ends by itself, not by giving up:
    # under the graceful stop's own timeout, which one waiting on a worker that never
    # ends would reach (300 removals take 1.2-1.4 s on an idle 2-core machine)
    took = (stamp_of(loop, "stopped") - stamp_of(loop, "stopping")) % 86400
    assert took < STOP_TIMEOUT, took
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
        stopping = json.loads(loop.wait_for_line('"event": "Stopping"'))
        # the loop says it waits for the slow reconcile, which never returns by itself
        assert stopping["in_flight"] == 1 and loop.proc.poll() is None
        assert loop.interrupt() == 130
    finally:
        loop.kill()
    assert carrying(gizmos) == set(names)
    warnings = [json.loads(line) for line in loop.out if '"event": "warning"' in line]
    # "at once": the second SIGINT cut the stop short, by the loop's own clock, before
    # the graceful stop would have given up on the reconcile in flight by itself
    # (Controller.stop's 30 s), after which it would remove the finalizers and exit 0
    assert warnings and warnings[0]["time"] - stopping["time"] < STOP_TIMEOUT, warnings
    assert [w["message"] for w in warnings] == [
        "interrupted again: 6 objects still carry the loop's finalizer and cannot be "
        "deleted until a loop removes it (let the stop finish, or run again with "
        "--remove-finalizers-on-exit)"
    ]
    assert not any("Traceback" in line for line in loop.err), loop.output()
