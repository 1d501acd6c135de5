"""Parsing ``RESOURCE.a.b`` as kubectl's JSONPath, and walking a published schema."""

from __future__ import annotations

import pytest

from kubectl_crd.model.errors import FieldNotFoundError, FieldPathSyntaxError
from kubectl_crd.model.explain.fieldpath import parse_fields, walk
from tests.unit.explain.conftest import published


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("crontabs", ["crontabs"]),
        ("crontabs.spec.cronSpec", ["crontabs", "spec", "cronSpec"]),
        ("crontabs.spec.", ["crontabs", "spec"]),  # one trailing dot is ignored
        (r"crontabs.metadata.labels.a\.b", ["crontabs", "metadata", "labels", "a.b"]),
        ("crontabs.spec['x']", ["crontabs", "spec", "x"]),
        ("crontabs.spec['x.y']", ["crontabs", "spec", "x", "y"]),  # client-go re-parses the key
        ("crontabs.spec.1st", ["crontabs", "spec", "1st"]),
        ("crontabs.spec-x", ["crontabs", "spec-x"]),
    ],
)
def test_parse_fields(text: str, expected: list[str]) -> None:
    assert parse_fields(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("crontabs.spec[0]", "invalid jsonpath syntax, all nodes must be field nodes"),
        ("crontabs.spec.*", "invalid jsonpath syntax, all nodes must be field nodes"),
        ("crontabs..spec", "invalid jsonpath syntax, all nodes must be field nodes"),
        (".crontabs", "invalid jsonpath syntax, first node must be field node"),
        ("crontabs.spec[0", "unterminated array"),
        ("crontabs}", "must pass in 1 jsonpath string"),
    ],
)
def test_parse_fields_rejects_what_kubectl_rejects(text: str, message: str) -> None:
    with pytest.raises(FieldPathSyntaxError) as excinfo:
        parse_fields(text)
    assert str(excinfo.value) == message


REF = "#/components/schemas/Thing"


OBJ = {
    "type": "object",
    "properties": {
        "list": {
            "type": "array",
            "items": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
        "map": {
            "type": "object",
            "additionalProperties": {"type": "object", "properties": {"port": {"type": "integer"}}},
        },
        "ref": {"description": "wrapped", "allOf": [{"$ref": REF}]},
        "loop": {"$ref": "#/components/schemas/Loop"},
        "empty": {},
    },
}
THING = {"type": "object", "properties": {"inner": {"type": "string"}}}
LOOP = {"type": "array", "items": {"$ref": "#/components/schemas/Loop"}}


@pytest.mark.parametrize(
    ("path", "via"),
    [
        (["list", "name"], ("items",)),  # an array does not consume a path element
        (["map", "port"], ("additionalProperties",)),  # nor does a map
        (["ref", "inner"], ("allOf[0]", f"$ref:{REF}")),
    ],
)
def test_walk_goes_through_items_maps_allof_and_refs(path: list[str], via: tuple[str, ...]) -> None:
    steps = walk(published(OBJ, Thing=THING, Loop=LOOP), path)
    assert [s.name for s in steps] == path
    assert steps[-1].via == via


@pytest.mark.parametrize(
    ("path", "missing", "found"),
    [
        (["nope"], "nope", []),
        (["list", "nope", "deeper"], "nope", ["list"]),
        (["loop", "x"], "x", ["loop"]),  # a $ref cycle ends the walk
        (["empty"], "empty", []),  # kubectl treats an empty schema as absent
    ],
)
def test_walk_reports_where_it_stopped(path: list[str], missing: str, found: list[str]) -> None:
    with pytest.raises(FieldNotFoundError) as excinfo:
        walk(published(OBJ, Thing=THING, Loop=LOOP), path)
    assert excinfo.value.field == missing
    assert [s.name for s in excinfo.value.found] == found
