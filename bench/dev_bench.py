"""Benchmark: the dev loop (``kubectl crd dev``'s engine) against kopf, same API server.

Issue 26's speed table. One kube-apiserver (tests/integration's control plane, audit
log on) and one CRD (``gizmos.bench.example.com``, status subresource). Each contender
gets a namespace of its own with ``--objects`` custom resources created beforehand;
the operator is the same everywhere: each object owns a ConfigMap holding its
``spec.n`` and writes ``status.ready = spec.n``.

- the raw-write floor: those two writes per object (create the ConfigMap with its
  ownerReference, merge-patch ``/status``) issued directly from 4 threads, keep-alive,
  timed until the last write returned, with no watch running (the ``floor`` column);
- the same floor on ours' and kopf's ruler (``floor-watched``): a watch in this process
  running, timed from the floor's LIST until that watch has seen every status ready,
  from as many threads as ours has workers (``--jobs``, ``kubectl crd dev``'s ``-j``
  default: 8; more threads speed the floor up too, so it gets the same number).
  Ours and kopf pay for that watch (the server's events, its CPU on the same cores) and
  for seeing their last write land; the plain floor pays neither, so ours/floor is the
  stricter ratio and ours/floor-watched the like-for-like one; both are printed;
- ours: the engine (``reconcile.loading`` + ``ClusterBackend`` + ``Controller``,
  ``--jobs`` workers) in a process of its own (bench/dev_runner.py), on a reconciler file;
- kopf (``--kopf-python``, a venv with kopf 1.45.2 and the ``kubernetes`` client; left
  out when absent): ``kopf run --standalone`` on the equivalent operator
  (``on.resume`` + ``on.create`` + ``on.update``, the ConfigMap created through the
  ``kubernetes`` client with ``kopf.adopt``, ``patch.status``; Event posting off, so its
  writes are the operator's).

Figures per contender: converge from a cold start (process spawn until a watch in this
process has seen every object's ``status.ready == spec.n``), the CPU the API server and
etcd spent meanwhile (they share the cores: a contender that costs the server more
converges slower for it), writes per object in that
phase (the audit log: create/update/patch/delete in its namespace), one update
reconciled (a ``spec.n`` patch until the watch sees the new status; median of
``--updates``; its floor is the same three requests back to back), restart over converged objects (a new process: ours until its first
pass over every object is done and its queue idle, kopf until its last write, the
writes counted from the audit log), peak memory (``VmHWM`` of the process). Ours is
also run over ``--big`` objects (converge and memory). Targets (issue 26): converge at
least 3x faster than kopf and within 1.15x of the floor; an update under 10 ms; a
restart under 1 s with zero writes; memory under half of kopf's.

    .venv/bin/python bench/dev_bench.py [--objects 1000] [--big 10000] [--updates 9] [--rounds 3]
    .venv/bin/python bench/dev_bench.py --smoke     # 5 objects, no --big: that it works

Rounds are interleaved (each in fresh namespaces, each starting with another contender)
and the table holds medians; one line per round gives its converge times, ratios and the
load average, because on a shared machine one round says little.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from calendar import timegm
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

# ``kubectl crd dev``'s ``-j`` default against a cluster: ours' workers here too
from kubectl_crd.reconcile.controller import CLUSTER_WORKERS  # noqa: E402

GROUP = "bench.example.com"
PLURAL = "gizmos"
FOR = f"{PLURAL}.{GROUP}/v1"
OPEN = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
KOPF_PYTHON = Path.home() / ".cache" / "kopf-bench-venv" / "bin" / "python"
WRITES = ("create", "update", "patch", "delete")

OURS_RECONCILER = """\
FOR = "gizmos.bench.example.com/v1"
OWNS = ["v1/ConfigMap"]


def reconcile(obj, ctx):
    n = obj["spec"]["n"]
    child = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": obj["metadata"]["name"]},
        "data": {"n": str(n)},
    }
    return {"children": [child], "status": {"ready": n}}
"""

KOPF_OPERATOR = """\
import kopf
import kubernetes

GROUP, VERSION, PLURAL = "bench.example.com", "v1", "gizmos"
api = None


@kopf.on.startup()
def startup(settings, **_):
    global api
    settings.posting.enabled = False  # no Events: the writes counted are the operator's
    kubernetes.config.load_kube_config()
    configuration = kubernetes.client.Configuration.get_default_copy()
    configuration.connection_pool_maxsize = 32  # kopf's handler threads share it
    api = kubernetes.client.CoreV1Api(kubernetes.client.ApiClient(configuration))


