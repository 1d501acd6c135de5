"""The schema the API server publishes, rebuilt from a CRD (apiextensions-apiserver rules).

The integration test compares ``publish`` with the server's own /openapi/v3 documents
for the whole corpus; these cases pin each rule on its own.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import UnpublishableSchema
from kubectl_crd.model.explain import definition_name, publish
from kubectl_crd.model.explain.metav1 import OBJECT_META_REF
from kubectl_crd.model.explain.published import (
    EMBEDDED_API_VERSION_DESCRIPTION,
    EMBEDDED_KIND_DESCRIPTION,
)
from kubectl_crd.model.schema import plain
from tests.crd_factory import make_crd

INT_OR_STRING = [{"type": "integer"}, {"type": "string"}]


def published_spec(spec: dict[str, Any]) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"spec": spec}}
    crd = CustomResourceDefinition.from_object(make_crd(schema=schema))
    spec_schema: dict[str, Any] = plain(publish(crd, "v1").root["properties"]["spec"])
    return spec_schema


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # int-or-string gains the anyOf the server validates with
        (
            {"x-kubernetes-int-or-string": True},
            {"x-kubernetes-int-or-string": True, "anyOf": INT_OR_STRING},
        ),
        # ... unless it already has exactly that anyOf
        (
            {"x-kubernetes-int-or-string": True, "anyOf": INT_OR_STRING},
            {"x-kubernetes-int-or-string": True, "anyOf": INT_OR_STRING},
        ),
        # another anyOf: the int-or-string anyOf goes in front, inside allOf
        (
            {
                "x-kubernetes-int-or-string": True,
                "anyOf": [{"pattern": "^a"}],
                "allOf": [{"maxLength": 3}],
            },
            {
                "x-kubernetes-int-or-string": True,
                "anyOf": [{"pattern": "^a"}],
                "allOf": [{"anyOf": INT_OR_STRING}, {"maxLength": 3}],
            },
        ),
        # not structural: example and externalDocs are dropped, as are unknown keys
        (
            {
                "type": "string",
                "example": "x",
                "externalDocs": {"url": "https://example.com"},
                "x-unknown": 1,
            },
            {"type": "string"},
        ),
        # empty and false values are omitted (ToKubeOpenAPI + omitempty)
        (
            {"type": "string", "description": "", "nullable": False, "enum": [], "format": ""},
            {"type": "string"},
        ),
        # boolean additionalProperties stay booleans
        (
            {"type": "object", "additionalProperties": True},
            {"type": "object", "additionalProperties": True},
        ),
        # CEL rules keep only the v1 fields that are set
        (
            {"type": "string", "x-kubernetes-validations": [{"rule": "self != ''", "message": ""}]},
            {"type": "string", "x-kubernetes-validations": [{"rule": "self != ''"}]},
        ),
    ],
)
def test_structural_conversion(spec: dict[str, Any], expected: dict[str, Any]) -> None:
    assert published_spec(spec) == expected


def test_root_gets_type_meta_and_a_reference_to_object_meta() -> None:
    schema = {
        "type": "object",
        "required": ["metadata"],
        "properties": {"metadata": {"type": "object", "properties": {"name": {"type": "string"}}}},
    }
    crd = CustomResourceDefinition.from_object(make_crd(schema=schema))
    published = publish(crd, "v1")
    root = published.root
    assert published.name == "com.example.stable.v1.CronTab"
    # the CRD's own metadata schema is replaced
    assert root["properties"]["metadata"]["allOf"] == [{"$ref": OBJECT_META_REF}]
    assert root["properties"]["apiVersion"]["type"] == "string"
    assert root["properties"]["kind"]["description"].startswith("Kind is a string value")
    assert root["required"] == ["metadata"]
    assert root["x-kubernetes-group-version-kind"] == [
        {"group": "stable.example.com", "version": "v1", "kind": "CronTab"}
    ]
    object_meta = published.resolve_ref(OBJECT_META_REF)
    assert object_meta is not None
    assert "creationTimestamp" in object_meta["properties"]


def test_embedded_resources_get_api_version_kind_and_metadata() -> None:
    spec = {
        "type": "object",
        "properties": {
            "templates": {
                "type": "array",
                "items": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": True,
                    "x-kubernetes-preserve-unknown-fields": True,
                    "required": ["kind"],
                },
            }
        },
    }
    item = published_spec(spec)["properties"]["templates"]["items"]
    assert item["properties"]["apiVersion"]["description"] == EMBEDDED_API_VERSION_DESCRIPTION
    assert item["properties"]["kind"]["description"] == EMBEDDED_KIND_DESCRIPTION
    assert item["properties"]["metadata"]["allOf"] == [{"$ref": OBJECT_META_REF}]
    assert item["required"] == ["kind", "apiVersion"]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ({"type": "object", "$ref": "#/x"}, "$ref is not supported"),
        ({"type": "date"}, 'type "date" is not an OpenAPI v3 type'),
        (
            {"type": "string", "x-kubernetes-preserve-unknown-fields": False},
            "must be true or undefined",
        ),
    ],
)
def test_a_node_the_server_refuses_is_an_error_when_reached(
    bad: dict[str, Any], reason: str
) -> None:
    schema = {
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"bad": bad}}},
    }
    published = publish(CustomResourceDefinition.from_object(make_crd(schema=schema)), "v1")
    assert published.root["properties"]["spec"]["type"] == "object"  # fine up to there
    with pytest.raises(UnpublishableSchema) as excinfo:
        published.root["properties"]["spec"]["properties"]["bad"].get("type")
    assert reason in str(excinfo.value)


def test_lazy_conversion_equals_the_whole_tree(widgets: CustomResourceDefinition) -> None:
    first = publish(widgets, "v1")
    # touching one deep node first must not change what the rest converts to
    assert first.root["properties"]["spec"]["properties"]["portMap"]["additionalProperties"]
    assert plain(first.root) == plain(publish(widgets, "v1").root)
    assert (
        plain(first.root)["properties"]["spec"]["properties"]["replicas"]["anyOf"] == INT_OR_STRING
    )


def test_selectable_fields_are_published_without_the_leading_dot() -> None:
    raw = make_crd()
    raw["spec"]["versions"][0]["selectableFields"] = [{"jsonPath": ".spec.replicas"}]
    published = publish(CustomResourceDefinition.from_object(raw), "v1")
    assert published.root["x-kubernetes-selectable-fields"] == [{"fieldPath": "spec.replicas"}]


@pytest.mark.parametrize(
    ("group", "version", "kind", "expected"),
    [
        ("stable.example.com", "v1", "CronTab", "com.example.stable.v1.CronTab"),
        ("cert-manager.io", "v1", "Certificate", "io.cert-manager.v1.Certificate"),
        ("argoproj.io", "v1alpha1", "Workflow", "io.argoproj.v1alpha1.Workflow"),
    ],
)
def test_definition_name(group: str, version: str, kind: str, expected: str) -> None:
    assert definition_name(group, version, kind) == expected
