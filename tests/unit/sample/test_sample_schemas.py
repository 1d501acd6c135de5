"""``build_sample`` per schema feature: what goes into a skeleton, and that it conforms.

Each case gives a ``spec`` schema and the ``spec`` we expect. Every generated object is
also checked with openapi-schema-validator (an independent OpenAPI 3.0 validator), so a
case cannot pass with a value the schema forbids.
"""

from __future__ import annotations

from typing import Any

import pytest
from openapi_schema_validator import OAS30Validator

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ResourceLookupError
from kubectl_crd.model.sample import SampleOptions, build_sample, select_version
from kubectl_crd.validation.sample_checks import checked_sample_options
from kubectl_crd.validation.schemas import conforms
from tests.crd_factory import make_crd


def engine(**settings: Any) -> SampleOptions:
    """Options with the validation engine's checks, as the sample command wires them."""
    return checked_sample_options(**settings)


ENGINE = engine()

S = {"type": "string"}
INT = {"type": "integer"}
INT_OR_STRING = {
    "x-kubernetes-int-or-string": True,
    "anyOf": [{"type": "integer"}, {"type": "string"}],
}


def obj(
    properties: dict[str, Any], required: list[str] | None = None, **more: Any
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties, **more}
    if required:
        schema["required"] = required
    return schema


