"""Soak: the real ``kubectl crd dev`` process under faults, against a real kube-apiserver.

Issue 30's "dev-loop faults" run. One control plane (tests/integration's, etcd compacted
every 2 s and the watch cache off, so that a watch resumed from a resourceVersion a few
seconds old meets 410 Gone; with the watch cache on, its window hid them), the
CRD and operator of bench/dev_bench.py (each Gizmo owns a ConfigMap holding ``spec.n``
and writes ``status.ready = spec.n``), plus a ``finalize`` and reconciler faults chosen
per key: some objects' reconciles raise at random, some hang past
``--reconcile-timeout``, some sleep. A writer patches random objects' ``spec.n``
continuously; a schedule injects, in turn: kube-apiserver stopped and restarted on the
same etcd (every watch cut mid-stream), a hot reload to broken code and back, SIGINT
mid-reconcile and a restart of the loop, objects deleted (the finalizer flow) and
recreated; and, through a TCP proxy between the loop and kube-apiserver
(tests/integration/cutting_proxy.py), every live connection reset, and dials refused
for ``--refuse-seconds`` while the writer goes on (the watches resume from a compacted
resourceVersion: 410 Gone, a relist). At the end: the writer stops, and every object must converge (its ConfigMap
and status hold its last ``spec.n``, ``observedGeneration == generation``); a clean
SIGINT must leave no finalizer; the loop must never have died unasked; RSS is sampled.

    .venv/bin/python bench/soak_dev.py [--objects 1000] [--minutes 10]
    .venv/bin/python bench/soak_dev.py --objects 30 --minutes 0.5   # the integration test's size

Prints one JSON object of counts; exit 1 when the property does not hold.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from dev_bench import (  # noqa: E402
    GROUP,
    OURS_RECONCILER,
    PLURAL,
    create_objects,
    install_gizmo_crd,
)

NAMESPACE = "soak"
FINALIZER = "soak.bench.example.com/cleanup"

# dev_bench's operator, with a finalize and faults keyed on the object's name: the
# reconciler reads its name's number (gizmo-00042 -> 42).
FAULTS = """

import random
import time

FINALIZER = "soak.bench.example.com/cleanup"
_plain = reconcile


def reconcile(obj, ctx):
    number = int(obj["metadata"]["name"].rsplit("-", 1)[1])
    if number % 10 == 7 and random.random() < 0.3:
        raise RuntimeError("soak: a reconciler that raises")
    if number % 50 == 13 and random.random() < 0.2:
        time.sleep(HANG)  # past --reconcile-timeout
    if number % 20 == 3:
        time.sleep(0.05)
    return _plain(obj, ctx)


def finalize(obj, ctx):
    return True
"""
BROKEN = "\ndef broken(:\n    pass\n"
CYCLE = (
    "apiserver_restart", "proxy_reset", "reload_broken", "finalizers", "proxy_refuse",
    "apiserver_restart", "proxy_reset", "reload_broken", "finalizers", "proxy_refuse",
    "sigint_restart",
)  # fmt: skip
FAULTS_KNOWN = {
    "apiserver_restart", "reload_broken", "finalizers", "sigint_restart", "proxy_reset",
    "proxy_refuse",
}  # fmt: skip


def expired(message: str) -> bool:
    """A WatchError line for a 410: 'Error from server (Expired): The resourceVersion
    for the provided watch is too old.' (kubectl's wording of the server's Status)."""
    return "(Expired)" in message or "too old" in message


def reconciler_text(hang: float, version: int) -> str:
    return OURS_RECONCILER + FAULTS.replace("HANG", repr(hang)) + f"\nVERSION = {version}\n"


