"""The "beyond kubectl explain" facts, one schema feature per case.

Each case puts one schema on ``spec.f`` of a tiny CRD and states the exact lines that
must appear under ``widgets.spec.f`` (whitespace runs collapsed): dropping, renaming
or misformatting a fact fails its case. Notes come from ``target.schema_notes``, so
only their start is pinned.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.explain.details import explain_details
from kubectl_crd.model.explain.detailtext import SEPARATOR, render_details
from tests.unit.explain_extras.conftest import (
    crontab,
    details_text,
    entry,
    target,
    widget_crd,
)

CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("default integer", {"type": "integer", "default": 0}, ["default: 0"]),
    ("default empty string", {"type": "string", "default": ""}, ['default: ""']),
    ("default false", {"type": "boolean", "default": False}, ["default: false"]),
    (
        "default object",
        {
            "type": "object",
            "default": {"a": 1},
            "properties": {"a": {"type": "integer"}},
        },
        ['default: {"a": 1}'],
    ),
    ("enum", {"type": "string", "enum": ["A", "B", ""]}, ['enum: "A", "B", ""']),
    (
        "enum longer than kubectl's four",
        {"type": "integer", "enum": [1, 2, 3, 4, 5, 6]},
        ["enum: 1, 2, 3, 4, 5, 6"],
    ),
    ("format", {"type": "string", "format": "date-time"}, ["format: date-time"]),
    ("pattern", {"type": "string", "pattern": "^[a-z]+$"}, ["pattern: ^[a-z]+$"]),
    (
        "minimum and maximum",
        {"type": "integer", "minimum": 1, "maximum": 10},
        ["minimum: 1", "maximum: 10"],
    ),
    (
        "exclusive bounds",
        {
            "type": "number",
            "minimum": 0,
            "exclusiveMinimum": True,
            "maximum": 1.5,
            "exclusiveMaximum": True,
        },
        ["minimum: 0 (exclusive)", "maximum: 1.5 (exclusive)"],
    ),
    ("multipleOf", {"type": "integer", "multipleOf": 5}, ["multipleOf: 5"]),
    (
        "string lengths",
        {"type": "string", "minLength": 1, "maxLength": 63},
        ["minLength: 1", "maxLength: 63"],
    ),
    (
        "item counts",
        {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
        ["minItems: 1", "maxItems: 3"],
    ),
    (
        "unique items",
        {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        ["uniqueItems: true"],
    ),
    (
        "property counts",
        {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "minProperties": 1,
            "maxProperties": 2,
        },
        ["minProperties: 1", "maxProperties: 2"],
    ),
    (
        "nullable",
        {"type": "string", "nullable": True},
        ["nullable: true: null is accepted and kept"],
    ),
    (
        "list-type map with keys",
        {
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name", "port"],
            "items": {
                "type": "object",
                "required": ["name", "port"],
                "properties": {"name": {"type": "string"}, "port": {"type": "integer"}},
            },
        },
        ["list-type: map: items are merged by their keys: name, port"],
    ),
    (
        "list-type set",
        {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        ["list-type: set: unique scalar items, merged item by item"],
    ),
    (
        "list-type atomic",
        {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}},
        ["list-type: atomic: replaced as a whole (server-side apply owns it as one value)"],
    ),
    (
        "map-type granular",
        {
            "type": "object",
            "x-kubernetes-map-type": "granular",
            "properties": {"a": {"type": "string"}},
        },
        ["map-type: granular: each key is merged and owned separately"],
    ),
    (
        "map-type atomic",
        {
            "type": "object",
            "x-kubernetes-map-type": "atomic",
            "properties": {"a": {"type": "string"}},
        },
        ["map-type: atomic: replaced as a whole (server-side apply owns it as one value)"],
    ),
    (
        "CEL rule with every part",
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "x-kubernetes-validations": [
                {
                    "rule": "self.a <= self.b",
                    "message": "a must not exceed b",
                    "messageExpression": "'a is ' + string(self.a)",
                    "reason": "FieldValueInvalid",
                    "fieldPath": ".a",
                },
                {"rule": "self.a == oldSelf.a", "optionalOldSelf": True},
            ],
        },
        [
            "rule: self.a <= self.b",
            "message: a must not exceed b",
            "messageExpression: 'a is ' + string(self.a)",
            "reason: FieldValueInvalid",
            "fieldPath: .a",
            "rule: self.a == oldSelf.a",
            "optionalOldSelf: true",
        ],
    ),
    (
        "oneOf of required fields, in words",
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
        },
        ["oneOf: exactly one of: a | b (fields set)"],
    ),
    (
        "anyOf of anything else, as JSON",
        {"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]},
        ['anyOf: [{"format": "ipv4"}, {"format": "ipv6"}]'],
    ),
    ("example", {"type": "string", "example": "10.0.0.1"}, ['example: "10.0.0.1"']),
    ("title", {"type": "string", "title": "The F"}, ["title: The F"]),
    (
        "external docs",
        {
            "type": "string",
            "externalDocs": {"description": "See", "url": "https://example.com/f"},
        },
        ["docs: See https://example.com/f"],
    ),
]


@pytest.mark.parametrize(("schema", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_schema_feature_is_shown(schema: dict[str, Any], expected: list[str]) -> None:
    text = details_text(target(widget_crd(schema), "widgets.spec.f"))
    assert entry(text, "widgets.spec.f") == expected


NOTE_CASES: list[tuple[str, dict[str, Any], str]] = [
    (
        "int-or-string",
        {"x-kubernetes-int-or-string": True},
        'note: "widgets.spec.f" takes an integer or a string',
    ),
    (
        "free-form",
        {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        'note: "widgets.spec.f" is free-form',
    ),
    (
        "keeps unknown fields besides its own",
        {
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": True,
            "properties": {"a": {"type": "string"}},
        },
        'note: "widgets.spec.f" also keeps fields that are not listed',
    ),
    (
        "embedded resource",
        {
            "type": "object",
            "x-kubernetes-embedded-resource": True,
            "x-kubernetes-preserve-unknown-fields": True,
        },
        'note: "widgets.spec.f" holds a complete Kubernetes object',
    ),
    (
        "object without fields",
        {"type": "object"},
        'note: "widgets.spec.f" is an object that declares no fields',
    ),
]


@pytest.mark.parametrize(
    ("schema", "start"), [c[1:] for c in NOTE_CASES], ids=[c[0] for c in NOTE_CASES]
)
def test_what_cannot_be_explained_says_why(schema: dict[str, Any], start: str) -> None:
    text = details_text(target(widget_crd(schema), "widgets.spec.f"))
    body = " ".join(entry(text, "widgets.spec.f"))
    assert start in body


def test_int_or_string_does_not_repeat_its_implied_any_of() -> None:
    schema = {
        "x-kubernetes-int-or-string": True,
        "anyOf": [{"type": "integer"}, {"type": "string"}],
    }
    text = details_text(target(widget_crd(schema), "widgets.spec.f"))
    assert "anyOf" not in text


def test_children_are_listed_with_the_node_in_kubectls_order() -> None:
    spec = {
        "type": "object",
        "required": ["b"],
        "x-kubernetes-validations": [{"rule": "has(self.b)"}],
        "properties": {
            "b": {"type": "string", "default": "x"},
            "a": {"type": "integer", "minimum": 1},
            "plain": {"type": "string"},
        },
    }
    text = details_text(target(widget_crd(spec=spec), "widgets.spec"))
    headings = [line for line in text.splitlines() if line.startswith("  widgets")]
    assert headings == [
        "  widgets.spec <Object>",
        "  widgets.spec.a <integer>",
        "  widgets.spec.b <string> -required-",
    ]  # "plain" has nothing kubectl does not show already


def test_recursive_lists_descendants_and_max_depth_stops_them() -> None:
    spec = {
        "type": "object",
        "properties": {
            "outer": {
                "type": "object",
                "properties": {
                    "inner": {
                        "type": "object",
                        "properties": {"deepest": {"type": "string", "maxLength": 3}},
                    },
                    "leaf": {"type": "string", "default": "x"},
                },
            }
        },
    }
    explained = target(widget_crd(spec=spec), "widgets.spec")
    shallow = details_text(explained)
    assert "widgets.spec.outer.leaf" not in shallow
    deep = details_text(explained, recursive=True)
    assert entry(deep, "widgets.spec.outer.leaf") == ['default: "x"']
    assert entry(deep, "widgets.spec.outer.inner.deepest") == ["maxLength: 3"]
    limited = details_text(explained, recursive=True, max_depth=2)
    assert "widgets.spec.outer.leaf" in limited
    assert "deepest" not in limited


def test_paths_go_through_arrays_and_maps_as_kubectl_does() -> None:
    spec = {
        "type": "object",
        "properties": {
            "list": {
                "type": "array",
                "items": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}}},
            },
            "map": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {"v": {"type": "string", "pattern": "^v"}},
                },
            },
        },
    }
    crd = widget_crd(spec=spec)
    assert entry(details_text(target(crd, "widgets.spec.list")), "widgets.spec.list.n") == [
        "maximum: 9"
    ]
    assert entry(details_text(target(crd, "widgets.spec.map.v")), "widgets.spec.map.v") == [
        "pattern: ^v"
    ]


def test_nodes_the_api_server_adds_are_described_from_the_published_schema() -> None:
    text = details_text(target(widget_crd(), "widgets.metadata.finalizers"))
    heading = next(line for line in text.splitlines() if line.startswith("  widgets.metadata"))
    assert heading == (
        "  widgets.metadata.finalizers <[]string> (not declared by the CRD: added by the API server)"
    )
    assert entry(text, "widgets.metadata.finalizers") == [
        "list-type: set: unique scalar items, merged item by item"
    ]


def test_recursion_does_not_descend_into_standard_types() -> None:
    text = details_text(target(widget_crd(), "widgets"), recursive=True)
    assert "widgets.metadata." not in text


def test_a_node_with_nothing_more_to_say_says_so() -> None:
    text = details_text(target(widget_crd({"type": "string"}), "widgets.spec.f"))
    assert text == (
        f"{SEPARATOR}\n\nFIELD DETAILS:\n"
        "    nothing more: no default, constraint, CEL rule or note\n\n"
    )


def test_layout_aligns_values_and_indents_rule_parts() -> None:
    text = details_text(target(crontab(), "crontabs.spec"))
    assert text.startswith(f"{SEPARATOR}\n\nFIELD DETAILS:\n")
    assert (
        "  crontabs.spec <Object> -required-\n"
        "    rule: self.minReplicas <= self.replicas\n"
        "      message: replicas must not be below minReplicas\n"
        "\n"
        "  crontabs.spec.concurrencyPolicy <string>\n"
        '    default: "Allow"\n'
        '    enum:    "Allow", "Forbid", "Replace"\n'
    ) in text
    assert (
        "  crontabs.spec.replicas <integer>\n"
        "    default: 1\n"
        "    format:  int32\n"
        "    minimum: 0\n"
        "    maximum: 10\n"
    ) in text


def test_multi_line_rules_keep_their_lines_aligned() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "x-kubernetes-validations": [{"rule": "has(self.a) ||\n  true", "message": "m"}],
    }
    text = details_text(target(widget_crd(schema), "widgets.spec.f"))
    assert "    rule: has(self.a) ||\n            true\n      message: m\n" in text


def test_a_dot_in_a_field_name_is_escaped_in_paths() -> None:
    spec = {"type": "object", "properties": {"a.b": {"type": "string", "default": "x"}}}
    explained = target(widget_crd(spec=spec), "widgets.spec")
    details = explain_details(explained)
    assert [details.display_path(f) for f in details.children] == ["widgets.spec.a\\.b"]
    assert "  widgets.spec.a\\.b <string>\n" in render_details(details)
