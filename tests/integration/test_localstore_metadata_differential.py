"""The in-process store's metadata rules for built-in kinds, against the real API server.

A reconciler's children are mostly built-ins (ConfigMaps, Deployments, Services, Roles).
The server validates their metadata (``ValidateObjectMeta``: the name by the kind's
rule, label keys and values, annotation keys, ...) and answers 422 ``Invalid``; the
store must refuse the same writes with the same code, reason and message, and accept
the same valid ones. And an empty ``labels`` or ``annotations`` map is not kept by the
server (``ObjectMeta``'s ``omitempty``): the store drops it too, so a child applied
with ``labels: {}`` is compared by the controller the same way on both.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.resources import PatchType, ResourceClient
from kubectl_crd.model.errors import ApiError
from kubectl_crd.reconcile.localstore import ObjectStore

MANAGER = "kubectl-crd-dev"

#: kind -> (group, version, plural)
KINDS = {
    "ConfigMap": ("", "v1", "configmaps"),
    "Deployment": ("apps", "v1", "deployments"),
    "Service": ("", "v1", "services"),
    "Role": ("rbac.authorization.k8s.io", "v1", "roles"),
    "CronJob": ("batch", "v1", "cronjobs"),
}


def configmap(name: str, **metadata: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, **metadata},
        "data": {"a": "1"},
    }


def deployment(name: str, **metadata: Any) -> dict[str, Any]:
    # a valid spec: only the metadata is wrong, as the store checks only metadata
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, **metadata},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "app", "image": "nginx:1"}]},
            },
        },
    }


def service(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name},
        "spec": {"ports": [{"port": 80}], "selector": {"app": "web"}},
    }


def role(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "Role",
        "metadata": {"name": name},
    }


def cronjob(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": name},
        "spec": {
            "schedule": "*/5 * * * *",
            "jobTemplate": {
                "spec": {
                    "template": {
                        "spec": {
                            "restartPolicy": "OnFailure",
                            "containers": [{"name": "c", "image": "busybox"}],
                        }
                    }
                }
            },
        },
    }


BAD_KEY = "a b"  # a label key with a space
BAD_VALUE = "bad value!"
LONG = "x" * 64  # over a label value's 63 characters

#: (what, verb, body): each must be refused by both with the same message
REFUSED: list[tuple[str, str, dict[str, Any]]] = [
    ("configmap name not a DNS subdomain", "create", configmap("Bad_Name")),
    # one bad label per object: the server walks the labels map in Go's random order
    ("configmap name, a label key and an annotation key at once", "create",
     configmap("Bad_Name", labels={BAD_KEY: "x"}, annotations={"-x": "1"})),
    ("configmap label key, applied", "apply", configmap("cm-key", labels={BAD_KEY: "x"})),
    ("configmap label value, applied", "apply", configmap("cm-value", labels={"k": BAD_VALUE})),
    ("configmap label key with a bad prefix", "apply", configmap("cm-prefix", labels={"Ex_ample.com/k": "x"})),
    ("configmap label key with an empty name part", "apply", configmap("cm-empty", labels={"example.com/": "x"})),
    ("deployment label value, applied", "apply", deployment("web-label", labels={"app": BAD_VALUE})),
    ("deployment name with capitals, created", "create", deployment("Web")),
    ("deployment annotations over 256 KiB", "apply",
     deployment("web-big", annotations={"big": "x" * (256 * 1024)})),
    ("service name not a DNS-1035 label", "create", service("1svc")),
    ("role name with a percent sign", "create", role("a%b")),
    ("cronjob name over 52 characters", "create", cronjob("c" * 53)),
    # the shared validator (validation.names, which custom resources' admission uses
    # too) words these as kube-apiserver 1.34: MaxLenError's "characters" (a limit on
    # Go's byte length), IsQualifiedName's "a qualified name" for a key with two slashes
    ("configmap label value too long, applied", "apply", configmap("cm-long", labels={"k": LONG})),
    ("configmap label key with two slashes", "apply", configmap("cm-slash", labels={"a/b/c": "x"})),
    ("deployment annotation key with two slashes", "apply", deployment("web-ann", annotations={"x/y/z": "1"})),
]  # fmt: skip

#: valid names the store must not refuse (a Role's name may hold capitals and colons)
ACCEPTED: list[tuple[str, str, dict[str, Any]]] = [
    ("role name with capitals and a colon", "create", role("system:Reader")),
    ("service name a DNS-1035 label", "create", service("svc-1")),
    ("configmap name a dotted subdomain", "apply", configmap("a.b-c", labels={"example.com/k": "v_1"})),
]  # fmt: skip


class Sides:
    def __init__(self, client: KubeClient, namespace: str) -> None:
        self.namespace = namespace
        self.server = {
            kind: ResourceClient(client, group, version, plural, namespaced=True, namespace=namespace)
            for kind, (group, version, plural) in KINDS.items()
        }  # fmt: skip
        self.store = ObjectStore()
        self.infos = {
            kind: self.store.resolve(f"{group}/{version}/{kind}" if group else f"{version}/{kind}")
            for kind, (group, version, _) in KINDS.items()
        }

    def calls(
        self, verb: str, body: dict[str, Any]
    ) -> tuple[Callable[[], dict[str, Any]], Callable[[], dict[str, Any]]]:
        kind = body["kind"]
        server, info = self.server[kind], self.infos[kind]
        local = {**body, "metadata": {**body["metadata"], "namespace": self.namespace}}
        if verb == "create":
            return (
                lambda: server.create(body),
                lambda: self.store.create(info, body, namespace=self.namespace),
            )
        return (
            lambda: server.apply(body, field_manager=MANAGER, force=True),
            lambda: self.store.apply(info, local, field_manager=MANAGER, force=True),
        )


def outcome(call: Callable[[], Any]) -> tuple[Any, ...]:
    """What a write came to: accepted, or the refusal's code, reason and message (the
    typed-check differential compares with it too)."""
    try:
        call()
    except ApiError as exc:
        status = exc.status_object or {}
        return (exc.status, status.get("reason"), status.get("message"))
    return ("accepted",)


def test_invalid_builtin_metadata_is_refused_as_the_server_refuses_it(
    client: KubeClient, namespace: str
) -> None:
    sides = Sides(client, namespace)
    problems = []
    for what, verb, body in REFUSED + ACCEPTED:
        server, ours = (outcome(call) for call in sides.calls(verb, body))
        expected = ("accepted",) if (what, verb, body) in ACCEPTED else server
        if server[0] == "accepted" and expected != server:
            problems.append(f"{what}: the server accepted it (the case is wrong)")
        if ours != server:
            problems.append(f"{what}:\n  server {server}\n  store  {ours}")
    assert problems == [], "\n".join(problems)


def test_an_invalid_label_added_by_an_update_is_refused_as_on_the_server(
    client: KubeClient, namespace: str
) -> None:
    sides = Sides(client, namespace)
    server = sides.server["ConfigMap"]
    info = sides.infos["ConfigMap"]
    server.create(configmap("cm"))
    sides.store.create(info, configmap("cm"), namespace=namespace)
    patch = {"metadata": {"labels": {BAD_KEY: "x"}, "annotations": {"": "y"}}}
    theirs = outcome(lambda: server.patch("cm", patch, patch_type=PatchType.MERGE))
    ours = outcome(lambda: sides.store.patch(info, namespace, "cm", patch))
    assert theirs[0] == 422
    assert ours == theirs


def test_empty_labels_and_annotations_are_not_kept_as_on_the_server(
    client: KubeClient, namespace: str
) -> None:
    """``ObjectMeta``'s maps are ``omitempty``: an applied ``labels: {}`` is not there
    when the object is read back; the store answers the same, and a second apply of the
    same body is no write on either (the resourceVersion stays)."""
    sides = Sides(client, namespace)
    problems = []
    for body in (
        configmap("empty", labels={}, annotations={}),
        deployment("empty", labels={}),
    ):
        kind = body["kind"]
        server_call, store_call = sides.calls("apply", body)
        first = [server_call(), store_call()]
        second = [server_call(), store_call()]
        for label, answers in (("first", first), ("second", second)):
            metas = [
                {k: v for k, v in a["metadata"].items() if k in ("labels", "annotations")}
                for a in answers
            ]
            if metas[0] != metas[1]:
                problems.append(f"{kind} {label} apply: server {metas[0]} store {metas[1]}")
        moved = [
            a["metadata"]["resourceVersion"] != b["metadata"]["resourceVersion"]
            for a, b in zip(first, second, strict=True)
        ]
        if moved[0] != moved[1]:
            problems.append(f"{kind}: a second apply wrote: server {moved[0]} store {moved[1]}")
    assert problems == [], "\n".join(problems)


class _EmptyLabels:
    """A ConfigMap parent (``role=parent``) owning a Secret applied with
    ``labels: {}``: the reconciler of issue 27's report."""

    for_resource = "v1/ConfigMap"
    owns = ("v1/Secret",)
    watches: tuple[Any, ...] = ()
    has_finalize = False

    def call(self, obj: dict[str, Any], ctx: Any) -> Any:
        from kubectl_crd.reconcile.api import Result

        child = {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": obj["metadata"]["name"] + "-s", "labels": {}},
            "stringData": {"k": "v"},
        }
        return Result(children=[child])

    def finalize(self, obj: Any, ctx: Any) -> Any:
        raise NotImplementedError

    def parents_of(self, resource: Any, obj: Any) -> list[tuple[str, str]]:
        return []


