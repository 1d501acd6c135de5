"""Benchmark: ``kubectl crd scale`` against ``kubectl scale`` on a real API server.

Starts a kube-apiserver like the integration-test fixture, installs
``examples/crds/crontab.yaml`` (it has the scale subresource) with ``--objects``
CronTabs labelled ``app=bench``, and times as new processes, alternating, with a
bearer-token kubeconfig:

- one object: ``kubectl scale crontab/crontab-000 --replicas N`` and ours;
- every object by label: ``kubectl scale crontabs -l app=bench --replicas N`` and ours
  (ours scales them concurrently; kubectl one after another).

Replicas alternate between runs so that every run changes the objects. Targets
(issue 12): one object at most 1.5x ``kubectl scale``; many objects faster than it.

    .venv/bin/python bench/scale_bench.py [--runs 11] [--objects 100]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from live_bench import (  # noqa: E402
    FAILURES,
    NAMESPACE,
    OURS,
    row,
    serve_crontabs,
    timed,
    token_env,
)

from tests.integration.envtest import ControlPlane, ensure_assets, newest_kubectl  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--objects", type=int, default=100)
    args = parser.parse_args()
    kubectl = newest_kubectl()
    plane = ControlPlane(ensure_assets())
    work = Path(tempfile.mkdtemp(prefix="scale-bench-"))
    try:
        plane.start()
        serve_crontabs(plane, args.objects, lambda i: 1)
        env = token_env(plane, work)
        cache = f"--cache-dir={work / 'kube-cache'}"

        def commands(replicas: int) -> dict[str, list[str]]:
            one = ["crontab/crontab-000", f"--replicas={replicas}", "-n", NAMESPACE]
            many = ["crontabs", "-l", "app=bench", f"--replicas={replicas}", "-n", NAMESPACE]
            return {
                "kubectl scale (one)": [kubectl, cache, "scale", *one],
                "kubectl-crd scale (one)": [*OURS, "scale", *one],
                f"kubectl scale (-l, {args.objects})": [kubectl, cache, "scale", *many],
                f"kubectl-crd scale (-l, {args.objects})": [*OURS, "scale", *many],
            }

        for command in commands(2).values():  # warm caches and bytecode
            timed(command, env)
        times: dict[str, list[float]] = {name: [] for name in commands(1)}
        for run in range(args.runs):
            for name, command in commands(1 + run % 4).items():
                times[name].append(timed(command, env)[0])
    finally:
        shutil.rmtree(work, ignore_errors=True)
        plane.stop()
    print(f"scale: {args.objects} CronTabs; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    print(f"{'':<56} {'median':>7} {'min':>7} {'max':>7}    {'runs':>4} {'/kubectl':>7}")
    names = list(times)
    for kubectl_name, ours_name in ((names[0], names[1]), (names[2], names[3])):
        print(row(kubectl_name, times[kubectl_name]))
        print(row(ours_name, times[ours_name], times[kubectl_name]))
    for command, failure in FAILURES.items():
        print(f"FAILED: {command}: {failure}")


if __name__ == "__main__":
    main()