class Loop:
    """The ``kubectl crd dev`` process: its JSON events counted, its RSS sampled."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.argv, self.env = argv, env
        #: every line the loop printed, for a post-mortem of an object that did not
        #: converge (``grep gizmo-00042``)
        self.log = log.open("a", buffering=1)
        self.events: Counter[str] = Counter()
        self.gone = 0
        self.rss: dict[int, list[tuple[float, int]]] = {}  # pid -> (seconds in, KiB)
        self.started = 0.0
        self.proc: subprocess.Popen[str] | None = None
        self.exits: list[int] = []
        self.errors: list[str] = []
        #: each stop's count of objects still carrying the loop's finalizer (run with
        #: --remove-finalizers-on-exit: anything above 0 is left behind)
        self.finalizers_left: list[int] = []

    def start(self) -> None:
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            self.argv,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()
        threading.Thread(target=self._stderr, args=(self.proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.log.write(line)
            try:
                event = json.loads(line)
            except ValueError:
                self.errors.append(line.strip()[:200])
                continue
            name = event.get("event", "?")
            self.events[name] += 1
            if name == "WatchError" and expired(str(event.get("message", ""))):
                self.gone += 1
            elif name == "Stopped":
                self.finalizers_left.append(len(event.get("finalizers_left") or ()))

    def _stderr(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            if "Traceback" in line or "Error" in line:
                self.errors.append(line.strip()[:200])

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def sample(self) -> None:
        if not self.alive():
            return
        assert self.proc is not None
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    self.rss.setdefault(self.proc.pid, []).append(
                        (time.monotonic() - self.started, int(line.split()[1]))
                    )
        except OSError:
            pass

    def interrupt(self, timeout: float = 120) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = -9
        self.exits.append(code)
        return code


def audit_410(log: Path) -> Counter[str]:
    """410 Gone answers in the API server's audit log, by verb (a watch resumed from a
    compacted resourceVersion, or a list continued past one); the loop relists after
    them. A watch that etcd serves (no watch cache) is answered 200 and gets its 410 as
    an ERROR event in the stream, which the audit log does not show: the loop's own
    WatchError lines count those. Read line by line: a 10-minute soak's log is large."""
    found: Counter[str] = Counter()
    with log.open("rb") as lines:
        for line in lines:
            if b'"code":410' in line:
                event = json.loads(line)
                if event.get("stage") == "ResponseComplete":
                    found[event["verb"]] += 1
    return found


