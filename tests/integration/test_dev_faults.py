"""Watch connections broken mid-stream, and 410 Gone, while 300 objects change (issue 30).

A control plane of its own whose etcd is compacted every second and whose watch cache is
off (``--watch-cache=false``: watches are served by etcd itself), so that a watch
resumed from a resourceVersion a few seconds old is answered 410 Gone. Between the
client and kube-apiserver sits ``CuttingProxy``, which resets live connections, stalls
them (nothing forwarded, nothing closed) or refuses new ones.

- The Reflector (``kube.reflector``, what the dev loop's informers iterate) through
  resets and stalls: its read deadline must notice each stall, and at the end the last
  event it gave for every object must be the server's state (deleted objects as
  ``DELETED``), with 410s met and answered by a relist.
- The real ``kubectl crd dev`` process through resets, a stall and a refused window
  long enough for etcd to compact past its watches: every object converges, every
  object deleted meanwhile is reconciled as gone, the 410s are in its ``WatchError``
  lines, and the process stays alive until SIGINT (exit 0).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.dev_bench import GROUP, OURS_RECONCILER, PLURAL, create_objects, install_gizmo_crd
from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.reflector import Backoff, EventType, Reflector
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.errors import ClusterError, ResourceExpiredError
from tests.integration.cutting_proxy import CuttingProxy
from tests.integration.envtest import ControlPlane, EnvtestError

OBJECTS = 300


@pytest.fixture(scope="module")
def plane(envtest_assets: Path) -> Iterator[ControlPlane]:
    made = ControlPlane(
        envtest_assets, apiserver_args=["--etcd-compaction-interval=1s", "--watch-cache=false"]
    )
    try:
        made.start()
        install_gizmo_crd(made, made.workdir)
    except EnvtestError as exc:
        pytest.fail(f"the test control plane did not start: {exc}", pytrace=False)
    try:
        yield made
    finally:
        made.stop()


def _client(kubeconfig: Path, home: Path, timeout: str | None = None) -> KubeClient:
    config = ClusterConfig(kubeconfig=str(kubeconfig), request_timeout=timeout)
    return KubeClient(config, environ={"HOME": str(home)})


def _proxied(plane: ControlPlane, proxy: CuttingProxy, directory: Path) -> Path:
    """The plane's kubeconfig with the proxy as the server (the certificate names
    127.0.0.1, so TLS verifies through it)."""
    path = directory / "kubeconfig-proxied"
    text = plane.kubeconfig.read_text()
    assert plane.server in text
    path.write_text(text.replace(plane.server, f"https://{proxy.address}"))
    return path


def _gizmos(client: KubeClient, namespace: str) -> ResourceClient:
    return ResourceClient(client, GROUP, "v1", PLURAL, namespaced=True, namespace=namespace)


def _namespace(
    plane: ControlPlane, tmp_path: Path, namespace: str
) -> tuple[KubeClient, ResourceClient]:
    """``namespace`` created; a client straight to the server, and its gizmos there."""
    plane.kubectl("create", "namespace", namespace)
    direct = _client(plane.kubeconfig, tmp_path)
    return direct, _gizmos(direct, namespace)


class Writer:
    """Random ``spec.n`` patches and some deletes, straight to the server (not proxied)."""

    def __init__(self, gizmos: ResourceClient, names: list[str], seed: int) -> None:
        self.gizmos, self.live = gizmos, list(names)
        self.deleted: set[str] = set()
        self.last: dict[str, int] = dict.fromkeys(names, 1)
        self.changes = 0
        self.delete_next = threading.Event()
        self._stop = threading.Event()
        self._rng = random.Random(seed)
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)

    def delete_five(self) -> None:
        """Five deletes, made by the writer's thread between two patches; back once they
        are made: a second call before the writer took the first (its patches slowed by
        a loaded server) would have made five where ten were counted on."""
        target = len(self.deleted) + 5
        self.delete_next.set()
        _wait(lambda: len(self.deleted) >= target, 30, "the writer's five deletes")

    def _run(self) -> None:
        n = 1
        while not self._stop.is_set():
            if self.delete_next.is_set():
                self.delete_next.clear()
                for name in self._rng.sample(self.live, 5):
                    self.gizmos.delete(name)
                    self.live.remove(name)
                    self.deleted.add(name)
            name = self._rng.choice(self.live)
            n += 1
            self.gizmos.patch(name, {"spec": {"n": n}})
            self.last[name] = n
            self.changes += 1
            self._stop.wait(0.02)


def _wait(condition: Any, timeout: float, what: Any) -> None:
    """Until ``condition()``; ``what`` (a string, or a callable giving one) says what
    did not happen."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, (
            f"not within {timeout} s: {what() if callable(what) else what}"
        )
        time.sleep(0.25)


