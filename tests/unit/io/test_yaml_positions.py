"""Every key, value, item and document knows its file, line and column."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from kubectl_crd.io import YamlList, YamlMap, locate, locate_field
from kubectl_crd.model.errors import Location
from tests.unit.io.conftest import content_of, load

TEXT = """\
# a comment
apiVersion: v1
kind: Thing
spec:
  name: "x"
  ports:
  - 80
  - {port: 443, name: https}
  empty:
  flow: [a, b]
"""


def at(line: int, column: int) -> Location:
    return Location("test.yaml", line, column)


@pytest.mark.usefixtures("backend")
def test_keys_values_and_items() -> None:
    content = content_of(TEXT)
    assert isinstance(content, YamlMap)
    assert content.location == at(2, 1)
    assert content.key_location("kind") == at(3, 1)
    assert content.value_location("kind") == at(3, 7)
    spec = content["spec"]
    assert spec.location == at(5, 3)
    assert content.value_location("spec") == at(5, 3)
    assert spec.key_location("name") == at(5, 3)
    assert spec.value_location("name") == at(5, 9)
    assert spec.value_location("empty").line == 9
    ports = spec["ports"]
    assert isinstance(ports, YamlList)
    assert ports.location == at(7, 3)
    assert ports.item_location(0) == at(7, 5)
    assert ports.item_location(1) == at(8, 5)
    assert ports[1].key_location("name") == at(8, 17)
    assert spec["flow"].item_location(1) == at(10, 13)


@pytest.mark.usefixtures("backend")
def test_unknown_parts_have_no_location() -> None:
    content = content_of(TEXT)
    assert content.key_location("missing") is None
    assert content["spec"]["ports"].item_location(7) is None
    assert content["spec"]["ports"].item_location(-1) is None
    assert YamlMap().location is None


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ([], at(2, 1), at(2, 1)),
        (["kind"], at(3, 7), at(3, 1)),
        (["spec"], at(5, 3), at(4, 1)),
        (["spec", "ports", 1, "port"], at(8, 12), at(8, 6)),
        (["spec", "ports", "1", "port"], at(8, 12), at(8, 6)),
        # past what exists: the nearest existing ancestor
        (["spec", "ports", 9], at(7, 3), at(6, 3)),
        (["spec", "nope", "deeper"], at(5, 3), at(4, 1)),
        (["kind", "not-a-map"], at(3, 7), at(3, 1)),
    ],
)
def test_locate(path: list[str | int], value: Location, field: Location) -> None:
    content = content_of(TEXT)
    assert locate(content, path) == value
    assert locate_field(content, path) == field


def test_locate_without_positions() -> None:
    assert locate({"a": {"b": 1}}, ["a", "b"]) is None


@pytest.mark.usefixtures("backend")
def test_documents_in_a_multi_document_file() -> None:
    documents = load("a: 1\n---\n# only a comment\n---\n\n  b: 2\n...\n---\n- x\n---  \nc: 3\n")
    assert [(d.index, d.location.line, d.location.column) for d in documents] == [
        (0, 1, 1),
        (2, 6, 3),
        (3, 9, 1),
        (4, 11, 1),
    ]
    assert documents[1].content.key_location("b") == at(6, 3)


def test_columns_count_characters_not_bytes() -> None:
    content = content_of("é: ünïcode\nk: [ä, ö]\n")
    assert content.value_location("é") == at(1, 4)
    assert content["k"].item_location(1) == at(2, 8)


def test_json_positions() -> None:
    content = content_of('{\n  "a": {"b": [1,\n    2]}\n}\n')
    assert content["a"].key_location("b") == at(2, 9)
    assert content["a"]["b"].item_location(1) == at(3, 5)


def test_containers_behave_as_plain_values() -> None:
    content = content_of(TEXT)
    assert json.loads(json.dumps(content))["spec"]["ports"][1] == {"port": 443, "name": "https"}
    for clone in (copy.deepcopy(content), pickle.loads(pickle.dumps(content))):
        assert clone == content
        assert clone["spec"].value_location("name") == at(5, 9)
    assert "YamlMap(" in repr(content)


PLAIN_CASES = {
    "values": TEXT + "---\nkind: Other\nitems: [1, {a: &x [b]}, *x]\n",
    "duplicate key": "kind: A\nspec: 1\nspec: 2\n",
    "merge": "base: &b {x: 1}\nkind: A\nspec:\n  <<: *b\n  y: 2\n",
    "list": "kind: List\nitems:\n- kind: A\n- kind: B\n",
    "syntax error": "kind: A\n---\nkind: [\n",
}


@pytest.mark.parametrize("text", PLAIN_CASES.values(), ids=PLAIN_CASES.keys())
def test_a_plain_build_is_the_same_values(text: str) -> None:
    """``positions=False`` builds plain values equal to the positioned ones; where only
    positions can tell (a duplicate key's first line, a merge, a List's items, errors)
    the file is read with them."""
    from kubectl_crd.io import load_documents

    with_positions = load_documents(text, "test.yaml")
    plain = load_documents(text, "test.yaml", positions=False)

    def described(documents: list[Any]) -> list[Any]:
        return [(d.index, d.location, [(str(e), e.location) for e in d.errors]) for d in documents]

    assert described(plain) == described(with_positions)
    assert [d.content for d in plain] == [d.content for d in with_positions]
    needs_positions = any(
        not d.ok or d.content.get("kind") == "List" or "<<" in text for d in with_positions
    )
    assert all(d.has_positions == needs_positions for d in plain if d.content is not None)
