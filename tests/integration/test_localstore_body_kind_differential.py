"""A built-in write whose body names another kind or apiVersion than its endpoint's:
the store against kube-apiserver.

The handler decodes the body into the type its apiVersion and kind name, defaulted to
the endpoint's when left out, then converts it to the endpoint's internal type
(``apiserver/pkg/endpoints/handlers/create.go``, ``update.go``): a Secret sent to the
ConfigMap endpoint fails that conversion, a kind the scheme does not know fails the
decoding, each a 400 before the object is looked up (a PUT of a missing object
included). Each case writes the same body to the session's kube-apiserver and to an
``ObjectStore``: the refusal (code, reason, message, causes) or what was stored must be
the same.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration.localstore_answers import Sides, answer, assert_agree, check


def _stored(written: dict[str, Any]) -> tuple[Any, ...]:
    meta = written.get("metadata") or {}
    return (written.get("apiVersion"), written.get("kind"), meta.get("name"), written.get("data"))


def _body(name: str, **fields: Any) -> dict[str, Any]:
    return {"metadata": {"name": name}, "data": {"a": "b"}, **fields}


#: (what, endpoint, verb, body): "update" PUTs over an existing object of that name (made
#: first), "update missing" over none; a "valid" case is accepted (and stored as the
#: endpoint's apiVersion and kind)
CASES: list[tuple[str, str, str, dict[str, Any]]] = [
    ("create of a Secret, bad base64", "ConfigMap", "create", _body("k1", apiVersion="v1", kind="Secret")),
    ("create of a Secret", "ConfigMap", "create", _body("k9", apiVersion="v1", kind="Secret", data={"a": "YQ=="})),
    ("create of a kind not shipped", "ConfigMap", "create", _body("k10", apiVersion="v1", kind="Node")),
    ("create of a meta kind", "ConfigMap", "create", _body("k11", apiVersion="v1", kind="Status")),
    ("create of a list kind", "ConfigMap", "create", _body("k12", apiVersion="v1", kind="ConfigMapList")),
    ("create of an unknown kind", "ConfigMap", "create", _body("k2", apiVersion="v1", kind="Gadget")),
    ("create of another group's kind", "ConfigMap", "create", _body("k3", apiVersion="apps/v1", kind="Deployment")),
    ("create of an unknown version", "ConfigMap", "create", _body("k4", apiVersion="v2", kind="ConfigMap")),
    ("create of an unknown group", "ConfigMap", "create", _body("k5", apiVersion="nope.example.com/v1", kind="ConfigMap")),
    ("create of a group with no version", "ConfigMap", "create", _body("k13", apiVersion="apps/", kind="ConfigMap")),
    ("valid create with no kind", "ConfigMap", "create", _body("k6", apiVersion="v1")),
    ("valid create with no apiVersion", "ConfigMap", "create", _body("k7", kind="ConfigMap")),
    ("valid create with neither", "ConfigMap", "create", _body("k8")),
    ("valid create with empty strings", "ConfigMap", "create", _body("k14", apiVersion="", kind="")),
    ("update to a Secret", "ConfigMap", "update", _body("u1", apiVersion="v1", kind="Secret")),
    ("update to an unknown kind", "ConfigMap", "update", _body("u2", apiVersion="v1", kind="Gadget")),
    ("update missing, a Secret", "ConfigMap", "update missing", _body("m1", apiVersion="v1", kind="Secret", data={"a": "YQ=="})),
    ("update missing, an unknown kind", "ConfigMap", "update missing", _body("m2", apiVersion="v1", kind="Gadget")),
    ("valid update with no kind", "ConfigMap", "update", _body("u3", apiVersion="v1")),
    ("create of a ConfigMap as a Secret", "Secret", "create", _body("s1", apiVersion="v1", kind="ConfigMap")),
    ("create of a DaemonSet as a Deployment", "Deployment", "create",
     _body("d1", apiVersion="apps/v1", kind="DaemonSet", spec={})),
    ("create of an apps/v1beta1 DaemonSet", "Deployment", "create",
     _body("d2", apiVersion="apps/v1beta1", kind="DaemonSet", spec={})),
    ("create of a Role as a RoleBinding", "RoleBinding", "create",
     _body("r1", apiVersion="rbac.authorization.k8s.io/v1", kind="Role")),
]  # fmt: skip

#: endpoint kind -> (group, plural)
ENDPOINTS = {
    "ConfigMap": ("", "configmaps"),
    "Secret": ("", "secrets"),
    "Deployment": ("apps", "deployments"),
    "RoleBinding": ("rbac.authorization.k8s.io", "rolebindings"),
}


def test_body_of_another_kind(client: KubeClient, namespace: str) -> None:
    problems: list[str] = []
    for what, endpoint, verb, body in CASES:
        group, plural = ENDPOINTS[endpoint]
        sides = Sides.of(client, namespace, group, endpoint, plural)
        body = body | {"metadata": body["metadata"] | {"namespace": namespace}}
        if verb == "update":
            existing = {
                "apiVersion": sides.info.api_version,
                "kind": endpoint,
                "metadata": body["metadata"],
            }
            sides.server.create(existing)
            sides.store.create(sides.info, existing, namespace=namespace)
        if verb == "create":
            theirs = answer(lambda s=sides, b=body: s.server.create(b), _stored)
            ours = answer(
                lambda s=sides, b=body: s.store.create(s.info, b, namespace=namespace), _stored
            )
        else:
            theirs = answer(lambda s=sides, b=body: s.server.update(b), _stored)
            ours = answer(lambda s=sides, b=body: s.store.update(s.info, b), _stored)
        check(problems, what, theirs, ours)
    assert_agree(problems, len(CASES), "writes of another kind's body")


#: (what, patch): a JSON merge patch of an existing ConfigMap that keeps or drops its kind
#: (one that names another is in test_localstore_decoding_differential's undecodable
#: patches; one that drops the apiVersion, decoded as the internal type, in
#: test_localstore_patch_differential)
PATCHES: list[tuple[str, dict[str, Any]]] = [
    ("valid patch removing the kind", {"kind": None}),
    ("valid patch naming its own kind", {"apiVersion": "v1", "kind": "ConfigMap"}),
]


def test_merge_patch_of_the_kind(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "", "ConfigMap", "configmaps")
    problems: list[str] = []
    for index, (what, patch) in enumerate(PATCHES):
        name = f"p{index}"
        existing = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}}
        sides.server.create(existing)
        sides.store.create(sides.info, existing, namespace=namespace)
        theirs = answer(lambda p=patch, n=name: sides.server.patch(n, p), _stored)
        ours = answer(
            lambda p=patch, n=name: sides.store.patch(sides.info, namespace, n, p), _stored
        )
        check(problems, what, theirs, ours)
    assert_agree(problems, len(PATCHES), "merge patches of the kind")