def test_the_reflector_misses_no_event_through_resets_and_stalls(
    plane: ControlPlane, tmp_path: Path
) -> None:
    namespace = "reflector-faults"
    direct, server = _namespace(plane, tmp_path, namespace)
    stop = threading.Event()
    errors: list[ClusterError] = []
    last: dict[str, tuple[EventType, str]] = {}
    with CuttingProxy(("127.0.0.1", plane.port)) as proxy:
        # lists and the watch's dial get a deadline too (``--request-timeout``): a list
        # on a stalled connection would otherwise wait as long as the connection does
        through = _client(_proxied(plane, proxy, tmp_path), tmp_path, timeout="5s")
        reflector = Reflector(
            _gizmos(through, namespace),
            stop=stop,
            # watches of 2-4 s, a stall noticed 2 s past the server's end of the watch
            min_watch_timeout=2,
            read_timeout_margin=2,
            backoff=Backoff(initial=0.1, cap=0.5),
            connect_backoff=Backoff(initial=0.1, cap=0.5),
            on_error=errors.append,
        )

        def consume() -> None:
            for event in reflector.events():
                if event.object is not None:
                    meta = event.object["metadata"]
                    last[meta["name"]] = (event.type, meta["resourceVersion"])

        consumer = threading.Thread(target=consume, daemon=True)
        consumer.start()
        create_objects(direct, namespace, OBJECTS)
        writer = Writer(server, [f"gizmo-{i:05}" for i in range(OBJECTS)], seed=30)
        writer.start()
        stalls = 0
        try:
            for round_ in range(3):
                time.sleep(1.5)
                # after a stall the reflector may still be waiting out a watch opened
                # during it (its deadline, then backoff): wait for the live one, as a
                # fixed 1.5 s failed once on a loaded CI run ("no live watch to cut").
                # Cut as the wait's condition: a watch seen live could end (its 2-4 s
                # timeout) between a look at proxy.live and a cut() after it
                _wait(lambda: proxy.cut() >= 1, 15, "no live watch to cut")
                writer.delete_five()
                time.sleep(1.5)
                errors_before = len(errors)
                proxy.stall()
                stalls += 1
                # longer than the longest watch (4 s) plus the margin (2 s): etcd compacts
                # past the watch's resourceVersion meanwhile
                time.sleep(7)
                # the deadline fires at most 6 s after the stall began, and its error is
                # reported after that (7 s left a loaded machine 1 s for it): wait for it
                # while still stalled. Without a deadline the stalled watch would wait for
                # ever (the proxy holds even the server's end of it), so this still fails
                _wait(
                    lambda before=errors_before: len(errors) > before,
                    30,
                    f"stall {round_ + 1} went unnoticed",
                )
                proxy.resume()
        finally:
            proxy.resume()
            writer.stop()

        def caught_up() -> bool:
            state = {
                o["metadata"]["name"]: o["metadata"]["resourceVersion"] for o in server.items()
            }
            seen = {name: rv for name, (kind, rv) in last.items() if kind != EventType.DELETED}
            return seen == state

        _wait(caught_up, 30, "the reflector's last events equal the server's objects")
        stop.set()
        consumer.join(10)
    gone = {name for name, (kind, _) in last.items() if kind == EventType.DELETED}
    timeouts = sum("timeout" in str(exc).lower() or "timed out" in str(exc) for exc in errors)
    print(Counter(str(exc)[:120] for exc in errors))
    expired = sum(isinstance(exc, ResourceExpiredError) for exc in errors)
    print(
        f"reflector: {writer.changes} changes, {len(writer.deleted)} deletes, "
        f"{proxy.resets} connections reset, {stalls} stalls ({timeouts} deadline errors), "
        f"{reflector.expired} 410s, {reflector.lists} lists, {reflector.watches} watches"
    )
    assert gone == writer.deleted and len(gone) == 15
    assert len(last) == OBJECTS
    assert timeouts >= stalls, [str(exc) for exc in errors]
    # a watch resumed after a 7 s stall starts from a compacted resourceVersion
    assert reflector.expired >= 1 and expired >= 1, [str(exc) for exc in errors]
    assert reflector.lists >= 2
    direct.close()
    through.close()


