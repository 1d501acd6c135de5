"""``validation.typed``: the typed conversion of an applied object, hermetic.

The messages here were read from kube-apiserver 1.34 (the differential test
tests/integration/test_localstore_typed_differential.py holds the same cases against the
real server); these pin the pure pieces: Go's renderings of values, paths, the schema
conversion of CRD nodes, list-map keys.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.validation import typed
from kubectl_crd.validation.typed import (
    builtin,
    crd_atom,
    go_sharp_v,
    go_v,
    list_keys,
    typed_errors,
    typed_patch_message,
)


@pytest.mark.parametrize(
    ("value", "plain", "sharp"),
    [
        (1, "1", "1"),
        (-5, "-5", "-5"),
        (1.0, "1", "1"),
        (1e16, "10000000000000000", "10000000000000000"),
        (1e20, "1e+20", "1e+20"),
        (1e21, "1e+21", "1e+21"),
        (0.1, "0.1", "0.1"),
        (1e-7, "1e-07", "1e-07"),
        (123456789.5, "1.234567895e+08", "1.234567895e+08"),
        (2**63, "9.223372036854776e+18", "9.223372036854776e+18"),
        (2**63 - 1, "9223372036854775807", "9223372036854775807"),
        (-(2**63) - 1, "-9.223372036854776e+18", "-9.223372036854776e+18"),
        (5e-324, "5e-324", "5e-324"),
        (-0.0, "0", "0"),
        (True, "true", "true"),
        ("s", "s", '"s"'),
        ('q"\n\t\u00e9\x01', 'q"\n\t\u00e9\x01', '"q\\"\\n\\t\u00e9\\x01"'),
        (None, "<nil>", "interface {}(nil)"),  # a nil in valueUnstructured's Value field
        ((1, {2: -0.0}), "[1 map[2:0]]", '[]interface {}{1, map[string]interface {}{"2":0}}'),
        ([1, "x", None], "[1 x <nil>]", '[]interface {}{1, "x", interface {}(nil)}'),
        ({"b": 1, "a": {"c": [2.5]}}, "map[a:map[c:[2.5]] b:1]",
         'map[string]interface {}{"a":map[string]interface {}{"c":[]interface {}{2.5}}, "b":1}'),
    ],
)  # fmt: skip
def test_values_are_rendered_as_go_formats_them(value: Any, plain: str, sharp: str) -> None:
    assert go_v(value) == plain
    assert go_sharp_v(value) == sharp


def configmap(**top: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, **top}


def message(obj: dict[str, Any]) -> str | None:
    api_version, kind = obj["apiVersion"], obj["kind"]
    atom = builtin().kind(api_version, kind)
    assert atom is not None
    found = typed_errors(atom, obj)
    return None if found is None else typed_patch_message(obj, found)


def pod(*containers: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "namespace": "ns"},
        "spec": {"containers": list(containers)},
    }


PREFIX = "failed to create typed patch object (/a; /v1, Kind=ConfigMap): "
POD = "failed to create typed patch object (ns/p; /v1, Kind=Pod): "


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (configmap(data={"a": "1"}), None),
        (configmap(data={"a": None}), None),
        (configmap(data={"a": 1}),
         PREFIX + ".data.a: expected string, got &value.valueUnstructured{Value:1}"),
        (configmap(dta={}), PREFIX + ".dta: field not declared in schema"),
        (configmap(data="x"), PREFIX + ".data: expected map, got &{x}"),
        (configmap(immutable=[1]), PREFIX + ".immutable: expected boolean, got &{[1]}"),
        (configmap(metadata={"name": "a", "creationTimestamp": {"x": 1}}),
         PREFIX + ".metadata.creationTimestamp: expected any scalar, got &{map[x:1]}"),
        (configmap(metadata={"name": "a", "finalizers": ["x", "x"]}),
         PREFIX + '.metadata.finalizers: duplicate entries for key [="x"]'),
        # an undeclared field ends its map's walk; other maps go on
        (configmap(data={"a": 1}, binaryData={"b": 2}, zz=1),
         PREFIX + "errors:\n  .data.a: expected string, got &value.valueUnstructured{Value:1}\n"
         "  .binaryData.b: expected string, got &value.valueUnstructured{Value:2}\n"
         "  .zz: field not declared in schema"),
        (pod({"name": "c", "ports": [{"containerPort": "80"}]}),
         POD + '.spec.containers[name="c"].ports[containerPort="80",protocol="TCP"].containerPort: '
         "expected numeric (int or float), got string"),
        (pod({"name": "c"}, {"name": "c"}), POD + '.spec.containers: duplicate entries for key [name="c"]'),
        # a key field missing takes its default ("" for a container's name)
        (pod({"image": "x"}), None),
        # an item whose key cannot be made ends its list's walk
        (pod(None, {"name": 1}),
         POD + ".spec.containers: element 0: associative list with keys may not have a null element"),
        (pod("c"), POD + ".spec.containers: element 0: associative list with keys may not have non-map elements"),
        (pod({"name": "c", "resources": {"limits": {"cpu": 1.5, "memory": "1Gi"}}}), None),
        (pod({"name": "c", "env": [{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": 1}}}]}),
         POD + '.spec.containers[name="c"].env[name="A"].valueFrom.fieldRef.fieldPath: '
         "expected string, got &value.valueUnstructured{Value:1}"),
    ],
)  # fmt: skip
def test_builtin_objects_convert_as_on_the_server(
    obj: dict[str, Any], expected: str | None
) -> None:
    assert message(obj) == expected


CRD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "n": {"type": "integer"},
                "when": {"type": "string", "format": "date-time"},
                "port": {"x-kubernetes-int-or-string": True},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True,
                         "properties": {"a": {"type": "string"}, "deep": {"type": "object", "properties": {"b": {"type": "string"}}}}},
                "items": {"type": "array", "x-kubernetes-list-type": "map",
                          "x-kubernetes-list-map-keys": ["k"],
                          "items": {"type": "object", "properties": {"k": {"type": "string"}}}},
                "keyless": {"type": "array", "x-kubernetes-list-type": "map",
                            "x-kubernetes-list-map-keys": ["k", "j"],
                            "items": {"type": "object", "properties": {"k": {"type": "string"}, "j": {"type": "string"}}}},
                "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "child": {"type": "object", "x-kubernetes-embedded-resource": True,
                          "properties": {"metadata": {"type": "object", "properties": {"x": {"type": "string"}}}}},
            },
        },
    },
}  # fmt: skip


def cr(spec: Any) -> dict[str, Any]:
    return {"apiVersion": "g.example.com/v1", "kind": "W", "metadata": {"name": "w"}, "spec": spec}


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"n": 1.5, "port": {"x": [1]}, "when": "not a time"}, None),
        ({"n": "1"}, ".spec.n: expected numeric (int or float), got string"),
        ({"free": {"z": {"anything": 1}, "a": "x"}}, None),
        ({"free": {"a": 1}}, ".spec.free.a: expected string, got &value.valueUnstructured{Value:1}"),
        # the preserve flag reaches the descendants written inline: deep takes unknown keys
        ({"free": {"deep": {"c": 1}}}, None),
        ({"items": [{"k": "a"}, {"k": "a"}]}, '.spec.items: duplicate entries for key [k="a"]'),
        ({"keyless": [{}]},
         '.spec.keyless: element 0: associative list with keys has an element that omits all key '
         'fields ["k" "j"] (and doesn\'t have default values for any key fields)'),
        ({"tags": ["a", 1]}, ".spec.tags[=1]: expected string, got &value.valueUnstructured{Value:1}"),
        # an embedded resource's metadata is ObjectMeta, whatever the schema says of it
        ({"child": {"metadata": {"x": "y"}}}, ".spec.child.metadata.x: field not declared in schema"),
        ({"child": {"apiVersion": "v1", "kind": "K", "metadata": {"labels": {"a": "b"}}}}, None),
        ({"other": 1}, ".spec.other: field not declared in schema"),
    ],
)  # fmt: skip
def test_custom_resources_convert_by_their_schema(spec: Any, expected: str | None) -> None:
    found = typed_errors(crd_atom(CRD_SCHEMA), cr(spec))
    assert (None if found is None else str(found)) == expected


def test_a_custom_resource_without_a_schema_takes_anything() -> None:
    assert typed_errors(crd_atom(None), cr({"a": [1, {"b": None}]})) is None
    assert crd_atom(None) is typed.ANYTHING


def test_the_message_names_the_patch_as_it_is() -> None:
    obj = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"namespace": "n", "name": "d"},
    }
    found = typed_errors(builtin().kind("apps/v1", "Deployment") or typed.ANYTHING, {**obj, "x": 1})
    assert found is not None
    assert typed_patch_message(obj, found) == (
        "failed to create typed patch object (n/d; apps/v1, Kind=Deployment): "
        ".x: field not declared in schema"
    )


@pytest.mark.parametrize(
    ("api_version", "kind", "path", "keys"),
    [
        ("apps/v1", "Deployment", ("spec", "template", "spec", "containers"), ("name",)),
        ("apps/v1", "Deployment",
         ("spec", "template", "spec", "containers", "[]", "ports"), ("containerPort", "protocol")),
        ("apps/v1", "Deployment", ("spec", "template", "spec", "containers", "[]", "env"), ("name",)),
        ("apps/v1", "Deployment",
         ("spec", "template", "spec", "containers", "[]", "volumeMounts"), ("mountPath",)),
        ("apps/v1", "Deployment", ("spec", "template", "spec", "volumes"), ("name",)),
        ("apps/v1", "Deployment", ("spec", "template", "spec", "tolerations"), None),
        ("apps/v1", "Deployment", ("status", "conditions"), ("type",)),
        ("v1", "Service", ("spec", "ports"), ("port", "protocol")),
        ("v1", "ConfigMap", ("metadata", "ownerReferences"), ("uid",)),
        ("v1", "ConfigMap", ("metadata", "finalizers"), "set"),
        ("v1", "ConfigMap", ("data", "x"), None),
        ("batch/v1", "CronJob",
         ("spec", "jobTemplate", "spec", "template", "spec", "initContainers"), ("name",)),
        ("v1", "Pod", ("spec", "topologySpreadConstraints"), ("topologyKey", "whenUnsatisfiable")),
    ],
)  # fmt: skip
def test_builtin_list_map_keys_come_from_the_schemas(
    api_version: str, kind: str, path: tuple[str, ...], keys: tuple[str, ...] | str | None
) -> None:
    atom = builtin().kind(api_version, kind)
    assert atom is not None
    assert list_keys(atom, path) == keys


def test_every_store_builtin_kind_has_a_schema() -> None:
    from kubectl_crd.reconcile.localstore import BUILTINS

    for group, version, _, kind, *_ in BUILTINS:
        assert builtin().kind(f"{group}/{version}" if group else version, kind) is not None, kind


DEPLOY = "failed to convert new object (/d; apps/v1, Kind=Deployment) to proper version: "
DEPLOY += "unable to convert unstructured object to apps/v1, Kind=Deployment: "


def deployment(container: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "d"},
        "spec": {"template": {"spec": {"containers": [{"name": "c", **container}]}}, **spec},
    }


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (deployment({}, replicas=2.0), None),
        (deployment({}, replicas=1.5), DEPLOY + "cannot convert float64 to int32"),
        (deployment({}, progressDeadlineSeconds=1e21), None),  # whole: Go converts it
        (deployment({"livenessProbe": {"httpGet": {"port": 1.5}}}),
         DEPLOY + "json: cannot unmarshal number 1.5 into Go value of type int32"),
        (deployment({"livenessProbe": {"httpGet": {"port": 2**31}}}),
         DEPLOY + "json: cannot unmarshal number 2147483648 into Go value of type int32"),
        (deployment({"livenessProbe": {"httpGet": {"port": 1e-7}}}),
         DEPLOY + "json: cannot unmarshal number 1e-7 into Go value of type int32"),
        (deployment({"livenessProbe": {"httpGet": {"port": 1e21}}}),
         DEPLOY + "json: cannot unmarshal number 1e+21 into Go value of type int32"),
        (deployment({"livenessProbe": {"httpGet": {"port": {"a": 1}}}}),
         DEPLOY + "json: cannot unmarshal object into Go value of type int32"),
        (deployment({"livenessProbe": {"httpGet": {"port": "http"}}}), None),
        (deployment({"resources": {"limits": {"cpu": "1x"}}}),
         DEPLOY + "quantities must match the regular expression "
         "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        (deployment({"resources": {"limits": {"memory": "1Qi"}}}),
         DEPLOY + "quantities must match the regular expression "
         "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        (deployment({"resources": {"limits": {"memory": "500mi"}}}),
         DEPLOY + "unable to parse quantity's suffix"),
        (deployment({"resources": {"limits": {"cpu": 0.5, "memory": "1Gi"}}}), None),
        # the typed error comes first, whatever else is wrong
        (deployment({"resources": {"limits": {"cpu": "1x"}}}, replicas="2"),
         "failed to create typed patch object (/d; apps/v1, Kind=Deployment): "
         ".spec.replicas: expected numeric (int or float), got string"),
    ],
)  # fmt: skip
def test_numbers_decode_into_the_go_types_as_on_the_server(
    obj: dict[str, Any], expected: str | None
) -> None:
    atom = builtin().kind("apps/v1", "Deployment")
    assert atom is not None
    assert typed.apply_refusal(atom, obj) == expected


def test_custom_resources_have_no_go_decoding() -> None:
    """A CRD's integers and int-or-strings are the schema's business (its 422)."""
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "n": {"type": "integer", "format": "int32"}, "p": {"x-kubernetes-int-or-string": True}}}}}  # fmt: skip
    assert typed.apply_refusal(crd_atom(schema), cr({"n": 1.5, "p": {"a": 1}})) is None


def test_keys_that_are_not_strings_are_named_by_their_text() -> None:
    """A reconciler's dict may hold an int key (JSON would send it as a string): the
    message names it, with no traceback."""
    obj = configmap(data={1: 2, "b": {3: "x"}})
    assert message(obj) == (
        PREFIX + "errors:\n"
        "  .data.1: expected string, got &value.valueUnstructured{Value:2}\n"
        '  .data.b: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"3":"x"}}'
    )


def test_of_several_decoding_problems_the_first_in_go_struct_order_is_named() -> None:
    """ObjectMeta's fields in its Go order, the kind's metadata before spec before
    status, whatever the object's order (kube-apiserver 1.34 names the same: the cases
    in tests/integration/test_localstore_typed_differential.py)."""
    from kubectl_crd.validation.typed import apply_refusal, builtin

    atom = builtin().kind("apps/v1", "Deployment")
    assert atom is not None
    spec = {"replicas": 2.5, "selector": {}, "template": {}}
    obj = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "status": {"observedGeneration": 1.5},
        "spec": spec,
        "metadata": {
            "deletionTimestamp": "x",
            "deletionGracePeriodSeconds": 1.5,
            "creationTimestamp": "y",
        },
    }
    found = apply_refusal(atom, obj)
    assert found is not None and found.endswith(': cannot parse "y" as "2006"')
    del obj["metadata"]["creationTimestamp"]
    found = apply_refusal(atom, obj)
    assert found is not None and found.endswith(': cannot parse "x" as "2006"')
    del obj["metadata"]
    found = apply_refusal(atom, obj)
    assert found is not None and found.endswith(": cannot convert float64 to int32")
