"""The dev loop's controller against the real API server.

A small CRD (``widgets.dev.example.com``, status subresource) and reconcilers written
here as plain objects with the controller's ``ReconcilerLike`` shape. What the server
holds afterwards is the oracle (children, their ownerReferences, status with
observedGeneration), and its audit log counts the requests the loop made: a restart over
converged objects makes no write, a swap of the reconciler no new LIST.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.discovery import Discovery
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.errors import ApiError
from kubectl_crd.model.managedfields import fields_moved_to_apply
from kubectl_crd.model.records import record
from kubectl_crd.reconcile.api import Result, TerminalError
from kubectl_crd.reconcile.backends import ClusterBackend
from kubectl_crd.reconcile.controller import FINALIZER, Controller
from kubectl_crd.reconcile.events import (
    Outcome,
    ReconcileFinished,
    ReconcileTimedOut,
    Requeued,
    WatchError,
    Write,
    WriteFailed,
)
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane

GROUP = "dev.example.com"
FOR = f"widgets.{GROUP}/v1"
SCHEMA = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "replicas": {"type": "integer"},
                "message": {"type": "string"},
            },
        },
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
    },
}


def install(
    apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory, crd: dict[str, Any]
) -> str:
    """``crd`` installed; its name."""
    path = tmp_path_factory.mktemp("crd") / "crd.json"
    path.write_text(json.dumps(crd))
    (name,) = apiserver.install_crds([path])
    return str(name)


@pytest.fixture(scope="module")
def widgets_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> str:
    crd = make_crd("Widget", GROUP, schema=SCHEMA)
    crd["spec"]["versions"][0]["subresources"] = {"status": {}}
    return install(apiserver, tmp_path_factory, crd)


@pytest.fixture
def client(apiserver: ControlPlane, tmp_path: Path, widgets_crd: str) -> Iterator[KubeClient]:
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}) as made:
        yield made


@pytest.fixture
def backend(client: KubeClient, tmp_path: Path) -> ClusterBackend:
    discovery = Discovery(client.request, client.server, cache_dir=str(tmp_path / "cache"))
    return ClusterBackend(client, discovery)


@pytest.fixture
def widgets(client: KubeClient, namespace: str) -> ResourceClient:
    return ResourceClient(client, GROUP, "v1", "widgets", namespaced=True, namespace=namespace)


@pytest.fixture
def configmaps(client: KubeClient, namespace: str) -> ResourceClient:
    return ResourceClient(client, "", "v1", "configmaps", namespaced=True, namespace=namespace)


@record
class Finalization:
    result: Result
    finalized: bool


class Reconciler:
    """A reconciler as the controller takes one (``loading.LoadedReconciler``'s shape)."""

    def __init__(
        self,
        reconcile: Callable[[dict[str, Any], Any], Any],
        *,
        owns: Sequence[str] = ("v1/ConfigMap",),
        finalize: Callable[[dict[str, Any], Any], bool] | None = None,
        watches: Sequence[tuple[str, Callable[[Any], Any]]] = (),
        for_resource: str = FOR,
    ) -> None:
        self.for_resource = for_resource
        self.owns = tuple(owns)
        self.watches = tuple(watches)
        self._reconcile = reconcile
        self._finalize = finalize
        self.calls: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    @property
    def has_finalize(self) -> bool:
        return self._finalize is not None

    def call(self, obj: Mapping[str, Any], ctx: Any) -> Result:
        with self.lock:
            self.calls.append((obj["metadata"]["name"], str(obj["metadata"].get("generation"))))
        answer = self._reconcile(dict(obj), ctx)
        return answer if isinstance(answer, Result) else Result(**(answer or {}))

    def finalize(self, obj: Mapping[str, Any], ctx: Any) -> Finalization:
        assert self._finalize is not None
        return Finalization(Result(), self._finalize(dict(obj), ctx))

    def parents_of(self, resource: Any, obj: Mapping[str, Any]) -> list[tuple[str, str]]:
        return list(dict(self.watches)[str(resource)](obj))


def configmap_child(obj: Mapping[str, Any], ctx: Any) -> dict[str, Any]:
    """One ConfigMap per widget with its message, and a status saying so."""
    name = obj["metadata"]["name"]
    message = obj["spec"].get("message", "")
    return {
        "children": [
            {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": f"{name}-config", "labels": {"widget": name}},
                "data": {"message": message},
            }
        ],
        "status": {"message": message, "ready": True},
    }


class Events:
    def __init__(self) -> None:
        self.items: list[Any] = []
        self.lock = threading.Lock()

    def __call__(self, event: Any) -> None:
        with self.lock:
            self.items.append(event)

    def of(self, kind: type) -> list[Any]:
        with self.lock:
            return [event for event in self.items if isinstance(event, kind)]


def widget(name: str, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": name}, "spec": spec}


def eventually(check: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except (ApiError, AssertionError, KeyError) as exc:
            last = exc
        else:
            if last:
                return last
        time.sleep(0.02)
    raise AssertionError(f"not within {timeout} s: last {last!r}")


def get_or_none(resource: ResourceClient, name: str) -> dict[str, Any] | None:
    try:
        return resource.get(name)
    except ApiError as exc:
        if exc.status == 404:
            return None
        raise


@pytest.fixture
def run(
    backend: ClusterBackend, namespace: str
) -> Iterator[Callable[..., tuple[Controller, Events]]]:
    started: list[Controller] = []

    def start(reconciler: Reconciler, **options: Any) -> tuple[Controller, Events]:
        events = Events()
        options.setdefault("workers", 2)
        controller = Controller(backend, reconciler, events, namespace=namespace, **options)
        controller.start()
        started.append(controller)
        return controller, events

    yield start
    for controller in started:
        if not controller._stopping.is_set():
            controller.stop(remove_finalizers=True)


def writes_in(plane: ControlPlane, mark: int, namespace: str) -> list[tuple[str, str]]:
    return [
        (event["verb"], event["requestURI"].split("?")[0])
        for event in plane.audit_events(mark)
        if event.get("stage") == "ResponseComplete"
        and event.get("userAgent", "").startswith("kubectl-crd/")
        and event["verb"] in ("create", "update", "patch", "delete")
        and f"/namespaces/{namespace}/" in event["requestURI"]
    ]


def lists_in(plane: ControlPlane, mark: int) -> list[str]:
    return [
        event["requestURI"]
        for event in plane.audit_events(mark)
        if event.get("userAgent", "").startswith("kubectl-crd/")
        and event["verb"] in ("list", "watch")
        and event.get("stage") in ("ResponseComplete", "ResponseStarted")
    ]


# -- the loop ----------------------------------------------------------------------------


def test_children_with_owner_references_and_status_with_observed_generation(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient, namespace: str
) -> None:
    created = widgets.create(widget("one", message="hello"))
    run(Reconciler(configmap_child))

    child = eventually(lambda: get_or_none(configmaps, "one-config"))
    assert child["metadata"]["namespace"] == namespace
    assert child["data"] == {"message": "hello"}
    assert child["metadata"]["labels"] == {"widget": "one"}
    assert child["metadata"]["ownerReferences"] == [
        {
            "apiVersion": f"{GROUP}/v1",
            "kind": "Widget",
            "name": "one",
            "uid": created["metadata"]["uid"],
            "controller": True,
            "blockOwnerDeletion": True,
        }
    ]
    managers = {entry["manager"] for entry in child["metadata"]["managedFields"]}
    assert managers == {"kubectl-crd-dev"}
    status = eventually(lambda: widgets.get("one").get("status"))
    assert status == {"message": "hello", "ready": True, "observedGeneration": 1}

    # an update: the child and the status follow, observedGeneration with them
    widgets.patch("one", {"spec": {"message": "again"}})
    eventually(lambda: configmaps.get("one-config")["data"] == {"message": "again"})
    eventually(lambda: widgets.get("one")["status"]["observedGeneration"] == 2)
    assert widgets.get("one")["status"]["message"] == "again"


def test_a_child_deleted_by_hand_is_recreated(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    widgets.create(widget("two", message="x"))
    run(Reconciler(configmap_child))
    first = eventually(lambda: get_or_none(configmaps, "two-config"))
    configmaps.delete("two-config")
    again = eventually(
        lambda: (
            (found := get_or_none(configmaps, "two-config"))
            and found["metadata"]["uid"] != first["metadata"]["uid"]
            and found
        )
    )
    assert again["data"] == {"message": "x"}


def test_children_no_longer_desired_are_deleted(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    def replicas(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        name = obj["metadata"]["name"]
        return {
            "children": [
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"{name}-{n}"}}
                for n in range(obj["spec"]["replicas"])
            ]
        }

    widgets.create(widget("three", replicas=3))
    # a ConfigMap of someone else's in the namespace: never touched
    configmaps.create({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "three-9"}})
    run(Reconciler(replicas))

    def names() -> set[str]:
        return {obj["metadata"]["name"] for obj in configmaps.items()} - {"kube-root-ca.crt"}

    eventually(lambda: names() == {"three-0", "three-1", "three-2", "three-9"})
    widgets.patch("three", {"spec": {"replicas": 1}})
    eventually(lambda: names() == {"three-0", "three-9"})


def test_a_raising_reconciler_is_retried_with_backoff_and_recovers(
    run: Any, widgets: ResourceClient
) -> None:
    failures = iter(range(4))

    def flaky(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        if next(failures, None) is not None:
            raise RuntimeError("not yet")
        return {"status": {"ok": True}}

    widgets.create(widget("four"))
    _, events = run(Reconciler(flaky, owns=()))
    eventually(lambda: (widgets.get("four").get("status") or {}).get("ok"))
    # the status is on the server before the reconcile that wrote it is reported finished
    eventually(lambda: [e for e in events.of(ReconcileFinished) if e.outcome is Outcome.SUCCESS])
    outcomes = [event.outcome for event in events.of(ReconcileFinished)]
    assert outcomes[:5] == [Outcome.ERROR] * 4 + [Outcome.SUCCESS]
    errors = [event for event in events.of(ReconcileFinished) if event.outcome is Outcome.ERROR]
    assert errors[0].error == "RuntimeError: not yet"
    assert errors[0].file == __file__
    delays = [event.after for event in events.of(Requeued) if event.reason == "error"]
    assert delays == [0.005, 0.01, 0.02, 0.04]  # client-go's per-key exponential


def test_a_terminal_error_is_not_retried(run: Any, widgets: ResourceClient) -> None:
    def terminal(obj: dict[str, Any], ctx: Any) -> None:
        raise TerminalError("bad spec")

    widgets.create(widget("five"))
    reconciler = Reconciler(terminal, owns=())
    controller, events = run(reconciler)
    eventually(lambda: events.of(ReconcileFinished))
    # its key given back (the retry, if any, decided): nothing waits to retry it
    assert controller.wait_idle(timeout=10, settle=0.3)
    assert controller.queue.waiting() == {}
    assert [event.outcome for event in events.of(ReconcileFinished)] == [Outcome.TERMINAL]
    assert events.of(Requeued) == []
    assert len(reconciler.calls) == 1


def test_a_restart_over_converged_objects_makes_no_write(
    apiserver: ControlPlane,
    run: Any,
    widgets: ResourceClient,
    configmaps: ResourceClient,
    namespace: str,
) -> None:
    names = [f"w{n}" for n in range(10)]
    for name in names:
        widgets.create(widget(name, message=name))
    first, _ = run(Reconciler(configmap_child))
    eventually(
        lambda: all(
            (widgets.get(name).get("status") or {}).get("observedGeneration") == 1 for name in names
        )
    )
    eventually(lambda: len(list(configmaps.items(label_selector="widget"))) == 10)
    assert first.wait_idle(timeout=10, settle=0.3)
    first.stop()

    mark = apiserver.audit_mark()
    reconciler = Reconciler(configmap_child)
    second, events = run(reconciler)
    eventually(lambda: {name for name, _ in reconciler.calls} == set(names))
    assert second.wait_idle(timeout=10, settle=0.3)
    second.stop()
    assert writes_in(apiserver, mark, namespace) == []
    assert events.of(Write) == []
    assert {event.outcome for event in events.of(ReconcileFinished)} == {Outcome.SUCCESS}


def test_status_only_writes_do_not_enqueue(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    widgets.create(widget("six", message="m"))
    reconciler = Reconciler(configmap_child)
    controller, _ = run(reconciler)
    eventually(lambda: (widgets.get("six").get("status") or {}).get("observedGeneration") == 1)
    assert controller.wait_idle(timeout=10, settle=0.3)
    calls = len(reconciler.calls)
    # someone else writes the status: no reconcile (the generation did not change). Once
    # the loop's cache holds it (its watch event handed on), not after a fixed 0.4 s,
    # which a loaded machine's late event passed unseen
    widgets.patch_status("six", {"status": {"extra": "by hand"}})
    informer = controller.informer(FOR)
    assert informer is not None

    def cached_extra() -> Any:
        cached = informer.cache.get(widgets.namespace, "six") or {}
        return (cached.get("status") or {}).get("extra")

    eventually(lambda: cached_extra() == "by hand")
    assert controller.wait_idle(timeout=10, settle=0.3)
    assert len(reconciler.calls) == calls
    # a label on the child: its owner is reconciled, and makes no write
    configmaps.patch("six-config", {"metadata": {"labels": {"other": "x"}}})
    eventually(lambda: len(reconciler.calls) == calls + 1)


def test_swap_changes_behaviour_without_listing_again(
    apiserver: ControlPlane, run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    for name in ("s1", "s2"):
        widgets.create(widget(name, message=name))
    started = apiserver.audit_mark()
    controller, _events = run(Reconciler(configmap_child))
    eventually(lambda: len(list(configmaps.items(label_selector="widget"))) == 2)
    assert controller.wait_idle(timeout=10, settle=0.3)
    eventually(lambda: apiserver.watches_open(started, ("widgets", "configmaps")))

    def shouting(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        result = configmap_child(obj, ctx)
        result["children"][0]["data"]["message"] = obj["spec"]["message"].upper()
        return result

    mark = apiserver.audit_mark()
    swapped = controller.swap(Reconciler(shouting))
    assert swapped.requeued == 2
    assert swapped.watches_started == swapped.watches_stopped == ()
    eventually(lambda: configmaps.get("s1-config")["data"] == {"message": "S1"})
    eventually(lambda: configmaps.get("s2-config")["data"] == {"message": "S2"})
    assert lists_in(apiserver, mark) == []


def test_swap_starts_and_stops_only_the_watches_that_changed(
    apiserver: ControlPlane, run: Any, widgets: ResourceClient, namespace: str
) -> None:
    widgets.create(widget("t1", message="x"))
    started = apiserver.audit_mark()
    controller, _ = run(Reconciler(configmap_child))
    assert controller.wait_idle(timeout=10, settle=0.2)
    eventually(lambda: apiserver.watches_open(started, ("widgets", "configmaps")))
    mark = apiserver.audit_mark()
    swapped = controller.swap(Reconciler(configmap_child, owns=("v1/ConfigMap", "v1/Secret")))
    assert swapped.watches_started == ("secrets/v1",)
    listed = lists_in(apiserver, mark)
    assert listed and all("/secrets" in uri for uri in listed)
    swapped = controller.swap(Reconciler(configmap_child, owns=("v1/ConfigMap",)))
    assert swapped.watches_stopped == ("secrets/v1",)


def test_a_child_the_server_rejects_is_reported_and_the_loop_goes_on(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    def invalid_for_bad(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        name = obj["metadata"]["name"]
        child = "Not_A_Name" if name == "bad" else f"{name}-config"
        return {
            "children": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": child}}]
        }

    widgets.create(widget("bad"))
    widgets.create(widget("good"))
    _, events = run(Reconciler(invalid_for_bad))
    eventually(lambda: get_or_none(configmaps, "good-config"))
    failed = eventually(lambda: events.of(WriteFailed))
    assert failed[0].name == "Not_A_Name"
    assert failed[0].status == 422
    assert 'ConfigMap "Not_A_Name" is invalid' in failed[0].message
    # the failed write is reported during the reconcile, its end after it
    bad = eventually(lambda: [e for e in events.of(ReconcileFinished) if e.key[1] == "bad"])
    assert bad[0].outcome is Outcome.ERROR
    assert "Not_A_Name" in bad[0].error


def test_finalize_runs_before_the_object_goes(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    finalized: list[str] = []

    def finalize(obj: dict[str, Any], ctx: Any) -> bool:
        finalized.append(obj["metadata"]["name"])
        return True

    widgets.create(widget("seven", message="m"))
    run(Reconciler(configmap_child, finalize=finalize))
    eventually(lambda: widgets.get("seven")["metadata"].get("finalizers") == [FINALIZER])
    eventually(lambda: get_or_none(configmaps, "seven-config"))
    widgets.delete("seven")
    eventually(lambda: get_or_none(widgets, "seven") is None)
    assert finalized == ["seven"]


def test_stop_can_remove_the_finalizers_it_added(run: Any, widgets: ResourceClient) -> None:
    """Removed, and counted as removed: ``finalizers_left`` is empty though the watch
    stops before it brings the removals' echoes (the cache still holds them)."""
    names = [f"eight{n}" for n in range(5)]
    for name in names:
        widgets.create(widget(name))
    controller, _ = run(Reconciler(configmap_child, finalize=lambda obj, ctx: True))
    for name in names:
        eventually(lambda n=name: widgets.get(n)["metadata"].get("finalizers") == [FINALIZER])
    assert controller.wait_idle(timeout=10, settle=0.2)
    stopped = controller.stop(remove_finalizers=True)
    assert stopped.finalizers_removed == tuple((widgets.namespace, n) for n in names)
    assert stopped.finalizers_left == ()
    for name in names:
        assert "finalizers" not in widgets.get(name)["metadata"]


def test_stop_counts_the_finalizers_it_leaves(run: Any, widgets: ResourceClient) -> None:
    widgets.create(widget("kept"))
    controller, _ = run(Reconciler(configmap_child, finalize=lambda obj, ctx: True))
    eventually(lambda: widgets.get("kept")["metadata"].get("finalizers") == [FINALIZER])
    assert controller.wait_idle(timeout=10, settle=0.2)
    stopped = controller.stop()
    assert stopped.finalizers_left == ((widgets.namespace, "kept"),)
    assert stopped.finalizers_removed == ()
    assert widgets.get("kept")["metadata"]["finalizers"] == [FINALIZER]
    widgets.patch("kept", {"metadata": {"finalizers": None}})


def test_dry_run_sends_every_write_as_a_server_dry_run(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    widgets.create(widget("nine", message="m"))
    _controller, events = run(Reconciler(configmap_child), dry_run=True)
    eventually(lambda: {event.verb for event in events.of(Write)} == {"apply", "status"})
    assert all(event.dry_run for event in events.of(Write))
    assert events.of(WriteFailed) == []
    assert get_or_none(configmaps, "nine-config") is None
    assert "status" not in widgets.get("nine")


def test_a_reconcile_past_its_timeout_is_reported_and_run_again(
    run: Any, widgets: ResourceClient
) -> None:
    slow_calls: list[float] = []
    reported = threading.Event()

    def slow(obj: dict[str, Any], ctx: Any) -> None:
        slow_calls.append(time.monotonic())
        if len(slow_calls) == 1:
            # past the timeout until the loop has said so (a fixed 0.5 s could end
            # before a loaded machine ran the loop's watchdog)
            reported.wait(30)

    widgets.create(widget("ten"))
    _, events = run(Reconciler(slow, owns=()), reconcile_timeout=0.2)
    timed_out = eventually(lambda: events.of(ReconcileTimedOut))
    reported.set()
    assert timed_out[0].key[1] == "ten" and timed_out[0].elapsed >= 0.2
    eventually(lambda: len(slow_calls) == 2)
    assert [e.reason for e in events.of(Requeued)] == ["timeout"]


def test_context_reads_the_cache_and_records_events(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient, client: KubeClient
) -> None:
    seen: dict[str, Any] = {}

    def reader(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        result = configmap_child(obj, ctx)
        seen["get"] = ctx.get("v1/ConfigMap", "other")
        seen["list"] = [o["metadata"]["name"] for o in ctx.list("v1/ConfigMap", labels="app=x")]
        seen["widgets"] = len(ctx.list(FOR, namespace="*"))
        seen["kinds"] = (obj["apiVersion"], obj["kind"], seen["get"]["kind"])
        ctx.event("Seen", "reconciled by the test")
        ctx.log.info("reconciling %s", obj["metadata"]["name"])
        return result

    configmaps.create(
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "other", "labels": {"app": "x"}},
            "data": {"a": "b"},
        }
    )
    widgets.create(widget("eleven", message="m"))
    _, loop_events = run(Reconciler(reader))
    # a reconcile over (not the first key it set: the worker may still be setting the
    # others, seen["widgets"] was missing once with threads switching every 20 us)
    first = eventually(lambda: loop_events.of(ReconcileFinished))[0]
    assert first.outcome is Outcome.SUCCESS
    assert seen["get"]["data"] == {"a": "b"}
    assert seen["list"] == ["other"]
    assert seen["widgets"] >= 1
    # listed objects come without apiVersion and kind; the loop gives them, as client-go
    assert seen["kinds"] == (f"{GROUP}/v1", "Widget", "ConfigMap")
    events = eventually(
        lambda: client.request("GET", f"/api/v1/namespaces/{widgets.namespace}/events")["items"]
    )
    assert events[0]["reason"] == "Seen"
    assert events[0]["involvedObject"]["name"] == "eleven"
    assert events[0]["involvedObject"]["kind"] == "Widget"


def test_a_watched_object_reconciles_the_parents_its_mapping_names(
    run: Any, widgets: ResourceClient, client: KubeClient, namespace: str
) -> None:
    secrets = ResourceClient(client, "", "v1", "secrets", namespaced=True, namespace=namespace)

    def parents(secret: dict[str, Any]) -> list[tuple[str, str]]:
        labels = secret["metadata"].get("labels") or {}
        return [(secret["metadata"]["namespace"], labels["widget"])] if "widget" in labels else []

    def from_secret(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        secret = ctx.get("v1/Secret", f"{obj['metadata']['name']}-secret")
        return {
            "status": {"secret": (secret or {}).get("stringData") or (secret or {}).get("data")}
        }

    widgets.create(widget("twelve"))
    run(Reconciler(from_secret, owns=(), watches=(("v1/Secret", parents),)))
    # a null in the status is no field, as the merge patch stores it
    eventually(lambda: widgets.get("twelve").get("status") == {"observedGeneration": 1})
    secrets.create(
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "twelve-secret", "labels": {"widget": "twelve"}},
            "data": {"k": "dg=="},
        }
    )
    eventually(lambda: widgets.get("twelve")["status"]["secret"] == {"k": "dg=="})
    secrets.patch("twelve-secret", {"data": {"k": "dw=="}})
    eventually(lambda: widgets.get("twelve")["status"]["secret"] == {"k": "dw=="})


def test_built_in_children_with_server_defaults_converge_to_no_write(
    apiserver: ControlPlane, run: Any, widgets: ResourceClient, namespace: str
) -> None:
    """A Deployment and a Service come back with many fields the server defaulted (ports'
    protocol, a clusterIP, the pod template's policies): a restart still writes nothing."""

    def workload(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        name = obj["metadata"]["name"]
        labels = {"app": name}
        container = {"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}
        return {
            "children": [
                {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "metadata": {"name": name},
                    "spec": {
                        "replicas": 2,
                        "selector": {"matchLabels": labels},
                        "template": {
                            "metadata": {"labels": labels},
                            "spec": {"containers": [container]},
                        },
                    },
                },
                {
                    "apiVersion": "v1",
                    "kind": "Service",
                    "metadata": {"name": name},
                    "spec": {"selector": labels, "ports": [{"port": 80}]},
                },
            ],
            "status": {"ready": True},
        }

    owns = ("apps/v1/Deployment", "v1/Service")
    widgets.create(widget("web"))
    first, _ = run(Reconciler(workload, owns=owns))
    eventually(lambda: (widgets.get("web").get("status") or {}).get("ready"))
    assert first.wait_idle(timeout=10, settle=0.3)
    first.stop()
    mark = apiserver.audit_mark()
    reconciler = Reconciler(workload, owns=owns)
    second, events = run(reconciler)
    eventually(lambda: reconciler.calls)
    assert second.wait_idle(timeout=10, settle=0.3)
    second.stop()
    assert writes_in(apiserver, mark, namespace) == []
    assert events.of(Write) == []


@pytest.fixture(scope="module")
def gadgets_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> str:
    """Cluster-scoped and without a status subresource."""
    return install(
        apiserver, tmp_path_factory, make_crd("Gadget", GROUP, schema=SCHEMA, scope="Cluster")
    )


def test_cluster_scoped_parent_without_status_subresource(
    apiserver: ControlPlane,
    gadgets_crd: str,
    backend: ClusterBackend,
    client: KubeClient,
    configmaps: ResourceClient,
    namespace: str,
) -> None:
    gadgets = ResourceClient(client, GROUP, "v1", "gadgets", namespaced=False)
    name = f"g-{namespace}"

    def gadget(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        child = {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "from-gadget", "namespace": namespace},
            "data": {"message": obj["spec"]["message"]},
        }
        return {"children": [child], "status": {"message": obj["spec"]["message"]}}

    created = gadgets.create(
        {
            "apiVersion": f"{GROUP}/v1",
            "kind": "Gadget",
            "metadata": {"name": name},
            "spec": {"message": "m"},
        }
    )
    reconciler = Reconciler(gadget, for_resource=f"gadgets.{GROUP}/v1")
    events = Events()
    controller = Controller(backend, reconciler, events, workers=2, namespace=namespace)
    controller.start()
    try:
        child = eventually(lambda: get_or_none(configmaps, "from-gadget"))
        assert child["metadata"]["ownerReferences"][0]["uid"] == created["metadata"]["uid"]
        # no /status: written through the object, without observedGeneration (each status
        # write moves the generation there, so it could never match)
        eventually(lambda: gadgets.get(name).get("status") == {"message": "m"})
        assert controller.wait_idle(timeout=10, settle=0.3)
        calls = len(reconciler.calls)
        # a child's change reconciles the cluster-scoped owner (key without a namespace)
        configmaps.patch("from-gadget", {"data": {"message": "by hand"}})
        eventually(lambda: configmaps.get("from-gadget")["data"] == {"message": "m"})
        assert controller.wait_idle(timeout=10, settle=0.3)
        # once for the change by hand; the echo of the loop's re-apply is not news to a
        # parent that reads nothing but itself
        assert len(reconciler.calls) == calls + 1
    finally:
        controller.stop()
    mark = apiserver.audit_mark()
    again = Controller(
        backend, Reconciler(gadget, for_resource=f"gadgets.{GROUP}/v1"), None, namespace=namespace
    )
    again.start()
    try:
        assert again.wait_idle(timeout=10, settle=0.3)
    finally:
        again.stop()
        gadgets.delete(name)
    # a restart over it writes nothing, the status through the object included
    assert writes_in(apiserver, mark, namespace) == []
    assert [
        e
        for e in apiserver.audit_events(mark)
        if e["verb"] == "patch" and "/gadgets/" in e["requestURI"]
    ] == []


# -- owned children's echoes, Warning Events, quantities ------------------------------


def test_a_parent_is_reconciled_again_when_the_children_it_wrote_appear(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    """controller-runtime's ``Owns``: the child's ADDED enqueues its owner even though
    the loop itself wrote the child, so a status that counts the children the cache
    holds catches up (it stayed at 0 when the loop dropped its own children's echoes)."""

    def counting(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        result = configmap_child(obj, ctx)
        seen = ctx.list("v1/ConfigMap", labels={"widget": obj["metadata"]["name"]})
        result["status"] = {"children": len(seen)}
        return result

    names = [f"count{n}" for n in range(5)]
    for name in names:
        widgets.create(widget(name, message=name))
    controller, events = run(Reconciler(counting))
    eventually(
        lambda: all((widgets.get(n).get("status") or {}).get("children") == 1 for n in names)
    )
    assert controller.wait_idle(timeout=10, settle=0.3)
    # per widget: its child, a status saying 0, then (after the child's ADDED) 1
    writes = [(e.verb, e.name) for e in events.of(Write)]
    assert sorted(writes) == sorted(
        [("apply", f"{n}-config") for n in names] + [("status", n) for n in names] * 2
    )


def test_a_cold_start_reconciles_each_object_once_and_writes_it_twice(
    apiserver: ControlPlane, run: Any, widgets: ResourceClient, namespace: str
) -> None:
    """A reconciler that reads only its object: the echo of the child the loop applied
    for it is not news to it, so each object is reconciled once (it was twice when
    every child's ADDED re-synced its parent), with two writes (child, status)."""
    names = [f"once{n}" for n in range(20)]
    for name in names:
        widgets.create(widget(name, message=name))
    mark = apiserver.audit_mark()
    reconciler = Reconciler(configmap_child)
    controller, events = run(reconciler, workers=4)
    eventually(lambda: all((widgets.get(n).get("status") or {}).get("ready") for n in names), 30)
    assert controller.wait_idle(timeout=10, settle=0.5)
    assert len(events.of(Write)) == 2 * len(names)
    assert len(writes_in(apiserver, mark, namespace)) == 2 * len(names)
    assert sorted(name for name, _ in reconciler.calls) == sorted(names)


def test_a_child_edited_by_hand_is_put_back_for_a_parent_that_reads_nothing_else(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    """The echo rule skips only the loop's own writes: someone else's edit of a child
    reconciles its owner, which applies the child again."""
    widgets.create(widget("edited", message="mine"))
    controller, _ = run(Reconciler(configmap_child))
    eventually(lambda: configmaps.get("edited-config")["data"] == {"message": "mine"})
    assert controller.wait_idle(timeout=10, settle=0.2)
    configmaps.patch("edited-config", {"data": {"message": "theirs"}})
    eventually(lambda: configmaps.get("edited-config")["data"] == {"message": "mine"})


def test_a_parent_follows_its_childs_status_that_someone_else_writes(
    run: Any, widgets: ResourceClient, client: KubeClient, namespace: str
) -> None:
    """examples/foo's shape: the parent's status copies its Deployment's
    ``availableReplicas``, which the Deployment controller writes (here the test, as
    envtest runs no controllers). Each change of it re-syncs the parent."""
    deployments = ResourceClient(
        client, "apps", "v1", "deployments", namespaced=True, namespace=namespace
    )

    def foo_like(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        name = obj["metadata"]["name"]
        labels = {"app": name}
        child = {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": name},
            "spec": {
                "replicas": 2,
                "selector": {"matchLabels": labels},
                "template": {
                    "metadata": {"labels": labels},
                    "spec": {"containers": [{"name": "c", "image": "nginx"}]},
                },
            },
        }
        current = ctx.get("apps/v1/Deployment", name) or {}
        available = (current.get("status") or {}).get("availableReplicas", 0)
        return {"children": [child], "status": {"available": available}}

    widgets.create(widget("foo"))
    run(Reconciler(foo_like, owns=("apps/v1/Deployment",)))
    eventually(lambda: deployments.get("foo"))
    eventually(lambda: widgets.get("foo")["status"]["available"] == 0)
    for available in (1, 2):
        deployments.patch(
            "foo",
            {"status": {"replicas": 2, "readyReplicas": 2, "availableReplicas": available}},
            subresource="status",
        )
        eventually(lambda a=available: widgets.get("foo")["status"]["available"] == a)


METACONTROLLER_HOOK = f"""\
FOR = "{FOR}"
OWNS = ["v1/ConfigMap"]


def sync(request):
    name = request["parent"]["metadata"]["name"]
    observed = sorted(request["children"]["ConfigMap.v1"])
    child = {{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {{"name": name + "-hook"}}}}
    return {{"status": {{"observed": observed}}, "children": [child]}}
"""


def test_a_metacontroller_hooks_status_sees_the_children_it_made_on_a_cold_start(
    run: Any, widgets: ResourceClient, tmp_path: Path
) -> None:
    """A hook's request carries its children: the echo of the child the loop applied
    for it syncs it again, so a status listing the children does not stay empty."""
    from kubectl_crd.reconcile.loading import load_reconciler

    path = tmp_path / "hook.py"
    path.write_text(METACONTROLLER_HOOK)
    names = [f"hook{n}" for n in range(4)]
    for name in names:
        widgets.create(widget(name))
    run(load_reconciler(str(path)))
    for name in names:
        eventually(
            lambda n=name: (widgets.get(n).get("status") or {}).get("observed") == [f"{n}-hook"]
        )


def test_a_failing_reconcile_records_one_warning_event_per_failure_streak(
    run: Any, widgets: ResourceClient, client: KubeClient
) -> None:
    plan = iter(["fail", "fail", "fail", "ok", "fail", "ok"])

    def flaky(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        if next(plan, "ok") == "fail":
            raise ValueError(f"broken at generation {obj['metadata']['generation']}")
        ctx.event("Reconciled", "all good")
        return {"status": {"ok": True}}

    widgets.create(widget("flaky", message="a"))
    controller, events = run(Reconciler(flaky, owns=()))
    eventually(lambda: (widgets.get("flaky").get("status") or {}).get("observedGeneration") == 1)
    widgets.patch("flaky", {"spec": {"message": "b"}})
    eventually(lambda: (widgets.get("flaky").get("status") or {}).get("observedGeneration") == 2)
    assert controller.wait_idle(timeout=10, settle=0.3)
    assert len([e for e in events.of(ReconcileFinished) if e.outcome is Outcome.ERROR]) == 4

    def recorded() -> list[tuple[str, str, str, str]]:
        items = client.request("GET", f"/api/v1/namespaces/{widgets.namespace}/events")["items"]
        return sorted(
            (e["type"], e["reason"], e["message"], e["involvedObject"]["kind"])
            for e in items
            if e["involvedObject"]["name"] == "flaky"
        )

    expected = sorted(
        [
            ("Warning", "ReconcileError", "ValueError: broken at generation 1", "Widget"),
            ("Warning", "ReconcileError", "ValueError: broken at generation 2", "Widget"),
            ("Normal", "Reconciled", "all good", "Widget"),
            ("Normal", "Reconciled", "all good", "Widget"),
        ]
    )
    eventually(lambda: recorded() == expected)


def test_quantities_spelled_otherwise_than_the_server_converge_to_no_write(
    apiserver: ControlPlane, run: Any, widgets: ResourceClient, namespace: str
) -> None:
    """A ResourceQuota asking for ``cpu: 0.5`` and ``1024Mi`` is stored as ``500m`` and
    ``1Gi``: a restart compares by value and writes nothing."""

    def quota(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        hard = {"cpu": 0.5, "memory": "1024Mi", "pods": "1e1"}
        return {
            "children": [
                {
                    "apiVersion": "v1",
                    "kind": "ResourceQuota",
                    "metadata": {"name": obj["metadata"]["name"]},
                    "spec": {"hard": hard},
                }
            ]
        }

    owns = ("v1/ResourceQuota",)
    widgets.create(widget("quota"))
    first, _ = run(Reconciler(quota, owns=owns))
    quotas = ResourceClient(
        widgets.client, "", "v1", "resourcequotas", namespaced=True, namespace=namespace
    )
    stored = eventually(lambda: get_or_none(quotas, "quota"))
    assert stored["spec"]["hard"] == {"cpu": "500m", "memory": "1Gi", "pods": "10"}
    assert first.wait_idle(timeout=10, settle=0.3)
    first.stop()
    mark = apiserver.audit_mark()
    reconciler = Reconciler(quota, owns=owns)
    second, events = run(reconciler)
    eventually(lambda: reconciler.calls)
    assert second.wait_idle(timeout=10, settle=0.3)
    second.stop()
    assert writes_in(apiserver, mark, namespace) == []
    assert events.of(Write) == []


# -- who the loop is: --as, --as-group -------------------------------------------------


def test_a_forbidden_first_list_fails_start_at_once_with_the_servers_line(
    apiserver: ControlPlane, tmp_path: Path, widgets_crd: str, namespace: str
) -> None:
    """``--as`` a user who may not list: waiting for the cache would only end at the
    sync timeout (60 s); the 403 is the answer, in the server's words."""
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig), impersonate_user="no-rights")
    with KubeClient(config, environ={"HOME": str(tmp_path)}) as client:
        backend = ClusterBackend(client, Discovery(client.request, client.server))
        events = Events()
        controller = Controller(
            backend, Reconciler(configmap_child), events, namespace=namespace, sync_timeout=60
        )
        began = time.monotonic()
        with pytest.raises(ApiError) as caught:
            controller.start()
        assert time.monotonic() - began < 10
    assert caught.value.status == 403
    line = caught.value.kubectl_line
    assert "\n" not in line
    assert 'User "no-rights" cannot list resource' in line and namespace in line
    # the watches are stopped: nothing lists on behind the error
    assert all(informer.stopped for informer in controller.informers.values())
    # the refusal is reported once, by start(): no "failed, retrying" before it
    assert events.of(WatchError) == []


def test_the_official_client_impersonates_every_as_group(
    apiserver: ControlPlane, tmp_path: Path
) -> None:
    """``ctx.kubernetes`` with ``--as U --as-group g1 --as-group g2``: the server sees
    both groups (SelfSubjectReview answers who it took the caller for)."""
    pytest.importorskip("kubernetes")
    from kubectl_crd.kube.official import official_client

    config = ClusterConfig(
        kubeconfig=str(apiserver.kubeconfig),
        impersonate_user="someone",
        impersonate_groups=("g1", "g2"),
    )
    from kubernetes.client import AuthenticationV1Api

    api = official_client(config)
    try:
        answer = AuthenticationV1Api(api).create_self_subject_review(
            {"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}
        )
    finally:
        api.close()
    info = answer.status.user_info
    assert info.username == "someone"
    assert {"g1", "g2"} <= set(info.groups)


def test_after_a_swap_each_status_is_written_once(
    apiserver: ControlPlane, run: Any, widgets: ResourceClient, namespace: str
) -> None:
    """A hot reload that drops a child and changes the status: the child's delete
    reconciles the parent again before the echo of its status write is in the cache;
    that reconcile must not send the same status again."""

    def version(children: int) -> Reconciler:
        def reconcile(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
            name = obj["metadata"]["name"]
            kids = [
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"{name}-{i}"}}
                for i in range(children)
            ]
            return {"children": kids, "status": {"children": children}}

        return Reconciler(reconcile)

    names = [f"swap{n}" for n in range(10)]
    for name in names:
        widgets.create(widget(name))
    controller, events = run(version(2), workers=4)
    for name in names:
        eventually(lambda n=name: (widgets.get(n).get("status") or {}).get("children") == 2)
    assert controller.wait_idle(timeout=10, settle=0.3)
    before = len(events.of(Write))
    mark = apiserver.audit_mark()
    controller.swap(version(1))
    for name in names:
        eventually(lambda n=name: (widgets.get(n).get("status") or {}).get("children") == 1)
    assert controller.wait_idle(timeout=10, settle=0.5)
    after = [(e.verb, e.name) for e in events.of(Write)[before:]]
    assert sorted(after) == sorted(
        [("delete", f"{n}-1") for n in names] + [("status", n) for n in names]
    )
    status_patches = [
        e for e in apiserver.audit_events(mark)
        if e.get("stage") == "ResponseComplete" and e["verb"] == "patch"
        and e["requestURI"].split("?")[0].endswith("/status")
        and f"/namespaces/{namespace}/" in e["requestURI"]
    ]  # fmt: skip
    assert len(status_patches) == len(names)


# -- a child created, then owned as an applied one ---------------------------------------


def _entries(obj: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """managedFields without times: (manager, operation, subresource, fieldsV1)."""
    return sorted(
        (
            entry["manager"],
            entry["operation"],
            entry.get("subresource", ""),
            json.dumps(entry.get("fieldsV1"), sort_keys=True),
        )
        for entry in obj["metadata"].get("managedFields") or ()
    )


def with_extra(value: str) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    """``configmap_child`` with one more data key, ``extra``."""

    def reconcile(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        result = configmap_child(obj, ctx)
        result["children"][0]["data"]["extra"] = value
        return result

    return reconcile


def _as_if_applied(
    client: KubeClient, namespace: str, plural: tuple[str, str, str], child: Mapping[str, Any]
) -> list[tuple[str, str, str, str]]:
    """The managedFields a server-side apply that creates ``child`` (as the loop sent
    it, under another name) leaves: the oracle of how the loop's child is owned."""
    group, version, resource = plural
    other = ResourceClient(client, group, version, resource, namespaced=True, namespace=namespace)
    body = json.loads(json.dumps(child))
    body["metadata"]["name"] += "-applied"
    applied = other.apply(body, field_manager="kubectl-crd-dev", force=True)
    return _entries(applied)


def test_an_absent_child_is_created_and_owned_as_if_applied_until_an_apply_leaves_fields_out(
    apiserver: ControlPlane,
    client: KubeClient,
    run: Any,
    widgets: ResourceClient,
    configmaps: ResourceClient,
    namespace: str,
) -> None:
    """The loop POSTs a child its cache does not hold (cheaper for the server than an
    apply that creates): the create's Update entry owns exactly what an apply would. An
    apply that keeps every field is sent alone; one that leaves a field the create owns
    out moves those fields to the Apply entry first, so that field is removed, as it is
    from a child applied from the start."""
    widgets.create(widget("made", message="m"))
    mark = apiserver.audit_mark()

    controller, events = run(Reconciler(with_extra("x")))
    eventually(lambda: (widgets.get("made").get("status") or {}).get("ready"))
    assert controller.wait_idle(timeout=10, settle=0.3)
    child = configmaps.get("made-config")
    assert writes_in(apiserver, mark, namespace)[0] == (
        "create",
        f"/api/v1/namespaces/{namespace}/configmaps",
    )
    (write,) = [w for w in events.of(Write) if w.kind == "ConfigMap"]
    ours = [entry for entry in _entries(child) if entry[0] == "kubectl-crd-dev"]
    assert [op for _, op, _, _ in ours] == ["Update"]
    # its fields moved to an Apply entry are those an apply that creates it owns
    moved = {"metadata": {"managedFields": fields_moved_to_apply(child, "kubectl-crd-dev")}}
    expected = _as_if_applied(client, namespace, ("", "v1", "configmaps"), write.body)
    assert [e for e in _entries(moved) if e[0] == "kubectl-crd-dev"] == expected

    # a value changed, every field kept: one apply, the fields stay the create's too
    mark = apiserver.audit_mark()
    controller.swap(Reconciler(with_extra("y")))
    eventually(lambda: configmaps.get("made-config")["data"]["extra"] == "y")
    assert controller.wait_idle(timeout=10, settle=0.3)
    path = f"/api/v1/namespaces/{namespace}/configmaps/made-config"
    assert [w for w in writes_in(apiserver, mark, namespace) if w[1] == path] == [("patch", path)]
    ours = [e for e in _entries(configmaps.get("made-config")) if e[0] == "kubectl-crd-dev"]
    assert [op for _, op, _, _ in ours] == ["Apply", "Update"]

    mark = apiserver.audit_mark()

    # the label the create set left out (and "extra", now the apply's): moved, applied
    def unlabelled(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        result = configmap_child(obj, ctx)
        del result["children"][0]["metadata"]["labels"]
        return result

    controller.swap(Reconciler(unlabelled))
    eventually(lambda: "labels" not in configmaps.get("made-config")["metadata"])
    assert controller.wait_idle(timeout=10, settle=0.3)
    child = configmaps.get("made-config")
    assert child["data"] == {"message": "m"}
    ours = [entry for entry in _entries(child) if entry[0] == "kubectl-crd-dev"]
    assert [op for _, op, _, _ in ours] == ["Apply"]
    # (the oracle's copy is owned by the widget too: the loop deletes it, undesired)
    assert [w for w in writes_in(apiserver, mark, namespace) if w[1] == path] == [
        ("patch", path),
        ("patch", path),
    ]
    assert [w.verb for w in events.of(Write) if w.name == "made-config"][1:] == [
        "apply",
        "move-fields",
        "apply",
    ]


TOY_SCHEMA = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "size": {"type": "integer", "default": 3},
                "parts": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {
                        "type": "object",
                        "required": ["name"],
                        "properties": {
                            "name": {"type": "string"},
                            "color": {"type": "string", "default": "red"},
                        },
                    },
                },
            },
        },
    },
}


@pytest.fixture(scope="module")
def toys_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A custom resource whose schema defaults fields, inside a list map's items too."""
    return install(apiserver, tmp_path_factory, make_crd("Toy", GROUP, schema=TOY_SCHEMA))


def test_a_created_child_the_server_defaulted_is_owned_as_an_applied_one(
    apiserver: ControlPlane,
    client: KubeClient,
    run: Any,
    widgets: ResourceClient,
    namespace: str,
    toys_crd: str,
) -> None:
    """A custom resource's create owns what its schema defaulted in it (a field, a field
    of a list item): the loop moves and applies it at once, and it ends owned exactly as
    one applied from the start; the kind's next child is applied from the start. A
    built-in kind the server defaults (a Deployment) is applied from the start too."""

    def toy(obj: dict[str, Any], ctx: Any) -> dict[str, Any]:
        name = obj["metadata"]["name"]
        return {
            "children": [
                {
                    "apiVersion": f"{GROUP}/v1",
                    "kind": "Toy",
                    "metadata": {"name": name},
                    "spec": {"parts": [{"name": "wheel"}]},
                },
                {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "metadata": {"name": name},
                    "spec": {
                        "selector": {"matchLabels": {"app": name}},
                        "template": {
                            "metadata": {"labels": {"app": name}},
                            "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]},
                        },
                    },
                },
            ],
        }

    toys = ResourceClient(client, GROUP, "v1", "toys", namespaced=True, namespace=namespace)
    mark = apiserver.audit_mark()
    widgets.create(widget("def"))
    owns = (f"toys.{GROUP}/v1", "apps/v1/Deployment")
    controller, events = run(Reconciler(toy, owns=owns))
    eventually(lambda: get_or_none(toys, "def"))
    assert controller.wait_idle(timeout=10, settle=0.3)
    writes = [w for w in events.of(Write) if w.kind == "Toy"]
    assert [w.verb for w in writes] == ["apply", "move-fields", "apply"]
    assert toys.get("def")["spec"] == {"size": 3, "parts": [{"name": "wheel", "color": "red"}]}
    expected = _as_if_applied(client, namespace, (GROUP, "v1", "toys"), writes[0].body)
    ours = [e for e in _entries(toys.get("def")) if e[0] == "kubectl-crd-dev"]
    assert ours == expected
    deployment = f"/apis/apps/v1/namespaces/{namespace}/deployments/def"
    assert [w for w in writes_in(apiserver, mark, namespace) if w[1] == deployment] == [
        ("patch", deployment)
    ]
    mark = apiserver.audit_mark()
    widgets.create(widget("def2"))
    eventually(lambda: get_or_none(toys, "def2"))
    assert controller.wait_idle(timeout=10, settle=0.3)
    assert [w.verb for w in events.of(Write) if w.name == "def2"] == ["apply", "apply"]
    path = f"/apis/{GROUP}/v1/namespaces/{namespace}/toys/def2"
    assert [w for w in writes_in(apiserver, mark, namespace) if w[1] == path] == [("patch", path)]


def test_a_dry_run_over_a_created_child_previews_the_removals_of_the_move_and_apply(
    run: Any, widgets: ResourceClient, configmaps: ResourceClient
) -> None:
    """A dry run stores no move of the fields: its apply's preview drops what the real
    run's move and apply remove (a data key the new code leaves out), and keeps what
    another manager owns; the real run then leaves the child just so."""
    widgets.create(widget("pre", message="m"))

    first, _ = run(Reconciler(with_extra("x")))
    eventually(lambda: (widgets.get("pre").get("status") or {}).get("ready"))
    assert first.wait_idle(timeout=10, settle=0.3)
    first.stop()
    configmaps.patch("pre-config", {"data": {"theirs": "t"}}, field_manager="someone")
    before = configmaps.get("pre-config")
    _dry, events = run(Reconciler(configmap_child), dry_run=True)
    (preview,) = eventually(lambda: [w for w in events.of(Write) if w.kind == "ConfigMap"])
    assert (preview.verb, preview.dry_run) == ("apply", True)
    assert preview.answer["data"] == {"message": "m", "theirs": "t"}
    assert configmaps.get("pre-config") == before  # nothing stored
    _dry.stop()
    real, _ = run(Reconciler(configmap_child))
    eventually(lambda: configmaps.get("pre-config")["data"] == preview.answer["data"])
    real.stop()
