"""JSON merge patches whose result drops or changes the object's apiVersion, kind, name
or namespace: the store against kube-apiserver.

The patch handler (``apiserver/pkg/endpoints/handlers/patch.go``) applies the patch to
the current object's JSON, decodes the result, then checks its namespace and name
against the URL's (``rest.EnsureObjectNamespaceMatchesRequestNamespace``, ``checkName``
in ``handlers/rest.go``: each a 400). A built-in's result without an apiVersion is
decoded as the group's internal type (the serializer's ``gvkWithDefaults`` takes the
internal version of the type it decodes into), whose ``ObjectMeta`` is embedded with no
JSON tag: ``metadata`` and every v1 field is an unknown field (a warning), and the
object has no name. A custom resource's result without a kind is the unstructured
decoder's ``Object 'Kind' is missing``. Each case patches an object made alike on the
session's kube-apiserver and in an ``ObjectStore``: the answer (code, reason, message,
causes, the instance's own values in the patched object masked) and the warnings must
be the same. The patched object a 422 quotes is json-patch v4's ``MergePatch`` result
(gopkg.in/evanphx/json-patch.v4): the maps the patch reached re-marshalled (keys
sorted, a new value's null map values pruned), a value replacing a map as sent, the
rest as the current object was encoded (a built-in's structs in their fields' order,
managedFields included); ``test_patched_object_as_the_server_quotes_it`` compares it in
its order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.reconcile.backends import ResourceInfo
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane

GROUP = "patches.example.com"
SCHEMA = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {"b": {"type": "string"}, "a": {"type": "integer"}},
        }
    },
}
DEPLOYMENT_SPEC = {
    "replicas": 2,
    "selector": {"matchLabels": {"app": "a"}},
    "template": {
        "metadata": {"labels": {"app": "a"}},
        "spec": {"containers": [{"name": "c", "image": "nginx", "ports": [{"containerPort": 80}]}]},
    },
}

#: kind -> (group, version, plural, the fields of the object made before the patch); a
#: cluster-scoped one (``CLUSTER_SCOPED``) is named after the test's namespace
KINDS: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    "ConfigMap": ("", "v1", "configmaps", {}),
    "ConfigMap with data": ("", "v1", "configmaps", {"data": {"b": "1", "a": "2"}}),
    "Secret": ("", "v1", "secrets", {"data": {"a": "YQ=="}}),
    "Deployment": ("apps", "v1", "deployments", {"spec": DEPLOYMENT_SPEC}),
    "Namespace": ("", "v1", "namespaces", {}),
    "Service": ("", "v1", "services", {"spec": {"ports": [{"port": 80, "name": "web"}]}}),
    "Lease": ("coordination.k8s.io", "v1", "leases", {"spec": {"holderIdentity": "me"}}),
    "Pattie": (GROUP, "v1", "patties", {}),
    "Pattie with spec": (GROUP, "v1", "patties", {"spec": {"b": "x", "a": 1}}),
}

#: every other built-in kind the store serves, made valid (the kinds above too): the
#: metadata an update's patch breaks is checked by each kind's own number of passes
TEMPLATE: dict[str, Any] = {
    "metadata": {"labels": {"app": "a"}},
    "spec": {"containers": [{"name": "c", "image": "nginx"}], "restartPolicy": "Never"},
}
SELECTED = {
    "selector": {"matchLabels": {"app": "a"}},
    "template": {**TEMPLATE, "spec": {**TEMPLATE["spec"], "restartPolicy": "Always"}},
}
KINDS.update({
    "ServiceAccount": ("", "v1", "serviceaccounts", {}),
    "Pod": ("", "v1", "pods", {"spec": TEMPLATE["spec"]}),
    "PersistentVolumeClaim": ("", "v1", "persistentvolumeclaims", {"spec": {
        "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
    "Event": ("", "v1", "events", {"involvedObject": {"kind": "ConfigMap", "name": "x", "namespace": "NAMESPACE"},
                                   "reason": "Tested", "message": "m", "type": "Normal"}),
    "StatefulSet": ("apps", "v1", "statefulsets", {"spec": SELECTED}),
    "DaemonSet": ("apps", "v1", "daemonsets", {"spec": SELECTED}),
    "ReplicaSet": ("apps", "v1", "replicasets", {"spec": SELECTED}),
    "Job": ("batch", "v1", "jobs", {"spec": {"template": TEMPLATE}}),
    "CronJob": ("batch", "v1", "cronjobs", {"spec": {
        "schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": TEMPLATE}}}}),
    "Ingress": ("networking.k8s.io", "v1", "ingresses", {"spec": {"defaultBackend": {
        "service": {"name": "web", "port": {"number": 80}}}}}),
    "NetworkPolicy": ("networking.k8s.io", "v1", "networkpolicies", {"spec": {"podSelector": {}}}),
    "PodDisruptionBudget": ("policy", "v1", "poddisruptionbudgets", {"spec": {
        "minAvailable": 1, "selector": {"matchLabels": {"app": "a"}}}}),
    "Role": ("rbac.authorization.k8s.io", "v1", "roles", {}),
    "RoleBinding": ("rbac.authorization.k8s.io", "v1", "rolebindings",
                    {"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role",
                                 "name": "r"}}),
    "ClusterRole": ("rbac.authorization.k8s.io", "v1", "clusterroles", {}),
})  # fmt: skip
#: the kinds whose objects have no namespace
CLUSTER_SCOPED = {"Namespace", "ClusterRole"}

#: a resourceVersion neither side has reached
STALE = {"resourceVersion": "999999"}

#: (what, kind, patch): NAME in a patch is the object's name; a "valid" case is accepted
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("a ConfigMap's apiVersion removed", "ConfigMap", {"apiVersion": None}),
    ("a ConfigMap's apiVersion removed, with data", "ConfigMap with data", {"apiVersion": None}),
    ("a ConfigMap's apiVersion empty", "ConfigMap with data", {"apiVersion": ""}),
    ("a ConfigMap's apiVersion '/'", "ConfigMap", {"apiVersion": "/"}),
    ("a ConfigMap's apiVersion and kind removed", "ConfigMap", {"apiVersion": None, "kind": None}),
    ("a Secret's apiVersion removed", "Secret", {"apiVersion": None}),
    ("a Deployment's apiVersion removed", "Deployment", {"apiVersion": None}),
    ("no apiVersion, a top-level namespace", "ConfigMap",
     {"apiVersion": None, "name": "NAME", "namespace": "elsewhere"}),
    ("valid: no apiVersion, a top-level name", "ConfigMap with data",
     {"apiVersion": None, "name": "NAME"}),
    ("no apiVersion, kind Secret", "ConfigMap", {"apiVersion": None, "kind": "Secret"}),
    ("no apiVersion, kind ConfigMapList", "ConfigMap", {"apiVersion": None, "kind": "ConfigMapList"}),
    ("no apiVersion, an unknown kind", "ConfigMap", {"apiVersion": None, "kind": "Gadget"}),
    ("no apiVersion, kind Status", "ConfigMap", {"apiVersion": None, "kind": "Status"}),
    ("no apiVersion, kind WatchEvent", "ConfigMap", {"apiVersion": None, "kind": "WatchEvent"}),
    ("no apiVersion, kind ListOptions", "ConfigMap", {"apiVersion": None, "kind": "ListOptions"}),
    ("no apiVersion, kind DeleteOptions", "ConfigMap", {"apiVersion": None, "kind": "DeleteOptions"}),
    ("no apiVersion, a DaemonSet", "Deployment", {"apiVersion": None, "kind": "DaemonSet"}),
    ("no apiVersion, a Scale", "Deployment", {"apiVersion": None, "kind": "Scale"}),
    ("a Namespace's apiVersion removed", "Namespace", {"apiVersion": None}),
    ("valid: a Namespace given a namespace", "Namespace", {"metadata": {"namespace": "elsewhere"}}),
    ("a ConfigMap renamed", "ConfigMap", {"metadata": {"name": "other"}}),
    ("a ConfigMap's name removed", "ConfigMap", {"metadata": {"name": None}}),
    ("a ConfigMap moved", "ConfigMap", {"metadata": {"namespace": "elsewhere"}}),
    ("valid: a ConfigMap's namespace removed", "ConfigMap", {"metadata": {"namespace": None}}),
    # a stale resourceVersion: the optimistic lock comes after the decoding and the
    # URL's checks, before the validation
    ("a stale version, a bad value", "ConfigMap", {"metadata": STALE, "data": {"a": 1}}),
    ("a stale version, renamed", "ConfigMap", {"metadata": {**STALE, "name": "other"}}),
    ("a stale version, a bad label", "ConfigMap", {"metadata": {**STALE, "labels": {"a": "-"}}}),
    ("a stale version, no apiVersion", "ConfigMap", {"metadata": STALE, "apiVersion": None}),
    ("valid: no resourceVersion", "ConfigMap", {"metadata": {"resourceVersion": None}}),
    ("a custom resource's resourceVersion removed", "Pattie", {"metadata": {"resourceVersion": None}}),
    ("a custom resource's stale version, renamed", "Pattie",
     {"metadata": {**STALE, "name": "other"}}),
    ("a custom resource's stale version, no kind", "Pattie", {"metadata": STALE, "kind": None}),
    ("a custom resource's stale version", "Pattie with spec", {"metadata": STALE}),
    ("a custom resource's apiVersion removed", "Pattie with spec", {"apiVersion": None}),
    ("a custom resource's kind removed", "Pattie", {"kind": None}),
    ("a custom resource's kind empty", "Pattie", {"kind": ""}),
    ("a custom resource's apiVersion and kind removed", "Pattie", {"apiVersion": None, "kind": None}),
    ("a custom resource renamed", "Pattie", {"metadata": {"name": "other"}}),
    ("a custom resource moved", "Pattie with spec", {"metadata": {"namespace": "elsewhere"}}),
    ("valid: a custom resource's namespace removed", "Pattie", {"metadata": {"namespace": None}}),
    # ValidateObjectMetaAccessorUpdate's immutable fields: a patch carries no uid
    # precondition (DefaultUpdatedObjectInfo with no object has none), so the uid a
    # patch changes meets the validation's 422
    ("a ConfigMap's uid changed", "ConfigMap", {"metadata": {"uid": "another"}}),
    ("a Deployment's uid changed", "Deployment", {"metadata": {"uid": "another"}}),
    ("a custom resource's uid changed", "Pattie", {"metadata": {"uid": "another"}}),
    ("a custom resource's uid changed, a bad value", "Pattie with spec",
     {"metadata": {"uid": "another"}, "spec": {"a": "x"}}),
    ("valid: a ConfigMap's uid removed", "ConfigMap", {"metadata": {"uid": None}}),
    ("valid: a custom resource's uid removed", "Pattie", {"metadata": {"uid": None}}),
    ("valid: a ConfigMap's creationTimestamp changed", "ConfigMap",
     {"metadata": {"creationTimestamp": "2001-01-01T00:00:00Z"}}),
    ("valid: a custom resource's generation changed", "Pattie", {"metadata": {"generation": 7}}),
    ("a ConfigMap's bad label", "ConfigMap", {"metadata": {"labels": {"a": "-"}}}),
    ("a Deployment's bad label", "Deployment", {"metadata": {"labels": {"a": "-"}}}),
    ("a custom resource's bad label", "Pattie", {"metadata": {"labels": {"a": "-"}}}),
    ("a ConfigMap's uid changed and a bad label", "ConfigMap",
     {"metadata": {"uid": "another", "labels": {"a": "-"}}}),
    *((f"a {kind}'s uid changed, a bad label and a bad annotation key", kind,
       {"metadata": {"uid": "another", "labels": {"a": "-"}, "annotations": {"-": ""}}})
      for kind in KINDS if not kind.startswith("Pattie")),
]  # fmt: skip


def _crd() -> dict[str, Any]:
    return make_crd("Pattie", GROUP, schema=SCHEMA)


@pytest.fixture(scope="module")
def patties_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("crd") / "patties.json"
    path.write_text(json.dumps(_crd()))
    (name,) = apiserver.install_crds([path])
    return name


@pytest.fixture
def warned_client(
    apiserver: ControlPlane, tmp_path: Path, patties_crd: str
) -> Iterator[tuple[KubeClient, list[str]]]:
    heard: list[str] = []
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}, on_warning=heard.append) as made:
        yield made, heard


#: the values the server and the store each make their own (and each managedFields
#: entry's time)
INSTANCE = ("uid", "resourceVersion", "creationTimestamp")
#: a Go-quoted JSON object (a 422's value), and one in single quotes (Object 'Kind' is
#: missing in '...')
QUOTED = re.compile(r'"\{(?:[^"\\]|\\.)*\}"')
SINGLE = re.compile(r"'(\{.*\})'$")


def _masked(text: Any, keep_order: bool) -> Any:
    """``text`` with each patched object it quotes read and written again without its
    ``INSTANCE`` values (keys sorted, unless ``keep_order``)."""
    if not isinstance(text, str):
        return text

    def mask(raw: str) -> str:
        obj = json.loads(raw)
        meta = obj.get("metadata") or {}
        for key in INSTANCE:
            meta.pop(key, None)
        for entry in meta.get("managedFields") or ():
            entry["time"] = "<time>"
        spec = obj.get("spec")
        for key in ("clusterIP", "clusterIPs"):  # allocated: the server's at random
            if isinstance(spec, dict):
                spec.pop(key, None)
        return json.dumps(obj, sort_keys=not keep_order)

    text = QUOTED.sub(lambda m: "<" + mask(json.loads(m.group(0))) + ">", text)
    return SINGLE.sub(lambda m: "'" + mask(m.group(1)) + "'", text)


def _answer(
    call: Callable[[], dict[str, Any]], heard: list[str], keep_order: bool, uid: str = ""
) -> tuple[Any, ...]:
    """What the call answered, the patched object's ``uid`` (each side's own, which a
    Job's generated labels carry into messages) spelt ``<uid>``."""
    heard.clear()
    try:
        written = call()
    except ApiError as exc:
        status = exc.status_object or {}
        causes = [
            (each.get("field"), each.get("reason"), _masked(each.get("message"), keep_order))
            for each in (status.get("details") or {}).get("causes") or ()
        ]
        found: tuple[Any, ...] = (
            exc.status, status.get("reason"), _masked(status.get("message"), keep_order), causes
        )  # fmt: skip
    else:
        meta = written["metadata"]
        found = ("accepted", written.get("kind"), meta.get("name"), meta.get("namespace"),
                 written.get("data"), written.get("spec"))  # fmt: skip
    found = (*found, list(heard))
    return tuple(json.loads(json.dumps(found).replace(uid, "<uid>"))) if uid else found


