"""Values as rules see them (``cel.values.to_cel``), object fields in particular."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

pytest.importorskip("cel_expr_python")

from google.protobuf import duration_pb2, timestamp_pb2

from kubectl_crd.validation.cel.escaping import escape
from kubectl_crd.validation.cel.values import NULL_FIELD, to_cel
from kubectl_crd.validation.schemas import compile_schema

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "count": {"type": "integer"},
        "ratio": {"type": "number"},
        "enabled": {"type": "boolean"},
        "name": {"type": "string"},
        "since": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
        "every": {"type": "string", "format": "duration"},
        "blob": {"type": "string", "format": "byte"},
        "port": {"x-kubernetes-int-or-string": True},
        "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        "labels": {"type": "object", "additionalProperties": {"type": "number"}},
        "items": {"type": "array", "items": {"type": "number"}},
        "nested": {"type": "object", "properties": {"weight": {"type": "number"}}},
        "in": {"type": "string"},  # a reserved word: __in__
        "dotted.name": {"type": "integer"},  # __dot__
        "1st": {"type": "string"},  # cannot be escaped: not visible
    },
}

VALUES: tuple[Any, ...] = (
    None,
    0,
    3,
    2.5,
    True,
    "text",
    "2024-05-06T07:08:09Z",
    "2024-05-06",
    "1h30m",
    "aGVsbG8=",
    [1, 2],
    {"weight": 1, "other": "x"},
)


def _field_by_field(value: dict[str, Any], schema: Any) -> dict[str, Any]:
    """An object's fields converted one by one with ``to_cel``: what the object's own
    conversion must give, whatever shortcuts it takes."""
    out = {}
    for key, item in value.items():
        child = schema.properties.get(key)
        name = escape(key)
        if child is not None and name is not None:
            if item is None:  # absent to rules, yet counted: NULL_FIELD
                out[NULL_FIELD + key] = None
            else:
                out[name] = to_cel(item, child)
    return out


def _typed(value: Any) -> Any:
    """``value`` with the type of every part spelled out (``1 == 1.0 == True`` in Python)."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return (type(value).__name__, value)


def test_every_field_is_converted_as_its_own_schema_converts_it() -> None:
    node = compile_schema(SCHEMA)
    names = list(SCHEMA["properties"])
    # each field with each value: matching and mismatching types, nulls, containers
    for shift in range(len(VALUES)):
        value = {
            name: VALUES[(position + shift) % len(VALUES)] for position, name in enumerate(names)
        }
        assert _typed(to_cel(value, node)) == _typed(_field_by_field(value, node))


def test_fields_take_their_schema_types() -> None:
    node = compile_schema(SCHEMA)
    converted = to_cel(
        {
            "count": 3,
            "ratio": 2,
            "enabled": False,
            "name": "n",
            "since": "2024-05-06T07:08:09Z",
            "every": "90s",
            "blob": "aGVsbG8=",
            "labels": {"a": 1},
            "items": [1, 2.5],
            "nested": {"weight": 4},
            "in": "x",
            "dotted.name": 7,
            "1st": "hidden",
            "undeclared": 1,
        },
        node,
    )
    since = timestamp_pb2.Timestamp()
    since.FromJsonString("2024-05-06T07:08:09Z")
    every = duration_pb2.Duration()
    every.FromSeconds(90)
    assert converted == {
        "count": 3,
        "ratio": 2.0,
        "enabled": False,
        "name": "n",
        "since": since,
        "every": every,
        "blob": b"hello",
        "labels": {"a": 1.0},
        "items": [1.0, 2.5],
        "nested": {"weight": 4.0},
        "__in__": "x",
        "dotted__dot__name": 7,
    }
    assert type(converted["ratio"]) is float
    assert type(converted["labels"]["a"]) is float


@pytest.mark.parametrize("kind", ["integer", "boolean", "string"])
def test_a_value_of_another_type_is_given_as_it_is(kind: str) -> None:
    node = compile_schema({"type": "object", "properties": {"f": {"type": kind}}})
    for value in itertools.chain(VALUES, [{"a": 1}]):
        expected = (
            {NULL_FIELD + "f": None}
            if value is None
            else {"f": to_cel(value, node.properties["f"])}
        )
        assert _typed(to_cel({"f": value}, node)) == _typed(expected)


@pytest.mark.parametrize(
    ("format_name", "text"), [("date", "0000-01-01"), ("date-time", "0000-01-01T00:00:00Z")]
)
def test_a_time_before_year_1_reaches_the_rules_as_its_string(format_name: str, text: str) -> None:
    """Go's time.Parse reads the year 0000, a protobuf Timestamp cannot hold it: the
    string, as before the formats were read as Go reads them (it raised then)."""
    node = compile_schema({"type": "string", "format": format_name})
    invalid: list[Any] = []
    assert to_cel(text, node, False, {}, invalid) == text
    assert invalid == []
