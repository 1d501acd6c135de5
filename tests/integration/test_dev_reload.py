"""Hot reload end to end against the real API server: reconciler files loaded by
``reconcile.loading``, run by the controller, reloaded on save by ``HotReloader``.

The oracle is what the server holds (children, status) and its audit log: a reload
makes no new LIST or WATCH (the informers' cache is kept), and a broken save leaves the
old code reconciling. A metacontroller sync hook runs unchanged, its children and status
on the server as metacontroller would make them.
"""

from __future__ import annotations

import json
import os
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.discovery import Discovery
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.errors import ApiError
from kubectl_crd.reconcile.backends import ClusterBackend
from kubectl_crd.reconcile.controller import Controller
from kubectl_crd.reconcile.events import ReloadFailed, ReloadSucceeded
from kubectl_crd.reconcile.loading import load_reconciler
from kubectl_crd.reconcile.reloading import HotReloader
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane

GROUP = "reload.example.com"
FOR = f"gadgets.{GROUP}/v1"
SCHEMA = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {"replicas": {"type": "integer"}, "message": {"type": "string"}},
        },
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
    },
}
HANG_GUARD = 30.0


@pytest.fixture(scope="module")
def gadgets_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> str:
    crd = make_crd("Gadget", GROUP, schema=SCHEMA)
    crd["spec"]["versions"][0]["subresources"] = {"status": {}}
    path = tmp_path_factory.mktemp("crd") / "gadgets.json"
    path.write_text(json.dumps(crd))
    (name,) = apiserver.install_crds([path])
    return name


@pytest.fixture
def client(apiserver: ControlPlane, tmp_path: Path, gadgets_crd: str) -> Iterator[KubeClient]:
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}) as made:
        yield made


@pytest.fixture
def gadgets(client: KubeClient, namespace: str) -> ResourceClient:
    return ResourceClient(client, GROUP, "v1", "gadgets", namespaced=True, namespace=namespace)


@pytest.fixture
def configmaps(client: KubeClient, namespace: str) -> ResourceClient:
    return ResourceClient(client, "", "v1", "configmaps", namespaced=True, namespace=namespace)


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


@pytest.fixture
def loop(
    client: KubeClient, tmp_path: Path, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[Path], tuple[Controller, HotReloader, Events]]]:
    """Start the controller on a reconciler file, with its hot reloader."""
    monkeypatch.chdir(tmp_path)
    discovery = Discovery(client.request, client.server, cache_dir=str(tmp_path / "cache"))
    backend = ClusterBackend(client, discovery)
    running: list[tuple[Controller, HotReloader]] = []

    def start(path: Path) -> tuple[Controller, HotReloader, Events]:
        events = Events()
        loaded = load_reconciler(str(path))
        controller = Controller(backend, loaded, events, workers=2, namespace=namespace)
        controller.start()
        reloader = HotReloader(loaded, controller.swap, events)
        reloader.start()
        running.append((controller, reloader))
        return controller, reloader, events

    yield start
    for controller, reloader in running:
        reloader.stop()
        controller.stop(remove_finalizers=True)


def eventually(check: Callable[[], Any], timeout: float = HANG_GUARD) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except (ApiError, AssertionError, KeyError, TypeError) as exc:
            last = exc
        else:
            if last:
                return last
        time.sleep(0.02)
    raise AssertionError(f"not within {timeout} s: last {last!r}")


