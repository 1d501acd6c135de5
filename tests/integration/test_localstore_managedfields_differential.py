"""``metadata.managedFields``: the in-process store against kube-apiserver, write by write.

The server keeps one entry per (manager, operation, subresource; and apiVersion for an
``Update``): an ``Apply``'s fields are the applied object's field set
(structured-merge-diff's ``typed/tofieldset.go``: leaves, list items, empty maps; a
non-empty map is no member itself), an ``Update``'s the fields its write added or
changed (``typed/compare.go``: a map the write added is a member too, hence the
``".": {}`` beside its children), and a write takes the fields it changes from every
other manager (``merge/update.go``). The same writes (create, PUT, merge patch,
server-side apply with and without force, ``/status`` PUT and patch, by several
managers) go to the server and to a store, on a ConfigMap, a Deployment and a custom
resource with a status subresource, list maps, sets, atomic lists and nested maps;
after each, the whole ``managedFields`` of both (every entry's manager, operation,
apiVersion, fieldsType, fieldsV1 and subresource, in order; not ``time``) must agree.
The store's clock is the server's time of the write, so the order of entries (the
server sorts by operation, then time to the second, then manager) is comparable.
"""

from __future__ import annotations

import calendar
import copy
import json
import time
from collections.abc import Callable
from itertools import zip_longest
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.managedfields import fields_moved_to_apply
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane
from tests.integration.test_localstore_metadata_differential import outcome

GROUP = "managed.localstore.example.com"
OWNER_UID = "0b7c1c5e-1111-4c2a-9d7e-000000000001"

_ITEM = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "value": {"type": "string"},
        "extra": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["name"],
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "size": {"type": "integer"},
                "mode": {"type": "string", "nullable": True},
                "config": {
                    "type": "object",
                    "properties": {
                        "inner": {
                            "type": "object",
                            "additionalProperties": {"type": "string"},
                        },
                        "flag": {"type": "boolean"},
                    },
                },
                "items": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": _ITEM,
                },
                "tags": {
                    "type": "array",
                    "x-kubernetes-list-type": "set",
                    "items": {"type": "string"},
                },
                "hosts": {
                    "type": "array",
                    "x-kubernetes-list-type": "atomic",
                    "items": {"type": "string"},
                },
                "empty": {"type": "object", "additionalProperties": {"type": "string"}},
            },
        },
        "status": {
            "type": "object",
            "properties": {
                "phase": {"type": "string"},
                "conditions": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["type"],
                    "items": {
                        "type": "object",
                        "properties": {
                            "type": {"type": "string"},
                            "status": {"type": "string"},
                            "reason": {"type": "string"},
                        },
                        "required": ["type"],
                    },
                },
            },
        },
    },
}

#: a step: (manager, verb, argument, force); verbs: create (a body), update and status
#: (a function of the current object to the PUT's body), patch and status-patch (a
#: merge patch, or a function of the current object to one), apply (a body; force as given), apply-dry-run and patch-dry-run (the
#: same, dry), delete
Step = tuple[str, str, Any, bool]


