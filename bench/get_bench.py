"""Benchmark: ``kubectl crd get`` against ``kubectl get``, live and offline.

Starts a kube-apiserver like the integration-test fixture, installs
``examples/crds/crontab.yaml`` with ``--objects`` CronTabs, and times as new processes,
alternating, with a bearer-token kubeconfig:

- one object: ``kubectl get crontab crontab-000`` and ours;
- every object: ``kubectl get crontabs`` and ours (LIST in pages of 500 for both);
- offline: ``kubectl crd get crontabs -f DIR`` over ``--offline-objects`` CronTabs in
  files (pruned, defaulted, the columns computed), against no peer: the target is
  a time (under 1 s for 10,000); warm (the files in the parsed-value cache, as on any
  run after the first) and cold (an empty cache);
- memory: the peak resident memory of each live get above (the list in pages);
- watch: ``kubectl get crontabs -w --watch-only`` and ours run side by side while an
  object is patched ``--runs`` times; the delay from the PATCH's answer to the row on
  each one's stdout (the server sends the event about when it answers).

Targets (issue 11): live get at most 1.5x ``kubectl get``; 10,000 objects rendered
offline in under 1 s; ``-w`` shows a change within 100 ms of the server's event.

    .venv/bin/python bench/get_bench.py [--runs 11] [--objects 1000] [--offline-objects 10000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from live_bench import (  # noqa: E402
    EXAMPLE_CRD,
    FAILURES,
    NAMESPACE,
    OURS,
    crontabs,
    row,
    serve_crontabs,
    timed,
    token_env,
)

from tests.integration.envtest import ControlPlane, ensure_assets, newest_kubectl  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--offline-objects", type=int, default=10000)
    args = parser.parse_args()
    kubectl = newest_kubectl()
    work = Path(tempfile.mkdtemp(prefix="get-bench-"))
    offline = work / "offline"
    offline.mkdir()
    for start in range(0, args.offline_objects, 100):
        batch = crontabs(range(start, min(start + 100, args.offline_objects)), lambda i: i % 10)
        (offline / f"{start:06d}.yaml").write_text(batch)
    plane = ControlPlane(ensure_assets())
    try:
        plane.start()
        serve_crontabs(plane, args.objects, lambda i: 1)
        env = token_env(plane, work)
        cache = f"--cache-dir={work / 'kube-cache'}"
        commands = {
            "kubectl get (one)": [kubectl, cache, "get", "crontab", "crontab-000", "-n", NAMESPACE],
            "kubectl-crd get (one)": [*OURS, "get", "crontab", "crontab-000", "-n", NAMESPACE],
            f"kubectl get ({args.objects})": [kubectl, cache, "get", "crontabs", "-n", NAMESPACE],
            f"kubectl-crd get ({args.objects})": [*OURS, "get", "crontabs", "-n", NAMESPACE],
            f"kubectl-crd get -f ({args.offline_objects}, offline)": [
                *OURS,
                "get",
                "crontabs",
                "-f",
                str(offline),
                "--crd",
                str(EXAMPLE_CRD),
            ],
        }
        for command in commands.values():  # warm caches and bytecode
            timed(command, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        offline_name = list(commands)[4]
        cold_name = offline_name.replace("offline", "offline, cold cache")
        times[cold_name] = []
        for run in range(args.runs):
            for name, command in commands.items():
                times[name].append(timed(command, env)[0])
            # the first run over these files: nothing in the parsed-value cache
            cold = dict(env, KUBECTL_CRD_CACHE_DIR=str(work / f"cold-cache-{run}"))
            times[cold_name].append(timed(commands[offline_name], cold)[0])
        memory = {name: peak_kb(commands[name], env) for name in list(commands)[:4]}
        watch = ["get", "crontabs", "-n", NAMESPACE, "--watch-only"]
        delays = watch_delays(
            plane,
            {"kubectl get -w": [kubectl, cache, *watch], "kubectl-crd get -w": [*OURS, *watch]},
            env,
            args.runs,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
        plane.stop()
    print(
        f"get: {args.objects} CronTabs live; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'':<56} {'median':>7} {'min':>7} {'max':>7}    {'runs':>4} {'/kubectl':>7}")
    names = list(times)
    for kubectl_name, ours_name in ((names[0], names[1]), (names[2], names[3])):
        print(row(kubectl_name, times[kubectl_name]))
        print(row(ours_name, times[ours_name], times[kubectl_name]))
    print(row(names[4], times[names[4]]))
    print(row(names[5], times[names[5]]))
    print("peak memory (MB): " + ", ".join(f"{k} {v / 1024:.0f}" for k, v in memory.items()))
    for name, values in delays.items():
        print(
            f"{name + ' (PATCH answered to row shown)':<56} {statistics.median(values):7.1f} "
            f"{min(values):7.1f} {max(values):7.1f} ms {len(values):4d}"
        )
    for command, failure in FAILURES.items():
        print(f"FAILED: {command}: {failure}")


def peak_kb(command: list[str], env: dict[str, str]) -> int:
    """The peak resident memory of one run of ``command``, in KiB (a fresh parent, so
    ``RUSAGE_CHILDREN`` is that run's alone)."""
    probe = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], capture_output=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *command], capture_output=True, text=True, env=env
    )
    return int(done.stdout.strip() or 0)


def watch_delays(
    plane: ControlPlane, commands: dict[str, list[str]], env: dict[str, str], runs: int
) -> dict[str, list[float]]:
    """Milliseconds from each PATCH's answer to the row on each watcher's stdout."""
    from kubectl_crd.kube.client import MERGE_PATCH, KubeClient
    from kubectl_crd.kube.config import ClusterConfig

    seen: dict[str, list[float]] = {name: [] for name in commands}
    processes = {
        name: subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
        for name, command in commands.items()
    }

    def read(name: str, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if "crontab-000" in line:
                seen[name].append(time.perf_counter())

    readers = [threading.Thread(target=read, args=item, daemon=True) for item in processes.items()]
    for reader in readers:
        reader.start()
    time.sleep(3)  # both are watching
    client = KubeClient(ClusterConfig(kubeconfig=env["KUBECONFIG"]))
    path = f"/apis/stable.example.com/v1/namespaces/{NAMESPACE}/crontabs/crontab-000"
    answered: list[float] = []
    for run in range(runs):
        body = {"spec": {"replicas": 2 + run % 8}}
        client.request("PATCH", path, body=body, content_type=MERGE_PATCH)
        answered.append(time.perf_counter())
        time.sleep(0.5)
    for process in processes.values():
        process.terminate()
        process.wait()
    client.close()
    return {
        name: [(shown - sent) * 1000 for shown, sent in zip(times, answered, strict=False)]
        for name, times in seen.items()
    }


if __name__ == "__main__":
    main()
