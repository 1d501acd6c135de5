"""Benchmark: ``kubectl crd dev --local DIR --once`` over the Foo example (issue 27's speed row).

DIR is generated in a temporary directory: examples/foo's CRD and ``--objects`` Foos
(one file, one document each, ``spec.deploymentName`` and ``spec.replicas`` set), which
is all examples/foo/reconciler.py needs (it owns the Deployments it creates).

Figures, from runs that alternate between the two commands (``--runs`` each):

- start-up: the same command over a DIR holding the CRD and no Foo (imports, loading the
  reconciler, the CRD, the engine's start and its ``--once`` settle);
- the full run over ``--objects`` Foos; the difference of the medians is the cost of
  the objects, against issue 27's target of 1 s for 1,000; the same difference in CPU
  time (user + system of the child process), which a loaded machine disturbs least;
- the store's memory per object: ``tracemalloc`` over loading DIR into a ``LocalBackend``
  (the Foos as the store keeps them, with what their file applied) divided by N, and
  the same after one reconcile per Foo has applied its Deployment (Foo + Deployment +
  both managers' applied records, per Foo).

The load average is printed next to the figures (the machine is shared).

    .venv/bin/python bench/local_bench.py [--objects 1000] [--runs 5]
    .venv/bin/python bench/local_bench.py --smoke     # 20 objects, one run: that it works
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXAMPLE = ROOT / "examples" / "foo"
TARGET_SECONDS = 1.0


def make_dir(path: Path, objects: int) -> Path:
    """DIR with the Foo CRD and ``objects`` Foos."""
    path.mkdir(parents=True, exist_ok=True)
    shutil.copy(EXAMPLE / "crd.yaml", path / "crd.yaml")
    docs = [
        "apiVersion: samplecontroller.k8s.io/v1alpha1\n"
        "kind: Foo\n"
        "metadata:\n"
        f"  name: foo-{i:05d}\n"
        "  namespace: default\n"
        "spec:\n"
        f"  deploymentName: foo-{i:05d}\n"
        f"  replicas: {1 + i % 3}\n"
        for i in range(objects)
    ]
    if docs:
        (path / "foos.yaml").write_text("---\n".join(docs))
    return path


def command(directory: Path, jobs: int | None = None) -> list[str]:
    return [
        sys.executable,
        "-m",
        "kubectl_crd",
        "dev",
        str(EXAMPLE / "reconciler.py"),
        "--local",
        str(directory),
        "--once",
        "--log-format",
        "json",
        *(["-j", str(jobs)] if jobs is not None else []),
    ]


def timed(directory: Path, jobs: int | None = None) -> tuple[float, float]:
    """The run's wall time and CPU time (user + system: what a busy machine changes
    least)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command(directory, jobs), capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
        raise SystemExit(f"dev --local --once exited {done.returncode}: {' / '.join(tail)}")
    return elapsed, cpu


def memory_per_object(directory: Path, objects: int) -> tuple[float, float]:
    """Bytes per Foo held by the store after loading DIR, and after each Foo's
    Deployment is applied (what one reconcile writes)."""
    import gc
    import tracemalloc

    sys.path.insert(0, str(ROOT))
    from kubectl_crd.reconcile.local import LocalBackend

    # imports and caches warmed outside the measure (a first small load)
    warm = make_dir(directory.parent / "warm", 2)
    LocalBackend(str(warm)).load()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    backend = LocalBackend(str(directory))
    backend.load()
    gc.collect()
    loaded = tracemalloc.get_traced_memory()[0] - before
    store = backend.store
    deployments = store.resolve("apps/v1/Deployment")
    foos = store.resolve("foos.samplecontroller.k8s.io/v1alpha1")
    for foo in store.list(foos):
        meta = foo["metadata"]
        labels = {"app": "nginx", "controller": meta["name"]}
        store.apply(
            deployments,
            {
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {
                    "name": foo["spec"]["deploymentName"],
                    "namespace": meta["namespace"],
                    "labels": labels,
                    "ownerReferences": [
                        {
                            "apiVersion": foo["apiVersion"],
                            "kind": "Foo",
                            "name": meta["name"],
                            "uid": meta["uid"],
                            "controller": True,
                            "blockOwnerDeletion": True,
                        }
                    ],
                },
                "spec": {
                    "replicas": foo["spec"]["replicas"],
                    "selector": {"matchLabels": labels},
                    "template": {
                        "metadata": {"labels": labels},
                        "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]},
                    },
                },
            },
            field_manager="kubectl-crd-dev",
        )
    gc.collect()
    reconciled = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del backend
    return loaded / max(objects, 1), reconciled / max(objects, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="20 objects, one run")
    parser.add_argument(
        "--jobs",
        type=int,
        action="append",
        default=[],
        help="also time the full run with -j N (repeatable; interleaved with the rest)",
    )
    options = parser.parse_args()
    if options.smoke:
        options.objects, options.runs = 20, 1
    with tempfile.TemporaryDirectory(prefix="kubectl-crd-local-bench-") as tmp:
        empty = make_dir(Path(tmp) / "empty", 0)
        full = make_dir(Path(tmp) / "full", options.objects)
        timed(empty)  # warm the file cache and the byte-code
        starts: list[tuple[float, float]] = []
        runs: list[tuple[float, float]] = []
        with_jobs: dict[int, list[tuple[float, float]]] = {jobs: [] for jobs in options.jobs}
        for _ in range(options.runs):  # interleaved: the load shifts between runs
            starts.append(timed(empty))
            runs.append(timed(full))
            for jobs, timings in with_jobs.items():
                timings.append(timed(full, jobs))
        load = os.getloadavg()
        start_up = statistics.median(t for t, _ in starts)
        full_run = statistics.median(t for t, _ in runs)
        cost = full_run - start_up
        cpu = statistics.median(c for _, c in runs) - statistics.median(c for _, c in starts)
        print(f"start-up (CRD, 0 Foos)     {start_up:6.3f} s  (runs: {_list(starts)})")
        print(f"{options.objects:,} Foos                {full_run:6.3f} s  (runs: {_list(runs)})")
        for jobs, timings in with_jobs.items():
            median = statistics.median(t for t, _ in timings)
            print(f"  with -j {jobs:<3}               {median:6.3f} s  (runs: {_list(timings)})")
        print(f"CPU after start-up         {cpu:6.3f} s  (user + system, medians' difference)")
        if options.objects == 1000:
            verdict = "within" if cost < TARGET_SECONDS else "OVER"
            against = f"{verdict} the {TARGET_SECONDS:g} s target, {cost - TARGET_SECONDS:+.3f} s"
        else:
            against = f"the {TARGET_SECONDS:g} s target is for 1,000"
        print(f"after start-up             {cost:6.3f} s  ({against})")
        loaded, reconciled = memory_per_object(full, options.objects)
        print(
            f"store memory per object    {loaded / 1024:6.1f} KiB loaded, "
            f"{reconciled / 1024:.1f} KiB with its Deployment applied (tracemalloc)"
        )
        print(f"load average               {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def _list(values: list[tuple[float, float]]) -> str:
    return " ".join(f"{wall:.3f}" for wall, _ in values)


if __name__ == "__main__":
    main()