@dataclass
class Made:
    """One object made alike on the server and in a store."""

    name: str
    namespace: str  # "" for a cluster-scoped kind
    server: ResourceClient
    store: ObjectStore
    info: ResourceInfo
    server_uid: str
    store_uid: str
    server_object: dict[str, Any]
    store_object: dict[str, Any]


def _made_alike(
    client: KubeClient, namespace: str, kind: str, name: str, store: ObjectStore
) -> Made:
    """An object of ``kind`` (a ``KINDS`` key) created on the server and in ``store``
    (a cluster-scoped one named after the test's namespace)."""
    group, version, plural, fields = KINDS[kind]
    scoped = kind not in CLUSTER_SCOPED
    name = name if scoped else f"{namespace}-{name}"
    fields = json.loads(json.dumps(fields).replace('"NAMESPACE"', json.dumps(namespace)))
    server = ResourceClient(client, group, version, plural, namespaced=scoped, namespace=namespace)
    store.add_crd(CustomResourceDefinition.from_object(_crd()))
    real_kind = kind.split()[0]
    info = store.resolve(f"{group}/{version}/{real_kind}" if group else f"{version}/{real_kind}")
    body = {
        "apiVersion": info.api_version,
        "kind": real_kind,
        "metadata": {"name": name, "namespace": namespace} if scoped else {"name": name},
        **fields,
    }
    theirs = server.create(body)
    ours = store.create(info, body, namespace=namespace if scoped else None)
    return Made(
        name, namespace if scoped else "", server, store, info,
        theirs["metadata"]["uid"], ours["metadata"]["uid"], theirs, ours,
    )  # fmt: skip


