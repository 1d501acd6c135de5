"""The one YAML writer: strings survive a YAML 1.1 reader (go-yaml, as kubectl) and a 1.2 one."""

from __future__ import annotations

import io
from typing import Any

import pytest
import yaml  # PyYAML: YAML 1.1 resolution rules, like go-yaml v2 in kubectl
from ruamel.yaml import YAML

from kubectl_crd.io.dumping import dump_yaml as dump
from kubectl_crd.io.dumping import quote_scalar

TRICKY = [
    "yes",
    "No",
    "on",
    "OFF",
    "y",
    "n",
    "true",
    "False",
    "null",
    "Null",
    "~",
    "",
    "0755",
    "0x1F",
    "1_000",
    "1.0",
    ".5",
    "1e3",
    "-1",
    "+1",
    ".inf",
    "-.Inf",
    ".NaN",
    "2024-01-01",
    "2001-12-14t21:59:43.10-05:00",
    "12:30:45",
    "=",
    "<<",
    "*",
    "&a",
    "!tag",
    "- item",
    "? key",
    ": x",
    "a: b",
    "a #b",
    "#c",
    "%x",
    "@x",
    "`x",
    "|",
    ">",
    "'",
    '"',
    "[a]",
    "{a: b}",
    "a,b",
    " leading",
    "trailing ",
    "multi\nline",
    "tab\there",
    "back\\slash",
    "unicode \u00e9\u4e2d",
    "nel\x85",
    "ls\u2028",
    "bell\x07",
    "example",
    "example.com/x",
    "app.kubernetes.io/name",
    "_under",
    "Service",
]


def load_11(text: str) -> Any:
    return yaml.safe_load(text)


def load_12(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(io.StringIO(text))


@pytest.mark.parametrize("value", TRICKY)
def test_strings_read_back_as_the_same_string(value: str) -> None:
    text = dump({"key": value, value or "empty": 1})
    for loader in (load_11, load_12):
        assert loader(text) == {"key": value, value or "empty": 1}


@pytest.mark.parametrize(
    ("value", "plain"),
    [
        ("example", True),
        ("Service", True),
        ("a/b.c-d_e", True),
        ("yes", False),
        ("1", False),
        ("2024-01-01", False),
        ("a b", True),
        ("A sentence, with:colons, a#sign - and [brackets].", True),
        ("ends with:", False),
        ("a: b", False),
        ("a #b", False),
        ("Yes please", True),
        ("", False),
    ],
)
def test_only_text_no_reader_can_misread_is_plain(value: str, plain: bool) -> None:
    assert (quote_scalar(value) == value) is plain


def test_structure_and_scalars_round_trip() -> None:
    value = {
        "apiVersion": "example.com/v1",
        "spec": {
            "count": 3,
            "ratio": 0.5,
            "enabled": False,
            "nothing": None,
            "empty": {},
            "none": [],
            "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}],
            "matrix": [[1, 2], [], [{"a": "b"}]],
            "tags": ["a", "yes"],
        },
    }
    text = dump(value)
    assert load_11(text) == value
    assert load_12(text) == value


def test_comments_sit_above_their_key_and_cannot_break_out() -> None:
    value = {"spec": {"ports": [{"name": "http", "port": 80}], "size": 1}}
    comments = {
        ("spec",): ["The spec.", "(required)"],
        ("spec", "ports"): ["Ports\nwith: newline\u2028and # signs"],
        ("spec", "ports", 0, "name"): ["Port name."],
        ("spec", "ports", 0, "port"): ["Port number."],
    }
    text = dump(value, comments=comments, header=["Header line"])
    assert text.splitlines() == [
        "# Header line",
        "# The spec.",
        "# (required)",
        "spec:",
        "  # Ports with: newline and # signs",
        "  ports:",
        "    # Port name.",
        "    - name: http",
        "      # Port number.",
        "      port: 80",
        "  size: 1",
    ]
    assert load_11(text) == value
    assert load_12(text) == value


MULTI_LINE = [
    "first line\nsecond line",
    "first line\nsecond line\n",
    "with\n\nblank line inside",
    "# not a comment\n- not an item\nkey: not a key",
    "trailing blank \nline",
    "\nleading break",
    " leading space\nline",
    "two breaks\nat the end\n\n",
    "tab\tinside\nline",
]


@pytest.mark.parametrize("value", MULTI_LINE)
def test_multi_line_strings_read_back_exactly(value: str) -> None:
    document = {"key": value, "list": [value, {"nested": value}]}
    text = dump(document)
    for loader in (load_11, load_12):
        assert loader(text) == document


def test_multi_line_descriptions_are_literal_blocks() -> None:
    text = dump({"description": "line one\nline two", "items": ["a\nb\n"]})
    assert text == "description: |-\n  line one\n  line two\nitems:\n  - |\n    a\n    b\n"


@pytest.mark.parametrize("value", ["nan", "inf", "NaN", "Infinity"])
def test_words_the_go_yaml_resolver_keeps_as_strings_are_plain(value: str) -> None:
    assert quote_scalar(value) == value
    assert load_11(dump({"k": value})) == {"k": value}
    assert load_12(dump({"k": value})) == {"k": value}


@pytest.mark.parametrize("value", MULTI_LINE)
def test_a_whole_document_can_be_a_multi_line_string(value: str) -> None:
    for loader in (load_11, load_12):
        assert loader(dump(value)) == value


def test_random_strings_read_back_exactly() -> None:
    import random

    rng = random.Random(7)
    alphabet = "aZ9_/.-:# ,'\"[]{}!&*?|>%@`~=<\n\t\\\u00e9\x85"
    words = ["yes", "no", "on", "null", "true", "1", "0x1", "1e3", ".inf", "2024-01-01", "y"]
    for _ in range(3000):
        pieces = [
            rng.choice(words) if rng.random() < 0.2 else rng.choice(alphabet)
            for _ in range(rng.randrange(8))
        ]
        value = "".join(pieces)
        document = {"k": value, "l": [value], f"key{value}": 1}
        text = dump(document)
        assert load_11(text) == document, text
        assert load_12(text) == document, text