def save_until(events: Events, kind: type, count: int, path: Path, text: str) -> Any:
    """Save once, as an editor does (a temporary file renamed over the old one: a plain
    write can be seen half done), and wait for the ``count``-th ``kind`` event.

    ``HotReloader.start()`` returns with its files watched, so one save is seen. This
    saved again every second without the event, and ``ReloadSucceeded`` comes at the
    first call of the new code, which can take longer on a loaded machine: the second
    save of the same text was a reload of its own, which a later wait for the 2nd event
    then took for its own."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        found = events.of(kind)
        if len(found) >= count:
            return found[count - 1]
        time.sleep(0.01)
    raise AssertionError(f"no {kind.__name__} after saving {path}: {events.items}")


def gadget(name: str, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Gadget", "metadata": {"name": name}, "spec": spec}


def reconciler(version: str) -> str:
    return textwrap.dedent(
        f"""\
        FOR = "{FOR}"
        OWNS = ["v1/ConfigMap"]

        def reconcile(obj, ctx):
            name = obj["metadata"]["name"]
            return {{
                "children": [{{
                    "apiVersion": "v1",
                    "kind": "ConfigMap",
                    "metadata": {{"name": name + "-config"}},
                    "data": {{"message": obj["spec"].get("message", ""), "code": "{version}"}},
                }}],
                "status": {{"code": "{version}"}},
            }}
        """
    )


def audited(plane: ControlPlane, mark: int, verbs: tuple[str, ...]) -> list[str]:
    return [
        f"{event['verb']} {event['requestURI']}"
        for event in plane.audit_events(mark)
        if event.get("userAgent", "").startswith("kubectl-crd/")
        and event["verb"] in verbs
        and event.get("stage") in ("ResponseComplete", "ResponseStarted")
    ]


def codes(configmaps: ResourceClient, names: list[str]) -> list[str]:
    return [configmaps.get(f"{name}-config")["data"]["code"] for name in names]


def test_a_save_reconciles_every_object_with_the_new_code_and_no_new_list(
    apiserver: ControlPlane,
    loop: Any,
    gadgets: ResourceClient,
    configmaps: ResourceClient,
    tmp_path: Path,
) -> None:
    names = [f"g{i}" for i in range(5)]
    for name in names:
        gadgets.create(gadget(name, message=f"hello {name}"))
    path = tmp_path / "reconciler.py"
    path.write_text(reconciler("v1"))
    started = apiserver.audit_mark()
    _, reloader, events = loop(path)
    eventually(lambda: codes(configmaps, names) == ["v1"] * 5)
    eventually(lambda: apiserver.watches_open(started, ("gadgets", "configmaps")))

    mark = apiserver.audit_mark()
    succeeded = save_until(events, ReloadSucceeded, 1, path, reconciler("v2"))
    eventually(lambda: codes(configmaps, names) == ["v2"] * 5)
    eventually(lambda: all(gadgets.get(n)["status"]["code"] == "v2" for n in names))
    # the cache and the watches were kept: no LIST, no new WATCH
    assert audited(apiserver, mark, ("list", "watch")) == []
    assert 0 <= succeeded.latency < HANG_GUARD
    print(
        f"reload latency, write to first reconcile by the new code: {succeeded.latency * 1000:.0f} ms"
    )
    assert reloader.current.call(gadgets.get("g0"), None).status == {"code": "v2"}


def test_a_broken_save_keeps_the_old_code_reconciling(
    loop: Any, gadgets: ResourceClient, configmaps: ResourceClient, tmp_path: Path
) -> None:
    path = tmp_path / "reconciler.py"
    path.write_text(reconciler("v1"))
    _, _, events = loop(path)
    broken = reconciler("v2").replace("def reconcile(obj, ctx):", "def reconcile(obj, ctx)")
    failed = save_until(events, ReloadFailed, 1, path, broken)
    assert (failed.file, failed.line) == ("reconciler.py", 4)
    assert failed.error == "reconciler.py:4:24: SyntaxError: expected ':'"
    assert failed.caret == "def reconcile(obj, ctx)\n                       ^"
    # a gadget made now is reconciled by the code that was running
    gadgets.create(gadget("late", message="still here"))
    child = eventually(lambda: configmaps.get("late-config"))
    assert child["data"] == {"message": "still here", "code": "v1"}
    # and the fixed save takes over
    save_until(events, ReloadSucceeded, 1, path, reconciler("v3"))
    eventually(lambda: codes(configmaps, ["late"]) == ["v3"])


def test_a_save_that_owns_more_starts_only_that_watch(
    apiserver: ControlPlane,
    loop: Any,
    gadgets: ResourceClient,
    configmaps: ResourceClient,
    tmp_path: Path,
) -> None:
    gadgets.create(gadget("one", message="m"))
    path = tmp_path / "reconciler.py"
    path.write_text(reconciler("v1"))
    started = apiserver.audit_mark()
    _, _, events = loop(path)
    eventually(lambda: codes(configmaps, ["one"]) == ["v1"])
    eventually(lambda: apiserver.watches_open(started, ("gadgets", "configmaps")))
    mark = apiserver.audit_mark()
    owning_secrets = reconciler("v2").replace(
        'OWNS = ["v1/ConfigMap"]', 'OWNS = ["v1/ConfigMap", "v1/Secret"]'
    )
    succeeded = save_until(events, ReloadSucceeded, 1, path, owning_secrets)
    assert (succeeded.watches_started, succeeded.watches_stopped) == (("secrets/v1",), ())
    eventually(lambda: codes(configmaps, ["one"]) == ["v2"])
    # the one new informer lists and watches Secrets; nothing else is listed again
    requests = audited(apiserver, mark, ("list", "watch"))
    assert requests and all("/secrets" in request for request in requests), requests
    # and back: its watch stops
    succeeded = save_until(events, ReloadSucceeded, 2, path, reconciler("v3"))
    assert (succeeded.watches_started, succeeded.watches_stopped) == ((), ("secrets/v1",))


HOOK = f"""\
# A metacontroller CompositeController sync hook, as it would be served by a webhook
FOR = "{FOR}"
OWNS = ["v1/ConfigMap"]


def sync(request):
    parent = request["parent"]
    name = parent["metadata"]["name"]
    observed = request["children"]["ConfigMap.v1"]
    desired = [
        {{
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {{"name": f"{{name}}-{{i}}"}},
            "data": {{"index": str(i)}},
        }}
        for i in range(parent["spec"].get("replicas", 1))
    ]
    return {{"status": {{"observed": sorted(observed)}}, "children": desired}}
"""


def test_a_metacontroller_hook_end_to_end(
    loop: Any, gadgets: ResourceClient, configmaps: ResourceClient, tmp_path: Path
) -> None:
    path = tmp_path / "hook.py"
    path.write_text(HOOK)
    created = gadgets.create(gadget("meta", replicas=2))
    loop(path)
    children = eventually(lambda: [configmaps.get("meta-0"), configmaps.get("meta-1")])
    for child in children:
        (owner,) = child["metadata"]["ownerReferences"]
        assert owner["uid"] == created["metadata"]["uid"] and owner["controller"] is True
        assert child["metadata"]["namespace"] == created["metadata"]["namespace"]
    status = eventually(lambda: gadgets.get("meta").get("status"))
    assert status["observedGeneration"] == 1
    # a spec change: the hook is given both children, keyed by name under ConfigMap.v1,
    # and the child it leaves out is deleted, as metacontroller deletes it
    gadgets.patch("meta", {"spec": {"replicas": 1}})

    def gone() -> bool:
        try:
            configmaps.get("meta-1")
        except ApiError as error:
            return error.status == 404
        return False

    eventually(gone)
    # the deletion's event syncs the parent again: it sees what is left
    status = eventually(
        lambda: (s := gadgets.get("meta")["status"])["observed"] == ["meta-0"] and s
    )
    assert status["observedGeneration"] == 2
