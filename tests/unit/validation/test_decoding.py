"""validation.decoding: a built-in body decoded into its Go type, without a server.

The messages and stored values are held to kube-apiserver by
tests/integration/test_localstore_decoding_differential.py; these cases pin the pieces
that table does not reach (Go's base64 walk, times far from now, the apply's lenient
conversion, which fields ``omitempty`` drops) and run in milliseconds.
"""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest

from kubectl_crd.model.gotime import rfc3339_problem, stored_time
from kubectl_crd.validation.decoding import decode_builtin, go_base64, read_back


def decoded(body: dict[str, Any], *, lenient: bool = False) -> tuple[str | None, dict[str, Any]]:
    body = copy.deepcopy(body)
    return decode_builtin(body, body["apiVersion"], body["kind"], lenient=lenient), body


def cm(**top: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, **top}


def service(**port: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {}, "spec": {"ports": [port]}}


def test_every_store_kind_has_its_go_type() -> None:
    from kubectl_crd.reconcile.localstore import BUILTINS
    from kubectl_crd.validation.decoding import _types

    for group, version, _, kind, *_ in BUILTINS:
        api_version = f"{group}/{version}" if group else version
        found = _types().kind(api_version, kind)
        assert found is not None and found.kind == "struct" and found.name == kind, kind
        assert {"apiVersion", "kind", "metadata"} <= set(found.fields), kind


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", (b"", None)),
        ("YWJj", (b"abc", None)),
        ("YQ==", (b"a", None)),
        ("YR==", (b"a", None)),  # bits after the last byte: StdEncoding is not strict
        ("YWJj\nYWJj", (b"abcabc", None)),
        ("Y\r\nW\nJj", (b"abc", None)),
        ("YWJjZA=\n=", (b"abcd", None)),
        ("YWJ", (b"", "illegal base64 data at input byte 0")),
        ("YWJjZA", (b"abc", "illegal base64 data at input byte 4")),
        ("YW=", (b"", "illegal base64 data at input byte 3")),
        ("Y===", (b"", "illegal base64 data at input byte 1")),
        ("=", (b"", "illegal base64 data at input byte 0")),
        ("YQ==YQ==", (b"a", "illegal base64 data at input byte 4")),
        ("YWJj!", (b"abc", "illegal base64 data at input byte 4")),
        ("YWJ\u00e9", (b"", "illegal base64 data at input byte 3")),
        ("YQ=x", (b"", "illegal base64 data at input byte 2")),
    ],
)
def test_go_base64(text: str, expected: tuple[bytes, str | None]) -> None:
    """encoding/base64's StdEncoding.Decode: the bytes before the error too (Go keeps
    the whole quanta it decoded), and the error's byte offset."""
    assert go_base64(text) == expected


def test_go_base64_agrees_with_python_on_canonical_text() -> None:
    for size in range(0, 40):
        data = bytes(range(7, 7 + size))
        assert go_base64(base64.b64encode(data).decode()) == (data, None)


@pytest.mark.parametrize(
    ("value", "micro", "stored"),
    [
        ("2024-01-02T03:04:05Z", False, "2024-01-02T03:04:05Z"),
        ("2024-01-02T03:04:05.999999999+01:00", False, "2024-01-02T02:04:05Z"),
        ("2024-03-01T00:30:00+01:00", False, "2024-02-29T23:30:00Z"),
        ("2023-03-01T00:30:00+01:00", False, "2023-02-28T23:30:00Z"),
        ("2024-12-31T23:00:00-01:00", False, "2025-01-01T00:00:00Z"),
        ("2024-01-02T03:04:05+24:00", False, "2024-01-01T03:04:05Z"),
        ("1969-12-31T23:59:59.5Z", False, "1969-12-31T23:59:59Z"),
        ("1970-01-01T00:00:00Z", False, "1970-01-01T00:00:00Z"),  # the epoch is kept
        ("0001-01-01T00:00:00Z", False, None),  # the zero time: null
        ("0001-01-01T01:00:00+01:00", False, None),
        ("0000-01-01T00:00:00Z", False, "0000-01-01T00:00:00Z"),
        ("0000-01-01T00:00:00+01:00", False, "-0001-12-31T23:00:00Z"),
        ("9999-12-31T23:59:59-01:00", False, "10000-01-01T00:59:59Z"),
        ("2024-01-02T03:04:05.123456-00:30", True, "2024-01-02T03:34:05.123456Z"),
        ("2024-01-02T03:04:05,000001Z", True, "2024-01-02T03:04:05.000001Z"),
        ("2024-01-02T03:04:05.+12345Z", True, "2024-01-02T03:04:05.012345Z"),
        ("0001-01-01T00:00:00.000000Z", True, None),
        ("0001-01-01T00:00:00.000001Z", True, "0001-01-01T00:00:00.000001Z"),
    ],
)
def test_stored_time(value: str, micro: bool, stored: str | None) -> None:
    assert rfc3339_problem(value, micro=micro) is None
    assert stored_time(value, micro=micro) == stored


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2024-01-02T03:04:05Z", 'cannot parse "Z" as ".000000"'),
        ("2024-01-02T03:04:05.12345Z", 'cannot parse ".12345Z" as ".000000"'),
        ("2024-01-02T03:04:05.12a456Z", 'cannot parse ".12a456Z" as ".000000"'),
        ("2024-01-02T03:04:05:123456Z", 'cannot parse ":123456Z" as ".000000"'),
        ("2024-01-02T03:04:05.1234567Z", 'cannot parse "7Z" as "Z07:00"'),
        ("2024-01-02T03:04:60.123456Z", "second out of range"),
        ("2024-01-02T03:04:05.-12345Z", "fractional second out of range"),
    ],
)
def test_micro_time_problems(value: str, message: str) -> None:
    """time.Parse with RFC3339Micro: exactly six digits after the seconds."""
    problem = rfc3339_problem(value, micro=True)
    assert problem is not None and problem.endswith(message), problem
    layout = '"2006-01-02T15:04:05.000000Z07:00"'
    assert (layout in problem) == ("cannot parse" in message)