@kopf.on.resume(GROUP, VERSION, PLURAL)
@kopf.on.create(GROUP, VERSION, PLURAL)
@kopf.on.update(GROUP, VERSION, PLURAL)
def sync(body, spec, name, namespace, patch, **_):
    child = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name},
        "data": {"n": str(spec["n"])},
    }
    kopf.adopt(child, owner=body)
    try:
        api.create_namespaced_config_map(namespace, child)
    except kubernetes.client.ApiException as exc:
        if exc.status != 409:
            raise
        api.patch_namespaced_config_map(name, namespace, {"data": child["data"]})
    patch.status["ready"] = spec["n"]
"""


# -- the engine in a process of its own ---------------------------------------------------


# -- the bench ------------------------------------------------------------------------


class Watcher:
    """Every object's ``spec.n`` and ``status.ready`` in one namespace, from a watch."""

    def __init__(self, client: Any, namespace: str) -> None:
        from kubectl_crd.kube.resources import ResourceClient

        self.resource = ResourceClient(
            client, GROUP, "v1", PLURAL, namespaced=True, namespace=namespace
        )
        self.state: dict[str, tuple[Any, Any]] = {}
        #: how many of ``state`` are ready, kept as events come: counting them on each
        #: event was O(objects) per event, 10^8 steps of the bench's own CPU for 10,000
        #: objects, taken from the cores the contender shares
        self._ready = 0
        self.changed = threading.Condition()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from kubectl_crd.kube.reflector import list_then_watch

        for event in list_then_watch(self.resource, stop=self.stop):
            obj = event.object
            if not isinstance(obj, dict) or "metadata" not in obj:
                continue
            name = obj["metadata"]["name"]
            now = ((obj.get("spec") or {}).get("n"), (obj.get("status") or {}).get("ready"))
            with self.changed:
                before = self.state.get(name)
                self.state[name] = now
                self._ready += _is_ready(now) - (before is not None and _is_ready(before))
                self.changed.notify_all()

    def ready(self) -> int:
        return self._ready

    def wait(self, condition: Any, timeout: float = 600) -> None:
        deadline = time.monotonic() + timeout
        with self.changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SystemExit(f"timed out: {self.ready()} of {len(self.state)} ready")
                self.changed.wait(min(left, 0.5))

    def close(self) -> None:
        self.stop.set()