def _edit(**changes: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A PUT's body: the current object with ``changes`` (dotted paths; None removes)."""

    def made(current: dict[str, Any]) -> dict[str, Any]:
        body = copy.deepcopy(current)
        body["metadata"].pop("managedFields", None)
        for dotted, value in changes.items():
            *parents, last = dotted.split("__")
            node = body
            for part in parents:
                node = node.setdefault(part, {})
            if value is None:
                node.pop(last, None)
            else:
                node[last] = value
        return body

    return made


def _configmap(**fields: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", **fields}


CONFIGMAP: list[Step] = [
    ("creator", "create", _configmap(
        metadata={"labels": {"a": "1"}, "annotations": {"x": "1"}, "ownerReferences": [
            {"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "uid": OWNER_UID}]},
        data={"k1": "v1", "k2": "v2"},
    ), False),
    ("editor", "update", _edit(data={"k1": "changed", "k2": "v2", "k3": "v3"},
                               metadata__labels={"b": "2"}), False),
    ("patcher", "patch", {"data": {"k2": None, "k4": "v4"},
                          "metadata": {"annotations": {"y": "2"}}}, False),
    ("applier", "apply", _configmap(metadata={"labels": {"c": "3"}}, data={"k5": "v5"}), False),
    ("applier2", "apply", _configmap(data={"k1": "forced", "k5": "v5"}), True),
    ("applier", "apply", _configmap(data={"k5": "v5"}), False),
    ("editor", "patch", {"metadata": {"annotations": None}}, False),
    ("creator", "update", _edit(data__k5="by-update", binaryData={"b": "AA=="}), False),
    ("applier", "apply", _configmap(metadata={"annotations": {}}, data={"k6": "v6"}), True),
    ("applier", "apply", _configmap(data={"k6": "v6"}), False),
    # the same value applied by another: unchanged, but now shared; kept when the
    # first stops applying it
    ("applier3", "apply", _configmap(data={"k6": "v6"}), False),
    ("applier", "apply", _configmap(metadata={"labels": {"d": "4"}}), False),
    # a dry run answers with the managedFields the write would leave, and keeps none
    ("applier4", "apply-dry-run", _configmap(data={"k1": "dry", "k6": "v6"}), True),
    ("patcher", "patch-dry-run", {"data": {"k4": None, "k7": "v7"}}, False),
    # a delete held by a finalizer marks the object: no manager's write
    ("keeper", "patch", {"metadata": {"finalizers": ["example.com/keep"]}}, False),
    ("", "delete", None, False),
]  # fmt: skip


def _deployment(spec: dict[str, Any], **metadata: Any) -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": metadata, "spec": spec}


_TEMPLATE = {
    "metadata": {"labels": {"app": "d"}},
    "spec": {
        "containers": [
            {
                "name": "main",
                "image": "nginx:1",
                "env": [{"name": "A", "value": "1"}],
                "ports": [{"containerPort": 80}],
            }
        ]
    },
}
DEPLOYMENT: list[Step] = [
    ("creator", "create", _deployment(
        {"selector": {"matchLabels": {"app": "d"}}, "template": _TEMPLATE},
        labels={"app": "d"},
    ), False),
    ("applier", "apply", _deployment({"replicas": 2, "template": {"spec": {"containers": [
        {"name": "main", "image": "nginx:2"},
        {"name": "side", "image": "busybox", "args": ["a", "b"]},
    ]}}}), True),
    ("status-writer", "status", _edit(status={"replicas": 2, "observedGeneration": 2}), False),
    ("status-patcher", "status-patch", {"status": {"readyReplicas": 1, "replicas": 3}}, False),
    ("editor", "update", _edit(spec__paused=True, spec__minReadySeconds=5), False),
    ("applier", "apply", _deployment({"replicas": 2, "template": {"spec": {"containers": [
        {"name": "main", "image": "nginx:2", "env": [{"name": "B", "value": "2"}]},
    ]}}}), False),
    ("patcher", "patch", {"spec": {"paused": None, "template": {"metadata": {
        "annotations": {"note": "n"}}}}}, False),
]  # fmt: skip


def _widget(spec: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"apiVersion": f"{GROUP}/v1", "kind": "Widget", **top}
    if spec is not None:
        body["spec"] = spec
    return body


WIDGET: list[Step] = [
    ("creator", "create", _widget({
        "size": 1, "config": {"inner": {"a": "1"}, "flag": True},
        "items": [{"name": "x", "value": "1", "extra": {"e": "1"}}],
        "tags": ["t1", "t2"], "hosts": ["h1"], "empty": {},
    }, metadata={"labels": {"l": "1"}}), False),
    ("applier", "apply", _widget({
        "size": 2, "items": [{"name": "x", "value": "2"}, {"name": "y", "extra": {"f": "2"}}],
        "tags": ["t3"], "config": {"inner": {"b": "2"}},
    }, metadata={"labels": {"m": "2"}}), True),
    ("status-writer", "status", _edit(status={
        "phase": "Ready", "conditions": [{"type": "Ready", "status": "True"}]}), False),
    ("status-patcher", "status-patch", {"status": {"conditions": [
        {"type": "Ready", "status": "True"}, {"type": "Synced", "reason": "r"}]}}, False),
    ("editor", "update", _edit(spec__hosts=["h2", "h3"], spec__mode="m",
                               spec__config={"flag": False}), False),
    ("applier2", "apply", _widget({
        "items": [{"name": "y", "extra": {"f": "2", "g": "3"}}], "tags": ["t3", "t4"],
        "mode": None,
    }), True),
    ("applier", "apply", _widget({"size": 2, "items": [{"name": "x", "value": "2"}]}), False),
    ("patcher", "patch", {"spec": {"config": None, "empty": {"k": "v"}}}, False),
    ("status-writer", "status", _edit(status={"phase": "Done"}), False),
    ("applier3", "apply", _widget({"size": 2, "tags": ["t1"]}), False),
    ("applier4", "apply-dry-run", _widget({"size": 3, "tags": ["t9"]}), True),
    ("applier", "apply", _widget({"items": [{"name": "x", "value": "2"}]}), False),
    ("keeper", "patch", {"metadata": {"finalizers": ["example.com/keep"]}}, False),
    ("", "delete", None, False),
]  # fmt: skip


def _service(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {}, "spec": spec}


#: what the registry adds on a create (a cluster IP, its families) is no manager's
SERVICE: list[Step] = [
    ("creator", "create", _service({"selector": {"app": "s"}, "ports": [{"port": 80}]}), False),
    ("applier", "apply", _service({"ports": [{"port": 80, "targetPort": 8080, "name": "http"},
                                             {"port": 443, "name": "https"}]}), True),
    ("editor", "patch", {"spec": {"sessionAffinity": "ClientIP"}}, False),
]  # fmt: skip

#: what admission adds to a Pod (its default tolerations) is no manager's either
POD: list[Step] = [
    ("creator", "create", {"apiVersion": "v1", "kind": "Pod", "metadata": {}, "spec": {
        "containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "Never"}}, False),
    ("labeler", "patch", {"metadata": {"labels": {"a": "1"}}}, False),
]  # fmt: skip

# more than ten Update entries: the oldest merged into "ancient-changes" (capmanagers.go),
# an applier's entry left alone, a merged manager writing again
CAPPED: list[Step] = [
    ("creator", "create", _configmap(data={"k0": "v"}), False),
    ("applier", "apply", _configmap(data={"a": "v"}), False),
    *[(f"updater-{i:02}", "patch", {"data": {f"k{i}": "v"}}, False) for i in range(1, 13)],
    ("updater-02", "patch", {"data": {"k2": "again", "k13": "v"}}, False),
    ("updater-12", "update", _edit(data__k12="again"), False),
    ("late", "patch", {"data": {"k14": "v"}}, False),
]

# an object created with nothing for its creator to own has no managedFields, and the
# server then tracks no update (skipnonapplied.go: an object never applied, with none)
# until an apply, which first gives every field so far to "before-first-apply"
UNTRACKED: list[Step] = [
    ("creator", "create", _configmap(metadata={}), False),
    ("editor", "patch", {"data": {"a": "1"}, "metadata": {"labels": {"l": "1"}}}, False),
    ("editor", "update", _edit(data__b="2"), False),
    # neither a dry run nor a refused apply keeps the seeded entry
    ("applier", "apply-dry-run", _configmap(data={"c": "3"}), False),
    ("applier", "apply", _configmap(data={"a": "conflicts", "c": "3"}), False),
    ("applier", "apply", _configmap(data={"c": "3"}), False),
    ("editor", "patch", {"data": {"a": "changed", "d": "4"}}, False),
]


def _moved(manager: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A patch (of the current object) moving ``manager``'s Update fields to its Apply
    entry, conditional on the resourceVersion, as the dev loop sends it before the
    first apply to a child it created."""

    def made(current: dict[str, Any]) -> dict[str, Any]:
        meta = current["metadata"]
        moved = fields_moved_to_apply(current, manager)
        assert moved is not None, f"{manager} has no Update entry"
        return {"metadata": {"resourceVersion": meta["resourceVersion"], "managedFields": moved}}

    return made


def _given(drop: str, **changes: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A patch giving the current managedFields less ``drop``'s entries, with ``changes``."""

    def made(current: dict[str, Any]) -> dict[str, Any]:
        entries = current["metadata"]["managedFields"]
        kept = [entry for entry in entries if entry["manager"] != drop]
        return {"metadata": {"managedFields": kept}, **changes}

    return made


# managedFields a write gives are what its field manager starts from (fieldmanager.go
# FieldManager.Update): a creator's Update entry moved to its Apply entry, then an apply
# that leaves fields out removes them; an entry dropped by a patch owns nothing after
MOVED: list[Step] = [
    ("creator", "create", _configmap(metadata={"labels": {"l": "1"}},
                                     data={"a": "1", "b": "2"}), False),
    ("editor", "patch", {"data": {"c": "3"}}, False),
    ("creator", "patch", _moved("creator"), False),
    ("creator", "apply", _configmap(data={"a": "1"}), True),
    ("other", "patch", _given("editor", data={"d": "4"}), False),
    ("creator", "apply", _configmap(data={"a": "2"}), True),
    ("creator", "patch", {"metadata": {"managedFields": []}, "data": {"e": "5"}}, False),
]  # fmt: skip

# a create owns what the server defaulted in its body; moved and applied, those are
# released (and defaulted again, no manager's)
MOVED_DEPLOYMENT: list[Step] = [
    ("creator", "create", _deployment(
        {"selector": {"matchLabels": {"app": "d"}}, "template": _TEMPLATE}), False),
    ("creator", "patch", _moved("creator"), False),
    ("creator", "apply", _deployment(
        {"selector": {"matchLabels": {"app": "d"}}, "template": _TEMPLATE}), True),
]  # fmt: skip

MOVED_WIDGET: list[Step] = [
    ("creator", "create", _widget({"size": 1, "items": [{"name": "x", "value": "1"}],
                                   "tags": ["t1"]}), False),
    ("creator", "apply", _widget({"size": 2}), True),
    ("creator", "patch", _moved("creator"), False),
    ("creator", "apply", _widget({"size": 2, "tags": ["t1"]}), True),
    ("editor", "patch", {"metadata": {"managedFields": [{}]}, "spec": {"size": 3}}, False),
    ("creator", "apply", _widget({"size": 4}), True),
]  # fmt: skip

CASES: list[tuple[str, tuple[str, str, str], list[Step]]] = [
    ("ConfigMap", ("", "v1", "configmaps"), MOVED),
    ("Deployment", ("apps", "v1", "deployments"), MOVED_DEPLOYMENT),
    ("Widget", (GROUP, "v1", "widgets"), MOVED_WIDGET),
    ("ConfigMap", ("", "v1", "configmaps"), UNTRACKED),
    ("Pod", ("", "v1", "pods"), POD),
    ("Service", ("", "v1", "services"), SERVICE),
    ("ConfigMap", ("", "v1", "configmaps"), CONFIGMAP),
    ("Deployment", ("apps", "v1", "deployments"), DEPLOYMENT),
    ("Widget", (GROUP, "v1", "widgets"), WIDGET),
    ("ConfigMap", ("", "v1", "configmaps"), CAPPED),
]


@pytest.fixture(scope="module")
def widgets_crd(
    apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    crd = make_crd("Widget", GROUP, schema=SCHEMA)
    crd["spec"]["versions"][0]["subresources"] = {"status": {}}
    path = tmp_path_factory.mktemp("crd") / "widgets.json"
    path.write_text(json.dumps(crd))
    apiserver.install_crds([path])
    return crd


def managed_view(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """The object's managedFields as compared: each entry but its ``time``, in order."""
    return [
        {key: value for key, value in entry.items() if key != "time"}
        for entry in obj["metadata"].get("managedFields") or ()
    ]


def _content(obj: dict[str, Any]) -> dict[str, Any]:
    """The object but for what differs between any two servers (uid, times, versions, the
    cluster IP a Service was given)."""
    meta = {
        key: value
        for key, value in obj["metadata"].items()
        if key not in ("uid", "resourceVersion", "creationTimestamp", "managedFields")
    }
    if "deletionTimestamp" in meta:
        # set on both sides, each at its own second (the clean-clone CI run of 141f3a2
        # read 04:21:27 on the server and 04:21:26 in the store)
        meta["deletionTimestamp"] = "<set>"
    spec = obj.get("spec")
    if isinstance(spec, dict) and "clusterIP" in spec:
        spec = {key: value for key, value in spec.items() if key not in ("clusterIP", "clusterIPs")}
        return {**obj, "metadata": meta, "spec": spec}
    return {**obj, "metadata": meta}


def _dumped(entry: Any) -> str:
    return json.dumps(entry, sort_keys=True, separators=(",", ":"))


def _latest_time(obj: dict[str, Any]) -> float | None:
    stamps = [e["time"] for e in obj["metadata"].get("managedFields") or () if e.get("time")]
    if not stamps:
        return None
    return float(calendar.timegm(time.strptime(max(stamps), "%Y-%m-%dT%H:%M:%SZ")))


class _Clock:
    """The store's clock: the server's time of the write just made."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def _send(
    verb: str,
    arg: Any,
    manager: str,
    force: bool,
    name: str,
    namespace: str,
    *,
    get: Callable[[], dict[str, Any]],
    create: Callable[..., Any],
    update: Callable[..., Any],
    patch: Callable[..., Any],
    apply: Callable[..., Any],
    delete: Callable[[], Any],
) -> tuple[tuple[Any, ...], Any]:
    """What the write came to (``outcome``) and its answer (None when refused)."""
    answers: list[Any] = []

    def call() -> None:
        answers.append(write())

    def write() -> Any:
        dry = verb.endswith("-dry-run")
        if verb == "delete":
            return delete()
        if verb == "create":
            body = copy.deepcopy(arg)
            body["metadata"] = {**body.get("metadata", {}), "name": name, "namespace": namespace}
            return create(body, manager)
        if verb in ("update", "status"):
            return update(arg(get()), manager, "status" if verb == "status" else "")
        if verb in ("patch", "status-patch", "patch-dry-run"):
            if callable(arg):  # made from the current object
                return patch(arg(get()), manager, "status" if verb == "status-patch" else "", dry)
            return patch(arg, manager, "status" if verb == "status-patch" else "", dry)
        body = copy.deepcopy(arg)
        body["metadata"] = {**body.get("metadata", {}), "name": name, "namespace": namespace}
        return apply(body, manager, force, dry)

    result = outcome(call)
    return result, answers[0] if answers else None


def test_managed_fields_are_the_servers_write_by_write(
    client: KubeClient, namespace: str, widgets_crd: dict[str, Any]
) -> None:
    compared = differing = values = 0
    problems: list[str] = []
    for index, (kind, (group, version, plural), steps) in enumerate(CASES):
        clock = _Clock()
        store = ObjectStore(clock=clock)
        store.add_crd(CustomResourceDefinition.from_object(widgets_crd))
        server = ResourceClient(
            client, group, version, plural, namespaced=True, namespace=namespace
        )
        info = store.resolve(f"{group}/{version}/{kind}" if group else f"{version}/{kind}")
        name = f"mf-{kind.lower()}-{index}"

        def server_get(name: str = name, server: ResourceClient = server) -> dict[str, Any]:
            return server.get(name)

        def store_get(
            name: str = name, store: ObjectStore = store, info: Any = info
        ) -> dict[str, Any]:
            return store.get(info, namespace, name)

        for step, (manager, verb, arg, force) in enumerate(steps):
            theirs, their_answer = _send(
                verb, arg, manager, force, name, namespace, get=server_get,
                create=lambda body, m, s=server: s.create(body, field_manager=m),
                update=lambda body, m, sub, s=server: s.update(
                    body, subresource=sub, field_manager=m
                ),
                patch=lambda p, m, sub, dry, s=server, n=name: s.patch(
                    n, p, subresource=sub, field_manager=m, dry_run=dry
                ),
                apply=lambda body, m, f, dry, s=server: s.apply(
                    body, field_manager=m, force=f, dry_run=dry
                ),
                delete=lambda s=server, n=name: s.delete(n),
            )  # fmt: skip
            server_obj = server_get()
            clock.now = _latest_time(server_obj) or clock.now
            ours, our_answer = _send(
                verb, arg, manager, force, name, namespace, get=store_get,
                create=lambda body, m, st=store, i=info: st.create(i, body, field_manager=m),
                update=lambda body, m, sub, st=store, i=info: (
                    st.update_status if sub else st.update
                )(i, body, field_manager=m),
                patch=lambda p, m, sub, dry, st=store, i=info, n=name: st.patch(
                    i, namespace, n, p, subresource=sub, field_manager=m, dry_run=dry
                ),
                apply=lambda body, m, f, dry, st=store, i=info: st.apply(
                    i, body, field_manager=m, force=f, dry_run=dry
                ),
                delete=lambda st=store, i=info, n=name: st.delete(i, namespace, n),
            )  # fmt: skip
            compared += 1
            store_obj = store_get()
            expected, got = managed_view(server_obj), managed_view(store_obj)
            if verb != "delete" and isinstance(their_answer, dict):
                # the write's answer carries them too (a dry run's: only there)
                expected = [*expected, "answer:", *managed_view(their_answer)]
                got = [*got, "answer:", *managed_view(our_answer or {"metadata": {}})]
            if (theirs, expected) != (ours, got):
                differing += 1
                problems.append(f"{kind} step {step} ({manager} {verb}): {theirs} {ours}")
                for at, (a, b) in enumerate(zip_longest(expected, got)):
                    if a != b:
                        problems.append(
                            f"  [{at}] server {_dumped(a)}\n  [{at}] store  {_dumped(b)}"
                        )
            if _content(server_obj) != _content(store_obj):
                # who owns a field decides what an apply that leaves it out removes
                values += 1
                problems.append(
                    f"{kind} step {step} ({manager} {verb}): the objects differ\n"
                    f"  server {_dumped(_content(server_obj))}\n"
                    f"  store  {_dumped(_content(store_obj))}"
                )
    assert compared == sum(len(steps) for _, _, steps in CASES)
    assert problems == [], (
        f"{differing} of {compared} writes differ in managedFields, {values} in the object:\n"
        + "\n".join(problems)
    )
