"""Table-driven checks of the validation engine's stages and message templates.

The expected texts are the API server's (kube-apiserver v1.34, see the differential
test for the live comparison); each case is one schema, one object, one answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.io import load_documents
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.govalues import bad_value, go_float_v, go_json
from kubectl_crd.validation import FieldValidation, Reason, Stage, validate_custom_resource
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.openapi import validate_schema
from kubectl_crd.validation.schemas import compile_schema


def make_crd(spec_schema: dict[str, Any], *, status: bool = False) -> CustomResourceDefinition:
    return widget_crd(
        {
            "type": "object",
            "properties": {
                "spec": spec_schema,
                "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
            },
        },
        {"status": {}} if status else None,
    )


def widget_crd(
    schema: dict[str, Any], subresources: dict[str, Any] | None = None
) -> CustomResourceDefinition:
    """A namespaced ``widgets.example.com/v1`` with ``schema`` as its openAPIV3Schema."""
    version: dict[str, Any] = {
        "name": "v1",
        "served": True,
        "storage": True,
        "schema": {"openAPIV3Schema": schema},
    }
    if subresources is not None:
        version["subresources"] = subresources
    return CustomResourceDefinition.from_object(
        {
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {
                "group": "example.com",
                "names": {"kind": "Widget", "plural": "widgets"},
                "scope": "Namespaced",
                "versions": [version],
            },
        }
    )


def run(spec_schema: dict[str, Any], spec: Any, **options: Any) -> Any:
    crd = make_crd(spec_schema, status=options.pop("status", False))
    obj = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}
    if spec is not ...:
        obj["spec"] = spec
    return validate_custom_resource(obj, crd, **options)


def obj_schema(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


MESSAGES = [
    (obj_schema(r={"type": "integer", "maximum": 10}), {"r": 20}, Reason.INVALID,
     "spec.r: Invalid value: 20: spec.r in body should be less than or equal to 10"),
    (obj_schema(r={"type": "integer", "minimum": 1, "exclusiveMinimum": True}), {"r": 1}, Reason.INVALID,
     "spec.r: Invalid value: 1: spec.r in body should be greater than 1"),
    (obj_schema(r={"type": "number", "maximum": 1000000}), {"r": 2000000.5}, Reason.INVALID,
     "spec.r: Invalid value: 2.0000005e+06: spec.r in body should be less than or equal to 1e+06"),
    (obj_schema(s={"type": "string", "pattern": "^(?i)[a-z]+$"}), {"s": "a1"}, Reason.INVALID,
     "spec.s: Invalid value: \"a1\": spec.s in body should match '^(?i)[a-z]+$'"),
    (obj_schema(s={"type": "string", "enum": ["TCP", "UDP"]}), {"s": "udp"}, Reason.NOT_SUPPORTED,
     'spec.s: Unsupported value: "udp": supported values: "TCP", "UDP"'),
    (obj_schema(s={"type": "string", "maxLength": 3}), {"s": "abcd"}, Reason.TOO_LONG,
     "spec.s: Too long: may not be more than 3 bytes"),
    (obj_schema(s={"type": "string", "minLength": 3}), {"s": "ab"}, Reason.INVALID,
     'spec.s: Invalid value: "ab": spec.s in body should be at least 3 chars long'),
    (obj_schema(a={"type": "array", "maxItems": 1, "items": {"type": "string"}}), {"a": ["x", "y"]},
     Reason.TOO_MANY, "spec.a: Too many: 2: must have at most 1 item"),
    (obj_schema(o={"type": "object"}), {"o": []}, Reason.TYPE_INVALID,
     'spec.o: Invalid value: "array": spec.o in body must be of type object: "array"'),
    (obj_schema(i={"x-kubernetes-int-or-string": True}), {"i": True}, Reason.TYPE_INVALID,
     'spec.i: Invalid value: "boolean": spec.i in body must be of type integer,string: "boolean"'),
    (obj_schema(u={"type": "string", "format": "uuid"}), {"u": "nope"}, Reason.TYPE_INVALID,
     'spec.u: Invalid value: "nope": spec.u in body must be of type uuid: "nope"'),
    ({**obj_schema(x={"type": "string"}), "required": ["x"]}, {}, Reason.REQUIRED,
     "spec.x: Required value"),
    (obj_schema(l={"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                   "items": obj_schema(k={"type": "string"})}), {"l": [{"k": "a"}, {"k": "a"}]},
     Reason.DUPLICATE, 'spec.l[1]: Duplicate value: {"k":"a"}'),
    (obj_schema(l={"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}}),
     {"l": [1, 2, 1]}, Reason.DUPLICATE, "spec.l[2]: Duplicate value: 1"),
    ({"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
      "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}, {}, Reason.INVALID,
     '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found none valid'),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "spec", "reason", "message"), MESSAGES)
def test_schema_messages(schema: dict[str, Any], spec: Any, reason: str, message: str) -> None:
    result = run(schema, spec)
    assert (reason, message) in [(e.reason, e.message) for e in result.errors], result.errors


def test_unknown_fields_by_field_validation() -> None:
    schema = obj_schema(a={"type": "string"})
    strict = run(schema, {"a": "x", "b": 1})
    assert [(e.field, e.message, e.stage) for e in strict.errors] == [
        ("spec.b", 'unknown field "spec.b"', Stage.DECODING)
    ]
    assert strict.server_message == 'strict decoding error: unknown field "spec.b"'
    warn = run(schema, {"a": "x", "b": 1}, field_validation=FieldValidation.WARN)
    assert warn.valid and warn.warnings == ('unknown field "spec.b"',)
    assert run(schema, {"b": 1}, field_validation=FieldValidation.IGNORE).object["spec"] == {}


def test_preserve_unknown_fields_and_embedded_resources_keep_their_keys() -> None:
    schema = obj_schema(
        free={"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        res={"type": "object", "x-kubernetes-embedded-resource": True,
             "x-kubernetes-preserve-unknown-fields": True},
    )  # fmt: skip
    result = run(schema, {"free": {"x": 1}, "res": {"apiVersion": "v1", "kind": "", "a": 1}})
    assert result.object["spec"]["free"] == {"x": 1}
    assert [e.message for e in result.errors] == [
        'spec.res.kind: Invalid value: "": must not be empty'
    ]


def test_defaulting_nulls_and_status() -> None:
    schema = obj_schema(
        a={"type": "string", "default": "d"},
        n={"type": "string"},
        o={"type": "object", "default": {}, "properties": {"x": {"type": "integer", "default": 3}}},
        z={"type": "string", "nullable": True},
    )
    result = run(schema, {"a": None, "n": None, "z": None}, status=True)
    assert result.valid, result.errors
    assert result.object["spec"] == {"a": "d", "o": {"x": 3}, "z": None}
    with_status = run(schema, {}, status=True)
    assert "status" not in with_status.object


def test_a_default_is_stored_pruned_against_its_own_schema() -> None:
    # defaulting/prune.go: the server prunes defaults when the CRD is written, so the
    # unknown "junk" never reaches a stored object (and is not an unknown-field error).
    schema = obj_schema(
        o={
            "type": "object",
            "default": {"x": 1, "junk": 2},
            "properties": {"x": {"type": "integer"}},
        }
    )
    result = run(schema, {})
    assert result.valid, result.errors
    assert result.object["spec"] == {"o": {"x": 1}}
    assert schema["properties"]["o"]["default"] == {"x": 1, "junk": 2}  # the CRD is not touched


def test_schema_nodes_are_compiled_when_a_stage_reaches_them() -> None:
    wide = {f"f{n}": obj_schema(deep=obj_schema(x={"type": "string"})) for n in range(50)}
    schema = {"type": "object", "properties": {"spec": obj_schema(**wide)}}
    root = compile_schema(schema)
    tree = root.tree
    validate_schema(root, {"spec": {"f7": {"deep": {"x": 1}}}})
    spec = root.properties["spec"].properties
    compiled = [name for name, node in spec.items() if _has_slot(node, "properties")]
    assert compiled == ["f7"]
    assert root.tree is tree and not root.subtree_defaults and not root.has_rules


def _has_slot(node: SchemaNode, name: str) -> bool:
    try:
        object.__getattribute__(node, name)
    except AttributeError:
        return False
    return True


def test_metadata_rules() -> None:
    crd = make_crd(obj_schema())
    base = {"apiVersion": "example.com/v1", "kind": "Widget"}
    missing = validate_custom_resource({**base, "metadata": {}}, crd)
    assert [e.message for e in missing.errors] == [
        "metadata.name: Required value: name or generateName is required"
    ]
    generated = validate_custom_resource({**base, "metadata": {"generateName": "ok-"}}, crd)
    assert generated.valid
    labels = validate_custom_resource(
        {**base, "metadata": {"name": "w", "labels": {"a/b/c": "x"}}}, crd
    )
    # kube-apiserver 1.34's IsQualifiedName (apimachinery util/validation/validation.go)
    assert labels.errors[0].message == (
        'metadata.labels: Invalid value: "a/b/c": a qualified name must consist of '
        "alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
        "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional "
        "DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
    )
    long_value = validate_custom_resource(
        {**base, "metadata": {"name": "w", "labels": {"k": "x" * 64}}}, crd
    )
    assert long_value.errors[0].message == (
        'metadata.labels: Invalid value: "' + "x" * 64 + '": must be no more than 63 characters'
    )


def test_errors_carry_their_position() -> None:
    text = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  r: 20\n"
    document = load_documents(text, "w.yaml")[0]
    crd = make_crd(obj_schema(r={"type": "integer", "maximum": 10}))
    (error,) = validate_custom_resource(document.content, crd).errors
    assert str(error.location) == "w.yaml:6:6"


def _containers(value: Any) -> list[Any]:
    found, pending = [], [value]
    while pending:
        node = pending.pop()
        if isinstance(node, dict | list):
            found.append(node)
            pending.extend(node.values() if isinstance(node, dict) else node)
    return found


def test_the_stored_copy_of_a_positioned_document_is_plain_and_unshared() -> None:
    # errors are located in the input, so the copy the stages change (and admission
    # stores) needs no positions: plain dicts and lists at every depth
    text = (
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n"
        "spec:\n  a: &x {k: [1, {m: 2}]}\n  b: *x\n"
    )
    document = load_documents(text, "w.yaml")[0]
    crd = make_crd({"type": "object", "x-kubernetes-preserve-unknown-fields": True})
    result = validate_custom_resource(document.content, crd)
    assert result.valid and result.object == document.content
    assert {type(node) for node in _containers(result.object)} == {dict, list}
    copies = {id(node) for node in _containers(result.object)}
    assert len(copies) == len(_containers(result.object))  # the alias's copies are two
    assert copies.isdisjoint(id(node) for node in _containers(document.content))


@pytest.mark.parametrize(
    ("value", "text"),
    [(10.0, "10"), (1e6, "1e+06"), (123456.0, "123456"), (0.5, "0.5"), (1e-5, "1e-05")],
)
def test_go_float_rendering(value: float, text: str) -> None:
    assert go_float_v(value) == text


def test_go_value_rendering() -> None:
    assert bad_value('a"b') == '"a\\"b"'
    assert bad_value({"b": 1, "a": "<"}) == '{"a":"\\u003c","b":1}'
    assert go_json([1.5e-7, None, True]) == "[1.5e-7,null,true]"


PRUNING = [
    # (schema of spec, spec, unknown paths, stored spec)
    (obj_schema(a={"type": "string"}), {"a": "x", "b": 1}, ["spec.b"], {"a": "x"}),
    (obj_schema(l={"type": "array", "items": obj_schema(k={"type": "string"})}),
     {"l": [{"k": "a", "z": 1}]}, ["spec.l[0].z"], {"l": [{"k": "a"}]}),
    ({"type": "object", "additionalProperties": {"type": "string"}}, {"x": "1"}, [], {"x": "1"}),
    ({"type": "object", "x-kubernetes-preserve-unknown-fields": True,
      "properties": {"p": obj_schema(q={"type": "string"})}},
     {"free": {"deep": 1}, "p": {"q": "x", "r": 2}}, ["spec.p.r"],
     {"free": {"deep": 1}, "p": {"q": "x"}}),
    (obj_schema(e={"type": "object", "x-kubernetes-embedded-resource": True,
                   "properties": {"spec": {"type": "object"}}}),
     {"e": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "bogus": 1}, "x": 1}},
     ["spec.e.metadata.bogus", "spec.e.x"], None),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "spec", "unknown", "stored"), PRUNING)
def test_pruning(schema: dict[str, Any], spec: Any, unknown: list[str], stored: Any) -> None:
    result = run(schema, spec)
    assert sorted(e.field for e in result.errors if e.reason == Reason.UNKNOWN_FIELD) == unknown
    if stored is not None:
        assert result.object["spec"] == stored


NULLS = [
    # a null of a non-nullable field is dropped before validation, a nullable one kept
    (obj_schema(a={"type": "string"}), {"a": None}, {}, []),
    (obj_schema(a={"type": "string", "nullable": True}), {"a": None}, {"a": None}, []),
    # list items are never dropped: the schema stage sees the null
    (obj_schema(l={"type": "array", "items": {"type": "string"}}), {"l": [None]}, {"l": [None]},
     ['spec.l[0]: Invalid value: "null": spec.l[0] in body must be of type string: "null"']),
    # a null with a default gets the default
    (obj_schema(a={"type": "integer", "default": 1}), {"a": None}, {"a": 1}, []),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "spec", "stored", "messages"), NULLS)
def test_nulls(schema: dict[str, Any], spec: Any, stored: Any, messages: list[str]) -> None:
    result = run(schema, spec)
    assert result.object["spec"] == stored
    assert [e.message for e in result.errors] == messages


NAMES = [
    ({"name": "ok.example"}, []),
    ({"name": "a" * 254}, ["metadata.name"]),
    ({"generateName": "x-"}, []),
    ({"generateName": "Bad-"}, ["metadata.generateName", "metadata.name"]),
    ({"name": "w", "labels": {"k": "v" * 64}}, ["metadata.labels"]),
    ({"name": "w", "annotations": {"a": "x" * (256 * 1024)}}, ["metadata.annotations"]),
    ({"name": "w", "finalizers": ["bad finalizer"]}, ["metadata.finalizers"]),
]


@pytest.mark.parametrize(("metadata", "fields"), NAMES)
def test_metadata_table(metadata: dict[str, Any], fields: list[str]) -> None:
    crd = make_crd(obj_schema())
    result = validate_custom_resource(
        {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": metadata}, crd
    )
    assert [e.field for e in result.errors] == fields


@pytest.mark.parametrize(
    ("pattern", "value", "ok"),
    [
        ("^(?i)[a-z]+$", "ABC", True),  # Python's re rejects this pattern; RE2 takes it
        (r"^\p{Lu}", "Élan", True),
        ("^[a-z]+$", "abc\n", False),  # Go's $ is the end of text, not before a newline
        ("(a+)+$", "a" * 40 + "!", False),  # no catastrophic backtracking
    ],
)
def test_patterns_are_go_re2(pattern: str, value: str, ok: bool) -> None:
    result = run(obj_schema(s={"type": "string", "pattern": pattern}), {"s": value})
    assert result.valid is ok, result.errors


def test_server_stops_at_strict_decoding_but_we_report_everything() -> None:
    result = run(obj_schema(r={"type": "integer", "maximum": 1}), {"r": 5, "x": 1})
    assert [(e.stage, e.blocked) for e in result.errors] == [
        (Stage.DECODING, False),
        (Stage.SCHEMA, True),
    ]
    assert result.reported == result.errors[:1]


def test_cel_rules_run_only_without_blocking_errors() -> None:
    schema = {
        **obj_schema(r={"type": "integer"}),
        "x-kubernetes-validations": [{"rule": "self.r < 5"}],
    }
    assert run(schema, {"r": 1}).valid
    failing = run(schema, {"r": 7})
    assert [e.message for e in failing.errors] == [
        'spec: Invalid value: "object": failed rule: self.r < 5'
    ]
    assert run(schema, {"r": 7}, rules=False).valid
    blocked = run(schema, {"r": "x"})
    assert len(blocked.errors) == 2
    assert blocked.errors[-1].message.startswith(
        "<nil>: Invalid value: null: some validation rules"
    )


def test_versions_and_odd_documents() -> None:
    crd = make_crd(obj_schema())
    unknown = validate_custom_resource(
        {"apiVersion": "example.com/v9", "kind": "Widget", "metadata": {"name": "w"}}, crd
    )
    assert [e.field for e in unknown.errors] == ["apiVersion"]
    assert not validate_custom_resource(["not", "a", "mapping"], crd).valid


# Verdicts the API server (v1.34) gave for these values in the differential test
# (tests/integration/validation_templates.py); Go's parsers differ from Python's here.
FORMATS = [
    ("ipv6", "fe80::1%eth0", False),  # net.ParseIP takes no zone
    ("ipv6", "::1", True),
    ("ssn", "123456789", False),  # govalidator.IsSSN wants 11 characters
    ("ssn", "123-45-6789", True),
    ("byte", "", False),  # govalidator.IsBase64 wants one group at least
    ("byte", "aGVsbG8=", True),
    ("uri", "http://[::1", False),
    ("uri", "/abs", True),
    ("date", "2023-02-29", False),
    ("date-time", "2024-01-01T25:00:00Z", False),
    ("date-time", "2024-01-01t00:00:00+01:00", True),
    ("duration", "3d", True),  # strfmt.ParseDuration's units beyond Go's
    ("duration", "soon", False),
    ("uuid", "123E4567E89B12D3A456426614174000", True),
    ("cidr", "10.0.0.0/33", False),
    ("k8s-short-name", "Not_OK", True),  # not enabled on a 1.34 server: not checked
]


@pytest.mark.parametrize(("format_name", "value", "ok"), FORMATS)
def test_formats(format_name: str, value: str, ok: bool) -> None:
    result = run(obj_schema(v={"type": "string", "format": format_name}), {"v": value})
    assert result.valid is ok, result.errors


def test_int32_format_is_stripped_on_a_1_34_server() -> None:
    result = run(obj_schema(v={"type": "integer", "format": "int32"}), {"v": 3000000000})
    assert result.valid


def test_public_api_is_pinned() -> None:
    import kubectl_crd.validation as validation

    assert sorted(validation.__all__) == [
        "Admission", "AdmissionResult",
        "BLOCKING_REASONS", "CEL_NOT_RUN", "FieldError", "FieldValidation",
        "Reason", "SchemaNode", "Stage", "ValidationResult", "compile_schema",
        "validate_custom_resource",
    ]  # fmt: skip
    assert all(hasattr(validation, name) for name in validation.__all__)


def test_positions_of_required_and_unknown_fields() -> None:
    text = (
        "apiVersion: example.com/v1\n"  # 1
        "kind: Widget\n"  # 2
        "metadata:\n"  # 3
        "  name: w\n"  # 4
        "spec:\n"  # 5
        "  inner:\n"  # 6
        "    other: 1\n"  # 7
        "  extra: true\n"  # 8
    )
    document = load_documents(text, "w.yaml")[0]
    schema = obj_schema(
        inner={"type": "object", "required": ["need"], "properties": {"need": {"type": "string"},
               "other": {"type": "integer"}}},
    )  # fmt: skip
    result = validate_custom_resource(document.content, make_crd(schema))
    where = {e.field: str(e.location) for e in result.errors}
    assert where == {"spec.extra": "w.yaml:8:3", "spec.inner.need": "w.yaml:7:5"}


def test_a_large_pattern_prints_nothing_on_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    # the hostname format's pattern overflows RE2's DFA budget; RE2 would log that
    schema = obj_schema(h={"type": "string", "format": "hostname"})
    assert run(schema, {"h": "ünïcode.example.com" * 3}).valid
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("created", [True, False])
def test_read_back_defaults_the_status_a_create_dropped(created: bool) -> None:
    from kubectl_crd.validation.pipeline import default_as_read

    crd = make_crd(obj_schema(a={"type": "string", "default": "d"}), status=True)
    version = crd.versions[0]
    status = version.schema["properties"]["status"]
    status.update(default={"phase": "New"}, properties={"n": {"type": "integer", "default": 1}})
    obj = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {}}
    stored = validate_custom_resource(obj, crd).object
    assert "status" not in stored  # a create drops it
    default_as_read(stored, version, created=created)
    assert stored["status"] == {"phase": "New", "n": 1}
    assert stored["spec"] == {"a": "d"}
    # a stored object with a status is defaulted already when just created
    stored["status"] = {}
    default_as_read(stored, version, created=created)
    assert stored["status"] == ({} if created else {"n": 1})


LEAVES = [
    {"type": "string"},
    {"type": "string", "format": "email-ish"},  # a format nobody checks
    {"type": "integer"},
    {"type": "integer", "format": "int32"},
    {"type": "integer", "format": "int64"},
    {"type": "boolean"},
    {"type": "string", "nullable": True},
]


@pytest.mark.parametrize("schema", LEAVES)
@pytest.mark.parametrize("value", ["x", "", 1, 0, -5, 1.0, 1.5, True, False, None, [1], {"a": 1}])
def test_a_leaf_counts_and_checks_as_the_full_walk(schema: dict[str, Any], value: Any) -> None:
    """The type-only fast path gives the full walk's problems and match count."""
    from kubectl_crd.validation.openapi import validate_node

    fast = SchemaNode(schema)
    slow = SchemaNode(schema)
    slow.leaf = None
    assert fast.leaf is not None
    found: tuple[list[Any], list[Any]] = ([], [])
    counts = [validate_node(n, value, None, p) for n, p in zip((fast, slow), found, strict=True)]
    assert counts[0] == counts[1]
    assert found[0] == found[1]


