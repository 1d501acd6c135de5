"""A structural-schema check, following ``apiextensions-apiserver/pkg/apiserver/schema/validation.go``.

The API server refuses a v1 CRD whose schema is not structural. We check the rules
that matter for walking a schema safely (types everywhere they are required, items
for arrays, no type information inside value validations) and use the server's field
paths and wording, so a broken CRD file is reported the way ``kubectl apply`` would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_JUNCTORS = ("allOf", "anyOf", "oneOf", "not")
# Inside logical junctors only value validations are allowed.
_FORBIDDEN_IN_JUNCTORS = (
    "type",
    "default",
    "description",
    "nullable",
    "additionalProperties",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
)


def structural_schema_errors(schema: Mapping[str, Any], path: str) -> list[str]:
    errors: list[str] = []
    _check(schema, path, "root", errors)
    return errors


def _check(node: Any, path: str, level: str, errors: list[str]) -> None:
    if not isinstance(node, Mapping):
        errors.append(f"{path}: Invalid value: must be an object")
        return
    type_ = node.get("type", "")
    int_or_string = node.get("x-kubernetes-int-or-string") is True
    preserve = node.get("x-kubernetes-preserve-unknown-fields") is True
    embedded = node.get("x-kubernetes-embedded-resource") is True
    if not type_ and not (int_or_string or preserve or embedded):
        where = {
            "root": "at the root",
            "items": "for specified array items",
            "field": "for specified object fields",
        }[level]
        errors.append(f"{path}.type: Required value: must not be empty {where}")
    if level == "root" and type_ and type_ != "object":
        errors.append(f'{path}.type: Invalid value: "{type_}": must be object at the root')
    if type_ == "array" and "items" not in node:
        errors.append(f"{path}.items: Required value: must be specified")
    properties = node.get("properties")
    additional = node.get("additionalProperties")
    if properties and isinstance(additional, Mapping):
        errors.append(
            f"{path}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"
        )
    if isinstance(properties, Mapping):
        for name, child in properties.items():
            _check(child, f"{path}.properties[{name}]", "field", errors)
    items = node.get("items")
    if items is not None:
        if isinstance(items, list):
            errors.append(
                f"{path}.items: Forbidden: items must be a schema object and not an array"
            )
        else:
            _check(items, f"{path}.items", "items", errors)
    if isinstance(additional, Mapping):
        _check(additional, f"{path}.additionalProperties", "field", errors)
    for junctor in _JUNCTORS:
        value = node.get(junctor)
        branches = (
            [value] if isinstance(value, Mapping) else value if isinstance(value, list) else []
        )
        for index, branch in enumerate(branches):
            where = f"{path}.{junctor}" if junctor == "not" else f"{path}.{junctor}[{index}]"
            _check_value_validation(branch, where, errors, int_or_string)


def _check_value_validation(
    node: Any, path: str, errors: list[str], int_or_string: bool = False
) -> None:
    if not isinstance(node, Mapping):
        return
    for key in _FORBIDDEN_IN_JUNCTORS:
        # int-or-string is spelled anyOf: [{type: integer}, {type: string}] by convention.
        if key == "type" and int_or_string:
            continue
        if key in node:
            errors.append(f"{path}.{key}: Forbidden: must be empty to be structural")
    for name, child in (node.get("properties") or {}).items():
        _check_value_validation(child, f"{path}.properties[{name}]", errors)
    if isinstance(node.get("items"), Mapping):
        _check_value_validation(node["items"], f"{path}.items", errors)
    for junctor in _JUNCTORS:
        value = node.get(junctor)
        branches = (
            [value] if isinstance(value, Mapping) else value if isinstance(value, list) else []
        )
        for index, branch in enumerate(branches):
            _check_value_validation(branch, f"{path}.{junctor}[{index}]", errors)