def test_a_silently_stalled_watch_is_reopened_within_the_idle_bound(
    plane: ControlPlane, tmp_path: Path
) -> None:
    """The server's watch timeout is minutes away (300-600 s, as in the dev loop); only
    the idle bound (``Reflector(idle_timeout=)``, 105 s in use, 5 s here) can notice a
    connection that stops carrying bytes without closing. While events flow the bound
    never fires; once the proxy stalls, the watch fails within it and is opened again,
    and after the stall the reflector catches up with the server."""
    namespace = "reflector-idle"
    plane.kubectl("create", "namespace", namespace)
    direct = _client(plane.kubeconfig, tmp_path)
    server = _gizmos(direct, namespace)
    create_objects(direct, namespace, 1)
    # long beside the 0.3 s between the writes below: a loaded CI machine may hold this
    # thread or the server back for a second or two, and a watch silent for `idle` is
    # rightly cut (2 s was close to that)
    idle = 5.0
    stop = threading.Event()
    errors: list[tuple[float, ClusterError]] = []
    last_seen: list[int] = []
    with CuttingProxy(("127.0.0.1", plane.port)) as proxy:
        through = _client(_proxied(plane, proxy, tmp_path), tmp_path)  # no --request-timeout
        reflector = Reflector(
            _gizmos(through, namespace),
            stop=stop,
            idle_timeout=idle,
            backoff=Backoff(initial=0.1, cap=0.5),
            connect_backoff=Backoff(initial=0.1, cap=0.5),
            on_error=lambda exc: errors.append((time.monotonic(), exc)),
        )

        def consume() -> None:
            for event in reflector.events():
                if event.object is not None:
                    last_seen.append(event.object["spec"]["n"])

        consumer = threading.Thread(target=consume, daemon=True)
        consumer.start()
        n = 1
        try:
            # events every 0.3 s for 6 s: an active watch is not cut by the idle bound
            for _ in range(20):
                n += 1
                server.patch("gizmo-00000", {"spec": {"n": n}})
                time.sleep(0.3)
            _wait(lambda: last_seen[-1:] == [n], 10, "the reflector sees the writes")
            assert errors == [] and reflector.watches == 1, [str(e) for _, e in errors]
            proxy.stall()
            # measured from the last byte the watch got, not from the stall: on a loaded
            # machine this thread can reach the stall a second or more after that byte
            last_byte = proxy.last_down()
            assert last_byte is not None, "no live watch to stall"
            _wait(lambda: errors, 60, "the stalled watch failed")  # its time: asserted below
            noticed = errors[0][0] - last_byte
            time.sleep(1.0)
        finally:
            proxy.resume()
        n += 1
        server.patch("gizmo-00000", {"spec": {"n": n}})
        _wait(lambda: last_seen[-1:] == [n], 15, "the reflector sees a write after the stall")
        stop.set()
        consumer.join(10)
        through.close()
    direct.close()
    print(
        f"stall noticed {noticed:.2f} s after the last byte (idle bound {idle} s); "
        f"{reflector.watches} watches, {reflector.lists} lists, "
        f"errors: {[str(e)[:80] for _, e in errors]}"
    )
    # the read that was waiting when the stall began times out `idle` s after its last
    # byte (the proxy's last relay towards it), never sooner; how much later is the
    # reflector's thread being run to report it, which a loaded CI machine delays by
    # seconds. The promise is that the idle bound ends it and nothing later would: the
    # server's timeout was >= 300 s away, and the reflector's own read deadline is that
    # plus READ_TIMEOUT_MARGIN_SECONDS (30 s); anything under 30 s is the idle bound's
    assert idle - 1.0 <= noticed < 30
    assert any("timeout" in str(e).lower() or "timed out" in str(e) for _, e in errors)
    assert reflector.watches >= 2