def _is_ready(state: tuple[Any, Any]) -> bool:
    n, ready = state
    return n is not None and n == ready


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a live process so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_cpu() -> float:
    """CPU seconds so far of this process's kube-apiserver and etcd children: what a
    contender costs the control plane, which shares the 2 cores with it."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            name = text[text.find("(") + 1 : text.rfind(")")]
            parent = int(text.rpartition(")")[2].split()[1])
            if name in ("kube-apiserver", "etcd") and parent == os.getpid():
                total += cpu_seconds(int(stat.parent.name))
        except OSError:  # a process gone meanwhile
            continue
    return total


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def writes(plane: Any, mark: int, namespace: str) -> list[dict[str, Any]]:
    return [
        event
        for event in plane.audit_events(mark)
        if event.get("stage") == "ResponseComplete"
        and event["verb"] in WRITES
        and (event.get("objectRef") or {}).get("namespace") == namespace
    ]


def stamp(event: dict[str, Any]) -> float:
    text = event["stageTimestamp"]  # 2026-11-26T15:03:48.123456Z
    whole, _, fraction = text.rstrip("Z").partition(".")
    return timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S")) + float(f"0.{fraction or 0}")


class Contender:
    """One operator process at a time, in its namespace."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.proc: subprocess.Popen[str] | None = None
        self.spawned = 0.0
        self.cpu = 0.0

    def start(self) -> None:
        self.spawned = time.time()
        env = {**self.env, "BENCH_SPAWNED": repr(self.spawned)}
        self.proc = subprocess.Popen(
            self.command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def idle_line(self) -> tuple[float, int]:
        """Ours: the seconds and the reconciles its ``idle`` line reports."""
        assert self.proc is not None and self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("idle "):
            raise SystemExit(f"{self.name}: no idle line (exit {self.proc.poll()})")
        _, seconds, reconciles = line.split()
        return float(seconds), int(reconciles)

    def stop(self) -> float:
        """Stop it; its peak memory in MiB (its CPU seconds in ``cpu``)."""
        assert self.proc is not None
        peak = peak_rss_mib(self.proc.pid)
        self.cpu = cpu_seconds(self.proc.pid)
        self.proc.send_signal(signal.SIGTERM if self.name == "ours" else signal.SIGINT)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return peak


def install_gizmo_crd(plane: Any, work: Path) -> None:
    """The Gizmo CRD (open spec and status, the status subresource) on ``plane``; also
    bench/soak_dev.py's and tests/integration/test_dev_faults.py's."""
    from tests.crd_factory import make_crd

    crd = make_crd(
        "Gizmo", GROUP, schema={"type": "object", "properties": {"spec": OPEN, "status": OPEN}}
    )
    crd["spec"]["versions"][0]["subresources"] = {"status": {}}
    (work / "crd.json").write_text(json.dumps(crd))
    plane.install_crds([work / "crd.json"])


def create_objects(client: Any, namespace: str, count: int) -> None:
    from kubectl_crd.kube.resources import ResourceClient

    gizmos = ResourceClient(client, GROUP, "v1", PLURAL, namespaced=True, namespace=namespace)
    with ThreadPoolExecutor(8) as pool:
        list(
            pool.map(
                lambda i: gizmos.create(
                    {
                        "apiVersion": f"{GROUP}/v1",
                        "kind": "Gizmo",
                        "metadata": {"name": f"gizmo-{i:05}"},
                        "spec": {"n": 1},
                    }
                ),
                range(count),
            )
        )


def floor(
    client: Any,
    namespace: str,
    count: int,
    *,
    apply: bool = False,
    watcher: Watcher | None = None,
    threads: int = 4,
) -> float:
    """The same two writes per object, directly, from ``threads`` threads (the issue's
    floor: 4); with ``apply`` the ConfigMap is server-side applied (as a controller that
    converges by apply does; ours did until 2026-11-29, and now creates it), not created.

    Without ``watcher``: the seconds until the last write returned (the LIST of the
    objects before the clock starts). With ``watcher`` (already synced on
    ``namespace``): ours' and kopf's ruler, the seconds from the LIST (an operator has to
    read its objects too) until ``watcher`` has seen every ``status.ready == spec.n``."""
    from kubectl_crd.kube.resources import ResourceClient

    gizmos = ResourceClient(client, GROUP, "v1", PLURAL, namespaced=True, namespace=namespace)
    maps = ResourceClient(client, "", "v1", "configmaps", namespaced=True, namespace=namespace)
    began = time.perf_counter()
    objects = list(gizmos.items())

    def both(obj: dict[str, Any]) -> None:
        meta = obj["metadata"]
        write = partial(maps.apply, field_manager="dev-bench", force=True) if apply else maps.create
        write(
            {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {
                    "name": meta["name"],
                    "ownerReferences": [
                        {
                            "apiVersion": f"{GROUP}/v1",
                            "kind": "Gizmo",
                            "name": meta["name"],
                            "uid": meta["uid"],
                            "controller": True,
                            "blockOwnerDeletion": True,
                        }
                    ],
                },
                "data": {"n": str(obj["spec"]["n"])},
            }
        )
        gizmos.patch(meta["name"], {"status": {"ready": obj["spec"]["n"]}}, subresource="status")

    if watcher is None:
        began = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(both, objects))
    if watcher is not None:
        watcher.wait(lambda: watcher.ready() == count)
    return time.perf_counter() - began


def update_floor(client: Any, namespace: str, updates: int) -> float:
    """One update's three requests back to back, with no watch between them: the spec
    patch, the ConfigMap applied, the status patch (median seconds)."""
    from kubectl_crd.kube.resources import ResourceClient

    gizmos = ResourceClient(client, GROUP, "v1", PLURAL, namespaced=True, namespace=namespace)
    maps = ResourceClient(client, "", "v1", "configmaps", namespaced=True, namespace=namespace)
    latencies = []
    for index in range(updates):
        name, n = f"gizmo-{index:05}", 100 + index
        began = time.perf_counter()
        gizmos.patch(name, {"spec": {"n": n}})
        child = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}}
        maps.apply({**child, "data": {"n": str(n)}}, field_manager="dev-bench", force=True)
        gizmos.patch(name, {"status": {"ready": n}}, subresource="status")
        latencies.append(time.perf_counter() - began)
        time.sleep(0.2)
    return statistics.median(latencies)


