from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import CRDError
from tests.crd_factory import make_crd


def test_parses_names_versions_subresources_and_columns() -> None:
    obj = make_crd(short_names=("ct",), versions=("v1beta1", "v1", "v2alpha1"), storage="v1")
    version = obj["spec"]["versions"][1]
    version["subresources"] = {
        "status": {},
        "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"},
    }
    version["additionalPrinterColumns"] = [
        {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas", "priority": 1}
    ]
    crd = CustomResourceDefinition.from_object(obj)
    assert crd.names.short_names == ("ct",)
    assert crd.names.list_kind == "CronTabList"
    assert [v.name for v in crd.served_versions] == ["v1", "v1beta1", "v2alpha1"]
    assert crd.preferred_version.name == "v1"
    v1 = crd.version("v1")
    assert v1 is not None and v1.subresources.status
    assert v1.subresources.scale is not None
    assert v1.subresources.scale.spec_replicas_path == ".spec.replicas"
    assert v1.printer_columns[0].priority == 1


def _broken(mutate: Any) -> dict[str, Any]:
    obj = make_crd()
    mutate(obj)
    return obj


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (make_crd(api_version="apiextensions.k8s.io/v1beta1"), "only apiextensions.k8s.io/v1"),
        (_broken(lambda o: o["spec"]["names"].pop("kind")), "spec.names.kind: Required value"),
        (_broken(lambda o: o["spec"]["names"].pop("plural")), "spec.names.plural: Required value"),
        (_broken(lambda o: o["spec"].pop("group")), "spec.group: Required value"),
        (_broken(lambda o: o["metadata"].update(name="wrong")), "must be spec.names.plural"),
        (_broken(lambda o: o["spec"]["versions"][0].pop("schema")), "schemas are required"),
        (_broken(lambda o: o["spec"]["versions"][0].update(storage=False)), "storage version"),
        (_broken(lambda o: o["spec"].update(scope="Galaxy")), 'Unsupported value: "Galaxy"'),
        (
            make_crd(schema={"type": "object", "properties": {"spec": {"properties": {}}}}),
            "properties[spec].type: Required value: must not be empty for specified object fields",
        ),
        (
            make_crd(schema={"type": "object", "properties": {"a": {"type": "array"}}}),
            "properties[a].items: Required value",
        ),
        (
            make_crd(
                schema={
                    "type": "object",
                    "properties": {"a": {"type": "array", "items": {"description": "x"}}},
                }
            ),
            "items.type: Required value: must not be empty for specified array items",
        ),
        (
            make_crd(
                schema={
                    "type": "object",
                    "properties": {"a": {"type": "string", "anyOf": [{"type": "string"}]}},
                }
            ),
            "anyOf[0].type: Forbidden: must be empty to be structural",
        ),
    ],
)
def test_broken_crds_are_reported_with_the_field(obj: dict[str, Any], message: str) -> None:
    with pytest.raises(CRDError) as caught:
        CustomResourceDefinition.from_object(obj)
    assert message in str(caught.value)
    assert str(caught.value).startswith('CustomResourceDefinition "')


def test_int_or_string_may_spell_its_types_in_any_of() -> None:
    schema = {
        "type": "object",
        "properties": {
            "port": {
                "x-kubernetes-int-or-string": True,
                "anyOf": [{"type": "integer"}, {"type": "string"}],
            },
            "free": {"x-kubernetes-preserve-unknown-fields": True},
        },
    }
    crd = CustomResourceDefinition.from_object(make_crd(schema=schema))
    assert crd.preferred_version.schema is schema
