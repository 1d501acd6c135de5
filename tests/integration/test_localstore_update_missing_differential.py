"""A PUT of an object that does not exist: the store against kube-apiserver.

``Store.Update`` (``apiserver/pkg/registry/generic/registry/store.go``) looks the
object up before anything but the handler's decoding sees the body: a missing
object is the 404 ``NotFound``, whatever is wrong in the body, unless the kind's
strategy ``AllowCreateOnUpdate`` (a Service, an Event, a Lease, a Role, a
RoleBinding): then the PUT is the object's create, validated as a create is. Each
case PUTs the same body to the session's kube-apiserver and to an ``ObjectStore``:
a refusal's whole ``Status`` (code, reason, message, details with their causes), or
the object stored (its kind, name, labels, data and spec, and each managedFields
entry's manager and operation; a Service's cluster IP masked) must be the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kubectl_crd.kube.client import ApiError, KubeClient
from tests.integration.localstore_answers import Sides, assert_agree, check


def _answer(call: Callable[[], dict[str, Any]]) -> tuple[Any, ...]:
    try:
        written = call()
    except ApiError as exc:
        return (exc.status, exc.status_object)
    meta = written.get("metadata") or {}
    managers = [(e.get("manager"), e.get("operation")) for e in meta.get("managedFields") or ()]
    kept = {k: written.get(k) for k in ("kind", "data", "spec", "rules", "roleRef", "type")}
    if isinstance(kept["spec"], dict) and "clusterIP" in kept["spec"]:
        # each side allocates its own address (the session's server holds others)
        kept["spec"] = kept["spec"] | {"clusterIP": "<ip>", "clusterIPs": ["<ip>"]}
    return ("accepted", meta.get("name"), meta.get("labels"), kept, managers)


def _body(api_version: str, kind: str, name: str, **fields: Any) -> dict[str, Any]:
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": name}, **fields}


#: (group, kind, plural, what, body): a body the server refuses after the lookup is
#: the lookup's 404; one of a kind that creates on update, the create's answer
CASES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    ("", "ConfigMap", "configmaps", "missing ConfigMap, bad label",
     _body("v1", "ConfigMap", "m1", data={"a": "b"}) | {"metadata": {"name": "m1", "labels": {"a b": "x"}}}),
    ("", "ConfigMap", "configmaps", "missing ConfigMap",
     _body("v1", "ConfigMap", "m2", data={"a": "b"})),
    ("apps", "Deployment", "deployments", "missing Deployment, no selector",
     _body("apps/v1", "Deployment", "d1", spec={"replicas": -1})),
    ("", "Service", "services", "missing Service, port 0 (created: validated)",
     _body("v1", "Service", "s1", spec={"ports": [{"port": 0}]})),
    ("", "Service", "services", "valid missing Service (created)",
     _body("v1", "Service", "s2", spec={"ports": [{"port": 80}], "type": "ClusterIP"})),
    ("coordination.k8s.io", "Lease", "leases", "valid missing Lease (created)",
     _body("coordination.k8s.io/v1", "Lease", "l1", spec={"holderIdentity": "me"})),
    ("coordination.k8s.io", "Lease", "leases", "missing Lease, bad name (created: validated)",
     _body("coordination.k8s.io/v1", "Lease", "L_1", spec={"holderIdentity": "me"})),
    ("rbac.authorization.k8s.io", "Role", "roles", "valid missing Role (created)",
     _body("rbac.authorization.k8s.io/v1", "Role", "r1",
           rules=[{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}])),
    ("", "Secret", "secrets", "missing Secret",
     _body("v1", "Secret", "x1", stringData={"a": "b"})),
]  # fmt: skip


def test_put_of_a_missing_object(client: KubeClient, namespace: str) -> None:
    problems: list[str] = []
    for group, kind, plural, what, body in CASES:
        sides = Sides.of(client, namespace, group, kind, plural)
        body = body | {"metadata": body["metadata"] | {"namespace": namespace}}
        theirs = _answer(lambda s=sides, b=body: s.server.update(b))
        ours = _answer(lambda s=sides, b=body: s.store.update(s.info, b))
        check(problems, what, theirs, ours)
    assert_agree(problems, len(CASES), "PUTs of missing objects")
