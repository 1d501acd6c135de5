"""A server-side apply whose body's apiVersion or kind is not the URL's: the store
against kube-apiserver.

The server's field manager converts the applied object into the type the URL names
and finds none for another group, version or kind: a 400 ``BadRequest`` "invalid
object type: <group>/<version>, Kind=<kind>" (Go's ``GroupVersionKind`` text: a core
version is "/v1", a missing apiVersion "/"), before the typed check looks at any
field. Each case applies the same body to the session's kube-apiserver and to an
``ObjectStore`` (``localstore_answers``: code, reason, message, causes; or the
object's kind and data or spec stored).
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import Sides, assert_agree, check

_TEMPLATE = {
    "metadata": {"labels": {"a": "b"}},
    "spec": {"containers": [{"name": "c", "image": "nginx:1"}]},
}
_DEPLOYMENT_SPEC = {"selector": {"matchLabels": {"a": "b"}}, "template": _TEMPLATE}

#: (group, kind, plural, what, apiVersion, kind, the body's other fields)
CASES: list[tuple[str, str, str, str, str | None, str | None, dict[str, Any]]] = [
    ("", "ConfigMap", "configmaps", "valid ConfigMap", "v1", "ConfigMap", {"data": {"a": "b"}}),
    ("", "ConfigMap", "configmaps", "a Secret's kind", "v1", "Secret", {"data": {"a": "b"}}),
    ("", "ConfigMap", "configmaps", "another group", "apps/v1", "ConfigMap", {}),
    ("", "ConfigMap", "configmaps", "a lower-case kind", "v1", "configmap", {}),
    ("", "ConfigMap", "configmaps", "no apiVersion", None, "ConfigMap", {}),
    ("", "ConfigMap", "configmaps", "no kind", "v1", None, {}),
    ("", "ConfigMap", "configmaps", "a bad field too", "v2", "ConfigMap", {"data": {"a": 1}}),
    ("apps", "Deployment", "deployments", "valid Deployment", "apps/v1", "Deployment",
     {"spec": _DEPLOYMENT_SPEC}),
    ("apps", "Deployment", "deployments", "an old version", "apps/v1beta1", "Deployment",
     {"spec": _DEPLOYMENT_SPEC}),
    ("apps", "Deployment", "deployments", "extensions", "extensions/v1beta1", "Deployment",
     {"spec": _DEPLOYMENT_SPEC}),
    ("apps", "Deployment", "deployments", "the core version", "v1", "Deployment",
     {"spec": _DEPLOYMENT_SPEC}),
]  # fmt: skip


def _stored(obj: dict[str, Any]) -> tuple[Any, ...]:
    return (obj.get("kind"), obj.get("apiVersion"), obj.get("data"), obj.get("spec"))


def test_apply_of_another_type(client: KubeClient, namespace: str) -> None:
    problems: list[str] = []
    for index, (group, kind, plural, what, api_version, body_kind, fields) in enumerate(CASES):
        sides = Sides.of(client, namespace, group, kind, plural)
        body: dict[str, Any] = {"metadata": {"name": f"t{index}", "namespace": namespace}}
        body |= {"apiVersion": api_version} if api_version is not None else {}
        body |= {"kind": body_kind} if body_kind is not None else {}
        body |= fields
        theirs = localstore_answers.answer(
            lambda s=sides, b=body: s.server.apply(b, field_manager="m"), _stored
        )
        ours = localstore_answers.answer(
            lambda s=sides, b=body: s.store.apply(s.info, b, field_manager="m"), _stored
        )
        check(problems, what, theirs, ours)
    assert_agree(problems, len(CASES), "applies")
