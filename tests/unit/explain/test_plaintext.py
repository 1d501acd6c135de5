"""kubectl's plaintext template, piece by piece (the golden test covers whole outputs)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.errors import RenderError
from kubectl_crd.model.explain import render_body, render_header, type_guess
from kubectl_crd.model.explain.plaintext import render_field_line
from kubectl_crd.model.gvk import GroupVersionKind
from tests.unit.explain.conftest import published

REFS = {
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {"type": "object", "properties": {}},
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time": {"type": "string", "format": "date-time"},
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"format": "int-or-string"},
}
P = "#/components/schemas/"


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string"}, "string"),
        ({"type": "integer"}, "integer"),
        ({"type": "object"}, "Object"),
        ({"x-kubernetes-preserve-unknown-fields": True}, "Object"),
        ({"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}]}, "Object"),
        ({"type": "array", "items": {"type": "string"}}, "[]string"),
        (
            {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
            "[][]integer",
        ),
        ({"type": "object", "additionalProperties": {"type": "string"}}, "map[string]string"),
        ({"type": "object", "additionalProperties": {"type": "object"}}, "map[string]Object"),
        ({"type": "object", "additionalProperties": True}, "Object"),  # a boolean is no map
        ({"type": "object", "additionalProperties": {}}, "Object"),  # nor is an empty schema
        (
            {"allOf": [{"$ref": P + "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]},
            "ObjectMeta",
        ),
        ({"$ref": P + "io.k8s.apimachinery.pkg.apis.meta.v1.Time"}, "string"),  # the target's type
        ({"$ref": P + "io.k8s.apimachinery.pkg.util.intstr.IntOrString"}, "IntOrString"),
        ({"$ref": P + "io.example.Missing"}, "Missing"),  # unresolvable: the name
        ({"$ref": P + "trailing."}, "Object"),
        (
            {
                "type": "array",
                "items": {
                    "allOf": [{"$ref": P + "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]
                },
            },
            "[]ObjectMeta",
        ),
        # two allOf entries, or properties next to allOf: the node's own type
        ({"type": "object", "allOf": [{"type": "string"}, {}]}, "Object"),
    ],
)
def test_type_guess(schema: dict[str, Any], expected: str) -> None:
    assert type_guess(published({"type": "object"}, **REFS), schema) == expected


def test_type_guess_of_an_empty_schema_fails_like_kubectl() -> None:
    with pytest.raises(RenderError):
        type_guess(published({"type": "object"}), {})


@pytest.mark.parametrize(
    ("gvk", "expected"),
    [
        (
            GroupVersionKind("g.io", "v1", "K"),
            "GROUP:      g.io\nKIND:       K\nVERSION:    v1\n\n",
        ),
        (GroupVersionKind("", "v1", "Pod"), "KIND:       Pod\nVERSION:    v1\n\n"),
    ],
)
def test_header(gvk: GroupVersionKind, expected: str) -> None:
    assert render_header(gvk) == expected


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string"}, "FIELD: f <string>\n\n\n"),
        ({"type": "string", "enum": ["A", ""]}, 'FIELD: f <string>\nENUM:\n    A\n    ""\n\n'),
        # the long view lists every value; numbers print as Go's float64
        (
            {"type": "integer", "enum": [1, 2, 3, 4, 1000000]},
            "FIELD: f <integer>\nENUM:\n    1\n    2\n    3\n    4\n    1e+06\n\n",
        ),
    ],
)
def test_field_line(schema: dict[str, Any], expected: str) -> None:
    assert render_field_line(published({"type": "object"}), "f", schema) == expected


BODY_CASES = [
    pytest.param(
        {"type": "object"},
        False,
        "DESCRIPTION:\n    <empty>\n",
        id="no description, no fields",
    ),
    pytest.param(
        {
            "type": "object",
            "description": "Root.",
            "required": ["b"],
            "properties": {
                "b": {"type": "string", "description": "Bee."},
                "a": {"type": "integer"},
            },
        },
        False,
        "DESCRIPTION:\n    Root.\n    \nFIELDS:\n"
        "  a\t<integer>\n    <no description>\n\n"
        "  b\t<string> -required-\n    Bee.\n\n",
        id="sorted fields, required, descriptions",
    ),
    pytest.param(
        {
            "type": "object",
            "properties": {"m": {"type": "string", "enum": ["a", "b", "c", "d", "e"]}},
        },
        False,
        "DESCRIPTION:\n    <empty>\nFIELDS:\n  m\t<string>\n  enum: a, b, c, d, ....\n    <no description>\n\n",
        id="at most four enum values in a field list",
    ),
    pytest.param(
        {
            "type": "object",
            "properties": {
                "s": {
                    "type": "object",
                    "required": ["x"],
                    "properties": {"x": {"type": "string", "enum": [""]}},
                },
                "l": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"y": {"type": "boolean"}}},
                },
            },
        },
        True,
        "DESCRIPTION:\n    <empty>\nFIELDS:\n"
        "  l\t<[]Object>\n    y\t<boolean>\n"
        '  s\t<Object>\n    x\t<string> -required-\n    enum: ""\n',
        id="recursive: no descriptions, two spaces per level, items at the next level",
    ),
    pytest.param(
        {
            "type": "array",
            "description": "List.",
            "items": {
                "type": "object",
                "description": "Item.",
                "properties": {"z": {"type": "string"}},
            },
        },
        False,
        "DESCRIPTION:\n    List.\n    Item.\n    \nFIELDS:\n  z\t<string>\n    <no description>\n\n",
        id="an array shows its items' description and fields",
    ),
    pytest.param(
        {"type": "object", "description": "word " * 20},
        False,
        "DESCRIPTION:\n    " + ("word " * 15).rstrip() + "\n    " + ("word " * 5) + "\n    \n",
        id="wrapped at 76",
    ),
]


@pytest.mark.parametrize(("schema", "recursive", "expected"), BODY_CASES)
def test_body(schema: dict[str, Any], recursive: bool, expected: str) -> None:
    assert render_body(published(schema), schema, recursive=recursive) == expected


def test_field_descriptions_wrap_at_78_minus_the_indent() -> None:
    schema = {
        "type": "object",
        "properties": {"f": {"type": "string", "description": "x" * 10 + " y" * 40}},
    }
    body = render_body(published(schema), schema)
    lines = body.split("FIELDS:\n")[1].splitlines()
    assert lines[1] == "    " + "x" * 10 + " y" * 33  # 10 + 66 = 76 = 78 - 2
    assert lines[2] == "    " + "y " * 6 + "y"