class Loop:
    """The ``kubectl crd dev`` process and its JSON events."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.events: Counter[str] = Counter()
        self.gone: set[str] = set()
        self.watch_errors: list[str] = []
        self.stderr: list[str] = []
        self.lines: list[str] = []
        self.synced = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._errors, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            event = json.loads(line)
            kind = event["event"]
            self.events[kind] += 1
            if kind == "WatchSynced":
                self.synced.set()
            elif kind == "WatchError":
                self.watch_errors.append(event["message"])
            elif kind == "ReconcileFinished" and event["outcome"] == "gone":
                self.gone.add(event["key"].split("/", 1)[1])

    def _errors(self) -> None:
        assert self.proc.stderr is not None
        self.stderr.extend(self.proc.stderr)


def _converged(gizmos: ResourceClient, maps: ResourceClient, writer: Writer) -> list[str]:
    """The objects that do not (yet) hold their last ``spec.n`` everywhere."""
    children = {m["metadata"]["name"]: (m.get("data") or {}).get("n") for m in maps.items()}
    behind = []
    seen = set()
    for obj in gizmos.items():
        name, n = obj["metadata"]["name"], obj["spec"]["n"]
        seen.add(name)
        status = obj.get("status") or {}
        if not (
            n == writer.last[name]
            and status.get("ready") == n
            and status.get("observedGeneration") == obj["metadata"]["generation"]
            and children.get(name) == str(n)
        ):
            behind.append(name)
    assert seen == set(writer.live)
    return behind


# On CI since the thirteenth session. It was skipped there before: it failed 3 times in
# 30 runs on a loaded machine before 4d95189 (objects left behind; a status written from
# a stale cache was taken for the loop's own echo); after it, 10 of 10 passed, then 71 of
# 71 in a row (at load 0.8-6.8, 24-49 s each with the control plane's start-up).
def test_the_dev_loop_converges_through_resets_a_stall_and_410(
    plane: ControlPlane, tmp_path: Path
) -> None:
    namespace = "loop-faults"
    direct, gizmos = _namespace(plane, tmp_path, namespace)
    maps = ResourceClient(direct, "", "v1", "configmaps", namespaced=True, namespace=namespace)
    create_objects(direct, namespace, OBJECTS)
    names = [f"gizmo-{i:05}" for i in range(OBJECTS)]
    reconciler = tmp_path / "reconciler.py"
    reconciler.write_text(OURS_RECONCILER)
    with CuttingProxy(("127.0.0.1", plane.port)) as proxy:
        kubeconfig = _proxied(plane, proxy, tmp_path)
        loop = Loop(
            [
                str(Path(sys.executable).with_name("kubectl-crd")), "dev", str(reconciler),
                "-n", namespace, "--kubeconfig", str(kubeconfig), "--log-format", "json",
                "--no-dashboard",
            ],
            {**os.environ, "HOME": str(tmp_path), "NO_COLOR": "1", "PYTHONFAULTHANDLER": "1"},
        )  # fmt: skip
        try:
            assert loop.synced.wait(60), loop.stderr
            writer = Writer(gizmos, names, seed=31)
            writer.start()
            try:
                for _ in range(3):
                    time.sleep(1.5)
                    # after a cut the loop's watches back off (0.8-1.6 s, then 1.6-3.2 s):
                    # wait for a connection to cut rather than trust the 1.5 s (the cut
                    # itself the condition: one seen live may end before a later cut)
                    _wait(lambda: proxy.cut() >= 1, 30, "no live connection to cut")
                # a stall shorter than the watch deadline: held bytes flow on resume
                proxy.stall()
                time.sleep(3)
                proxy.resume()
                time.sleep(1)
                # refused for 5 s while objects change and 10 are deleted: etcd compacts
                # past the watches' resourceVersions, so their resumption meets 410
                proxy.refuse()
                writer.delete_five()
                time.sleep(2.5)
                writer.delete_five()
                time.sleep(2.5)
                proxy.accept_again()
                for _ in range(2):
                    time.sleep(1.5)
                    proxy.cut()
            finally:
                writer.stop()
            behind: list[str] = []

            def settled() -> bool:
                nonlocal behind
                behind = _converged(gizmos, maps, writer)
                return not behind

            relayed: list[str] = []

            def stuck() -> str:
                relayed[:] = proxy.describe()
                about = [
                    line[:300]
                    for line in loop.lines
                    if any(f"/{name}" in line for name in behind[:2]) or "WatchError" in line
                ]
                # where every thread of the loop is (faulthandler, on SIGABRT): waiting
                # out a backoff, or blocked on a socket
                loop.proc.send_signal(signal.SIGABRT)
                loop.proc.wait(10)
                time.sleep(0.5)
                stacks = "".join(loop.stderr)[-6000:]
                return (
                    f"every object converged: {behind[:5]}\n"
                    + "".join(about[-40:])
                    + "proxy: "
                    + "; ".join(relayed)
                    + "\n"
                    + stacks
                )

            _wait(settled, 60, stuck)
            _wait(lambda: writer.deleted <= loop.gone, 30, "every deleted object reconciled gone")
            assert loop.proc.poll() is None, "the loop died"
            gone_410 = [m for m in loop.watch_errors if "Expired" in m or "too old" in m]
            print(
                f"dev loop: {writer.changes} changes, {len(writer.deleted)} deletes, "
                f"{proxy.resets} connections reset, {len(loop.watch_errors)} watch errors "
                f"({len(gone_410)} 410), {loop.events['ReconcileFinished']} reconciles"
            )
            assert len(writer.deleted) == 10
            assert gone_410, loop.watch_errors
            loop.proc.send_signal(signal.SIGINT)
            assert loop.proc.wait(30) == 0
        finally:
            if loop.proc.poll() is None:
                loop.proc.kill()
                loop.proc.wait()
    assert not [line for line in loop.stderr if "Traceback" in line], loop.stderr
    direct.close()