def measure(
    plane: Any,
    client: Any,
    contender: Contender,
    namespace: str,
    count: int,
    updates: int,
    restart: bool,
) -> dict[str, float]:
    from kubectl_crd.kube.resources import ResourceClient

    figures: dict[str, float] = {}
    watcher = Watcher(client, namespace)
    watcher.wait(lambda: len(watcher.state) == count)
    mark = plane.audit_mark()
    spent = server_cpu()
    contender.start()
    began = time.perf_counter()
    watcher.wait(lambda: watcher.ready() == count)
    figures["converge"] = time.perf_counter() - began
    figures["server_cpu"] = server_cpu() - spent
    if contender.name == "ours":
        # its first pass: every object reconciled, nothing queued (a child's echo that
        # re-syncs its parent would count here)
        figures["reconciles"] = contender.idle_line()[1] / count
    time.sleep(1.0)  # writes that come after the last status (kopf's annotation) count too
    figures["writes"] = len(writes(plane, mark, namespace)) / count
    gizmos = ResourceClient(client, GROUP, "v1", PLURAL, namespaced=True, namespace=namespace)
    latencies = []
    for index in range(updates):
        name = f"gizmo-{index % count:05}"
        n = 100 + index
        began = time.perf_counter()
        gizmos.patch(name, {"spec": {"n": n}})
        watcher.wait(lambda name=name, n=n: watcher.state.get(name) == (n, n))
        latencies.append(time.perf_counter() - began)
        time.sleep(0.2)
    if latencies:
        figures["update"] = statistics.median(latencies)
    figures["memory"] = contender.stop()
    figures["cpu"] = contender.cpu  # converge and the updates
    if restart:
        time.sleep(0.5)
        mark = plane.audit_mark()
        contender.start()
        if contender.name == "ours":
            figures["restart"] = contender.idle_line()[0]
            time.sleep(0.5)
            figures["restart_writes"] = len(writes(plane, mark, namespace))
        else:
            # kopf says nothing when it is done: its last write, once no more come
            seen, quiet_since = -1, time.monotonic()
            while time.monotonic() - quiet_since < 3.0:
                time.sleep(0.25)
                now = len(writes(plane, mark, namespace))
                if now != seen:
                    seen, quiet_since = now, time.monotonic()
            found = writes(plane, mark, namespace)
            figures["restart_writes"] = len(found)
            last = max((stamp(event) for event in found), default=contender.spawned)
            figures["restart"] = last - contender.spawned
        contender.stop()
    watcher.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--big", type=int, default=10000, help="ours alone (0: skip)")
    parser.add_argument("--updates", type=int, default=9)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=CLUSTER_WORKERS,
        help="ours' workers, and the watched floor's threads",
    )
    parser.add_argument("--kopf-python", default=str(KOPF_PYTHON))
    parser.add_argument("--no-kopf", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="5 objects, no --big, 1 round")
    args = parser.parse_args()
    if args.smoke:
        args.objects, args.big, args.updates, args.rounds = 5, 0, 1, 1
    from live_bench import token_env

    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig
    from tests.integration.envtest import ControlPlane, ensure_assets

    kopf_python = Path(args.kopf_python)
    with_kopf = not args.no_kopf and kopf_python.exists()
    plane = ControlPlane(ensure_assets())
    work = Path(tempfile.mkdtemp(prefix="dev-bench-"))
    rounds: list[dict[str, dict[str, float]]] = []
    big: dict[str, float] | None = None
    try:
        plane.start()
        install_gizmo_crd(plane, work)
        env = token_env(plane, work)
        (work / "reconciler.py").write_text(OURS_RECONCILER)
        (work / "kopf_operator.py").write_text(KOPF_OPERATOR)
        config = ClusterConfig(kubeconfig=env["KUBECONFIG"])
        with KubeClient(config, environ={"HOME": str(work)}) as client:

            def fresh(namespace: str, count: int) -> str:
                plane.kubectl("create", "namespace", namespace)
                create_objects(client, namespace, count)
                return namespace

            def ours(namespace: str) -> Contender:
                file = str(work / "reconciler.py")
                count = args.big if namespace == "big" else args.objects
                command = [sys.executable, str(HERE / "dev_runner.py"), namespace, file, str(count)]
                return Contender("ours", command, {**env, "BENCH_WORKERS": str(args.jobs)})

            def run_floor(index: int) -> dict[str, float]:
                namespace = fresh(f"floor-{index}", args.objects)
                spent, own = server_cpu(), time.process_time()
                figures = {"converge": floor(client, namespace, args.objects)}
                figures["server_cpu"] = server_cpu() - spent
                figures["client_cpu"] = time.process_time() - own
                figures["writes"] = 2.0
                return figures

            def run_floor_watched(index: int) -> dict[str, float]:
                # the floor on ours' and kopf's ruler: a Watcher of this process syncs
                # first, the clock runs until it has seen every status (its CPU on the
                # same cores counts, as it does for them)
                namespace = fresh(f"floor-watched-{index}", args.objects)
                watcher = Watcher(client, namespace)
                watcher.wait(lambda: len(watcher.state) == args.objects)
                spent = server_cpu()
                try:
                    seconds = floor(
                        client, namespace, args.objects, watcher=watcher, threads=args.jobs
                    )
                finally:
                    watcher.close()
                return {"converge": seconds, "server_cpu": server_cpu() - spent}

            def run_floor_apply(index: int) -> dict[str, float]:
                namespace = fresh(f"floor-apply-{index}", args.objects)
                spent, own = server_cpu(), time.process_time()
                figures = {"converge": floor(client, namespace, args.objects, apply=True)}
                figures["server_cpu"] = server_cpu() - spent
                figures["client_cpu"] = time.process_time() - own
                if args.updates:
                    figures["update"] = update_floor(client, namespace, args.updates)
                return figures

            def run_ours(index: int) -> dict[str, float]:
                namespace = fresh(f"ours-{index}", args.objects)
                return measure(
                    plane, client, ours(namespace), namespace, args.objects, args.updates, True
                )

            def run_kopf(index: int) -> dict[str, float]:
                namespace = fresh(f"kopf-{index}", args.objects)
                command = [
                    str(kopf_python), "-m", "kopf", "run", "--standalone", "--quiet",
                    "--namespace", namespace, str(work / "kopf_operator.py"),
                ]  # fmt: skip
                contender = Contender("kopf", command, env)
                return measure(
                    plane, client, contender, namespace, args.objects, args.updates, True
                )

            contenders = [
                ("ours", run_ours),
                ("floor", run_floor),
                ("floor-watched", run_floor_watched),
                ("floor-apply", run_floor_apply),
            ]
            if with_kopf:
                contenders.append(("kopf", run_kopf))
            for index in range(args.rounds):
                # interleaved: each round starts with another contender, so none always
                # runs first (or right after the heaviest) in a given minute
                shift = index % len(contenders)
                order = contenders[shift:] + contenders[:shift]
                figures = {name: run(index) for name, run in order}
                figures["load"] = {"load": os.getloadavg()[0]}
                rounds.append(figures)
                print(round_line(index, [name for name, _ in order], figures), flush=True)
            if args.big:
                big = measure(
                    plane, client, ours(fresh("big", args.big)), "big", args.big, 0, False
                )
    finally:
        plane.stop()
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    results = {
        name: {
            key: statistics.median(each[name][key] for each in rounds if key in each[name])
            for key in rounds[0][name]
        }
        for name in rounds[0]
        if name != "load"
    }
    if big is not None:
        results["big"] = big
    report(results, args.objects, args.big, len(rounds))


