"""Systematic mutations of a custom resource, guided by its CRD version's schema.

Each mutation kind changes one value of the object where the schema says something
checkable about it (a bound, an enum, a pattern, a format, a required key, a list
type, nullability, an embedded resource) or changes its metadata. The walk visits
the object in document order and takes the first ``limit`` places per kind, so the
cases are deterministic.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from kubectl_crd.validation.compiled import SchemaNode

Path = tuple[str | int, ...]
KINDS = (
    "original",
    "wrong-type",
    "out-of-bounds",
    "bad-enum",
    "bad-pattern",
    "bad-format",
    "missing-required",
    "unknown-field",
    "duplicate-map-item",
    "duplicate-set-item",
    "null-non-nullable",
    "null-nullable",
    "bad-name",
    "generate-name",
    "bad-labels",
    "bad-embedded",
    "cel-drop-field",
    "cel-empty-value",
    "cel-add-field",
    "cel-change-value",
)
#: the kinds that exercise x-kubernetes-validations rules: at a node with rules, one
#: change at a time to what the rules read
CEL_KINDS = ("cel-drop-field", "cel-empty-value", "cel-add-field", "cel-change-value")
_EMPTY = {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}
_FILLED = {"string": "x", "integer": 1, "number": 1.5, "boolean": True, "array": [], "object": {}}


def _walk(node: SchemaNode, value: Any, path: Path) -> Iterator[tuple[SchemaNode, Any, Path]]:
    yield node, value, path
    if isinstance(value, dict):
        for key, child in value.items():
            sub = node.properties.get(key) or node.additional
            if sub is not None and not (not path and key in ("apiVersion", "kind", "metadata")):
                yield from _walk(sub, child, (*path, key))
    elif isinstance(value, list) and node.items is not None:
        for index, child in enumerate(value):
            yield from _walk(node.items, child, (*path, index))


def _set(obj: Any, path: Path, value: Any) -> Any:
    new = copy.deepcopy(obj)
    target = new
    for segment in path[:-1]:
        target = target[segment]
    target[path[-1]] = value
    return new


def _delete(obj: Any, path: Path) -> Any:
    new = copy.deepcopy(obj)
    target = new
    for segment in path[:-1]:
        target = target[segment]
    del target[path[-1]]
    return new


def _not_matching(pattern_re: Any) -> str | None:
    for candidate in ("!! not valid !!", "", "0", "a", "UPPER lower", "-", "x" * 300):
        if pattern_re.search(candidate) is None:
            return candidate
    return None


_BAD_FORMAT = {
    "date": "2024-13-45",
    "datetime": "yesterday",
    "date-time": "yesterday",
    "duration": "soon",
    "uri": "not a uri",
    "email": "not-an-email",
    "hostname": "-bad-.host",
    "ipv4": "300.1.1.1",
    "ipv6": "zz::1",
    "cidr": "10.0.0.0/99",
    "mac": "zz:zz",
    "uuid": "not-a-uuid",
    "byte": "!!!",
    "int32": 3000000000,
}


def mutations(
    node: SchemaNode,
    obj: dict[str, Any],
    limit: int = 2,
    *,
    ruled: frozenset[int] = frozenset(),
    cel_limit: int = 0,
) -> Iterator[tuple[str, Any]]:
    """``ruled`` holds the ids of the schema nodes that carry rules; ``cel_limit`` how
    many places each CEL kind takes."""
    yield "original", obj
    places = list(_walk(node, obj, ()))
    counts: dict[str, int] = {}

    def take(kind: str) -> bool:
        counts[kind] = counts.get(kind, 0) + 1
        return counts[kind] <= (cel_limit if kind in CEL_KINDS else limit)

    for sub, value, path in places:
        if id(sub) in ruled:
            yield from _cel_mutations(sub, value, path, obj, take)

    for sub, value, path in places:
        if not path:
            continue
        types = sub.types
        if types == ("string",) and isinstance(value, str) and take("wrong-type"):
            yield "wrong-type", _set(obj, path, 12345)
        elif types == ("integer",) and isinstance(value, int) and take("wrong-type"):
            yield "wrong-type", _set(obj, path, "twelve")
        elif types == ("boolean",) and isinstance(value, bool) and take("wrong-type"):
            yield "wrong-type", _set(obj, path, "yes")
        elif types == ("object",) and isinstance(value, dict) and take("wrong-type"):
            yield "wrong-type", _set(obj, path, ["not", "an", "object"])
        if isinstance(value, int | float) and not isinstance(value, bool):
            if sub.maximum is not None and take("out-of-bounds"):
                yield "out-of-bounds", _set(obj, path, int(sub.maximum) + 1)
            if sub.minimum is not None and take("out-of-bounds"):
                yield "out-of-bounds", _set(obj, path, int(sub.minimum) - 1)
        if isinstance(value, str):
            if sub.max_length is not None and take("out-of-bounds"):
                yield "out-of-bounds", _set(obj, path, "a" * (sub.max_length + 1))
            if sub.min_length and take("out-of-bounds"):
                yield "out-of-bounds", _set(obj, path, "")
            if sub.enum and take("bad-enum"):
                yield "bad-enum", _set(obj, path, "NotAnAllowedValue")
            if sub.pattern_re is not None:
                bad = _not_matching(sub.pattern_re)
                if bad is not None and take("bad-pattern"):
                    yield "bad-pattern", _set(obj, path, bad)
            if sub.format in _BAD_FORMAT and take("bad-format"):
                yield "bad-format", _set(obj, path, _BAD_FORMAT[sub.format])
        if isinstance(value, list):
            if sub.max_items is not None and value and take("out-of-bounds"):
                yield "out-of-bounds", _set(obj, path, value * (sub.max_items + 1))
            if sub.list_type == "map" and value and take("duplicate-map-item"):
                yield "duplicate-map-item", _set(obj, path, [*value, copy.deepcopy(value[0])])
            if sub.list_type == "set" and value and take("duplicate-set-item"):
                yield "duplicate-set-item", _set(obj, path, [*value, copy.deepcopy(value[0])])
        if isinstance(value, dict):
            for key in sub.required:
                if key in value and take("missing-required"):
                    yield "missing-required", _delete(obj, (*path, key))
                    break
            if (
                not sub.preserve_unknown
                and sub.additional is None
                and sub.properties
                and take("unknown-field")
            ):
                yield "unknown-field", _set(obj, (*path, "unknownFieldForTest"), 1)
            if sub.embedded and take("bad-embedded"):
                yield "bad-embedded", _set(obj, (*path, "kind"), "")
                if "apiVersion" in value:
                    yield "bad-embedded", _delete(obj, (*path, "apiVersion"))
        if isinstance(value, dict) and not sub.preserve_unknown:
            yield from _insertions(sub, value, path, obj, take)
        if value is not None and take("null-non-nullable" if not sub.nullable else "null-nullable"):
            kind = "null-nullable" if sub.nullable else "null-non-nullable"
            yield kind, _set(obj, path, None)

    metadata = obj.get("metadata") or {}
    yield "bad-name", _set(obj, ("metadata",), {**metadata, "name": "Bad_Name.example"})
    without_name = {k: v for k, v in metadata.items() if k != "name"}
    yield "generate-name", _set(obj, ("metadata",), {**without_name, "generateName": "gen-"})
    yield "generate-name", _set(obj, ("metadata",), {**without_name, "generateName": "Gen_"})
    yield "generate-name", _set(obj, ("metadata",), without_name)
    yield (
        "bad-labels",
        _set(obj, ("metadata",), {**metadata, "labels": {"bad key!": "v", "ok": "bad value!"}}),
    )
    yield "bad-labels", _set(obj, ("metadata",), {**metadata, "labels": {"n": 5}})
    yield "unknown-field", _set(obj, ("metadata",), {**metadata, "unknownMeta": "x"})
    yield "unknown-field", _set(obj, ("unknownTopLevel",), {"a": 1})


def _insertions(
    node: SchemaNode, value: dict[str, Any], path: Path, obj: Any, take: Any
) -> Iterator[tuple[str, Any]]:
    """Bad values for declared properties the object leaves out (more templates covered)."""
    for key, sub in node.properties.items():
        if key in value:
            continue
        where = (*path, key)
        if sub.format in _BAD_FORMAT and take("bad-format"):
            yield "bad-format", _set(obj, where, _BAD_FORMAT[sub.format])
        elif sub.enum and sub.types == ("string",) and take("bad-enum"):
            yield "bad-enum", _set(obj, where, "NotAnAllowedValue")
        elif sub.pattern_re is not None and take("bad-pattern"):
            bad = _not_matching(sub.pattern_re)
            if bad is not None:
                yield "bad-pattern", _set(obj, where, bad)
        elif sub.types in (("integer",), ("number",)) and take("out-of-bounds"):
            if sub.maximum is not None:
                yield "out-of-bounds", _set(obj, where, int(sub.maximum) + 1)
            elif sub.minimum is not None:
                yield "out-of-bounds", _set(obj, where, int(sub.minimum) - 1)
            elif sub.multiple_of is not None:
                yield "out-of-bounds", _set(obj, where, sub.multiple_of * 1.5 + 0.25)
            else:
                yield "wrong-type", _set(obj, where, 1.5 if sub.types == ("integer",) else "1")
        elif sub.types == ("array",) and take("out-of-bounds"):
            if sub.min_items:
                yield "out-of-bounds", _set(obj, where, [])
            else:
                yield "wrong-type", _set(obj, where, {"not": "a list"})
        elif sub.types == ("object",) and sub.required and take("missing-required"):
            yield "missing-required", _set(obj, where, {})
        elif sub.types == ("integer", "string") and take("wrong-type"):
            yield "wrong-type", _set(obj, where, True)


def _kind(node: SchemaNode) -> str:
    return node.types[0] if len(node.types) == 1 else "string"


def _cel_mutations(
    node: SchemaNode, value: Any, path: Path, obj: Any, take: Any
) -> Iterator[tuple[str, Any]]:
    """Changes a node's rules read: its fields dropped, emptied, added, or its value changed."""
    if isinstance(value, dict) and node.properties:
        for key in list(value):
            if key not in node.properties:
                continue
            child = node.properties[key]
            if key not in node.required and take("cel-drop-field"):
                yield "cel-drop-field", _delete(obj, (*path, key))
            empty = _EMPTY.get(_kind(child))
            if empty is not None and value[key] != empty and take("cel-empty-value"):
                yield "cel-empty-value", _set(obj, (*path, key), copy.deepcopy(empty))
            if child.enum and take("cel-change-value"):
                others = [e for e in child.enum if e != value[key]]
                if others:
                    yield "cel-change-value", _set(obj, (*path, key), others[-1])
        for key, child in node.properties.items():
            if key not in value and take("cel-add-field"):
                filled = child.enum[0] if child.enum else _FILLED.get(_kind(child), "x")
                yield "cel-add-field", _set(obj, (*path, key), copy.deepcopy(filled))
    elif path:
        empty = _EMPTY.get(_kind(node))
        if empty is not None and value != empty and take("cel-empty-value"):
            yield "cel-empty-value", _set(obj, path, copy.deepcopy(empty))
        if isinstance(value, list) and value and take("cel-change-value"):
            yield "cel-change-value", _set(obj, path, [*value, copy.deepcopy(value[0])])
        elif isinstance(value, str) and take("cel-change-value"):
            yield "cel-change-value", _set(obj, path, value + "-x")
        elif isinstance(value, int) and not isinstance(value, bool) and take("cel-change-value"):
            yield "cel-change-value", _set(obj, path, value + 1000)
