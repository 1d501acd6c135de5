"""A short run of bench/soak_dev.py (issue 30's dev-loop faults), in CI.

The real ``kubectl crd dev`` process on 30 objects under a changing writer, each fault
once: kube-apiserver stopped and restarted on the same etcd (every watch cut), every
live connection reset by a proxy, dials refused for 5 s (the watches then resume from a
compacted resourceVersion: 410 Gone), a hot reload to broken code and back, objects
deleted through the loop's finalizer and recreated, SIGINT mid-work and a restart; reconcilers that raise, hang past
``--reconcile-timeout`` or sleep for some keys. The soak checks its own property
(every object converged with ``observedGeneration == generation``, no finalizer left
after a clean stop, the loop never died unasked) and prints its counts; the 10-minute,
1,000-object run and its figures are in the README's Hardening section.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.envtest import ensure_assets

SOAK = Path(__file__).parents[2] / "bench" / "soak_dev.py"
OBJECTS = 30
FAULTS = (
    "apiserver_restart", "proxy_reset", "reload_broken", "finalizers", "proxy_refuse",
    "sigint_restart",
)  # fmt: skip


@pytest.fixture(scope="module")
def assets() -> Path:
    return ensure_assets()


def test_the_dev_loop_converges_through_every_fault(assets: Path) -> None:
    done = subprocess.run(
        [
            sys.executable, str(SOAK), "--objects", str(OBJECTS), "--minutes", "5", "--cycles", "6",
            "--fault-every", "2", "--rate", "5", "--reload-rounds", "1", "--converge-timeout", "60",
            "--refuse-seconds", "5", "--faults", ",".join(FAULTS),
        ],
        capture_output=True, text=True, timeout=240, check=False,
        env={**os.environ, "KUBEBUILDER_ASSETS": str(assets)},
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr[-2000:]
    report = json.loads(done.stdout[done.stdout.index("{") :])
    assert report["failures"] == [], report
    assert done.returncode == 0
    assert report["converged"] == OBJECTS
    for kind in FAULTS:
        assert report["faults"].get(kind, 0) >= 1, report
    # the proxy reset live connections; a watch resumed after the refused window (5 s,
    # etcd compacted every 2 s, no watch cache) met 410 Gone and the loop relisted
    assert report["connections_reset"] >= 1, report
    assert report["refuse_410_seen"] == report["faults"]["proxy_refuse"], report
    # the broken edit was refused and the good one after it taken
    assert report["reloads_failed"] >= 1 and report["reloads_ok"] >= 1, report
    # the restart cut the watches; the loop reported it and carried on
    assert report["watch_errors"] >= 1, report
    assert report["objects_deleted_and_recreated"] >= 5, report
    assert report["spec_changes"] > 0 and report["reconciles"] > OBJECTS, report
    # two clean stops (the SIGINT fault and the final one), both exit 0
    assert report["loop_exits"] == [0, 0], report