def _patched_alike(
    client: KubeClient,
    heard: list[str],
    namespace: str,
    cases: list[tuple[str, str, dict[str, Any]]],
    *,
    keep_order: bool,
) -> list[str]:
    """Each case's object made on both sides (a store of its own, so that each case's
    warnings are told afresh as a fresh client's are), then patched: the problems."""
    problems: list[str] = []
    for index, (what, kind, patch) in enumerate(cases):
        made = _made_alike(
            client, namespace, kind, f"p{index}", ObjectStore(on_warning=heard.append)
        )
        patch = json.loads(json.dumps(patch).replace('"NAME"', json.dumps(made.name)))
        client.warnings.clear()  # the client tells each text once: told afresh per case
        theirs = _answer(
            partial(made.server.patch, made.name, patch), heard, keep_order, made.server_uid
        )
        store_patch = partial(made.store.patch, made.info, made.namespace, made.name, patch)
        ours = _answer(store_patch, heard, keep_order, made.store_uid)
        if what.startswith("valid") != (theirs[0] == "accepted"):
            problems.append(f"{what}: the server answered {theirs[:3]} (the case is wrong)")
        if ours != theirs:
            problems.append(f"{what}:\n  server {theirs}\n  store  {ours}")
    return problems


def test_patched_identity(warned_client: tuple[KubeClient, list[str]], namespace: str) -> None:
    client, heard = warned_client
    problems = _patched_alike(client, heard, namespace, CASES, keep_order=False)
    print(f"{2 * len(CASES)} patches compared: {len(CASES)} cases, on the server and the store")
    assert problems == [], f"{len(problems)} of {len(CASES)}:\n" + "\n".join(problems)