def round_line(index: int, order: list[str], figures: dict[str, dict[str, float]]) -> str:
    """One round's converge times in the order they ran, the ratios and the load."""
    converge = {name: figures[name]["converge"] for name in order}
    line = f"round {index + 1}, load {figures['load']['load']:.1f}: " + ", ".join(
        f"{name} {seconds:.2f} s" for name, seconds in converge.items()
    )
    line += f"; ours/floor {converge['ours'] / converge['floor']:.2f}x"
    line += f", ours/floor-watched {converge['ours'] / converge['floor-watched']:.2f}x"
    line += f", ours/floor-apply {converge['ours'] / converge['floor-apply']:.2f}x"
    if "kopf" in converge:
        line += f", kopf/ours {converge['kopf'] / converge['ours']:.1f}x"
    if "update" in figures["ours"]:
        line += f"; update {figures['ours']['update'] * 1000:.1f} ms"
    return line


def report(results: dict[str, dict[str, float]], objects: int, big: int, rounds: int) -> None:
    ours, kopf = results["ours"], results.get("kopf")
    base = dict(results["floor"])
    if "update" in results["floor-apply"]:
        base["update"] = results["floor-apply"]["update"]
    print(
        f"dev loop: {objects} custom resources each owning a ConfigMap and writing status; "
        f"medians of {rounds} interleaved round(s); {os.cpu_count()} CPUs, "
        f"load {os.getloadavg()[0]:.1f}"
    )

    def ratio(a: float, b: float | None) -> str:
        return f"{a / b:.2f}x" if b else "-"

    def cell(
        figures: dict[str, float] | None, key: str, scale: float = 1.0, fmt: str = ".2f"
    ) -> str:
        if figures is None or key not in figures:
            return "-"
        return format(figures[key] * scale, fmt)

    rows = [
        ("converge from cold (s)", "converge", 1.0, ".2f"),
        ("writes per object", "writes", 1.0, ".2f"),
        ("reconciles per object (cold)", "reconciles", 1.0, ".2f"),
        ("one update reconciled (ms)", "update", 1000.0, ".1f"),
        ("restart over converged (s)", "restart", 1.0, ".2f"),
        ("restart writes", "restart_writes", 1.0, ".0f"),
        ("peak memory (MiB)", "memory", 1.0, ".0f"),
        ("process CPU, converge+updates (s)", "cpu", 1.0, ".2f"),
        ("API server+etcd CPU, converge (s)", "server_cpu", 1.0, ".2f"),
    ]
    print(f"{'':<34} {'ours':>9} {'kopf':>9} {'floor':>9} {'ours/kopf':>10} {'ours/floor':>11}")
    for label, key, scale, fmt in rows:
        line = f"{label:<34} {cell(ours, key, scale, fmt):>9} {cell(kopf, key, scale, fmt):>9}"
        line += f" {cell(base, key, scale, fmt):>9}"
        line += f" {ratio(ours[key], kopf.get(key)) if kopf and key in ours else '-':>10}"
        if key in ("converge", "update") and key in base and key in ours:
            line += f" {ratio(ours[key], base[key]):>11}"
        print(line)
    watched = results["floor-watched"]["converge"]
    print(
        f"floor on ours' ruler (from its LIST until the watch in this process has seen every "
        f"status; the 'floor' column: until its writes returned, no watch): {watched:.2f} s "
        f"(ours/that: {ours['converge'] / watched:.2f}x), API server+etcd CPU "
        f"{results['floor-watched']['server_cpu']:.2f} s"
    )
    applied = results["floor-apply"]["converge"]
    print(
        f"floor with the ConfigMap server-side applied instead of created: {applied:.2f} s "
        f"(ours/that: {ours['converge'] / applied:.2f}x), API server+etcd CPU "
        f"{results['floor-apply']['server_cpu']:.2f} s"
    )
    # the contenders share the cores with the API server and etcd: a converge cannot be
    # shorter than all the CPU it costs spread over every core
    cores = os.cpu_count() or 1
    spent = [
        (name, figures["server_cpu"] + figures[own])
        for name, figures, own in (
            ("ours", ours, "cpu"),
            ("kopf", kopf, "cpu"),
            ("floor", results["floor"], "client_cpu"),
            ("apply floor", results["floor-apply"], "client_cpu"),
        )
        if figures and "server_cpu" in figures and own in figures
    ]
    print(
        f"CPU per converge (API server + etcd + the writer's process; ours and kopf with "
        f"their updates) and that over {cores} cores, the shortest converge it allows: "
        + ", ".join(f"{name} {cpu:.2f} s ({cpu / cores:.2f} s)" for name, cpu in spent)
    )
    if kopf and "converge" in kopf:
        print(f"kopf/ours converge: {kopf['converge'] / ours['converge']:.1f}x")
        # the issue asks for children by server-side apply, so the apply floor is the
        # fastest any loop honouring it can be: how far the two converge targets (3x
        # kopf, 1.15x the create floor) are reachable at all on this machine
        floor_seconds = results["floor"]["converge"]
        print(
            "reachable here: a writer applying with no loop at all is "
            f"{kopf['converge'] / applied:.1f}x faster than kopf (the 3x target) and "
            f"{applied / floor_seconds:.2f}x the create "
            f"floor (the 1.15x target); creating instead, {kopf['converge'] / floor_seconds:.1f}x"
        )
    if big and "big" in results:
        figures = results["big"]
        print(
            f"ours with {big}: converge {figures['converge']:.2f} s, "
            f"{figures['writes']:.2f} writes and {figures['reconciles']:.2f} reconciles per "
            f"object, peak memory {figures['memory']:.0f} MiB"
        )


if __name__ == "__main__":
    main()