def test_a_null_becomes_its_types_zero_value_in_maps_and_lists() -> None:
    body = {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "Role",
        "metadata": {"labels": {"a": None}},
        "rules": [{"verbs": ["get", None], "apiGroups": None}, None],
    }
    assert decoded(body) == (
        None,
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "Role",
            "metadata": {"labels": {"a": ""}},
            # a null PolicyRule is its zero value: ``verbs`` has no omitempty
            "rules": [{"verbs": ["get", ""]}, {"verbs": None}],
        },
    )


def test_omitempty_drops_empty_values_but_not_a_pointers() -> None:
    """A string "" and an int 0 with omitempty go; a *int32 0 (replicas), a *bool false
    (immutable) and a field without omitempty (a port's port) stay; a struct
    (IntOrString too) is never empty to omitempty: written as its zero value."""
    _, body = decoded(service(name="", port=0, nodePort=0, protocol="TCP", appProtocol=""))
    assert body["spec"]["ports"] == [
        {"port": 0, "protocol": "TCP", "appProtocol": "", "targetPort": 0}
    ]
    assert decoded(cm(immutable=False, data={}))[1] == cm(immutable=False)
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {}}
    _, body = decoded({**deployment, "spec": {"replicas": 0, "paused": False}})
    assert body["spec"] == {
        "replicas": 0,
        "selector": None,
        "template": {"metadata": {}, "spec": {"containers": None}},
        "strategy": {},
    }


def test_unknown_fields_are_dropped_case_sensitively_at_every_depth() -> None:
    body = service(port=80, Port=81, extra={"x": 1})
    body["metadata"] = {"name": "s", "Name": "t"}
    body["Spec"] = {}
    assert decoded(body) == (
        None,
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
         "spec": {"ports": [{"port": 80, "targetPort": 0}]}, "status": {"loadBalancer": {}}},
    )  # fmt: skip


def test_the_first_mismatch_is_named_unless_an_unmarshaljson_error_comes() -> None:
    head = 'Service in version "v1" cannot be handled as a Service: '
    problem, _ = decoded(service(protocol=1, port="80"))
    assert problem == head + (
        "json: cannot unmarshal number into Go struct field ServicePort.spec.ports.protocol "
        "of type v1.Protocol"
    )
    problem, _ = decoded(service(protocol=1, port="80", targetPort=[1]))
    assert problem == head + (
        "json: cannot unmarshal array into Go struct field ServicePort.spec.ports.targetPort "
        "of type int32"
    )


def test_a_builtins_template_metadata_is_decoded_with_the_body() -> None:
    """Every ObjectMeta of a built-in, in the body's order; a timestamp error wins
    wherever it is, else the first mismatch; paths without list indexes."""

    def deployment(root: dict[str, Any], template: dict[str, Any]) -> dict[str, Any]:
        return {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": root,
            "spec": {"template": {"metadata": template}},
        }

    head = 'Deployment in version "v1" cannot be handled as a Deployment: '
    number = "json: cannot unmarshal number into Go struct field ObjectMeta.{} of type string"
    found, _ = decoded(deployment({"labels": {"a": 1}}, {"creationTimestamp": 0}))
    assert found == head + number.format("spec.template.metadata.creationTimestamp")
    found, _ = decoded(deployment({"labels": {"a": 1}}, {"labels": {"a": 1}}))
    assert found == head + number.format("metadata.labels")
    assert decoded(deployment({}, {"creationTimestamp": None}))[0] is None
    claims = {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": {},
        "spec": {"volumeClaimTemplates": [{"metadata": {}}, {"metadata": {"labels": {"a": 1}}}]},
    }
    assert decoded(claims)[0] == (
        'StatefulSet in version "v1" cannot be handled as a StatefulSet: '
        + number.format("spec.volumeClaimTemplates.metadata.labels")
    )


