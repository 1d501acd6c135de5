"""The in-process store (``reconcile.localstore``) against the real API server.

The same sequence of writes a controller makes (a custom resource created, a child
server-side applied with an ownerReference twice, a field changed and one dropped, a
status write through the subresource, a spec change and a status-only change, a no-op,
deletes of the child with a wrong and the right uid precondition, a label-selected list,
a list-map field applied twice) goes to kube-apiserver through ``ResourceClient`` and to
an ``ObjectStore``. Each side builds its next request from its own answers. After each
step the objects must agree apart from uid, timestamps, managedFields and resourceVersion
values (whether the resourceVersion changed is compared, and the generation). Cascading
deletion is not compared (envtest runs no garbage collector): the unit tests hold it.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.resources import PatchType, PropagationPolicy, ResourceClient
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane

GROUP = "localstore.example.com"
MANAGER = "kubectl-crd-dev"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "size": {"type": "integer", "maximum": 10},
                "color": {"type": "string", "default": "blue"},
                "items": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {
                        "type": "object",
                        "required": ["name"],
                        "properties": {
                            "name": {"type": "string"},
                            "value": {"type": "string"},
                            "note": {"type": "string"},
                        },
                    },
                },
            },
        },
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
    },
}


def _crd() -> dict[str, Any]:
    crd = make_crd("Gizmo", GROUP, schema=SCHEMA)
    crd["spec"]["versions"][0]["subresources"] = {"status": {}}
    return crd


@pytest.fixture(scope="module")
def gizmos_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("crd") / "gizmos.json"
    path.write_text(json.dumps(_crd()))
    (name,) = apiserver.install_crds([path])
    return name


@pytest.fixture
def client(apiserver: ControlPlane, tmp_path: Path, gizmos_crd: str) -> Iterator[KubeClient]:
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}) as made:
        yield made


class Side:
    """One place the writes go: the method names are the controller's writes."""

    def create(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def apply(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def patch(
        self, kind: str, name: str, patch: dict[str, Any], subresource: str = ""
    ) -> dict[str, Any]:
        raise NotImplementedError

    def delete(self, kind: str, name: str, uid: str) -> None:
        raise NotImplementedError

    def get(self, kind: str, name: str) -> dict[str, Any] | None:
        raise NotImplementedError

    def list(self, kind: str, selector: str) -> list[str]:
        raise NotImplementedError


class Server(Side):
    def __init__(self, client: KubeClient, namespace: str) -> None:
        self.resources = {
            "gizmo": ResourceClient(client, GROUP, "v1", "gizmos", namespaced=True, namespace=namespace),
            "cm": ResourceClient(client, "", "v1", "configmaps", namespaced=True, namespace=namespace),
        }  # fmt: skip

    def create(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        return self.resources[kind].create(obj)

    def apply(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        return self.resources[kind].apply(obj, field_manager=MANAGER, force=True)

    def patch(
        self, kind: str, name: str, patch: dict[str, Any], subresource: str = ""
    ) -> dict[str, Any]:
        return self.resources[kind].patch(
            name, patch, patch_type=PatchType.MERGE, subresource=subresource
        )

    def delete(self, kind: str, name: str, uid: str) -> None:
        self.resources[kind].delete(name, propagation_policy=PropagationPolicy.BACKGROUND, uid=uid)

    def get(self, kind: str, name: str) -> dict[str, Any] | None:
        try:
            return self.resources[kind].get(name)
        except ApiError as exc:
            if exc.status == 404:
                return None
            raise

    def list(self, kind: str, selector: str) -> list[str]:
        items = self.resources[kind].list(label_selector=selector)["items"]
        return [item["metadata"]["name"] for item in items]


class Store(Side):
    def __init__(self, namespace: str) -> None:
        self.store = ObjectStore()
        self.store.add_crd(CustomResourceDefinition.from_object(_crd()))
        self.namespace = namespace
        self.infos = {
            "gizmo": self.store.resolve(f"gizmos.{GROUP}/v1"),
            "cm": self.store.resolve("v1/ConfigMap"),
        }

    def create(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        return self.store.create(self.infos[kind], obj, namespace=self.namespace)

    def apply(self, kind: str, obj: dict[str, Any]) -> dict[str, Any]:
        obj = {**obj, "metadata": {**obj["metadata"], "namespace": self.namespace}}
        return self.store.apply(self.infos[kind], obj, field_manager=MANAGER, force=True)

    def patch(
        self, kind: str, name: str, patch: dict[str, Any], subresource: str = ""
    ) -> dict[str, Any]:
        return self.store.patch(
            self.infos[kind], self.namespace, name, patch, subresource=subresource
        )

    def delete(self, kind: str, name: str, uid: str) -> None:
        self.store.delete(self.infos[kind], self.namespace, name, uid=uid)

    def get(self, kind: str, name: str) -> dict[str, Any] | None:
        try:
            return self.store.get(self.infos[kind], self.namespace, name)
        except ApiError as exc:
            if exc.status == 404:
                return None
            raise

    def list(self, kind: str, selector: str) -> list[str]:
        items = self.store.list(self.infos[kind], self.namespace, selector)
        return [item["metadata"]["name"] for item in items]


def normal(obj: dict[str, Any] | None) -> Any:
    """What must agree: not uid, timestamps, managedFields, resourceVersion values (nor
    the uid an ownerReference names, each side's parent having its own)."""
    if obj is None:
        return None
    obj = copy.deepcopy(obj)
    meta = obj.get("metadata") or {}
    for dropped in (
        "uid",
        "creationTimestamp",
        "managedFields",
        "resourceVersion",
        "deletionTimestamp",
    ):
        meta.pop(dropped, None)
    for ref in meta.get("ownerReferences") or ():
        ref["uid"] = "<owner>"
    return obj


def owner(parent: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": parent["apiVersion"],
        "kind": parent["kind"],
        "name": parent["metadata"]["name"],
        "uid": parent["metadata"]["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def child(parent: dict[str, Any], data: dict[str, str], labels: dict[str, str]) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "g-config", "labels": labels, "ownerReferences": [owner(parent)]},
        "data": data,
    }


def gizmo(name: str, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Gizmo", "metadata": {"name": name}, "spec": spec}


Step = Callable[[Side, dict[str, Any]], Any]


def script() -> list[tuple[str, str, str, Step]]:
    """(label, kind, name, write): ``write(side, last)`` gets that side's answers so far."""

    def refused(write: Callable[[], Any]) -> Any:
        try:
            write()
        except ApiError as exc:
            return {"refused": exc.status, "reason": exc.reason}
        return {"refused": None}

    return [
        ("create the parent (status dropped, default set)", "gizmo", "g",
         lambda s, last: s.create("gizmo", {**gizmo("g", size=1), "status": {"phase": "x"}})),
        ("an invalid parent", "gizmo", "bad",
         lambda s, last: refused(lambda: s.create("gizmo", gizmo("bad", size=11)))),
        ("apply the child", "cm", "g-config",
         lambda s, last: s.apply("cm", child(last["g"], {"a": "1", "b": "2"}, {"app": "g", "role": "child"}))),
        ("apply it again: a changed, b and a label dropped", "cm", "g-config",
         lambda s, last: s.apply("cm", child(last["g"], {"a": "2"}, {"app": "g"}))),
        ("apply it unchanged (no write)", "cm", "g-config",
         lambda s, last: s.apply("cm", child(last["g"], {"a": "2"}, {"app": "g"}))),
        ("status through the subresource", "gizmo", "g",
         lambda s, last: s.patch("gizmo", "g", {"status": {"phase": "Ready", "observedGeneration": 1}}, "status")),
        ("a spec change", "gizmo", "g",
         lambda s, last: s.patch("gizmo", "g", {"spec": {"size": 2}})),
        ("a status-only change", "gizmo", "g",
         lambda s, last: s.patch("gizmo", "g", {"status": {"observedGeneration": 2}}, "status")),
        ("a status in a main write (ignored)", "gizmo", "g",
         lambda s, last: s.patch("gizmo", "g", {"status": {"phase": "Broken"}})),
        ("a label (metadata only)", "gizmo", "g",
         lambda s, last: s.patch("gizmo", "g", {"metadata": {"labels": {"app": "g"}}})),
        ("a stale conditional patch", "gizmo", "g",
         lambda s, last: refused(lambda: s.patch("gizmo", "g", {"metadata": {"resourceVersion": "1", "finalizers": ["f"]}}))),
        ("apply a list map", "gizmo", "applied",
         lambda s, last: s.apply("gizmo", gizmo("applied", items=[{"name": "a", "value": "1", "note": "n"}, {"name": "b"}]))),
        ("apply it again: an item and a member dropped, one changed", "gizmo", "applied",
         lambda s, last: s.apply("gizmo", gizmo("applied", size=3, items=[{"name": "a", "value": "2"}]))),
        ("delete the child with another uid", "cm", "g-config",
         lambda s, last: refused(lambda: s.delete("cm", "g-config", "0a0a0a0a-0000-4000-8000-000000000000"))),
        ("delete the child with its uid", "cm", "g-config",
         lambda s, last: s.delete("cm", "g-config", last["g-config"]["metadata"]["uid"])),
    ]  # fmt: skip


def test_store_agrees_with_the_api_server(client: KubeClient, namespace: str) -> None:
    sides: list[Side] = [Server(client, namespace), Store(namespace)]
    lasts: list[dict[str, Any]] = [{}, {}]
    problems: list[str] = []
    steps = script()
    for label, kind, name, write in steps:
        before = [side.get(kind, name) for side in sides]
        answers = [write(side, last) for side, last in zip(sides, lasts, strict=True)]
        after = [side.get(kind, name) for side in sides]
        for last, now in zip(lasts, after, strict=True):
            if now is not None:
                last[name] = now
        if isinstance(answers[0], dict) and "refused" in answers[0] and answers[0] != answers[1]:
            problems.append(f"{label}: server {answers[0]} store {answers[1]}")
        if normal(after[0]) != normal(after[1]):
            problems.append(f"{label}: server\n{normal(after[0])}\nstore\n{normal(after[1])}")

        def moved(old: Any, new: Any, field: str) -> Any:
            if old is None or new is None:
                return (old is None, new is None)
            return old["metadata"].get(field) != new["metadata"].get(field)

        for field in ("resourceVersion", "generation"):
            changes = [moved(b, a, field) for b, a in zip(before, after, strict=True)]
            if changes[0] != changes[1]:
                problems.append(f"{label}: {field} changed: server {changes[0]} store {changes[1]}")
    # a label-selected list over objects both sides hold
    for side in sides:
        for name, labels in (("l1", {"app": "g", "tier": "a"}), ("l2", {"app": "g", "tier": "c"}),
                             ("l3", {"app": "h", "tier": "a"}), ("l4", {"tier": "b"})):  # fmt: skip
            side.create(
                "cm",
                {
                    "apiVersion": "v1",
                    "kind": "ConfigMap",
                    "metadata": {"name": name, "labels": labels},
                },
            )
    for selector in ("app=g", "tier in (a,b)", "app!=g", "!app", "app,tier notin (c)"):
        listed = [side.list("cm", selector) for side in sides]
        if listed[0] != listed[1]:
            problems.append(f"list -l {selector}: server {listed[0]} store {listed[1]}")
    assert problems == [], "\n".join(problems)
    print(f"\n{len(steps)} writes and 5 selected lists agree")


# -- the real Controller over both backends --------------------------------------------


class Reconciler:
    """One ConfigMap per Gizmo (``size`` keys), the status counting the children the
    cache holds (``ctx.list`` with a label selector)."""

    for_resource = f"gizmos.{GROUP}/v1"
    owns = ("v1/ConfigMap",)
    watches: tuple[Any, ...] = ()
    has_finalize = False

    def call(self, obj: dict[str, Any], ctx: Any) -> Any:
        from kubectl_crd.reconcile.api import Result

        name = obj["metadata"]["name"]
        size = obj["spec"].get("size", 0)
        listed = ctx.list("v1/ConfigMap", labels={"gizmo": name})
        child = {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": f"{name}-config", "labels": {"gizmo": name}},
            "data": {f"k{n}": obj["spec"].get("color", "") for n in range(size)},
        }
        return Result(children=[child], status={"children": len(listed), "size": size})

    def finalize(self, obj: Any, ctx: Any) -> Any:
        raise NotImplementedError

    def parents_of(self, resource: Any, obj: Any) -> list[tuple[str, str]]:
        return []


def _owners(obj: dict[str, Any] | None) -> list[tuple[str, str, str, str]]:
    """Who owns what (a created child's Update entry, moved to its Apply entry before
    an apply), without times."""

    def owner_free(fields: dict[str, Any]) -> dict[str, Any]:  # each side's owner uid
        return {
            ('k:{"uid":<owner>}' if key.startswith('k:{"uid":') else key): owner_free(value)
            for key, value in fields.items()
        }

    entries = ((obj or {}).get("metadata") or {}).get("managedFields") or ()
    return sorted(
        (
            e["manager"],
            e["operation"],
            e.get("subresource", ""),
            json.dumps(owner_free(e["fieldsV1"]), sort_keys=True),
        )
        for e in entries
    )


def _state(side: Side, names: list[str]) -> Any:
    return {
        name: (
            normal(side.get("gizmo", name)),
            normal(side.get("cm", f"{name}-config")),
            _owners(side.get("cm", f"{name}-config")),
        )
        for name in names
    }


def test_the_controller_gives_the_same_children_and_status_on_both_backends(
    client: KubeClient, namespace: str, tmp_path: Path
) -> None:
    from kubectl_crd.kube.discovery import Discovery
    from kubectl_crd.reconcile.backends import ClusterBackend
    from kubectl_crd.reconcile.controller import Controller
    from kubectl_crd.reconcile.local import LocalBackend

    server, local = Server(client, namespace), Store(namespace)
    backends = [
        ClusterBackend(client, Discovery(client.request, client.server, cache_dir=str(tmp_path / "c"))),
        LocalBackend(str(tmp_path / "empty"), store=local.store),
    ]  # fmt: skip
    sides: list[Side] = [server, local]
    names = ["g1", "g2", "g3"]
    for side in sides:
        for n, name in enumerate(names):
            side.create("gizmo", gizmo(name, size=n + 1))
    controllers = [
        Controller(backend, Reconciler(), namespace=namespace, workers=2) for backend in backends
    ]
    for controller in controllers:
        controller.start()

    def agree(label: str) -> None:
        deadline = time.monotonic() + 20
        while True:
            for controller in controllers:
                controller.wait_idle(timeout=5, settle=0.2)
            states = [_state(side, names) for side in sides]
            converged = all(
                (s[name][0] or {}).get("status", {}).get("children") == 1
                for s in states for name in names if s[name][0] is not None
            )  # fmt: skip
            if states[0] == states[1] and converged:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{label}: server\n{states[0]}\nstore\n{states[1]}")
            time.sleep(0.1)

    try:
        agree("first reconciles")
        for side in sides:
            side.patch("gizmo", "g1", {"spec": {"size": 3, "color": "red"}})
            side.patch("gizmo", "g3", {"spec": {"size": 1}})
        agree("spec changes (keys added, keys dropped)")
        for side in sides:
            child = side.get("cm", "g2-config")
            assert child is not None
            side.delete("cm", "g2-config", child["metadata"]["uid"])
        agree("a child deleted by hand, recreated")
        store_child = local.get("cm", "g1-config")
        assert store_child is not None and store_child["data"] == {
            "k0": "red",
            "k1": "red",
            "k2": "red",
        }
    finally:
        for controller in controllers:
            controller.stop()
        backends[1].close()


# -- watches ------------------------------------------------------------------------------


def _collect(events: Iterator[Any], into: list[tuple[str, str, Any]]) -> None:
    for event in events:
        obj = event.object or {}
        meta = obj.get("metadata") or {}
        into.append((event.type.value, meta.get("name", ""), (meta.get("labels"), obj.get("data"))))


def test_list_then_watch_gives_the_same_events(client: KubeClient, namespace: str) -> None:
    """A watch of every ConfigMap in the namespace and one selected by a label, opened
    over two existing objects, then creates, updates (a label moving an object in and
    out of the selection), a no-op and deletes: the same events in the same order."""
    import threading

    from kubectl_crd.kube.reflector import list_then_watch

    server, local = Server(client, namespace), Store(namespace)
    sides: list[Side] = [server, local]

    def cm(name: str, labels: dict[str, str], data: dict[str, str]) -> dict[str, Any]:
        meta = {"name": name, "labels": labels}
        return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": data}

    for side in sides:
        side.create("cm", cm("a", {"app": "x"}, {"v": "1"}))
        side.create("cm", cm("b", {"app": "y"}, {"v": "1"}))
    stop = threading.Event()
    seen: list[list[tuple[str, str, Any]]] = [[] for _ in range(4)]
    streams = [
        list_then_watch(server.resources["cm"], stop=stop),
        list_then_watch(server.resources["cm"], stop=stop, label_selector="app=x"),
        local.store.list_then_watch(local.infos["cm"], stop=stop, namespace=namespace),
        local.store.list_then_watch(local.infos["cm"], stop=stop, label_selector="app=x"),
    ]
    threads = [
        threading.Thread(target=_collect, args=(stream, into), daemon=True)
        for stream, into in zip(streams, seen, strict=True)
    ]
    for thread in threads:
        thread.start()
    # generous deadlines: they cost time only when the machine is slow
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(any(e[0] == "SYNCED" for e in s) for s in seen):
        time.sleep(0.02)
    for side in sides:
        side.create("cm", cm("c", {"app": "x"}, {"v": "1"}))
        side.patch("cm", "a", {"data": {"v": "2"}})
        side.patch("cm", "a", {"data": {"v": "2"}})  # no change: no event
        side.patch("cm", "a", {"metadata": {"labels": {"app": "y"}}})  # leaves app=x
        side.patch("cm", "b", {"metadata": {"labels": {"app": "x"}}})  # joins app=x
        side.delete("cm", "c", (side.get("cm", "c") or {})["metadata"]["uid"])
    # every stream's events, the store's too: they end with ``stop``, and only the 0.3 s
    # below waited for them
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (
        len(seen[0]) < 8 or len(seen[1]) < 7 or len(seen[2]) < 8 or len(seen[3]) < 7
    ):
        time.sleep(0.02)
    time.sleep(0.3)  # nothing more may come
    stop.set()
    for thread in threads:
        thread.join(timeout=5)
    assert seen[0] == seen[2]
    assert seen[1] == seen[3]
    assert [e[0] for e in seen[0]] == [
        "ADDED", "ADDED", "SYNCED", "ADDED", "MODIFIED", "MODIFIED", "MODIFIED", "DELETED",
    ]  # fmt: skip
    # a selected watch: an object leaving the selection is DELETED (its labels before),
    # one joining it ADDED
    assert [(e[0], e[1], (e[2][0] or {}).get("app")) for e in seen[1]] == [
        ("ADDED", "a", "x"), ("SYNCED", "", None), ("ADDED", "c", "x"), ("MODIFIED", "a", "x"),
        ("DELETED", "a", "x"), ("ADDED", "b", "x"), ("DELETED", "c", "x"),
    ]  # fmt: skip
    print(f"\n{len(seen[0])} + {len(seen[1])} events alike")


# -- a built-in kind with /status ---------------------------------------------------------


def test_a_builtin_status_is_kept_apart_as_the_server_keeps_it(
    client: KubeClient, namespace: str
) -> None:
    """A Deployment (no schema checks in the store, no defaults: only status, generation
    and whether the resourceVersion moved are compared)."""
    deployments = ResourceClient(
        client, "apps", "v1", "deployments", namespaced=True, namespace=namespace
    )
    local = Store(namespace)
    info = local.store.resolve("apps/v1/Deployment")
    body: dict[str, Any] = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "app", "image": "nginx:1"}]},
            },
        },
        "status": {"replicas": 5},
    }
    writes: list[tuple[str, Callable[[], dict[str, Any]], Callable[[], dict[str, Any]]]] = [
        ("create with a status (dropped)",
         lambda: deployments.create(body),
         lambda: local.store.create(info, body, namespace=namespace)),
        ("status through /status",
         lambda: deployments.patch("web", {"status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1}}, subresource="status"),
         lambda: local.store.patch(info, namespace, "web", {"status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1}}, subresource="status")),
        ("a spec change keeps the status",
         lambda: deployments.patch("web", {"spec": {"replicas": 2}}),
         lambda: local.store.patch(info, namespace, "web", {"spec": {"replicas": 2}})),
        ("a status in a main write is ignored",
         lambda: deployments.patch("web", {"status": {"availableReplicas": 7}}),
         lambda: local.store.patch(info, namespace, "web", {"status": {"availableReplicas": 7}})),
        ("a label: metadata only",
         lambda: deployments.patch("web", {"metadata": {"labels": {"tier": "front"}}}),
         lambda: local.store.patch(info, namespace, "web", {"metadata": {"labels": {"tier": "front"}}})),
    ]  # fmt: skip
    problems: list[str] = []
    last: list[dict[str, Any]] = [{}, {}]
    for label, *calls in writes:
        answers = [call() for call in calls]

        def seen(obj: dict[str, Any], before: dict[str, Any]) -> tuple[Any, ...]:
            meta, old = obj["metadata"], before.get("metadata") or {}
            return (
                obj.get("status") or None,
                meta.get("generation"),
                meta.get("labels"),
                meta.get("resourceVersion") != old.get("resourceVersion"),
            )

        views = [seen(a, b) for a, b in zip(answers, last, strict=True)]
        if views[0] != views[1]:
            problems.append(f"{label}: server {views[0]} store {views[1]}")
        last = answers
    assert problems == [], "\n".join(problems)


def test_builtin_list_maps_merge_under_apply_as_on_the_server(
    client: KubeClient, namespace: str
) -> None:
    """A Deployment applied by two managers: containers merged by name, env by name,
    ports by containerPort; a container, an env var and a port one manager drops are
    removed, another manager's container stays. Compared: the containers' names,
    images, env names and ports (the server's defaults inside them are not the
    store's)."""
    deployments = ResourceClient(
        client, "apps", "v1", "deployments", namespaced=True, namespace=namespace
    )
    local = Store(namespace)
    info = local.store.resolve("apps/v1/Deployment")

    def deployment(*containers: dict[str, Any]) -> dict[str, Any]:
        return {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web", "namespace": namespace},
            "spec": {
                "selector": {"matchLabels": {"app": "web"}},
                "template": {
                    "metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": list(containers)},
                },
            },
        }

    def container(
        name: str, image: str, env: list[str] = (), ports: list[int] = ()
    ) -> dict[str, Any]:  # type: ignore[assignment]
        made: dict[str, Any] = {"name": name, "image": image}
        if env:
            made["env"] = [{"name": e, "value": "1"} for e in env]
        if ports:
            made["ports"] = [{"containerPort": p} for p in ports]
        return made

    applies = [
        ("m", deployment(container("app", "a:1", ["A", "B"], [80]), container("side", "s:1"))),
        ("other", {**deployment(container("extra", "e:1")), "spec": {"template": {"spec": {"containers": [container("extra", "e:1")]}}}}),
        ("m", deployment(container("app", "a:2", ["A"], [80, 81]))),
        ("m", deployment(container("app", "a:2", ["A"], [81]), container("late", "l:1"))),
    ]  # fmt: skip

    def view(obj: dict[str, Any]) -> list[tuple[Any, ...]]:
        return [
            (
                c["name"],
                c["image"],
                [e["name"] for e in c.get("env") or ()],
                [p["containerPort"] for p in c.get("ports") or ()],
            )
            for c in obj["spec"]["template"]["spec"]["containers"]
        ]

    problems = []
    for step, (manager, body) in enumerate(applies):
        server = deployments.apply(body, field_manager=manager, force=True)
        ours = local.store.apply(info, body, field_manager=manager, force=True)
        if view(server) != view(ours):
            problems.append(f"apply {step} by {manager}: server {view(server)} store {view(ours)}")
    assert problems == [], "\n".join(problems)
