"""Which maps an apply replaces whole: ``x-kubernetes-map-type: atomic`` in the shipped
built-in schemas (kube-apiserver 1.34's OpenAPI, hack/builtin_types.py) and in a CRD's."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.validation.typed import builtin, crd_atom, list_keys

TEMPLATE = ("spec", "template")


@pytest.mark.parametrize(
    ("api_version", "kind", "path", "expected"),
    [
        ("apps/v1", "Deployment", ("spec", "selector"), "atomic"),  # +structType=atomic
        ("apps/v1", "Deployment", (*TEMPLATE, "spec", "nodeSelector"), "atomic"),  # +mapType
        ("apps/v1", "Deployment", (*TEMPLATE, "metadata", "labels"), None),  # granular
        ("apps/v1", "Deployment", (*TEMPLATE, "spec"), None),  # a plain struct
        ("v1", "Service", ("spec", "selector"), "atomic"),
        ("v1", "ConfigMap", ("metadata", "ownerReferences", "[]"), "atomic"),
        ("v1", "ConfigMap", ("metadata", "ownerReferences"), ("uid",)),
        ("v1", "ConfigMap", ("data",), None),
    ],
)  # fmt: skip
def test_builtin_atomic_maps_come_from_the_server_schemas(
    api_version: str, kind: str, path: tuple[str, ...], expected: Any
) -> None:
    atom = builtin().kind(api_version, kind)
    assert atom is not None
    assert list_keys(atom, path) == expected


def test_a_crd_marks_its_own_atomic_maps() -> None:
    strings = {"type": "object", "additionalProperties": {"type": "string"}}
    atom = crd_atom({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "ref": {"type": "object", "x-kubernetes-map-type": "atomic",
                    "properties": {"name": {"type": "string"}}},
            "tags": {**strings, "x-kubernetes-map-type": "atomic"},
            "labels": {**strings, "x-kubernetes-map-type": "granular"},
            "plain": strings,
            "hosts": {"type": "array", "x-kubernetes-list-type": "atomic",
                      "items": {"type": "string"}},
        }}},
    })  # fmt: skip
    found = {f: list_keys(atom, ("spec", f)) for f in ("ref", "tags", "labels", "plain", "hosts")}
    assert found == {
        "ref": "atomic",
        "tags": "atomic",
        "labels": None,
        "plain": None,
        "hosts": None,
    }
