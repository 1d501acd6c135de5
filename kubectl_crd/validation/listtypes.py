"""List-type uniqueness: ``x-kubernetes-list-type: set`` and ``map``.

Mirrors ``apiextensions-apiserver/pkg/apiserver/schema/listtype/validation.go``:
the second occurrence of a value (or of a map key tuple) is reported once as
``Duplicate value``, with the key fields as the value for maps; a non-object item in
a map list is ``must be an object for an array of list-type map``. Values compare as
Go compares them: an int64 1 and a float64 1.0 differ, and so do true and 1.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.model.govalues import bad_value, go_json
from kubectl_crd.validation import paths
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.paths import Chain
from kubectl_crd.validation.results import Reason

Found = list[tuple[str, str, str, Chain]]  # (field, reason, message, chain)


def validate_list_types(node: SchemaNode, obj: Any) -> Found:
    found: Found = []
    if node.subtree_list_types and isinstance(obj, dict):
        _object(node, obj, None, found)
    return found


def _object(node: SchemaNode, obj: dict[str, Any], chain: Chain, found: Found) -> None:
    additional = node.additional
    if additional is not None:
        for key, value in obj.items():
            _value(additional, value, paths.map_key(chain, key), found)
    if node.properties:
        for key, value in obj.items():
            sub = node.properties.get(key)
            if sub is not None and sub.subtree_list_types:
                _value(sub, value, paths.child(chain, key), found)


def _value(node: SchemaNode, obj: Any, chain: Chain, found: Found) -> None:
    if not node.subtree_list_types:
        return
    if isinstance(obj, list):
        _array(node, obj, chain, found)
    elif isinstance(obj, dict):
        _object(node, obj, chain, found)


def _identity(value: Any) -> Any:
    if isinstance(value, dict | list):
        return ("json", go_json(value))
    return (type(value).__name__, value)


def _non_unique(values: list[Any]) -> list[int]:
    if len(values) <= 1:
        return []
    seen: dict[Any, int] = {}
    out = []
    for position, value in enumerate(values):
        key = _identity(value)
        times = seen.get(key, 0)
        if times == 1:
            out.append(position)
        seen[key] = times + 1
    return out


def _duplicate(chain: Chain, position: int, value: Any, found: Found) -> None:
    where = paths.index(chain, position)
    field = paths.field_path(where)
    found.append((field, Reason.DUPLICATE, f"{field}: Duplicate value: {bad_value(value)}", where))


_UNSPECIFIED = ("unspecified", None)


def _array(node: SchemaNode, obj: list[Any], chain: Chain, found: Found) -> None:
    if node.list_type == "set":
        for position in _non_unique(obj):
            _duplicate(chain, position, obj[position], found)
    elif node.list_type == "map":
        _map(node, obj, chain, found)
    if node.items is not None:
        for position, item in enumerate(obj):
            _value(node.items, item, paths.index(chain, position), found)


def _map(node: SchemaNode, obj: list[Any], chain: Chain, found: Found) -> None:
    for position, item in enumerate(obj):
        if item is not None and not isinstance(item, dict):
            where = paths.index(chain, position)
            field = paths.field_path(where)
            message = (
                f"{field}: Invalid value: {bad_value(item)}: "
                "must be an object for an array of list-type map"
            )
            found.append((field, Reason.INVALID, message, where))
            return
    if len(obj) <= 1:
        return
    if len(node.map_keys) == 1:
        key_field = node.map_keys[0]
        keys: list[Any] = [
            item[key_field] if isinstance(item, dict) and key_field in item else _UNSPECIFIED
            for item in obj
        ]
        for position in _non_unique(keys):
            key = keys[position]
            _duplicate(chain, position, {} if key is _UNSPECIFIED else {key_field: key}, found)
        return
    tuples = [
        {k: item[k] for k in node.map_keys if k in item} if isinstance(item, dict) else {}
        for item in obj
    ]
    for position in _non_unique(tuples):
        _duplicate(chain, position, tuples[position], found)