def test_a_checked_scalar_is_not_a_leaf() -> None:
    for schema in (
        {"type": "string", "enum": ["a"]},
        {"type": "string", "maxLength": 3},
        {"type": "string", "format": "date-time"},
        {"type": "integer", "maximum": 3},
        {"type": "string", "anyOf": [{"maxLength": 2}]},
        {"x-kubernetes-int-or-string": True},
    ):
        assert SchemaNode(schema).leaf is None, schema


def test_a_plain_document_is_copied_without_shared_parts() -> None:
    import marshal

    from kubectl_crd.validation.pipeline import _copied

    shared = {"k": [1, 2]}
    content = {"a": shared, "b": shared, "n": 1.5, "t": True}
    copied, size = _copied(content)
    assert copied == content and copied["a"] is not copied["b"]
    assert size == len(marshal.dumps(content, 2))  # the bound requestsize reads
    assert copied["a"] is not shared and type(copied["t"]) is bool


def test_a_scale_path_through_a_null_object_is_not_found() -> None:
    """``unstructured.NestedFieldNoCopy``: a null on the way to ``specReplicasPath`` means
    "not found" (no error); a non-object on the way is an accessor error."""
    schema = {
        "type": "object",
        "properties": {
            "spec": obj_schema(
                g={
                    "type": "object",
                    "nullable": True,
                    "properties": {"n": {"type": "integer", "nullable": True}},
                },
                s={"type": "string"},
            ),
            "status": obj_schema(replicas={"type": "integer"}),
        },
    }
    crd = widget_crd(
        schema,
        {"scale": {"specReplicasPath": ".spec.g.n", "statusReplicasPath": ".status.replicas"}},
    )

    def errors(spec: Any) -> list[str]:
        obj = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}
        return [e.message for e in validate_custom_resource({**obj, "spec": spec}, crd).errors]

    assert errors({"g": None}) == []
    assert errors({"g": {"n": None}}) == [
        ".spec.g.n: Invalid value: 0: .spec.g.n accessor error: <nil> is of the type <nil>,"
        " expected int64"
    ]
    assert errors({"g": {"n": -1}}) == [
        ".spec.g.n: Invalid value: -1: should be a non-negative integer"
    ]


