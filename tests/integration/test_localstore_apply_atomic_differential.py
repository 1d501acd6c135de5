"""Server-side apply over atomic and granular maps: the in-process store against the server.

structured-merge-diff replaces a map whose ``ElementRelationship`` is atomic whole
(``merge/update.go``; ``x-kubernetes-map-type: atomic`` in OpenAPI: metav1.LabelSelector
is ``+structType=atomic``, a PodSpec's ``nodeSelector`` and a Service's ``selector``
``+mapType=atomic``) and merges a granular one key by key. ``ObjectStore.apply`` knows
which is which from the same schemas (``hack/builtin_types.py`` keeps the marker; a CRD's
own schema for a custom resource; an ``x-kubernetes-list-type: atomic`` list is replaced
whole too). Each case is a sequence of applies by field managers
sent to kube-apiserver and to a store; after each, the outcome (accepted, or the
refusal's code, reason and message), the value at the case's path and the managers'
``fieldsV1`` under it must agree.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane
from tests.integration.test_localstore_metadata_differential import outcome

GROUP = "atomic.localstore.example.com"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "target": {
                    "type": "object",
                    "x-kubernetes-map-type": "atomic",
                    "properties": {"kind": {"type": "string"}, "name": {"type": "string"}},
                },
                "tags": {
                    "type": "object",
                    "x-kubernetes-map-type": "atomic",
                    "additionalProperties": {"type": "string"},
                },
                "labels": {
                    "type": "object",
                    "x-kubernetes-map-type": "granular",
                    "additionalProperties": {"type": "string"},
                },
                "hosts": {
                    "type": "array",
                    "x-kubernetes-list-type": "atomic",
                    "items": {"type": "string"},
                },
            },
        }
    },
}
KINDS = {
    "Deployment": ("apps", "v1", "deployments"),
    "Service": ("", "v1", "services"),
    "Widget": (GROUP, "v1", "widgets"),
}


def _ident(kind: str) -> dict[str, Any]:
    group, version, _ = KINDS[kind]
    return {"apiVersion": f"{group}/{version}" if group else version, "kind": kind}


def deployment(selector: Any = None, node: Any = None, annotations: Any = None) -> dict[str, Any]:
    """A whole Deployment (labels ``app: a, tier: t``) or, with ``selector`` None, only
    the template fields given (another manager's partial apply)."""
    template: dict[str, Any] = {}
    if selector is not None:
        template["metadata"] = {"labels": {"app": "a", "tier": "t"}}
        template["spec"] = {"containers": [{"name": "c", "image": "nginx:1"}]}
    if annotations is not None:
        template.setdefault("metadata", {})["annotations"] = annotations
    if node is not None:
        template.setdefault("spec", {})["nodeSelector"] = node
    spec: dict[str, Any] = {"template": template}
    if selector is not None:
        spec["selector"] = {"matchLabels": selector}
    return {**_ident("Deployment"), "metadata": {"name": "d"}, "spec": spec}


def service(selector: dict[str, str], ports: bool = True) -> dict[str, Any]:
    spec: dict[str, Any] = {"selector": selector}
    if ports:
        spec["ports"] = [{"port": 80}]
    return {**_ident("Service"), "metadata": {"name": "s"}, "spec": spec}


def widget(**spec: Any) -> dict[str, Any]:
    return {**_ident("Widget"), "metadata": {"name": "w"}, "spec": spec}


#: (case, kind, path observed, [(manager, applied object)])
CASES: list[tuple[str, str, tuple[str, ...], list[tuple[str, dict[str, Any]]]]] = [
    ("deployment-selector-two-managers", "Deployment", ("spec", "selector"), [
        ("one", deployment({"app": "a"})),
        ("two", {**deployment(), "spec": {"selector": {"matchLabels": {"tier": "t"}}}}),
    ]),
    ("deployment-selector-one-manager-drops", "Deployment", ("spec", "selector"), [
        ("one", deployment({"app": "a", "tier": "t"})),
        ("one", deployment({"app": "a"})),
    ]),
    ("service-selector-two-managers", "Service", ("spec", "selector"), [
        ("one", service({"app": "a"})),
        ("two", service({"tier": "t"}, ports=False)),
        ("one", service({"app": "a", "tier": "t"})),
    ]),
    ("node-selector-two-managers", "Deployment", ("spec", "template", "spec", "nodeSelector"), [
        ("one", deployment({"app": "a"}, node={"disk": "ssd"})),
        ("two", deployment(node={"zone": "z"})),
    ]),
    ("node-selector-one-manager-drops", "Deployment",
     ("spec", "template", "spec", "nodeSelector"), [
        ("one", deployment({"app": "a"}, node={"disk": "ssd", "zone": "z"})),
        ("one", deployment({"app": "a"}, node={"disk": "ssd"})),
        ("one", deployment({"app": "a"})),
    ]),
    ("granular-annotations-two-managers", "Deployment",
     ("spec", "template", "metadata", "annotations"), [
        ("one", deployment({"app": "a"}, annotations={"x": "1", "y": "2"})),
        ("two", deployment(annotations={"z": "3"})),
        ("one", deployment({"app": "a"}, annotations={"x": "1"})),
        ("one", deployment({"app": "a"})),
    ]),
    ("crd-atomic-struct-and-map-two-managers", "Widget", ("spec",), [
        ("one", widget(target={"kind": "K", "name": "n"}, tags={"a": "1"}, labels={"a": "1"},
                       hosts=["a"])),
        ("two", widget(target={"name": "m"}, tags={"b": "2"}, labels={"b": "2"}, hosts=["b"])),
        ("one", widget(labels={"a": "1"})),
    ]),
    ("crd-atomic-one-manager-drops", "Widget", ("spec",), [
        ("one", widget(target={"kind": "K", "name": "n"}, tags={"a": "1", "b": "2"})),
        ("one", widget(target={"kind": "K"}, tags={"a": "1"})),
    ]),
]  # fmt: skip


@pytest.fixture(scope="module")
def widgets_crd(
    apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    crd = make_crd("Widget", GROUP, schema=SCHEMA)
    path = tmp_path_factory.mktemp("crd") / "widgets.json"
    path.write_text(json.dumps(crd))
    apiserver.install_crds([path])
    return crd


def _at(obj: dict[str, Any] | None, path: tuple[str, ...]) -> Any:
    node: Any = obj
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _view(obj: dict[str, Any], path: tuple[str, ...]) -> tuple[Any, ...]:
    """The value at ``path`` and each Apply manager's fieldsV1 under it."""
    fields = {}
    for entry in obj["metadata"].get("managedFields") or ():
        if entry.get("operation") == "Apply":
            under = _at(entry["fieldsV1"], tuple(f"f:{p}" for p in path))
            fields[entry["manager"]] = under
    return _at(obj, path), fields


def test_apply_replaces_atomic_maps_and_merges_granular_ones_as_the_server_does(
    client: KubeClient, namespace: str, widgets_crd: dict[str, Any]
) -> None:
    problems = []
    for case, kind, path, steps in CASES:
        store = ObjectStore()
        store.add_crd(CustomResourceDefinition.from_object(widgets_crd))
        group, version, plural = KINDS[kind]
        server = ResourceClient(
            client, group, version, plural, namespaced=True, namespace=namespace
        )
        info = store.resolve(f"{group}/{version}/{kind}" if group else f"{version}/{kind}")
        name = case  # a name of its own: the server's object of a case before is gone
        seen: list[list[Any]] = [[], []]
        for step, (manager, body) in enumerate(steps):
            sent = {**body, "metadata": {"name": name, "namespace": namespace}}
            sides = (
                (partial(server.apply, sent), partial(server.get, name)),
                (partial(store.apply, info, sent), partial(store.get, info, namespace, name)),
            )
            for side, (apply, get) in enumerate(sides):
                result = outcome(partial(apply, field_manager=manager, force=True))
                seen[side].append((step, manager, result, _view(get(), path)))
        if seen[0] != seen[1]:
            lines = [f"{case}:"]
            for ours, theirs in zip(seen[1], seen[0], strict=True):
                if ours != theirs:
                    lines.append(f"  server {theirs}\n  store  {ours}")
            problems.append("\n".join(lines))
    assert problems == [], "\n".join(problems)
