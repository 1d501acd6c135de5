"""Scalars, keys, merges and aliases decode as the API server decodes them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.io.conftest import content_of, load_one
from tests.unit.io.yaml_scalar_cases import (
    KEY_CASES,
    REJECTED_KEYS,
    REJECTED_SCALARS,
    SCALAR_CASES,
)


def same_typed(actual: Any, expected: Any) -> bool:
    return type(actual) is type(expected) and actual == expected


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize(("text", "expected"), SCALAR_CASES)
def test_scalar(text: str, expected: Any) -> None:
    value = content_of(f"v: {text}\n")["v"]
    assert same_typed(value, expected), f"{text!r} -> {value!r}, expected {expected!r}"


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize(("text", "message"), REJECTED_SCALARS)
def test_rejected_scalar(text: str, message: str) -> None:
    document = load_one(f"a: 1\nv: {text}\n")
    assert document.content is None
    assert document.error is not None
    assert document.error.message == message
    assert document.error.location is not None
    assert (document.error.location.line, document.error.location.column) == (2, 4)


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize(("text", "expected"), KEY_CASES)
def test_key(text: str, expected: str) -> None:
    assert list(content_of(f"{text}: v\n")) == [expected]


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize("text", REJECTED_KEYS)
def test_rejected_key(text: str) -> None:
    document = load_one(f"ok: 1\n{text}: v\n")
    assert document.content is None
    assert document.error is not None
    assert "key" in document.error.message
    assert document.error.location is not None
    assert document.error.location.line == 2


def test_values_are_plain_json_types() -> None:
    content = content_of("a: [1, 1.5, true, null, x, {b: c}]\n")
    assert isinstance(content, dict)
    assert isinstance(content["a"], list)
    assert content == {"a": [1, 1.5, True, None, "x", {"b": "c"}]}


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # go-yaml v2 applies "<<" where it stands: later keys win, either way round.
        ("b: &b {a: 1}\nx:\n  <<: *b\n  c: 2\n", {"a": 1, "c": 2}),
        ("a: &a {x: 1}\nb: &b {z: 2}\nm:\n  <<: [*a, *b]\n  w: 3\n", {"x": 1, "z": 2, "w": 3}),
        ("m:\n  <<: {x: 1}\n  w: 2\n", {"x": 1, "w": 2}),
        ("m:\n  !!merge <<: {a: 1}\n", {"a": 1}),
        # a quoted "<<" is an ordinary key
        ("m:\n  '<<': 1\n", {"<<": 1}),
    ],
)
def test_merge_keys(text: str, expected: dict[str, Any]) -> None:
    document = load_one(text)
    assert document.error is None
    assert document.content["x" if text.startswith("b:") else "m"] == expected


@pytest.mark.parametrize(
    ("text", "value", "first_line"),
    [
        # Overriding a merged key is what strict decoding ("key already set in map")
        # rejects; the value is still go-yaml's non-strict result.
        ("b: &b {a: 1}\nx:\n  a: 2\n  <<: *b\n", {"a": 1}, 3),
        ("b: &b {a: 1}\nx:\n  <<: *b\n  a: 2\n", {"a": 2}, 1),
        ("a: &a {x: 1}\nb: &b {x: 2}\nm:\n  <<: [*a, *b]\n", {"x": 1}, 2),
    ],
)
def test_merge_overrides_are_reported_like_strict_decoding(
    text: str, value: dict[str, Any], first_line: int
) -> None:
    document = load_one(text)
    assert document.error is not None
    assert "duplicate field" in document.error.message
    assert f"first at line {first_line}" in document.error.message
    assert document.content["x" if text.startswith("b:") else "m"] == value


@pytest.mark.parametrize("text", ["m:\n  <<: 1\n", "m:\n  <<: [1]\n", "m:\n  <<: [{a: 1}, x]\n"])
def test_merge_needs_mappings(text: str) -> None:
    document = load_one(text)
    assert document.error is not None
    assert document.error.message == "map merge requires map or sequence of maps as the value"


def test_aliases_are_copies() -> None:
    content = content_of("a: &x {b: [1, 2]}\nc: *x\nd: &s hello\ne: *s\n")
    assert content["c"] == {"b": [1, 2]}
    assert content["e"] == "hello"
    content["c"]["b"].append(3)
    assert content["a"] == {"b": [1, 2]}


def test_alias_positions_point_at_the_anchor_and_the_use() -> None:
    content = content_of("a: &x\n  b: 1\nc: *x\n")
    assert content.value_location("c").line == 3
    assert content["c"].key_location("b").line == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: &a 1.5\nm: {*a : x}\n", "1.5"),
        # an alias used as a key converts the value the key way, not the JSON way
        ("a: &a 1e6\nm: {*a : x}\n", "1e+06"),
        ("&a .inf : 1\nm: {*a : x}\n", ".inf"),
    ],
)
def test_alias_as_key(text: str, expected: str) -> None:
    assert list(content_of(text)["m"]) == [expected]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: *nope\n", "unknown anchor 'nope' referenced"),
        ("a: &a [*a]\n", "anchor 'a' value contains itself"),
        ("a: &a .inf\nb: *a\n", "json: unsupported value: +Inf"),
        ("a: &a {x: 1}\n*a : x\n", "invalid map key: alias 'a' is not a scalar"),
    ],
)
def test_bad_aliases(text: str, message: str) -> None:
    document = load_one(text)
    assert document.content is None
    assert document.error is not None
    assert document.error.message == message


def test_complex_keys_that_are_scalars_work() -> None:
    assert content_of("? |\n  multi\n: 1\n") == {"multi\n": 1}
