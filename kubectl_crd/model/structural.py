"""A structural-schema check, following ``apiextensions-apiserver/pkg/apiserver/schema/validation.go``.

The API server refuses a v1 CRD whose schema is not structural. We check the rules
that matter for walking a schema safely (types everywhere they are required, items
for arrays, no type information inside value validations) and use the server's field
paths and wording, so a broken CRD file is reported the way ``kubectl apply`` would.
"""

from __future__ import annotations

from collections.abc import Mapping

from kubectl_crd.model.schema import COMPOSITION_KEYWORDS, INT_OR_STRING_ANY_OF

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

#: Bump whenever the rules below change: a file's CRDs that passed the check are not
#: checked again while its content is unchanged (``sources.files``), unless this changes.
RULES_VERSION = 3

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
    embedded = get("x-kubernetes-embedded-resource") is True
    if embedded and type_ != "object":
        # schema/validation.go: validateStructuralInvariants
        body = (
            f'Invalid value: "{type_}"' if type_ else "Required value"
        ) + ": must be object if x-kubernetes-embedded-resource is true"
        errors.append(f"{_text(where)}.type: {body}")
    elif not type_ and not (
        get("x-kubernetes-int-or-string") is True
        or get("x-kubernetes-preserve-unknown-fields") is True
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
    if embedded and additional is not None:  # false too: the structural schema has it
        errors.append(
            f"{_text(where)}.additionalProperties: Forbidden: must not be used if "
            "x-kubernetes-embedded-resource is set"
        )
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
    # int-or-string is spelled anyOf: [{type: integer}, {type: string}], as anyOf or as
    # allOf[0].anyOf: exactly that anyOf is not checked (isIntOrStringAnyOfPattern,
    # isIntOrStringAllOfPattern), whatever the node says; any other has its types refused
    all_of = get("allOf")
    skip_first_any_of = (
        type(all_of) is list
        and bool(all_of)
        and _is_mapping(all_of[0])
        and _int_or_string_any_of(all_of[0].get("anyOf"))
    )
    for junctor in COMPOSITION_KEYWORDS:
        value = get(junctor)
        if value is None or (junctor == "anyOf" and _int_or_string_any_of(value)):
            continue
        branches = [value] if _is_mapping(value) else value if isinstance(value, list) else []
        for index, branch in enumerate(branches):
            at_branch = (
                (where, ".not", "") if junctor == "not" else (where, f".{junctor}[{index}]", "")
            )
            skip = junctor == "allOf" and index == 0 and skip_first_any_of
            _check_value_validation(branch, at_branch, errors, skip_any_of=skip)
    check_metadata = level == "root" or get("x-kubernetes-embedded-resource") is True
    if properties is not None and _is_mapping(properties):
        if check_metadata:
            for name in ("kind", "apiVersion"):
                child = properties.get(name)
                if child is not None:
                    child_type = child.get("type", "") if _is_mapping(child) else ""
                    if child_type != "string":
                        errors.append(
                            f'{_text((where, _PROPERTY, name))}.type: Invalid value: "{child_type}": must be string'
                        )
        if "metadata" in properties:
            _check_metadata(
                properties["metadata"],
                (where, _PROPERTY, "metadata"),
                check_metadata,
                level,
                errors,
            )


#: keys an OpenAPI schema may hold that a structural schema drops
_NOT_STRUCTURAL = frozenset({"example", "externalDocs", "id", "$schema"})


def _says_something(value: Any, key: str = "") -> bool:
    """Whether a keyword's value is not Go's zero value (``nullable: false``,
    ``description: ""`` and an empty list say nothing; any ``default`` but null says
    something, ``""`` and ``false`` too: it is kept as JSON)."""
    if key == "default":
        return value is not None
    return value is not None and value is not False and value != "" and value != []


def _int_or_string_any_of(value: Any) -> bool:
    """Whether ``value`` is exactly ``[{type: integer}, {type: string}]`` (structural
    DeepEqual: keywords at their zero value aside)."""
    if not isinstance(value, list) or len(value) != 2:
        return False
    for branch, expected in zip(value, INT_OR_STRING_ANY_OF, strict=True):
        if not _is_mapping(branch) or branch.get("type") != expected["type"]:
            return False
        for key, item in branch.items():
            if key != "type" and key not in _NOT_STRUCTURAL and _says_something(item, key):
                return False
    return True


def _check_metadata(node: Any, where: _Where, check: bool, level: str, errors: list[str]) -> None:
    """``validateStructuralMetadataInvariants``: metadata of a root or an embedded
    resource is an object, and the root's says nothing but what its name and
    generateName are (the server's own ObjectMeta checks stand for the rest)."""
    if not _is_mapping(node):
        return
    type_ = node.get("type", "")
    if check and type_ != "object":
        errors.append(f'{_text(where)}.type: Invalid value: "{type_}": must be object')
    if level != "root":
        return
    for key, value in node.items():
        # probed on kube-apiserver v1.34: `properties: {}` says nothing, `required: []` does
        if key in ("type", "default") or key in _NOT_STRUCTURAL or value in (None, False, "", {}):
            continue
        if key == "properties" and _is_mapping(value):
            names = set(value)
            if names in ({"name"}, {"generateName"}, {"name", "generateName"}):
                continue
        errors.append(
            f"{_text(where)}: Forbidden: must not specify anything other than name and "
            "generateName, but metadata is implicitly specified"
        )
        return


def _check_value_validation(
    node: Any, where: _Where, errors: list[str], *, skip_any_of: bool = False
) -> None:
    if not _is_mapping(node):
        return
    for key, words in _FORBIDDEN_IN_COMPOSITIONS:
        value = node.get(key)
        if _says_something(value, key):
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
        if value is None or (junctor == "anyOf" and skip_any_of):
            continue
        branches = [value] if _is_mapping(value) else value if isinstance(value, list) else []
        for index, branch in enumerate(branches):
            _check_value_validation(branch, (where, f".{junctor}[{index}]", ""), errors)
