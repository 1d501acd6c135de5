"""bench/dev_bench.py's contender "ours": the dev loop's engine in a process of its own.

    python bench/dev_runner.py NAMESPACE RECONCILER_FILE OBJECTS

Runs ``load_reconciler`` + ``ClusterBackend`` + ``Controller`` (``BENCH_WORKERS``
workers, ``kubectl crd dev``'s ``-j`` default otherwise) on ``KUBECONFIG``'s cluster
until SIGTERM, and prints ``idle SECONDS RECONCILES`` once its first pass over
``OBJECTS`` objects is done and its queue is idle (seconds since ``BENCH_SPAWNED``, the
bench's clock at the spawn; reconciles run so far).

A module of its own, importing the engine and nothing of the bench: its start is part of
the converge the bench times, and the bench's own imports (argparse, statistics,
concurrent.futures; ~0.1 s on a 2-core runner) are no part of the loop.
``kubectl crd dev`` adds its command line (click) to this start.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(namespace: str, path: str, objects: int) -> None:
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig
    from kubectl_crd.reconcile.backends import ClusterBackend
    from kubectl_crd.reconcile.controller import CLUSTER_WORKERS, Controller, tune_collector
    from kubectl_crd.reconcile.events import ReconcileFinished
    from kubectl_crd.reconcile.loading import load_reconciler

    began = float(os.environ["BENCH_SPAWNED"])
    tune_collector()  # as `kubectl crd dev` runs its loop
    finished = 0
    lock = threading.Lock()
    first_pass = threading.Event()

    def sink(event: object) -> None:
        nonlocal finished
        if isinstance(event, ReconcileFinished):
            with lock:
                finished += 1
                if finished >= objects:
                    first_pass.set()

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    client = KubeClient(ClusterConfig(kubeconfig=os.environ["KUBECONFIG"]))
    controller = Controller(
        ClusterBackend(client),
        load_reconciler(path),
        sink,
        workers=int(os.environ.get("BENCH_WORKERS", str(CLUSTER_WORKERS))),
        namespace=namespace,
    )
    controller.start()
    # waited on, not polled: a 2 ms poll took the GIL from the workers it measures
    while not first_pass.wait(timeout=60) or not controller.wait_idle(timeout=60):
        pass
    print(f"idle {time.time() - began:.4f} {controller.stats['reconciles']}", flush=True)
    stop.wait()
    controller.stop()
    client.close()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.splitlines()[2].strip())
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
