"""The store's typed check of an applied object against the real API server.

A server-side apply starts with the typed conversion of the patch (structured-merge-diff:
``failed to create typed patch object``): a field of the wrong type, one the schema has
not, a duplicate in a list map or set is refused with a 500 before anything else looks
at the object; then a built-in's merged object is decoded into its Go type (``failed to
convert new object``: a fraction in an int field, an int-or-string neither string nor
int32, a quantity or a timestamp that does not parse). ``ObjectStore.apply`` runs the same checks
(``validation.typed``) with the shipped built-in schemas and each CRD version's schema. Each case below is applied to
kube-apiserver (``ResourceClient.apply``, as the dev loop applies a child) and to a store;
both must accept it, or refuse it with the same code, reason and message byte for byte.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane
from tests.integration.test_localstore_metadata_differential import outcome

MANAGER = "kubectl-crd-dev"
ROOT = Path(__file__).resolve().parents[2]
GROUP = "typed.localstore.example.com"

#: a CRD with each kind of node the typed check knows
TYPED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "count": {"type": "integer"},
                "ratio": {"type": "number"},
                "flag": {"type": "boolean"},
                "port": {"x-kubernetes-int-or-string": True},
                "free": {"x-kubernetes-preserve-unknown-fields": True},
                "freeObj": {
                    "type": "object",
                    "x-kubernetes-preserve-unknown-fields": True,
                    "properties": {"a": {"type": "string"}},
                },
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "atomicMap": {
                    "type": "object",
                    "x-kubernetes-map-type": "atomic",
                    "properties": {"a": {"type": "string"}},
                },
                "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "items": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name", "port"],
                    "items": {
                        "type": "object",
                        "required": ["name"],
                        "properties": {
                            "name": {"type": "string"},
                            "port": {"type": "integer", "default": 80},
                            "value": {"type": "string"},
                        },
                    },
                },
                "plain": {"type": "array", "items": {"type": "integer"}},
                "template": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": True,
                    "properties": {"spec": {"type": "object", "properties": {"x": {"type": "string"}}}},
                },
                "embeddedFree": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": True,
                    "x-kubernetes-preserve-unknown-fields": True,
                },
            },
        },
    },
}  # fmt: skip


def _typed_crd() -> dict[str, Any]:
    return make_crd("Typed", GROUP, schema=TYPED_SCHEMA)


def _foo_crd() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "examples" / "foo" / "crd.yaml").read_text())
    return loaded


#: kind -> (group, version, plural)
KINDS = {
    "ConfigMap": ("", "v1", "configmaps"),
    "Secret": ("", "v1", "secrets"),
    "Service": ("", "v1", "services"),
    "Deployment": ("apps", "v1", "deployments"),
    "Job": ("batch", "v1", "jobs"),
    "ReplicaSet": ("apps", "v1", "replicasets"),
    "StatefulSet": ("apps", "v1", "statefulsets"),
    "Role": ("rbac.authorization.k8s.io", "v1", "roles"),
    "Lease": ("coordination.k8s.io", "v1", "leases"),
    "Foo": ("samplecontroller.k8s.io", "v1alpha1", "foos"),
    "Typed": (GROUP, "v1", "typeds"),
}


def cm(**top: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}, **top}


def deployment(container: dict[str, Any] | None = None, **spec: Any) -> dict[str, Any]:
    containers = [{"name": "c", "image": "nginx:1", **(container or {})}]
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": containers},
            },
            **spec,
        },
    }


def containers(*items: Any) -> dict[str, Any]:
    body = deployment()
    body["spec"]["template"]["spec"]["containers"] = list(items)
    return body


def service(target_port: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {},
        "spec": {"ports": [{"port": 80, "targetPort": target_port}], "selector": {"app": "web"}},
    }


def job(env_value: Any) -> dict[str, Any]:
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {},
        "spec": {
            "template": {
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [
                        {
                            "name": "c",
                            "image": "busybox",
                            "env": [{"name": "A", "value": env_value}],
                        }
                    ],
                }
            }
        },
    }


def foo(**spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "samplecontroller.k8s.io/v1alpha1",
        "kind": "Foo",
        "metadata": {},
        "spec": {"deploymentName": "d", "replicas": 1, **spec},
    }


def typed(spec: Any = None, **top: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"apiVersion": f"{GROUP}/v1", "kind": "Typed", "metadata": {}, **top}
    if spec is not None:
        body["spec"] = spec
    return body


def with_meta(body: dict[str, Any], **meta: Any) -> dict[str, Any]:
    body = copy.deepcopy(body)
    body["metadata"].update(meta)
    return body


#: (what, body): refused by both, with the same code, reason and message
REFUSED: list[tuple[str, dict[str, Any]]] = [
    # the cases
    ("configmap data value an int", cm(data={"a": 1})),
    ("configmap with a top-level field not declared", cm(dta={"a": "1"})),
    ("configmap label value an int", with_meta(cm(), labels={"x": 1})),
    ("deployment replicas a string", deployment(replicas="2")),
    ("container port a string", deployment({"ports": [{"containerPort": "80"}]})),
    ("custom resource replicas a string", foo(replicas="2")),
    # kinds of wrong value
    ("a map where a string is expected", cm(data={"a": {"x": 1, "b": [1, "s", True, None, 2.5]}})),
    ("a list where a map is expected", cm(data=[1, 2])),
    ("a string where a list is expected", containers("x")),
    ("a map where a list is expected", deployment(template={"spec": {"containers": {"name": "c"}}})),
    ("a string where a boolean is expected", cm(immutable="yes")),
    ("a map where a number is expected", deployment(replicas={"a": 1})),
    ("a boolean where a number is expected", deployment(replicas=True)),
    ("a map where a quantity is expected", deployment({"resources": {"limits": {"cpu": {"a": 1}}}})),
    ("a list where a timestamp is expected", with_meta(cm(), creationTimestamp=[1])),
    ("an env value an int (job)", job(5)),
    ("a secret's stringData an int", {"apiVersion": "v1", "kind": "Secret", "metadata": {}, "stringData": {"k": 1}}),
    ("a role's verbs holding an int",
     {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {},
      "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", 1]}]}),
    # numbers as the server prints them
    ("a float where a string is expected", cm(data={"a": 0.5})),
    ("a big float where a string is expected", cm(data={"a": 1e21})),
    ("an integral float where a string is expected", cm(data={"a": 1e16})),
    ("an int beyond int64 where a string is expected", cm(data={"a": 2**63})),
    ("a small float where a string is expected", cm(data={"a": 1.5e-7})),
    ("a fraction with many digits where a string is expected", cm(data={"a": 123456789.5})),
    ("escapes in a map where a string is expected", cm(data={"a": {"k": 'q"\n\t\u00e9'}})),
    # fields and lists
    ("an unknown field inside a container", deployment({"bogus": 1})),
    ("a null container", containers(None)),
    ("a container that is a string", containers("c")),
    ("two containers of one name", containers({"name": "c", "image": "a"}, {"name": "c", "image": "b"})),
    ("a duplicate and a wrong image in one list",
     containers({"name": "c", "image": "a"}, {"name": "c", "image": "b"}, {"name": "d", "image": 1})),
    ("two ports alike once the protocol's default is taken",
     deployment({"ports": [{"containerPort": 80}, {"containerPort": 80, "protocol": "TCP"}]})),
    ("a finalizer twice (a set)", with_meta(cm(), finalizers=["a.io/x", "a.io/x"])),
    ("a finalizer that is an int", with_meta(cm(), finalizers=[1])),
    # custom resources
    ("custom resource field not declared", foo(bogus=1)),
    ("custom resource boolean a string", typed({"flag": "true"})),
    ("custom resource number a string", typed({"ratio": "x"})),
    ("custom resource map of strings with an int", typed({"labels": {"a": 1}})),
    ("custom resource atomic map with a field not declared", typed({"atomicMap": {"b": "x"}})),
    ("custom resource set with a duplicate", typed({"tags": ["a", "a"]})),
    ("custom resource set holding a map", typed({"tags": [{"a": 1}]})),
    ("custom resource set holding a list", typed({"tags": [[1]]})),
    ("custom resource set holding a null", typed({"tags": [None]})),
    ("custom resource list map duplicate by a default key",
     typed({"items": [{"name": "a"}, {"name": "a", "port": 80}]})),
    ("custom resource list map holding a string", typed({"items": ["x"]})),
    ("custom resource atomic list item a string", typed({"plain": ["x"]})),
    ("custom resource preserve-unknown object's declared field an int", typed({"freeObj": {"a": 1}})),
    ("custom resource embedded resource's labels and spec wrong",
     typed({"template": {"apiVersion": "v1", "kind": "X", "metadata": {"labels": {"a": 1}}}})),
    ("custom resource embedded resource with a field not declared", typed({"template": {"other": 1}})),
    ("custom resource free embedded resource's metadata name an int",
     typed({"embeddedFree": {"apiVersion": "v1", "kind": "X", "metadata": {"name": 1}}})),
    ("custom resource status not in its schema", typed(status={"x": 1})),
    ("custom resource label an int", with_meta(typed(), labels={"a": 1})),
    ("custom resource float in an int-or-string (the schema's 422 after)", typed({"port": 1.5})),
    # the decoding of a built-in's merged object into its Go type (the next 500)
    ("a float in an int-or-string target port", service(1.5)),
    ("a map in an int-or-string target port", service({"a": 1})),
    ("a list in an int-or-string target port", service([1])),
    ("a boolean in an int-or-string target port", service(True)),
    ("an int beyond int32 in an int-or-string target port", service(3000000000)),
    ("a tiny float in an int-or-string target port", service(1e-7)),
    ("a huge float in an int-or-string probe port", deployment({"livenessProbe": {"httpGet": {"port": 1e21}}})),
    ("a fraction in an int32 container port", deployment({"ports": [{"containerPort": 80.5}]})),
    ("a fraction in int32 replicas", deployment(replicas=1.5)),
    ("a fraction in an int64 field (job)",
     {**job("x"), "spec": {**job("x")["spec"], "activeDeadlineSeconds": 1.5}}),
    ("a fraction in metadata's int64 generation", with_meta(cm(), generation=1.5)),
    ("a quantity that is not one", deployment({"resources": {"limits": {"cpu": "abc"}}})),
    ("a quantity with a wrong suffix", deployment({"resources": {"limits": {"memory": "500mi"}}})),
    ("a boolean quantity", deployment({"resources": {"requests": {"cpu": True}}})),
    ("custom resource count a float (the schema's 422 after)", typed({"count": 1.5})),
    # metav1.Time decoded by its own UnmarshalJSON: a string time.Parse takes (RFC 3339)
    ("a number creationTimestamp", with_meta(cm(), creationTimestamp=5)),
    ("a boolean deletionTimestamp", with_meta(cm(), deletionTimestamp=True)),
    ("a creationTimestamp that is a date", with_meta(cm(), creationTimestamp="2024-01-02")),
    ("a creationTimestamp without a zone", with_meta(cm(), creationTimestamp="2024-01-02T03:04:05")),
    ("a creationTimestamp in month 13", with_meta(cm(), creationTimestamp="2024-13-02T03:04:05Z")),
    ("a deletionTimestamp on February 30th", with_meta(cm(), deletionTimestamp="2024-02-30T03:04:05Z")),
    ("a template's creationTimestamp that is a word",
     deployment(template={"metadata": {"labels": {"app": "web"}, "creationTimestamp": "now"},
                          "spec": {"containers": [{"name": "c", "image": "nginx:1"}]}})),
    # metav1.MicroTime: RFC 3339 with exactly six fraction digits
    ("a lease's renewTime to the second",
     {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {},
      "spec": {"renewTime": "2024-01-02T03:04:05Z"}}),
    ("a lease's acquireTime with nine fraction digits",
     {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {},
      "spec": {"acquireTime": "2024-01-02T03:04:05.123456789Z"}}),
    ("a lease's renewTime a number",
     {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {},
      "spec": {"renewTime": 5}}),
    # several decoding problems: the server names the first in Go struct order
    ("two bad timestamps, deletion first in the object",
     with_meta(cm(), deletionTimestamp="x", creationTimestamp="y")),
    ("a bad timestamp then a fractional generation",
     with_meta(cm(), creationTimestamp="y", generation=1.5)),
    ("a fractional replicas before a bad metadata timestamp",
     {**deployment(replicas=1.5), "metadata": {"creationTimestamp": "y"}}),
    ("status before spec, each with a fraction",
     {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {},
      "status": {"observedGeneration": 1.5}, "spec": deployment(replicas=2.5)["spec"]}),
    ("spec before metadata, each with a problem",
     {"apiVersion": "apps/v1", "kind": "Deployment", "spec": deployment(replicas=2.5)["spec"],
      "metadata": {"deletionGracePeriodSeconds": 1.5}}),
    ("a container's quantity before its fractional port (Go's order: ports first)",
     deployment({"resources": {"limits": {"cpu": "abc"}}, "ports": [{"containerPort": 80.5}]})),
    ("a template's bad quantity before a fractional replicas (Go's order: replicas first)",
     deployment({"resources": {"limits": {"cpu": "abc"}}}, replicas=2.5)),
    ("a fractional target port before a fractional port (Go's order: port first)",
     {**service(1.5), "spec": {"ports": [{"targetPort": 1.5, "port": 80.5}]}}),
    # an int32 beyond its range: the conversion wraps it, the kind's validation refuses
    # what it became (its 422)
    ("int32 replicas overflowing to a negative", deployment(replicas=3000000000)),
    ("an int32 progress deadline overflowing", deployment(progressDeadlineSeconds=-5000000000)),
    ("negative minReadySeconds and revisionHistoryLimit",
     deployment(minReadySeconds=-1, revisionHistoryLimit=-1)),
    ("every Deployment count negative, in ValidateDeploymentSpec's order",
     deployment(revisionHistoryLimit=-1, minReadySeconds=-1, replicas=-1,
                progressDeadlineSeconds=-3)),
    ("int32 ReplicaSet replicas overflowing",
     {**deployment(replicas=3000000000), "kind": "ReplicaSet"}),
    ("int32 StatefulSet replicas overflowing and a negative minReadySeconds",
     {**deployment(replicas=3000000000, minReadySeconds=-1), "kind": "StatefulSet"}),
    ("int32 Job parallelism overflowing and every other count negative",
     {**job("x"), "spec": {**job("x")["spec"], "parallelism": 3000000000,
                           "ttlSecondsAfterFinished": -1, "activeDeadlineSeconds": -1,
                           "backoffLimit": -2, "completions": -1}}),
    ("an int32 service port overflowing",
     {**service(80), "spec": {"ports": [{"port": 3000000000}]}}),
    ("a template's creationTimestamp a number",
     deployment(template={"metadata": {"labels": {"app": "web"}, "creationTimestamp": 0},
                          "spec": {"containers": [{"name": "c", "image": "nginx:1"}]}})),
]  # fmt: skip

#: (what, body): accepted by both
ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("configmap with a null value", cm(data={"a": None, "b": "x"})),
    ("int-or-string target port an int", service(8080)),
    ("int-or-string target port a string", service("http")),
    ("a float quantity", deployment({"resources": {"limits": {"cpu": 1.5}}})),
    ("quantities spelt every way",
     deployment({"resources": {"limits": {"cpu": "1e3", "memory": "1Ki"}, "requests": {"cpu": 1e-7}}})),
    ("a whole float in an int-or-string target port", service(2.0)),
    ("a valid deployment", deployment({"ports": [{"containerPort": 80}]}, replicas=2)),
    ("int32 replicas wrapping to 2", deployment(replicas=4294967298)),
    ("custom resource valid", foo(replicas=2)),
    ("custom resource preserve-unknown field taking anything",
     typed({"free": {"a": [1, {"b": None}], "c": "x"}, "freeObj": {"z": {"q": 1}}})),
    ("custom resource int-or-string both ways", typed({"port": "http", "items": [{"name": "a", "port": 81}]})),
    ("timestamps RFC 3339 takes",
     with_meta(cm(), creationTimestamp="2024-01-02T3:04:05,5+01:00", deletionTimestamp=None)),
    ("a lease's micro times",
     {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {},
      "spec": {"renewTime": "2024-01-02T03:04:05.123456+01:00", "acquireTime": None}}),
    ("a template's creationTimestamp null (as kubectl get -o yaml writes it)",
     deployment(template={"metadata": {"labels": {"app": "web"}, "creationTimestamp": None},
                          "spec": {"containers": [{"name": "c", "image": "nginx:1"}]}})),
    # an apply of a custom resource drops creationTimestamp before decoding it
    ("custom resource creationTimestamp not a time", with_meta(typed(), creationTimestamp="x")),
    ("custom resource generation a fraction (never decoded into ObjectMeta)",
     with_meta(typed(), generation=1.5)),
    ("custom resource embedded resources",
     typed({"template": {"apiVersion": "v1", "kind": "X", "metadata": {"name": "n"}, "spec": {"x": "y"}},
            "embeddedFree": {"apiVersion": "v1", "kind": "Y", "anything": {"x": 1}}})),
]  # fmt: skip


@pytest.fixture(scope="module")
def crds(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    made = [_typed_crd(), _foo_crd()]
    where = tmp_path_factory.mktemp("crds")
    paths = []
    for crd in made:
        path = where / f"{crd['metadata']['name']}.json"
        path.write_text(json.dumps(crd))
        paths.append(path)
    installed = apiserver.install_crds(paths)
    existing = {crd["metadata"]["name"] for crd in made}
    assert set(installed) <= existing
    return made


def _sides(
    client: KubeClient, namespace: str, crds: list[dict[str, Any]]
) -> tuple[dict[str, ResourceClient], ObjectStore]:
    server = {
        kind: ResourceClient(client, group, version, plural, namespaced=True, namespace=namespace)
        for kind, (group, version, plural) in KINDS.items()
    }
    store = ObjectStore()
    for crd in crds:
        store.add_crd(CustomResourceDefinition.from_object(crd))
    return server, store


@pytest.mark.parametrize("namespaced", [True, False], ids=["namespace-in-body", "no-namespace"])
def test_applied_objects_are_typed_as_the_server_types_them(
    client: KubeClient, namespace: str, crds: list[dict[str, Any]], namespaced: bool
) -> None:
    """Every case on both sides, with the namespace in the body (the dev loop's
    children have it) and without (the message shows the patch's empty namespace)."""
    server, store = _sides(client, namespace, crds)
    problems = []
    for index, (what, body) in enumerate(REFUSED + ACCEPTED):
        body = with_meta(body, name=f"c{index}-{int(namespaced)}")
        if namespaced:
            body["metadata"]["namespace"] = namespace
        kind = body["kind"]
        group, version, _ = KINDS[kind]
        info = store.resolve(f"{group}/{version}/{kind}" if group else f"{version}/{kind}")
        theirs = outcome(partial(server[kind].apply, body, field_manager=MANAGER, force=True))
        ours = outcome(partial(store.apply, info, body, field_manager=MANAGER, force=True))
        if (theirs == ("accepted",)) != (index >= len(REFUSED)):
            problems.append(f"{what}: the server answered {theirs} (the case is wrong)")
        if ours != theirs:
            problems.append(f"{what}:\n  server {theirs}\n  store  {ours}")
    assert problems == [], "\n".join(problems)


BAD_CHILD = """\
FOR = "foos.samplecontroller.k8s.io/v1alpha1"
OWNS = ["v1/ConfigMap"]


def reconcile(foo, ctx):
    # the most common slip of a Python reconciler: a number where the API wants a string
    child = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": foo["metadata"]["name"] + "-cm"},
        "data": {"replicas": foo["spec"]["replicas"]},
    }
    return {"children": [child]}
"""

STAMP = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} ")
TOOK = re.compile(r" after [0-9.]+(us|ms|s):")