# (id, spec schema, options, expected spec)
CASES: list[tuple[str, dict[str, Any], SampleOptions, Any]] = [
    ("optional fields are left out", obj({"a": S, "b": INT}), engine(), {}),
    ("required string", obj({"a": S, "b": INT}, ["a"]), engine(), {"a": "example"}),
    ("required integer is 1", obj({"n": INT}, ["n"]), engine(), {"n": 1}),
    ("boolean", obj({"on": {"type": "boolean"}}, ["on"]), engine(), {"on": False}),
    ("number", obj({"x": {"type": "number"}}, ["x"]), engine(), {"x": 1}),
    (
        "nested required objects",
        obj({"a": obj({"b": obj({"c": S}, ["c"]), "z": S}, ["b"])}, ["a"]),
        engine(),
        {"a": {"b": {"c": "example"}}},
    ),
    (
        "optional field with a default",
        obj({"d": {**S, "default": "x"}}),
        engine(),
        {"d": "x"},
    ),
    (
        "required field with a default",
        obj({"d": {**INT, "default": 7}}, ["d"]),
        engine(),
        {"d": 7},
    ),
    (
        "object default is used as is",
        obj({"o": {**obj({"a": S}), "default": {"a": "z"}}}),
        engine(),
        {"o": {"a": "z"}},
    ),
    ("first enum value", obj({"e": {**S, "enum": ["B", "A"]}}, ["e"]), engine(), {"e": "B"}),
    (
        "enum null is skipped",
        obj({"e": {**S, "nullable": True, "enum": [None, "A"]}}, ["e"]),
        engine(),
        {"e": "A"},
    ),
    ("minimum", obj({"n": {**INT, "minimum": 5}}, ["n"]), engine(), {"n": 5}),
    ("maximum", obj({"n": {**INT, "maximum": -3}}, ["n"]), engine(), {"n": -3}),
    (
        "exclusive minimum",
        obj({"n": {**INT, "minimum": 1, "exclusiveMinimum": True}}, ["n"]),
        engine(),
        {"n": 2},
    ),
    (
        "multipleOf",
        obj({"n": {**INT, "minimum": 3, "multipleOf": 5}}, ["n"]),
        engine(),
        {"n": 5},
    ),
    (
        "number exclusive maximum",
        obj({"x": {"type": "number", "maximum": 0, "exclusiveMaximum": True}}, ["x"]),
        engine(),
        {"x": -0.5},
    ),
    (
        "minLength pads",
        obj({"s": {**S, "minLength": 10}}, ["s"]),
        engine(),
        {"s": "examplexxx"},
    ),
    ("maxLength cuts", obj({"s": {**S, "maxLength": 3}}, ["s"]), engine(), {"s": "exa"}),
    (
        "pattern",
        obj({"s": {**S, "pattern": "^[0-9]+[mMgG]?$"}}, ["s"]),
        engine(),
        {"s": "1"},
    ),
    (
        "pattern with lengths",
        obj({"s": {**S, "pattern": "^[a-z]+$", "minLength": 9, "maxLength": 9}}, ["s"]),
        engine(),
        {"s": "aaaaaaaaa"},
    ),
    (
        "format date-time",
        obj({"t": {**S, "format": "date-time"}}, ["t"]),
        engine(),
        {"t": "2024-01-01T00:00:00Z"},
    ),
    (
        "format byte",
        obj({"b": {**S, "format": "byte"}}, ["b"]),
        engine(),
        {"b": "ZXhhbXBsZQ=="},
    ),
    (
        "format int32 stays in range",
        obj({"n": {**INT, "format": "int32", "minimum": -5, "maximum": 0}}, ["n"]),
        engine(),
        {"n": 0},
    ),
    ("int-or-string", obj({"p": INT_OR_STRING}, ["p"]), engine(), {"p": 1}),
    (
        "int-or-string with a string default",
        obj({"p": {**INT_OR_STRING, "default": "25%"}}),
        engine(),
        {"p": "25%"},
    ),
    (
        "array without minItems is empty",
        obj({"l": {"type": "array", "items": S}}, ["l"]),
        engine(),
        {"l": []},
    ),
    (
        "array minItems",
        obj({"l": {"type": "array", "items": S, "minItems": 2}}, ["l"]),
        engine(),
        {"l": ["example", "example-2"]},
    ),
    (
        "set items are unique",
        obj(
            {"l": {"type": "array", "items": S, "minItems": 3, "x-kubernetes-list-type": "set"}},
            ["l"],
        ),
        engine(),
        {"l": ["example", "example-2", "example-3"]},
    ),
    (
        "set of enum values",
        obj(
            {
                "l": {
                    "type": "array",
                    "items": {**S, "enum": ["x", "y"]},
                    "minItems": 2,
                    "x-kubernetes-list-type": "set",
                }
            },
            ["l"],
        ),
        engine(),
        {"l": ["x", "y"]},
    ),
    (
        "map list keys are filled in and unique",
        obj(
            {
                "ports": {
                    "type": "array",
                    "minItems": 2,
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["port", "protocol"],
                    "items": obj(
                        {"port": INT, "protocol": {**S, "default": "TCP"}, "note": S},
                        ["port"],
                    ),
                }
            },
            ["ports"],
        ),
        engine(),
        {"ports": [{"port": 1, "protocol": "TCP"}, {"port": 2, "protocol": "example-2"}]},
    ),
    (
        "map minProperties",
        obj({"m": {"type": "object", "additionalProperties": INT, "minProperties": 1}}, ["m"]),
        engine(),
        {"m": {"example-key": 1}},
    ),
    (
        "object minProperties takes optional fields",
        obj({"o": obj({"b": S, "a": INT}, minProperties=1)}, ["o"]),
        engine(),
        {"o": {"b": "example"}},
    ),
    (
        "preserve-unknown-fields",
        obj({"x": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}, ["x"]),
        engine(),
        {"x": {}},
    ),
    (
        "embedded resource",
        obj(
            {
                "r": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": True,
                    "x-kubernetes-preserve-unknown-fields": True,
                }
            },
            ["r"],
        ),
        engine(),
        {"r": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "example"}}},
    ),
    (
        "oneOf required alternatives",
        obj({"a": S, "b": S}, oneOf=[{"required": ["a"]}, {"required": ["b"]}]),
        engine(),
        {"a": "example"},
    ),
    (
        "anyOf required alternatives",
        obj({"a": S, "b": S}, anyOf=[{"required": ["b"]}, {"required": ["a"]}]),
        engine(),
        {"b": "example"},
    ),
    (
        "oneOf where nothing set is fine",
        obj(
            {"a": S, "b": S},
            oneOf=[
                {"not": {"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}},
                {"required": ["a"]},
                {"required": ["b"]},
            ],
        ),
        engine(),
        {},
    ),
    (
        "oneOf on property values",
        obj(
            {"type": {**S, "enum": ["IPAddress", "Hostname"]}, "value": S},
            ["type", "value"],
            oneOf=[
                {
                    "properties": {
                        "type": {"enum": ["IPAddress"]},
                        "value": {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]},
                    }
                },
                {"properties": {"type": {"not": {"enum": ["IPAddress"]}}}},
            ],
        ),
        engine(),
        {"type": "Hostname", "value": "example"},
    ),
    (
        "allOf constraints are merged",
        obj({"n": {**INT, "allOf": [{"minimum": 3}, {"maximum": 4}]}}, ["n"]),
        engine(),
        {"n": 3},
    ),
    (
        "all fields",
        obj(
            {
                "a": S,
                "l": {"type": "array", "items": INT},
                "m": {"type": "object", "additionalProperties": S},
            }
        ),
        engine(all_fields=True),
        {"a": "example", "l": [1], "m": {"example-key": "example"}},
    ),
    (
        "all fields respects maxItems 0",
        obj({"l": {"type": "array", "items": INT, "maxItems": 0}}),
        engine(all_fields=True),
        {"l": []},
    ),
    (
        "an enum only in allOf branches: their intersection",
        obj({"t": {**S, "allOf": [{"enum": ["b", "c"]}, {"enum": ["a", "c"]}]}}, ["t"]),
        engine(),
        {"t": "c"},
    ),
]


