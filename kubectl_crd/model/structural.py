"""A structural-schema check, following ``apiextensions-apiserver/pkg/apiserver/schema/validation.go``.

The API server refuses a v1 CRD whose schema is not structural. We check the rules
that matter for walking a schema safely (types everywhere they are required, items
for arrays, no type information inside value validations) and use the server's field
paths and wording, so a broken CRD file is reported the way ``kubectl apply`` would.
"""

from __future__ import annotations

from collections.abc import Mapping

from kubectl_crd.model.schema import COMPOSITION_KEYWORDS

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

#: Bump whenever the rules below change: a file's CRDs that passed the check are not
#: checked again while its content is unchanged (``sources.files``), unless this changes.
RULES_VERSION = 2

# Inside logical junctors only value validations are allowed; each other keyword is
# refused with its own words (schema/validation.go: validateNestedValueValidation),
# when it says something (an empty description, nullable: false pass).
_FORBIDDEN_IN_COMPOSITIONS: tuple[tuple[str, str], ...] = (
    ("type", "must be empty to be structural"),
    ("additionalProperties", "must be undefined to be structural"),
    ("default", "must be undefined to be structural"),
    ("title", "must be empty to be structural"),
    ("description", "must be empty to be structural"),
    ("nullable", "must be false to be structural"),
    ("x-kubernetes-preserve-unknown-fields", "must be false to be structural"),
    ("x-kubernetes-embedded-resource", "must be false to be structural"),
    ("x-kubernetes-int-or-string", "must be false to be structural"),
    ("x-kubernetes-list-map-keys", "must be empty to be structural"),
    ("x-kubernetes-list-type", "must be undefined to be structural"),
    ("x-kubernetes-map-type", "must be undefined to be structural"),
    ("x-kubernetes-validations", "must be empty to be structural"),
)


def structural_schema_errors(schema: Mapping[str, Any], path: str) -> list[str]:
    errors: list[str] = []
    _check(schema, (None, path, ""), "root", errors)
    return errors


# Where a node is, as a chain (parent, segment, name) that becomes text only when the
# node has a problem: the check visits every node of every schema on each read of a
# CRD file (35k values for the Argo Workflow CRD), and almost all of them are fine.
_Where = tuple["Any", str, str]  # quoted: Any is imported for type checkers only
_PROPERTY = ".properties["


def _text(where: _Where | None) -> str:
    parts: list[str] = []
    while where is not None:
        where, segment, name = where
        parts.append(f"{segment}{name}]" if segment == _PROPERTY else segment)
    return "".join(reversed(parts))


def _is_mapping(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def _check(node: Any, where: _Where, level: str, errors: list[str]) -> None:
    if not _is_mapping(node):
        errors.append(f"{_text(where)}: Invalid value: must be an object")
        return
    get = node.get
    type_ = get("type", "")
    int_or_string = get("x-kubernetes-int-or-string") is True
    if not type_ and not (
        int_or_string
        or get("x-kubernetes-preserve-unknown-fields") is True
        or get("x-kubernetes-embedded-resource") is True
    ):
        at = {
            "root": "at the root",
            "items": "for specified array items",
            "field": "for specified object fields",
        }[level]
        errors.append(f"{_text(where)}.type: Required value: must not be empty {at}")
    if level == "root" and type_ and type_ != "object":
        errors.append(f'{_text(where)}.type: Invalid value: "{type_}": must be object at the root')
    if type_ == "array" and "items" not in node:
        errors.append(f"{_text(where)}.items: Required value: must be specified")
    properties = get("properties")
    additional = get("additionalProperties")
    additional_schema = additional is not None and _is_mapping(additional)
    if properties and additional_schema:
        errors.append(
            f"{_text(where)}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"
        )
    if properties is not None and _is_mapping(properties):
        for name, child in properties.items():
            _check(child, (where, _PROPERTY, name), "field", errors)
    items = get("items")
    if items is not None:
        if isinstance(items, list):
            errors.append(
                f"{_text(where)}.items: Forbidden: items must be a schema object and not an array"
            )
        else:
            _check(items, (where, ".items", ""), "items", errors)
    if additional_schema:
        _check(additional, (where, ".additionalProperties", ""), "field", errors)
    for junctor in COMPOSITION_KEYWORDS:
        value = get(junctor)
        if value is None:
            continue
        branches = [value] if _is_mapping(value) else value if isinstance(value, list) else []
        for index, branch in enumerate(branches):
            at_branch = (
                (where, ".not", "") if junctor == "not" else (where, f".{junctor}[{index}]", "")
            )
            _check_value_validation(branch, at_branch, errors, int_or_string)


def _check_value_validation(
    node: Any, where: _Where, errors: list[str], int_or_string: bool = False
) -> None:
    if not _is_mapping(node):
        return
    for key, words in _FORBIDDEN_IN_COMPOSITIONS:
        # int-or-string is spelled anyOf: [{type: integer}, {type: string}] by convention.
        if key == "type" and int_or_string:
            continue
        value = node.get(key)
        if value is not None and value is not False and value != "" and value != []:
            errors.append(f"{_text(where)}.{key}: Forbidden: {words}")
    properties = node.get("properties") or {}
    for name, child in properties.items():
        _check_value_validation(child, (where, _PROPERTY, name), errors)
    if "metadata" in properties:
        # no restricting metadata from the side (validateNestedValueValidation)
        errors.append(
            f"{_text((where, _PROPERTY, 'metadata'))}: Forbidden: "
            "must not be specified in a nested context"
        )
    if _is_mapping(node.get("items")):
        _check_value_validation(node["items"], (where, ".items", ""), errors)
    for junctor in COMPOSITION_KEYWORDS:
        value = node.get(junctor)
        if value is None:
            continue
        branches = [value] if _is_mapping(value) else value if isinstance(value, list) else []
        for index, branch in enumerate(branches):
            _check_value_validation(branch, (where, f".{junctor}[{index}]", ""), errors)