def test_dev_once_reports_a_mistyped_child_alike_on_the_server_and_local(
    apiserver: ControlPlane, namespace: str, tmp_path: Path, crds: list[dict[str, Any]]
) -> None:
    """``dev --once`` with a reconciler whose ConfigMap child has an int in ``data``:
    against kube-apiserver and with ``--local DIR``, the same refused line (the child's
    kind and name, the server's message), the same summary, exit 1."""
    local = tmp_path / "local"
    local.mkdir()
    (local / "crd.yaml").write_text((ROOT / "examples" / "foo" / "crd.yaml").read_text())
    parent = yaml.safe_dump(with_meta(foo(replicas=2), name="f", namespace=namespace))
    (local / "foo.yaml").write_text(parent)
    apiserver.kubectl("create", "-f", "-", input=parent)
    (tmp_path / "r.py").write_text(BAD_CHILD)
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    env["HOME"] = str(tmp_path)
    outputs = {}
    for where, flags in (
        ("local", ["--local", str(local)]),
        ("cluster", ["--kubeconfig", str(apiserver.kubeconfig), "-n", namespace]),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "kubectl_crd", "dev", str(tmp_path / "r.py"), *flags, "--once"],
            capture_output=True, text=True, env=env, timeout=120, check=False,
        )  # fmt: skip
        assert (done.returncode, done.stderr) == (1, ""), (where, done.stdout)
        lines = [TOOK.sub(" after T:", STAMP.sub("", line)) for line in done.stdout.splitlines()]
        outputs[where] = [line for line in lines if "refused" in line] + lines[-1:]
    assert outputs["local"] == outputs["cluster"]
    # the child is absent: the loop's create is refused as the body is decoded
    assert outputs["local"][0] == (
        f"  configmap {namespace}/f-cm apply refused (400): Error from server (BadRequest): "
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal '
        "number into Go struct field ConfigMap.data of type string"
    )
    assert (
        outputs["local"][-1] == f"1 object, 1 reconcile, 0 writes, 1 error; failed: {namespace}/f"
    )


def test_list_keys_from_the_schemas_merge_as_on_the_server(
    client: KubeClient, namespace: str, crds: list[dict[str, Any]]
) -> None:
    """The store's list-map keys now come from the same schemas: two managers applying
    a finalizer each (``metadata.finalizers`` is a set) and a container each (a list map
    by name) end with both, in the server's order."""
    server, store = _sides(client, namespace, crds)
    info = store.resolve("apps/v1/Deployment")
    answers: list[list[Any]] = [[], []]
    for manager, finalizer, container in (("one", "x.io/a", "a"), ("two", "x.io/b", "b")):
        body = with_meta(
            containers({"name": container, "image": "nginx:1"}),
            name="merged", namespace=namespace, finalizers=[finalizer],
        )  # fmt: skip
        for side, apply in enumerate(
            (partial(server["Deployment"].apply), partial(store.apply, info))
        ):
            written = apply(body, field_manager=manager, force=True)
            spec = written["spec"]["template"]["spec"]
            answers[side].append(
                (written["metadata"]["finalizers"], [c["name"] for c in spec["containers"]])
            )
    assert answers[0] == answers[1]
    assert answers[1][-1] == (["x.io/a", "x.io/b"], ["a", "b"])