def crd_with_spec(spec: dict[str, Any], **schema_extra: Any) -> CustomResourceDefinition:
    schema = {"type": "object", "properties": {"spec": spec, **schema_extra}}
    return CustomResourceDefinition.from_object(make_crd("Widget", "example.com", schema=schema))


@pytest.mark.parametrize(
    ("spec", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_spec_per_schema_feature(
    spec: dict[str, Any], options: SampleOptions, expected: Any
) -> None:
    crd = crd_with_spec(spec)
    sample = build_sample(crd, crd.preferred_version, options)
    assert sample.value["spec"] == expected
    assert sample.problems == ()
    validator = OAS30Validator(crd.preferred_version.schema)
    errors = [e.message for e in validator.iter_errors(sample.value)]
    assert errors == []


def test_envelope_name_and_namespace() -> None:
    crd = crd_with_spec(obj({}))
    sample = build_sample(crd, crd.preferred_version, engine(namespace="team-a"))
    assert sample.value == {
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "example-widget", "namespace": "team-a"},
        "spec": {},
    }
    named = build_sample(crd, crd.preferred_version, engine(name="w1"))
    assert named.value["metadata"] == {"name": "w1"}


def test_cluster_scoped_kinds_get_no_namespace() -> None:
    raw = make_crd("Widget", "example.com", scope="Cluster")
    crd = CustomResourceDefinition.from_object(raw)
    sample = build_sample(crd, crd.preferred_version, engine(namespace="team-a"))
    assert sample.value["metadata"] == {"name": "example-widget"}


def test_status_is_skipped_with_the_status_subresource() -> None:
    raw = make_crd(
        "Widget",
        "example.com",
        schema={
            "type": "object",
            "required": ["status"],
            "properties": {"spec": obj({}), "status": obj({"phase": S}, ["phase"])},
        },
    )
    without = build_sample(
        CustomResourceDefinition.from_object(raw),
        CustomResourceDefinition.from_object(raw).preferred_version,
    )
    assert without.value["status"] == {"phase": "example"}
    raw["spec"]["versions"][0]["subresources"] = {"status": {}}
    crd = CustomResourceDefinition.from_object(raw)
    assert "status" not in build_sample(crd, crd.preferred_version, ENGINE).value


def test_metadata_name_constraints_are_honoured() -> None:
    crd = crd_with_spec(
        obj({}), metadata={"type": "object", "properties": {"name": {**S, "maxLength": 5}}}
    )
    name = build_sample(crd, crd.preferred_version, ENGINE).value["metadata"]["name"]
    assert len(name) <= 5


def test_descriptions_and_hints_become_comments() -> None:
    spec = obj(
        {
            "mode": {**S, "enum": ["Fast", "Slow"], "description": "How to run.\n\nMore detail."},
            "size": {**INT, "default": 3, "description": "Size. " + "word " * 60},
        },
        ["mode"],
        description="The spec.",
    )
    crd = crd_with_spec(spec)
    sample = build_sample(crd, crd.preferred_version, ENGINE)
    assert sample.comments[("spec",)] == ("The spec.",)
    assert sample.comments[("spec", "mode")] == (
        "How to run.",
        '(required; one of: "Fast", "Slow")',
    )
    size = sample.comments[("spec", "size")]
    assert len(size) == 4  # three wrapped lines of the description, then the hints
    assert size[2].endswith("...")
    assert size[3] == "(default: 3)"


def test_cel_rules_are_evaluated_where_possible_and_listed_otherwise() -> None:
    spec = obj(
        {
            "a": {**S, "x-kubernetes-validations": [{"rule": "self != 'x'"}]},
            "b": {**S, "x-kubernetes-validations": [{"rule": "false"}]},
        },
        ["a"],
        **{
            "x-kubernetes-validations": [
                {"rule": "has(self.a)", "message": "a!"},
                {"rule": "self.a.trim() == 'example'"},
                {"rule": "self.a.noSuchFunction()"},  # does not compile: unknown
                {"rule": "self.a == oldSelf.a"},  # transition rule: not run on create
            ]
        },
    )
    crd = crd_with_spec(spec)
    sample = build_sample(crd, crd.preferred_version, ENGINE)
    assert [(r.path, r.rule, r.holds) for r in sample.cel_rules] == [
        ("spec", "has(self.a)", True),
        ("spec", "self.a.trim() == 'example'", True),
        ("spec", "self.a.noSuchFunction()", None),
        ("spec.a", "self != 'x'", True),
    ]
    # without the engine nothing is told, and the header says so
    unchecked = build_sample(crd, crd.preferred_version, SampleOptions(schema_check=conforms))
    assert {r.holds for r in unchecked.cel_rules} == {None}
    assert "Not evaluated here: 4 CEL rule(s) on spec, spec.a." in unchecked.header()
    assert "Not evaluated here: 1 CEL rule(s) on spec." in sample.header()
    assert sample.problems == ()


# (id, spec schema with CEL rules, expected spec) -- rule shapes from the corpus
CEL_CASES = [
    (
        "exactly one of",
        obj(
            {"a": S, "b": S},
            **{"x-kubernetes-validations": [{"rule": "has(self.a) != has(self.b)"}]},
        ),
        {"a": "example"},
    ),
    (
        "either, as a ternary with a default",
        obj(
            {"kind": {**S, "default": "Service"}, "port": {**INT, "minimum": 1}},
            **{
                "x-kubernetes-validations": [
                    {"rule": "self.kind == 'Service' ? has(self.port) : true"}
                ]
            },
        ),
        {"kind": "Service", "port": 1},
    ),
    (
        "both must be set",
        obj(
            {"name": S, "namespace": S, "uid": S},
            **{"x-kubernetes-validations": [{"rule": "has(self.name) && has(self.__namespace__)"}]},
        ),
        {"name": "example", "namespace": "example"},
    ),
    (
        "non-empty list",
        obj(
            {
                "l": {
                    "type": "array",
                    "items": S,
                    "x-kubernetes-validations": [{"rule": "size(self) > 0"}],
                }
            },
            ["l"],
        ),
        {"l": ["example"]},
    ),
    (
        "matches as a pattern",
        obj(
            {
                "image": {
                    **S,
                    "x-kubernetes-validations": [
                        {"rule": "self.matches('^[a-z.]+/[a-z]+:[0-9]+$')"}
                    ],
                }
            },
            ["image"],
        ),
        {"image": "a/a:0"},
    ),
    (
        "optional list with a non-empty condition",
        obj(
            {"refs": {"type": "array", "items": S}, "known": {**S, "enum": ["System"]}},
            **{
                "x-kubernetes-validations": [
                    {"rule": "has(self.refs) && size(self.refs) > 0 || has(self.known)"}
                ]
            },
        ),
        {"known": "System"},
    ),
    (
        # kubernetes-sigs/lws DisaggregatedSet: ``r.spec`` of an item without ``spec`` is
        # "no such key" on the server, so the items get the optional objects selected
        "a macro variable selecting an optional object",
        obj(
            {
                "roles": {
                    "type": "array",
                    "minItems": 1,
                    "items": obj(
                        {"name": S, "spec": obj({"replicas": INT}), "x": obj({})}, ["name"]
                    ),
                }
            },
            ["roles"],
            **{
                "x-kubernetes-validations": [
                    {"rule": "self.roles.all(r, !has(r.spec.replicas) || r.spec.replicas > 0)"}
                ]
            },
        ),
        {"roles": [{"name": "example", "spec": {}}]},
    ),
    (
        # envoy gateway BackendTrafficPolicy: the literal most rules accept comes first
        "rules pinning fields below to literals",
        obj(
            {
                "ref": obj({"group": S, "kind": S}, ["group", "kind"]),
                "lb": obj({"type": {**S, "enum": ["Hash", "Random"]}}, ["type"]),
            },
            ["ref", "lb"],
            **{
                "x-kubernetes-validations": [
                    {"rule": "self.ref.group == 'g.io' && self.ref.kind in ['A', 'B']"},
                    {"rule": "self.ref.kind in ['B', 'C']"},
                    {"rule": "self.lb.type in ['Random']"},
                ]
            },
        ),
        {"ref": {"group": "g.io", "kind": "B"}, "lb": {"type": "Random"}},
    ),
]


@pytest.mark.parametrize(
    ("spec", "expected"), [c[1:] for c in CEL_CASES], ids=[c[0] for c in CEL_CASES]
)
def test_optional_fields_are_added_for_cel_rules(spec: dict[str, Any], expected: Any) -> None:
    crd = crd_with_spec(spec)
    sample = build_sample(crd, crd.preferred_version, ENGINE)
    assert sample.value["spec"] == expected
    assert sample.problems == ()
    assert all(r.holds for r in sample.cel_rules)


# (id, spec schema, expected spec with --all-fields)
ALL_FIELDS_CASES = [
    (
        "oneOf keeps one branch's fields",
        obj(
            {"value": S, "valueFrom": S, "note": S},
            oneOf=[{"required": ["value"]}, {"required": ["valueFrom"]}],
        ),
        {"note": "example", "value": "example"},
    ),
    (
        "not both",
        obj(
            {"name": S, "names": {"type": "array", "items": S}},
            **{"not": {"required": ["name", "names"]}},
        ),
        {"name": "example"},
    ),
    (
        "CEL at most one",
        obj(
            {"a": S, "b": S, "c": S},
            **{"x-kubernetes-validations": [{"rule": "!(has(self.a) && has(self.b))"}]},
        ),
        {"a": "example", "c": "example"},
    ),
    (
        "CEL at most one of three, among many fields",
        obj(
            {f"f{i:02d}": S for i in range(40)} | {"basicAuth": S, "authorization": S, "oauth2": S},
            **{
                "x-kubernetes-validations": [
                    {
                        "rule": "[has(self.basicAuth), has(self.authorization), "
                        "has(self.oauth2)].filter(x, x).size() <= 1"
                    }
                ]
            },
        ),
        {"authorization": "example"} | {f"f{i:02d}": "example" for i in range(40)},
    ),
    (
        "map keys a rule parses as numbers",
        obj(
            {
                "ports": {
                    "type": "object",
                    "additionalProperties": INT,
                    "minProperties": 1,
                    "x-kubernetes-validations": [{"rule": "self.all(k, int(k) > 0)"}],
                }
            }
        ),
        {"ports": {"1": 1}},
    ),
    (
        "a URL-named string is a URL",
        obj({"jwksUri": S, "webhookURL": S}),
        {"jwksUri": "https://example.com", "webhookURL": "https://example.com"},
    ),
    (
        "an optional field that can never be valid is left out",
        obj({"a": S, "ns": {**S, "x-kubernetes-validations": [{"rule": "false"}]}}),
        {"a": "example"},
    ),
]


@pytest.mark.parametrize(
    ("spec", "expected"), [c[1:] for c in ALL_FIELDS_CASES], ids=[c[0] for c in ALL_FIELDS_CASES]
)
def test_all_fields_leaves_out_what_excludes_each_other(
    spec: dict[str, Any], expected: Any
) -> None:
    crd = crd_with_spec(spec)
    options = engine(all_fields=True)
    sample = build_sample(crd, crd.preferred_version, options)
    assert sample.value["spec"] == expected
    assert sample.problems == ()
    assert OAS30Validator(crd.preferred_version.schema).is_valid(sample.value)


def test_a_rule_that_cannot_hold_is_a_warning() -> None:
    spec = obj(
        {"a": S},
        ["a"],
        **{"x-kubernetes-validations": [{"rule": "self.a == 'z' && false", "message": "never"}]},
    )
    crd = crd_with_spec(spec)
    sample = build_sample(crd, crd.preferred_version, ENGINE)
    assert sample.problems == ("spec: CEL rule fails: never",)


def test_impossible_schemas_are_reported_not_hidden() -> None:
    spec = obj({"s": {**S, "pattern": "^[a-z]{5}$", "maxLength": 2}}, ["s"])
    crd = crd_with_spec(spec)
    sample = build_sample(crd, crd.preferred_version, ENGINE)
    assert len(sample.problems) == 1
    assert sample.problems[0].startswith("spec.s: no value satisfying pattern")
    assert any(line.startswith("WARNING: spec.s") for line in sample.header())


def test_a_pattern_beyond_the_supported_subset_is_named() -> None:
    spec = obj({"s": {**S, "pattern": "^(a)\\1$"}}, ["s"])  # a backreference: not RE2
    crd = crd_with_spec(spec)
    sample = build_sample(crd, crd.preferred_version, ENGINE)
    assert sample.problems == (
        "spec.s: pattern '^(a)\\1$' is beyond the RE2 subset this tool can generate strings "
        "for; fill in a matching value by hand",
    )


def test_output_is_deterministic_and_sorted() -> None:
    spec = obj({"zeta": S, "alpha": S, "mid": S}, ["zeta", "alpha", "mid"])
    crd = crd_with_spec(spec, data=obj({"k": S}, ["k"]))
    raw = crd.raw
    crd_required = CustomResourceDefinition.from_object({**raw})
    first = build_sample(crd_required, crd_required.preferred_version, ENGINE).value
    assert list(first["spec"]) == ["alpha", "mid", "zeta"]
    assert list(first)[:3] == ["apiVersion", "kind", "metadata"]
    assert first == build_sample(crd_required, crd_required.preferred_version, ENGINE).value


@pytest.mark.parametrize(
    ("api_version", "from_resource", "expected", "error"),
    [
        (None, None, "v2", None),
        ("v1", None, "v1", None),
        ("example.com/v1", None, "v1", None),
        (None, "v1", "v1", None),
        ("other.io/v1", None, None, 'is in group "example.com", not "other.io"'),
        ("v9", None, None, 'has no version "v9"; served versions: v2, v1'),
        ("v0", None, None, 'version "v0" of CRD widgets.example.com is not served'),
        ("v2", "v1", None, "contradicts the version v1 named in RESOURCE"),
    ],
)
def test_select_version(
    api_version: str | None, from_resource: str | None, expected: str | None, error: str | None
) -> None:
    crd = CustomResourceDefinition.from_object(
        make_crd("Widget", "example.com", versions=("v1", "v2", "v0"), served=("v1", "v2"))
    )
    if error:
        with pytest.raises(ResourceLookupError, match=error.replace("(", r"\(")):
            select_version(crd, api_version, from_resource)
    else:
        assert select_version(crd, api_version, from_resource).name == expected
