"""A CRD version's schema compiled once into a tree of ``SchemaNode`` objects.

Every stage walks the same tree: pruning and defaulting read the structural parts
(properties, items, additionalProperties, the x-kubernetes extensions), the OpenAPI
stage reads the value validations, with patterns compiled once by RE2 (Go's regexp
semantics: ``^(?i)...`` works, no backtracking). ``compile_schema`` caches the tree
per schema mapping, so a run that validates a thousand objects of one CRD version
compiles its schema once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.validation.formats import format_checker, kept_format
from kubectl_crd.validation.regexps import error as regexp_error
from kubectl_crd.validation.regexps import go_regexp

_INT_TYPES = ("integer",)


class SchemaNode:
    """One schema node with everything the stages need, precomputed."""

    __slots__ = (
        "additional",
        "all_of",
        "any_of",
        "default",
        "embedded",
        "enum",
        "exclusive_maximum",
        "exclusive_minimum",
        "format",
        "format_check",
        "has_default",
        "has_rules",
        "items",
        "list_type",
        "map_keys",
        "max_items",
        "max_length",
        "max_properties",
        "maximum",
        "min_items",
        "min_length",
        "min_properties",
        "minimum",
        "multiple_of",
        "not_",
        "nullable",
        "one_of",
        "pattern",
        "pattern_error",
        "pattern_re",
        "preserve_unknown",
        "properties",
        "required",
        "subtree_defaults",
        "subtree_embedded",
        "subtree_list_types",
        "type_text",
        "types",
        "uses_junctors",
    )

    def __init__(self, raw: Mapping[str, Any]) -> None:
        get = raw.get
        schema_type = str(get("type") or "")
        int_or_string = get("x-kubernetes-int-or-string") is True
        # validation.go ConvertJSONSchemaPropsWithPostProcess: int-or-string becomes
        # the type list [integer, string]
        types: tuple[str, ...] = (
            ("integer", "string") if int_or_string else (schema_type,) if schema_type else ()
        )
        self.types = types
        self.type_text = ",".join(types)
        self.nullable = get("nullable") is True
        self.format = kept_format(str(get("format") or ""))
        self.format_check = format_checker(self.format) if self.format else None
        enum = get("enum")
        self.enum: list[Any] | None = list(enum) if isinstance(enum, list) and enum else None
        self.maximum = _number(get("maximum"))
        self.minimum = _number(get("minimum"))
        self.exclusive_maximum = get("exclusiveMaximum") is True
        self.exclusive_minimum = get("exclusiveMinimum") is True
        self.multiple_of = _number(get("multipleOf"))
        self.max_length = _int(get("maxLength"))
        self.min_length = _int(get("minLength"))
        self.max_items = _int(get("maxItems"))
        self.min_items = _int(get("minItems"))
        self.max_properties = _int(get("maxProperties"))
        self.min_properties = _int(get("minProperties"))
        pattern = get("pattern")
        self.pattern = pattern if isinstance(pattern, str) and pattern else ""
        self.pattern_re: Any = None
        self.pattern_error = ""
        if self.pattern:
            try:
                self.pattern_re = go_regexp(self.pattern)
            except regexp_error as exc:  # the server refuses such CRDs; say why if one slips by
                self.pattern_error = str(exc)
        required = get("required")
        self.required: tuple[str, ...] = (
            tuple(str(r) for r in required) if isinstance(required, list) else ()
        )
        properties = get("properties")
        self.properties: dict[str, SchemaNode] = (
            {str(k): SchemaNode(v) for k, v in properties.items() if isinstance(v, Mapping)}
            if isinstance(properties, Mapping)
            else {}
        )
        additional = get("additionalProperties")
        self.additional: SchemaNode | None = (
            SchemaNode(additional) if isinstance(additional, Mapping) else None
        )
        if additional is True and self.additional is None:
            # additionalProperties: true keeps every key, validated by nothing
            self.additional = SchemaNode({})
        items = get("items")
        self.items: SchemaNode | None = SchemaNode(items) if isinstance(items, Mapping) else None
        self.all_of = _branches(get("allOf"))
        self.any_of = _branches(get("anyOf"))
        self.one_of = _branches(get("oneOf"))
        not_ = get("not")
        self.not_: SchemaNode | None = SchemaNode(not_) if isinstance(not_, Mapping) else None
        self.uses_junctors = bool(self.all_of or self.any_of or self.one_of or self.not_)
        self.preserve_unknown = get("x-kubernetes-preserve-unknown-fields") is True
        self.embedded = get("x-kubernetes-embedded-resource") is True
        self.list_type = str(get("x-kubernetes-list-type") or "")
        keys = get("x-kubernetes-list-map-keys")
        self.map_keys: tuple[str, ...] = (
            tuple(str(k) for k in keys) if isinstance(keys, list) else ()
        )
        self.has_default = "default" in raw and raw["default"] is not None
        self.default: Any = raw.get("default")
        rules = get("x-kubernetes-validations")
        children = (
            *self.properties.values(),
            *(n for n in (self.additional, self.items) if n is not None),
        )
        self.has_rules: bool = bool(rules) or any(c.has_rules for c in children)
        # whether a stage has anything to do below this node: walks skip the rest
        self.subtree_embedded: bool = self.embedded or any(c.subtree_embedded for c in children)
        self.subtree_list_types: bool = bool(self.list_type) or any(
            c.subtree_list_types for c in children
        )
        self.subtree_defaults: bool = any(c.has_default or c.subtree_defaults for c in children)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value)


def _branches(value: Any) -> tuple[SchemaNode, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(SchemaNode(v) for v in value if isinstance(v, Mapping))