#: (what, kind, patch): a built-in's patch whose result does not decode: the patch
#: handler's 422 quotes the patched JSON as json-patch's MergePatch writes it (its keys
#: sorted where the patch reached, the current object's field order elsewhere)
UNDECODABLE: list[tuple[str, str, dict[str, Any]]] = [
    ("a Deployment's replicas a string", "Deployment", {"spec": {"replicas": "2"}}),
    ("a template's label a number", "Deployment",
     {"spec": {"template": {"metadata": {"labels": {"app": 1}}}}}),
    ("a new map beside a bad value", "Deployment",
     {"spec": {"zz": {"b": 1, "a": None, "c": {"z": 1, "y": [{"q": 1, "p": None}]}},
               "replicas": "2"}}),
    ("new lists beside a bad value", "Deployment",
     {"spec": {"zz": {"e": [], "n": [None, 1, None], "m": [{"b": None, "a": [None]}]},
               "replicas": "2"}}),
    ("a list replaced by one with nulls", "Deployment",
     {"spec": {"template": {"spec": {"containers": [None, {"name": None, "image": 1}]}}}}),
    ("a selector replaced by a list", "Deployment",
     {"spec": {"selector": [{"b": 1, "a": None}, None]}}),
    ("containers replaced by a string", "Deployment",
     {"spec": {"template": {"spec": {"containers": "x"}}}}),
    ("a status a string", "Deployment", {"status": "x"}),
    ("a Service's port a string", "Service", {"spec": {"ports": [{"port": "80", "name": "web"}]}}),
    ("a Lease's bad time", "Lease", {"spec": {"renewTime": "yesterday"}}),
    ("a ConfigMap's value a number", "ConfigMap with data", {"data": {"a": 1}}),
    ("another kind, the rest untouched", "Deployment", {"kind": "Gadget"}),
    ("no apiVersion, another kind", "Deployment", {"apiVersion": None, "kind": "Secret"}),
]  # fmt: skip