def test_bytes_as_a_json_array_of_numbers() -> None:
    """A JSON array into []byte decodes item by item as uint8 (stored as base64)."""
    assert decoded(cm(binaryData={"b": [97, 98, None]}))[1]["binaryData"] == {"b": "YWIA"}
    problem, _ = decoded(cm(binaryData={"b": [256]}))
    assert problem is not None and problem.endswith(
        "json: cannot unmarshal number 256 into Go struct field ConfigMap.binaryData of type uint8"
    )


def test_lenient_conversion_refuses_nothing_and_normalises() -> None:
    """A server-side apply's merged object: the typed check refused what the server's
    conversion refuses; the conversion wraps an int32 as Go's SetInt does, takes a
    whole float for an int, and stores times and bytes as a decoding would."""
    body = service(port=2**32 + 80, nodePort=-(2**31) - 1, targetPort=8080.0)
    body["metadata"] = {"creationTimestamp": "2024-01-02T03:04:05+01:00", "labels": {"a": None}}
    problem, body = decoded(body, lenient=True)
    assert problem is None
    assert body["spec"]["ports"] == [{"port": 80, "nodePort": 2**31 - 1, "targetPort": 8080}]
    assert body["metadata"] == {"creationTimestamp": "2024-01-02T02:04:05Z", "labels": {"a": ""}}
    assert decoded(cm(data={"a": 1}, binaryData={"b": "!!"}), lenient=True) == (
        None,
        cm(data={"a": 1}, binaryData={"b": "!!"}),
    )
    problem, _ = decoded(service(port=2**32 + 80))
    assert problem is not None and "number 4294967376" in problem


def test_a_pointer_set_to_a_zero_time_stays_as_null() -> None:
    """A ``*MicroTime`` given the zero time is a pointer that is set: omitempty keeps it,
    and it is written as null; a ``Time`` that is no pointer, without omitempty's effect
    on structs, is kept as null too; ``creationTimestamp``'s omitzero drops it."""
    zero = "0001-01-01T00:00:00Z"
    body = {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {},
            "spec": {"acquireTime": "0001-01-01T00:00:00.000000Z", "renewTime": None}}  # fmt: skip
    assert decoded(body)[1]["spec"] == {"acquireTime": None}
    event = {"apiVersion": "v1", "kind": "Event", "metadata": {"creationTimestamp": zero},
             "lastTimestamp": zero}  # fmt: skip
    assert decoded(event)[1] == {"apiVersion": "v1", "kind": "Event", "metadata": {},
                                 "lastTimestamp": None, **EVENT_ZEROS}  # fmt: skip


#: what an Event's body left out is written as: its fields without omitempty (or
#: structs, which omitempty never drops) at their zero values
EVENT_ZEROS = {
    "involvedObject": {}, "source": {}, "firstTimestamp": None, "lastTimestamp": None,
    "eventTime": None,
    "reportingComponent": "", "reportingInstance": "",
}  # fmt: skip


def test_fields_a_body_leaves_out_are_written_at_their_zero_values() -> None:
    """encoding/json writes every field that is not omitempty (or is a struct) and not
    omitzero: a Role's ``rules: null``, a container's ``resources: {}``, a Deployment's
    ``status: {}``, a pod template's metadata without ``creationTimestamp`` (omitzero)."""
    role = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {}}
    assert decoded(role)[1] == {**role, "rules": None}
    body = {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {},
        "spec": {"selector": {}, "template": {"metadata": {}, "spec": {"containers": [
            {"name": "c"}]}}},
    }  # fmt: skip
    _, stored = decoded(body)
    assert stored["status"] == {}
    assert stored["spec"]["template"] == {
        "metadata": {}, "spec": {"containers": [{"name": "c", "resources": {}}]}
    }  # fmt: skip
    event = {"apiVersion": "v1", "kind": "Event", "metadata": {}}
    assert decoded(event)[1] == {**event, **EVENT_ZEROS}