def converged(gizmos: Any, maps: Any, last: dict[str, int]) -> tuple[int, list[str]]:
    """How many objects hold their last ``spec.n`` everywhere; a few that do not."""
    children = {m["metadata"]["name"]: m for m in maps.items()}
    good, bad = 0, list[str]()
    for obj in gizmos.items():
        meta, name = obj["metadata"], obj["metadata"]["name"]
        n = obj["spec"]["n"]
        status = obj.get("status") or {}
        child = children.get(name) or {}
        ok = (
            n == last.get(name, n)
            and status.get("ready") == n
            and status.get("observedGeneration") == meta.get("generation")
            and (child.get("data") or {}).get("n") == str(n)
            and not meta.get("deletionTimestamp")
        )
        if ok:
            good += 1
        elif len(bad) < 5:
            bad.append(f"{name}: spec {n} status {status} child {child.get('data')}")
    return good, bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=20.0, help="spec changes a second")
    parser.add_argument("--fault-every", type=float, default=15.0, help="seconds")
    parser.add_argument("--converge-timeout", type=float, default=300.0)
    parser.add_argument(
        "--faults",
        default=",".join(CYCLE),
        help="the schedule, repeated (default: SIGINT once a cycle, so that one loop "
        "process lives long enough for its memory to be judged)",
    )
    parser.add_argument("--cycles", type=int, default=0, help="stop after this many faults")
    parser.add_argument("--reload-rounds", type=int, default=3, help="broken-and-back per fault")
    parser.add_argument(
        "--request-timeout",
        default="",
        help="passed to the loop (its lists and writes get a deadline; watches have theirs)",
    )
    parser.add_argument(
        "--refuse-seconds", type=float, default=8.0, help="proxy_refuse: dials refused so long"
    )
    args = parser.parse_args()
    if not set(args.faults.split(",")) <= FAULTS_KNOWN:
        parser.error(f"--faults: choose from {sorted(FAULTS_KNOWN)}")

    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig
    from kubectl_crd.kube.resources import ResourceClient
    from tests.integration.cutting_proxy import CuttingProxy
    from tests.integration.envtest import ControlPlane, ensure_assets

    began = time.monotonic()
    load_before = os.getloadavg()
    plane = ControlPlane(
        ensure_assets(), apiserver_args=["--etcd-compaction-interval=2s", "--watch-cache=false"]
    )
    proxy: CuttingProxy | None = None
    work = Path(tempfile.mkdtemp(prefix="soak-dev-"))
    counts: Counter[str] = Counter()
    failures: list[str] = []
    #: the driver's own deletes the server refused (each message, for the report)
    delete_errors: list[str] = []
    try:
        plane.start()
        install_gizmo_crd(plane, work)
        plane.kubectl("create", "namespace", NAMESPACE)
        client = KubeClient(
            ClusterConfig(kubeconfig=str(plane.kubeconfig)), environ={"HOME": str(work)}
        )
        gizmos = ResourceClient(client, GROUP, "v1", PLURAL, namespaced=True, namespace=NAMESPACE)
        maps = ResourceClient(client, "", "v1", "configmaps", namespaced=True, namespace=NAMESPACE)
        create_objects(client, NAMESPACE, args.objects)
        names = [f"gizmo-{i:05}" for i in range(args.objects)]
        last: dict[str, int] = dict.fromkeys(names, 1)
        hang = 2.0
        reconciler = work / "reconciler.py"
        version = 0
        reconciler.write_text(reconciler_text(hang, version))
        # the loop reaches kube-apiserver only through the proxy (its certificate names
        # 127.0.0.1, so TLS verifies as before); the writer and the checks go direct
        proxy = CuttingProxy(("127.0.0.1", plane.port))
        proxied = work / "kubeconfig-proxied"
        proxied.write_text(
            plane.kubeconfig.read_text().replace(plane.server, f"https://{proxy.address}")
        )
        exe = Path(sys.executable).with_name("kubectl-crd")
        loop = Loop(
            [
                str(exe), "dev", str(reconciler), "-n", NAMESPACE,
                "--kubeconfig", str(proxied), "--log-format", "json",
                "--no-dashboard", "--reconcile-timeout", "1s", "--remove-finalizers-on-exit",
                *(["--request-timeout", args.request_timeout] if args.request_timeout else []),
            ],
            {**os.environ, "HOME": str(work), "NO_COLOR": "1"},
            work / "loop.jsonl",
        )  # fmt: skip
        loop.start()

        stop = threading.Event()
        lock = threading.Lock()
        next_n = [1]
        last_change = [time.monotonic()]

        def writer() -> None:
            rng = random.Random(30)
            period = 1.0 / args.rate
            while not stop.is_set():
                name = rng.choice(names)
                with lock:
                    next_n[0] += 1
                    n = next_n[0]
                try:
                    gizmos.patch(name, {"spec": {"n": n}})
                except Exception:  # the server is down, or the object is being replaced
                    counts["writer_errors"] += 1
                else:
                    with lock:
                        last[name] = n
                        last_change[0] = time.monotonic()
                    counts["spec_changes"] += 1
                stop.wait(period)

        def sampler() -> None:
            while not stop.is_set():
                loop.sample()
                stop.wait(2.0)

        threads = [threading.Thread(target=writer), threading.Thread(target=sampler)]
        for thread in threads:
            thread.start()

        faults = args.faults.split(",")
        deadline = time.monotonic() + args.minutes * 60
        step = 0
        rng = random.Random(7)
        while time.monotonic() < deadline and not (args.cycles and step >= args.cycles):
            stop.wait(args.fault_every)
            if not loop.alive():
                failures.append(f"the loop died unasked: exit {loop.proc and loop.proc.poll()}")
                loop.start()
            kind = faults[step % len(faults)]
            step += 1
            if kind == "apiserver_restart":
                # the proxy refuses meanwhile, as the stopped server's port does
                proxy.refuse()
                plane.stop_apiserver(grace=2)
                time.sleep(rng.uniform(1, 4))
                plane.start_apiserver()
                proxy.accept_again()
            elif kind == "proxy_reset":
                counts["connections_reset"] += proxy.cut()
            elif kind == "proxy_refuse":
                gone_before = loop.gone
                counts["connections_reset"] += proxy.refuse()
                time.sleep(args.refuse_seconds)
                proxy.accept_again()
                # the watches dial again on their backoff (its third try lands 5.6-11.2 s
                # after the cut, the fourth up to 24 s): wait for a resumed watch's 410
                # before the next fault (a SIGINT would stop the loop first), at most 30 s
                resumed_by = time.monotonic() + 30
                while loop.gone == gone_before and time.monotonic() < resumed_by:
                    time.sleep(0.1)
                counts["refuse_410_seen"] += int(loop.gone > gone_before)
            elif kind == "reload_broken":
                for _ in range(args.reload_rounds):
                    reconciler.write_text(reconciler_text(hang, version) + BROKEN)
                    time.sleep(2)
                    version += 1
                    reconciler.write_text(reconciler_text(hang, version))
                    time.sleep(2)
                counts["reloads_attempted"] += 2 * args.reload_rounds
            elif kind == "sigint_restart":
                code = loop.interrupt()
                if code not in (0, 130):
                    failures.append(f"SIGINT exit {code}")
                loop.start()
            elif kind == "finalizers":
                victims = rng.sample(names, 5)
                deleted = []
                for name in victims:
                    # the driver's own request may meet the server restarting: a fault
                    # of the test, not of the loop, so it is tried again and reported
                    for attempt in range(3):
                        try:
                            gizmos.delete(name)
                        except Exception as exc:
                            counts["delete_errors"] += 1
                            delete_errors.append(f"{name} (try {attempt + 1}): {exc}")
                            time.sleep(1)
                        else:
                            deleted.append(name)
                            break
                gone_by = time.monotonic() + 60
                while time.monotonic() < gone_by:
                    present = {o["metadata"]["name"] for o in gizmos.items()}
                    if not present & set(deleted):
                        break
                    time.sleep(0.5)
                else:
                    left = sorted(present & set(deleted))
                    failures.append(f"deleted objects not finalized in 60 s: {left}")
                for name in victims:
                    with lock:
                        next_n[0] += 1
                        n = next_n[0]
                    for _ in range(20):
                        try:
                            gizmos.create(
                                {
                                    "apiVersion": f"{GROUP}/v1",
                                    "kind": "Gizmo",
                                    "metadata": {"name": name},
                                    "spec": {"n": n},
                                }
                            )
                            break
                        except Exception:
                            time.sleep(0.5)
                    with lock:
                        last[name] = n
                        last_change[0] = time.monotonic()
                counts["objects_deleted_and_recreated"] += len(victims)
            counts[f"fault_{kind}"] += 1
        stop.set()
        for thread in threads:
            thread.join()
        soak_seconds = time.monotonic() - began
        if not loop.alive():
            failures.append("the loop was not running at the end")
            loop.start()
        settle = time.monotonic() + args.converge_timeout
        good, bad = 0, list[str]()
        while time.monotonic() < settle:
            good, bad = converged(gizmos, maps, last)
            if good == args.objects:
                break
            time.sleep(1)
        converge_seconds = time.monotonic() - last_change[0]
        if good != args.objects:
            failures.append(f"{args.objects - good} objects not converged: {bad}")
        loop.sample()
        code = loop.interrupt()
        if code not in (0, 130):
            failures.append(f"final SIGINT exit {code}")
        left = [
            o["metadata"]["name"]
            for o in gizmos.items()
            if FINALIZER in (o["metadata"].get("finalizers") or [])
        ]
        if left:
            failures.append(f"{len(left)} finalizers left after a clean stop: {left[:5]}")
        if any(loop.finalizers_left):
            # stops while the writer ran included (--remove-finalizers-on-exit each time)
            failures.append(f"finalizers left at the loop's stops: {loop.finalizers_left}")
        # memory of the longest-lived loop process: its first sample after 20 s (warm,
        # informers synced), its peak, its last
        longest = max(loop.rss.values(), key=lambda s: s[-1][0] - s[0][0], default=[(0.0, 0)])
        warm = [kib for seconds, kib in longest if seconds >= 20] or [longest[-1][1]]
        report = {
            "objects": args.objects,
            "soak_seconds": round(soak_seconds, 1),
            "spec_changes": counts["spec_changes"],
            "writer_errors": counts["writer_errors"],
            "reconciles": loop.events["ReconcileFinished"],
            "reconcile_timeouts": loop.events["ReconcileTimedOut"],
            "requeues": loop.events["Requeued"],
            "watch_errors": loop.events["WatchError"],
            "watch_errors_410": loop.gone,
            # proxy_refuse faults after which a resumed watch met 410 Gone
            "refuse_410_seen": counts["refuse_410_seen"],
            "connections_reset": counts["connections_reset"],
            "audit_410_by_verb": dict(audit_410(plane.audit_log)),
            "faults": {k[6:]: v for k, v in counts.items() if k.startswith("fault_")},
            "objects_deleted_and_recreated": counts["objects_deleted_and_recreated"],
            "delete_errors": delete_errors[:10],
            "reloads_ok": loop.events["ReloadSucceeded"],
            "reloads_failed": loop.events["ReloadFailed"],
            "loop_exits": loop.exits,
            "finalizers_left_at_each_stop": loop.finalizers_left,
            "converge_after_last_change_s": round(converge_seconds, 1),
            "converged": good,
            "rss_mib_longest_process": {
                "seconds": round(longest[-1][0], 1),
                "start": round(warm[0] / 1024, 1),
                "peak": round(max(kib for _, kib in longest) / 1024, 1),
                "end": round(longest[-1][1] / 1024, 1),
            },
            "rss_mib_peak_any_process": round(
                max((kib for samples in loop.rss.values() for _, kib in samples), default=0) / 1024,
                1,
            ),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "unparsed_or_error_lines": loop.errors[:5],
            "failures": failures,
            "loop_log": str(work / "loop.jsonl"),
        }
        print(json.dumps(report, indent=1))
        client.close()
    finally:
        if proxy is not None:
            proxy.close()
        plane.stop()
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