def test_patched_object_as_the_server_quotes_it(
    warned_client: tuple[KubeClient, list[str]], namespace: str
) -> None:
    """The patched object a 422 quotes, in the server's field order (json-patch v4's
    MergePatch re-marshals only the maps the patch reached)."""
    client, heard = warned_client
    problems = _patched_alike(client, heard, namespace, UNDECODABLE, keep_order=True)
    print(f"{2 * len(UNDECODABLE)} patches compared: {len(UNDECODABLE)} cases")
    assert problems == [], f"{len(problems)} of {len(UNDECODABLE)}:\n" + "\n".join(problems)


def test_put_with_another_uid_fails_its_precondition(
    warned_client: tuple[KubeClient, list[str]], namespace: str
) -> None:
    """A PUT's uid is its precondition (store.go Update): another uid is the storage's
    409, naming the object's etcd key, before its bad label is looked at; the patches
    above show a patch has none."""
    client, heard = warned_client
    problems = []
    for index, kind in enumerate(KINDS):
        made = _made_alike(client, namespace, kind, f"u{index}", ObjectStore())
        answers = []
        for obj, update, uid in (
            (made.server_object, made.server.update, made.server_uid),
            (made.store_object, partial(made.store.update, made.info), made.store_uid),
        ):
            obj["metadata"].update(uid="another", labels={"a": "-"})
            answers.append(_answer(partial(update, obj), heard, False, uid))
        theirs, ours = answers
        if theirs[0] != 409:
            problems.append(f"{kind}: the server answered {theirs[:3]} (the case is wrong)")
        if ours != theirs:
            problems.append(f"{kind}:\n  server {theirs}\n  store  {ours}")
    print(f"{2 * len(KINDS)} updates compared: {len(KINDS)} kinds")
    assert problems == [], f"{len(problems)} of {len(KINDS)}:\n" + "\n".join(problems)