def test_a_kind_without_go_types_is_left_alone() -> None:
    body = {"apiVersion": "example.com/v1", "kind": "Thing", "metadata": {}, "spec": {"x": 1}}
    assert decoded(body) == (None, body)


@pytest.mark.parametrize(
    ("text", "stored", "in_a_resource_list"),
    [
        ("0", "0", "0"),
        ("0.5", "500m", "500m"),
        ("+1", "+1", "+1"),  # canonical as parsed: the spelling is kept, sign and all
        ("0100m", "0100m", "0100m"),
        ("1000m", "1", "1"),
        ("1e3", "1e3", "1e3"),
        ("1.5e3", "1500", "1500"),
        ("1024Mi", "1Gi", "1Gi"),
        ("1536Mi", "1536Mi", "1536Mi"),
        ("0.5Gi", "512Mi", "512Mi"),
        ("0.1Ki", "102400m", "102400m"),
        ("1000000n", "1m", "1m"),
        ("1.0000000001", "1000000001n", "1001m"),
        ("1e-10", "1e-9", "1e-3"),
        ("1500u", "1500u", "2m"),
        ("-1.5", "-1500m", "-1500m"),
    ],
)
def test_stored_quantity(text: str, stored: str, in_a_resource_list: str) -> None:
    """ParseQuantity then String; in a ResourceList, rounded up to the milli first."""
    from kubectl_crd.model.quantity import stored_quantity

    assert stored_quantity(text) == stored
    assert stored_quantity(text, milli=True) == in_a_resource_list


def test_a_resource_lists_quantities_are_rounded_and_other_quantities_are_not() -> None:
    """A container's resources are a ResourceList (rounded up to the milli); an
    emptyDir's sizeLimit is a quantity of its own (kept to the nano)."""
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {},
        "spec": {
            "containers": [{"name": "c", "resources": {"requests": {"cpu": "1500u", "x": 1.5}}}],
            "volumes": [{"name": "v", "emptyDir": {"sizeLimit": "1500u"}}],
        },
    }
    spec = decoded(pod)[1]["spec"]
    assert spec["containers"][0]["resources"]["requests"] == {"cpu": "2m", "x": "1500m"}
    assert spec["volumes"][0]["emptyDir"]["sizeLimit"] == "1500u"


def test_read_back_nulls_the_empty_values_of_fields_without_omitempty() -> None:
    """etcd's protobuf round trip (``read_back``): an empty list in a field that is not
    ``omitempty`` is null, also inside a list's items; an ``omitempty`` field keeps its
    empty value, and so does a field the type has not."""
    role = {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": "r", "labels": {}},
        # PolicyRule: verbs has no omitempty, apiGroups and resourceNames have it
        "rules": [{"verbs": [], "apiGroups": [], "resourceNames": ["a"]}, {"verbs": ["get"]}],
        "extra": [],
    }
    read_back(role, "rbac.authorization.k8s.io/v1", "ClusterRole")
    assert role["rules"] == [
        {"verbs": None, "apiGroups": [], "resourceNames": ["a"]},
        {"verbs": ["get"]},
    ]
    assert role["metadata"] == {"name": "r", "labels": {}}
    assert role["extra"] == []
    emptied = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "rules": []}
    read_back(emptied, "rbac.authorization.k8s.io/v1", "Role")
    assert emptied["rules"] is None


def test_read_back_walks_a_deployment_down_to_its_containers() -> None:
    body = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "d"},
        "spec": {
            "selector": {"matchLabels": {}},
            "template": {"spec": {"containers": [], "volumes": []}},
        },
    }
    read_back(body, "apps/v1", "Deployment")
    # PodSpec: containers has no omitempty, volumes has; matchLabels has omitempty
    assert body["spec"]["template"]["spec"] == {"containers": None, "volumes": []}
    assert body["spec"]["selector"] == {"matchLabels": {}}


@pytest.mark.parametrize(
    ("text", "url", "expected"),
    [
        ("a+b/", False, (b"k\xe6\xff", None)),
        ("a+b/", True, (b"", "illegal base64 data at input byte 1")),
        ("a-b_", True, (b"k\xe6\xff", None)),
        ("a-b_", False, (b"", "illegal base64 data at input byte 1")),
        ("YWJj=", True, (b"abc", "illegal base64 data at input byte 4")),
    ],
)
def test_go_base64_reads_the_standard_or_the_url_alphabet(
    text: str, url: bool, expected: tuple[bytes, str | None]
) -> None:
    """``URLEncoding`` is what strfmt's ``Base64.UnmarshalText`` decodes a ``format:
    byte`` string with for CEL; ``StdEncoding`` encoding/json's ``[]byte``."""
    assert go_base64(text, url=url) == expected