def test_a_create_is_validated_with_the_name_generate_name_makes() -> None:
    """``rest.BeforeCreate`` names the object before it is validated: the schema's
    ``metadata.name`` checks see ``<generateName>xxxxx``; the object given back has no name."""
    schema = {
        "type": "object",
        "properties": {
            "metadata": obj_schema(name={"type": "string", "enum": ["one"]}),
            "spec": {"type": "object"},
        },
    }
    crd = widget_crd(schema)
    obj = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"generateName": "g-"}}
    result = validate_custom_resource(obj, crd)
    assert [e.message for e in result.errors] == [
        'metadata.name: Unsupported value: "g-xxxxx": supported values: "one"'
    ]
    assert "name" not in result.object["metadata"]


def test_an_integer_beyond_int64_is_a_float_as_the_server_decodes_it() -> None:
    """``util/json: convertNumber``: a JSON integer outside int64 becomes a float64, so an
    integer field refuses it by type; the same from a positioned document (a file)."""
    schema = obj_schema(i={"type": "integer"}, n={"type": "number"})
    huge = {"i": 2**63, "n": -(2**63) - 1}
    expected = ['spec.i: Invalid value: "number": spec.i in body must be of type integer: "number"']
    result = run(schema, huge)
    assert [e.message for e in result.errors] == expected
    assert result.object["spec"]["n"] == -(2.0**63)
    assert run(schema, {"i": -(2**63)}).valid
    text = (
        f"apiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: w}}\nspec: {{i: {2**63}}}\n"
    )
    (document,) = load_documents(text, "w.yaml")
    positioned = validate_custom_resource(document.content, make_crd(schema))
    assert [e.message for e in positioned.errors] == expected