def test_a_child_with_empty_labels_is_applied_as_often_on_both_backends(
    client: KubeClient, namespace: str, tmp_path: Path
) -> None:
    """The controller over the same parents, once against kube-apiserver and once on the
    store: the same number of applies (the server keeps no empty ``labels``, so the
    cached child differs from the desired one once on both)."""
    from kubectl_crd.kube.discovery import Discovery
    from kubectl_crd.reconcile import events as ev
    from kubectl_crd.reconcile.backends import Backend, ClusterBackend
    from kubectl_crd.reconcile.controller import Controller
    from kubectl_crd.reconcile.local import LocalBackend

    (tmp_path / "empty").mkdir()
    sides = Sides(client, namespace)
    backends: list[Backend] = [
        ClusterBackend(client, Discovery(client.request, client.server, cache_dir=str(tmp_path / "c"))),
        LocalBackend(str(tmp_path / "empty"), store=sides.store),
    ]  # fmt: skip
    parents = ["p1", "p2"]
    cms = sides.infos["ConfigMap"]
    for name in parents:
        parent = configmap(name, labels={"role": "parent"})
        sides.server["ConfigMap"].create(parent)
        sides.store.create(cms, parent, namespace=namespace)
    applies: list[list[str]] = [[], []]
    controllers = []
    for backend, seen in zip(backends, applies, strict=True):

        def sink(event: ev.Event, seen: list[str] = seen) -> None:
            if isinstance(event, ev.Write) and event.verb == "apply":
                seen.append(event.name)

        controller = Controller(
            backend, _EmptyLabels(), sink, namespace=namespace, selector="role=parent", workers=1
        )
        controllers.append(controller)
        controller.start()
    try:
        for controller in controllers:
            controller.wait_idle(timeout=20, settle=0.5)
    finally:
        for controller in controllers:
            controller.stop()
        backends[1].close()
    assert sorted(applies[0]) == sorted(applies[1]), f"server {applies[0]} store {applies[1]}"
    assert set(applies[0]) == {"p1-s", "p2-s"}