def test_applied_uid_is_no_precondition(
    warned_client: tuple[KubeClient, list[str]], namespace: str
) -> None:
    """A server-side apply is a patch: the uid it applies to an object is no
    precondition but the validation's "field is immutable" when it is not the object's
    (none and the object's own are accepted); applied where there is no object, the
    patch handler's 409 (handlers/patch.go)."""
    client, heard = warned_client
    problems = []
    compared = 0
    for kind in ("ConfigMap", "Deployment", "Namespace", "Pattie"):
        for case in ("another", "own", "none", "no object"):
            made = _made_alike(client, namespace, kind, f"a{compared}", ObjectStore())
            answers = []
            for obj, apply, uid in (
                (made.server_object, made.server.apply, made.server_uid),
                (made.store_object, partial(made.store.apply, made.info), made.store_uid),
            ):
                meta = {"name": made.name, "labels": {"applied": "yes"}}
                if made.namespace:
                    meta["namespace"] = made.namespace
                if case == "no object":
                    meta["name"] += "-new"
                if case != "none":
                    meta["uid"] = uid if case == "own" else "another"
                body = {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": meta}
                call = partial(apply, body, field_manager="m", force=True)
                answers.append(_answer(call, heard, False, uid))
            compared += 1
            theirs, ours = answers
            expected = {"another": 422, "no object": 409}.get(case, "accepted")
            if theirs[0] != expected:
                problems.append(
                    f"{kind}, {case}: the server answered {theirs[:3]} (the case is wrong)"
                )
            if ours != theirs:
                problems.append(f"{kind}, {case}:\n  server {theirs}\n  store  {ours}")
    print(f"{2 * compared} applies compared: {compared} cases")
    assert problems == [], f"{len(problems)} of {compared}:\n" + "\n".join(problems)
