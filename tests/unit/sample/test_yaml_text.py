"""The sample emitter: strings survive a YAML 1.1 reader (go-yaml, as kubectl) and a 1.2 one."""

from __future__ import annotations

import io
from typing import Any

import pytest
import yaml  # PyYAML: YAML 1.1 resolution rules, like go-yaml v2 in kubectl
from ruamel.yaml import YAML

from kubectl_crd.model.sample.yaml_text import dump, quote_scalar

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
        ("a b", False),
        ("", False),
    ],
)
def test_only_simple_words_are_plain(value: str, plain: bool) -> None:
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
