"""A CRD version's schema compiled into a tree of ``SchemaNode`` objects, lazily.

Every stage walks the same tree: pruning and defaulting read the structural parts
(properties, items, additionalProperties, the x-kubernetes extensions), the OpenAPI
stage reads the value validations, with patterns compiled once by RE2 (Go's regexp
semantics: ``^(?i)...`` works, no backtracking). ``compile_schema`` caches the tree
per schema mapping, so a run that validates a thousand objects of one CRD version
compiles its schema once.

A node compiles its children the first time a stage asks for them: objects touch a
small part of a big schema (the corpus samples visit about a fifth of the nodes of
the schemas they use), and building all of a corpus's 92,000 nodes took 1.9 s, most
of a validate run. The flags that let walks skip a subtree (any default, embedded
resource, list type or rule below) come from one scan of the raw mappings, shared by
the whole tree. A tree kept across runs does not pay: unpickling the corpus's trees
took 2.1 s, longer than building them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from kubectl_crd.validation.formats import format_checker, kept_format
from kubectl_crd.validation.regexps import error as regexp_error
from kubectl_crd.validation.regexps import go_error_text, go_regexp, searcher

_INT_TYPES = ("integer",)


class SchemaTree:
    """What the nodes of one compiled schema share: the scan memo of the raw mappings,
    how a node's ``default`` is made ready on first use (``compile_schema`` prunes
    it as the server does when the CRD is written; a bare ``SchemaNode`` leaves it),
    and which formats are checked: those kept for objects, or (``registered_formats``,
    the validator of a CRD's defaults) every one kube-openapi registers
    (``formats.kept_format``)."""

    __slots__ = ("prune_default", "registered_formats", "scanned")

    def __init__(
        self,
        prune_default: Callable[[Any, SchemaNode], Any] | None = None,
        *,
        registered_formats: bool = False,
    ) -> None:
        self.prune_default = prune_default
        self.registered_formats = registered_formats
        self.scanned: dict[int, int] = {}


class SchemaNode:
    """One schema node with everything the stages need, precomputed."""

    __slots__ = (
        "additional",
        "all_of",
        "any_of",
        "default",
        "defaulted_properties",
        "defaults_below",
        "embedded",
        "enum",
        "enum_strings",
        "exclusive_maximum",
        "exclusive_minimum",
        "format",
        "format_check",
        "has_default",
        "has_rules",
        "items",
        "leaf",
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
        "pattern_found",
        "pattern_re",
        "preserve_unknown",
        "properties",
        "raw",
        "required",
        "subtree_defaults",
        "subtree_embedded",
        "subtree_list_types",
        "tree",
        "type_text",
        "types",
        "uses_junctors",
    )

    def __init__(self, raw: Mapping[str, Any], tree: SchemaTree | None = None) -> None:
        tree = tree if tree is not None else SchemaTree()
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
        self.format = kept_format(str(get("format") or ""), registered=tree.registered_formats)
        self.format_check = format_checker(self.format) if self.format else None
        enum = get("enum")
        self.enum: list[Any] | None = list(enum) if isinstance(enum, list) and enum else None
        # what a string value can equal (openapi._enum_matches: only an equal string)
        self.enum_strings = frozenset(v for v in self.enum or () if type(v) is str)
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
        self.pattern_found: Callable[[str], bool] | None = None
        self.pattern_error = ""
        if self.pattern:
            try:
                self.pattern_re = go_regexp(self.pattern)
            except regexp_error as exc:  # the server refuses such CRDs; say why if one slips by
                self.pattern_error = go_error_text(exc)  # Go's words, not re2's bytes repr
            else:
                self.pattern_found = searcher(self.pattern_re)
        required = get("required")
        self.required: tuple[str, ...] = (
            tuple(str(r) for r in required) if isinstance(required, list) else ()
        )
        self.preserve_unknown = get("x-kubernetes-preserve-unknown-fields") is True
        self.embedded = get("x-kubernetes-embedded-resource") is True
        self.list_type = str(get("x-kubernetes-list-type") or "")
        keys = get("x-kubernetes-list-map-keys")
        self.map_keys: tuple[str, ...] = (
            tuple(str(k) for k in keys) if isinstance(keys, list) else ()
        )
        self.has_default = "default" in raw and raw["default"] is not None
        self.leaf = _leaf(self, raw)
        self.raw = raw
        self.tree = tree

    def __getattr__(self, name: str) -> Any:
        # Only called for a slot not yet set: the children, the subtree flags, the
        # properties with a default or with defaults below, or the default.
        if name in _CHILD_SLOTS:
            self._compile_children()
        elif name in _FLAG_SLOTS:
            self._set_flags()
        elif name == "defaulted_properties":
            self.defaulted_properties = tuple(
                (key, prop) for key, prop in self.properties.items() if prop.has_default
            )
        elif name == "defaults_below":
            self.defaults_below = tuple(
                (key, prop) for key, prop in self.properties.items() if prop.subtree_defaults
            )
        elif name == "default":
            default = self.raw.get("default")
            prune = self.tree.prune_default
            self.default = (
                prune(copy.deepcopy(default), self) if prune and self.has_default else default
            )
        else:
            raise AttributeError(name)
        return object.__getattribute__(self, name)

    def _compile_children(self) -> None:
        get = self.raw.get
        tree = self.tree
        properties = get("properties")
        self.properties: dict[str, SchemaNode] = (
            {str(k): SchemaNode(v, tree) for k, v in properties.items() if isinstance(v, Mapping)}
            if isinstance(properties, Mapping)
            else {}
        )
        additional = get("additionalProperties")
        self.additional: SchemaNode | None = (
            SchemaNode(additional, tree) if isinstance(additional, Mapping) else None
        )
        if additional is True and self.additional is None:
            # additionalProperties: true keeps every key, validated by nothing
            self.additional = SchemaNode({}, tree)
        items = get("items")
        self.items: SchemaNode | None = (
            SchemaNode(items, tree) if isinstance(items, Mapping) else None
        )
        self.all_of = _branches(get("allOf"), tree)
        self.any_of = _branches(get("anyOf"), tree)
        self.one_of = _branches(get("oneOf"), tree)
        not_ = get("not")
        self.not_: SchemaNode | None = SchemaNode(not_, tree) if isinstance(not_, Mapping) else None
        self.uses_junctors = bool(self.all_of or self.any_of or self.one_of or self.not_)

    def _set_flags(self) -> None:
        raw = self.raw
        memo = self.tree.scanned
        found = _scan(raw, memo)
        # whether a stage has anything to do below this node: walks skip the rest
        self.has_rules = bool(found & _RULES)
        self.subtree_embedded = bool(found & _EMBEDDED)
        self.subtree_list_types = bool(found & _LIST_TYPE)
        below = 0
        for child in _structural_children(raw):
            below |= _scan(child, memo)
        self.subtree_defaults = bool(below & _DEFAULT)


# A scalar node that checks only its type: (the Python type of a value that passes,
# kube-openapi's match count for it, as openapi.validate_node counts: type 2, junctors 2,
# the kind's validator (string 1, number 2, boolean none), enum 1, and 1).
_LEAF_TYPES = {"string": (str, 7), "integer": (int, 8), "boolean": (bool, 6)}
_NOT_LEAF_KEYS = ("allOf", "anyOf", "oneOf", "not", "properties", "items", "additionalProperties")


def _leaf(node: SchemaNode, raw: Mapping[str, Any]) -> tuple[type, int] | None:
    """``_LEAF_TYPES``' entry for a node whose only check on a non-null value is its
    type (no enum, pattern, length, bounds, checked format or branches), else None."""
    if len(node.types) != 1 or node.types[0] not in _LEAF_TYPES:
        return None
    if (
        node.enum is not None
        or node.pattern
        or node.max_length is not None
        or node.min_length is not None
        or node.maximum is not None
        or node.minimum is not None
        or node.multiple_of is not None
        or node.format_check is not None
        or any(key in raw for key in _NOT_LEAF_KEYS)
    ):
        return None
    return _LEAF_TYPES[node.types[0]]


_CHILD_SLOTS = frozenset(
    ("properties", "additional", "items", "all_of", "any_of", "one_of", "not_", "uses_junctors")
)
_FLAG_SLOTS = frozenset(("has_rules", "subtree_embedded", "subtree_list_types", "subtree_defaults"))

# What ``_scan`` finds in a node or below it
_RULES, _EMBEDDED, _LIST_TYPE, _DEFAULT = 1, 2, 4, 8


def _structural_children(raw: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The raw schemas of properties, additionalProperties and items: where data goes
    (junctor branches constrain the same data, they hold no values of their own)."""
    children: list[Mapping[str, Any]] = []
    properties = raw.get("properties")
    if isinstance(properties, Mapping):
        children.extend(v for v in properties.values() if isinstance(v, Mapping))
    for key in ("additionalProperties", "items"):
        child = raw.get(key)
        if isinstance(child, Mapping):
            children.append(child)
    return children


def _scan(raw: Mapping[str, Any], memo: dict[int, int]) -> int:
    """The ``_RULES | _EMBEDDED | _LIST_TYPE | _DEFAULT`` bits of a raw node and
    everything below it (rules of ``allOf`` branches included, as ``cel.tree`` takes
    them), each raw mapping scanned once per tree (``memo``)."""
    key = id(raw)
    found = memo.get(key)
    if found is not None:
        return found
    get = raw.get
    found = (
        (_RULES if get("x-kubernetes-validations") else 0)
        | (_EMBEDDED if get("x-kubernetes-embedded-resource") is True else 0)
        | (_LIST_TYPE if get("x-kubernetes-list-type") else 0)
        | (_DEFAULT if get("default") is not None else 0)
    )
    for child in _structural_children(raw):
        found |= _scan(child, memo)
    branches = get("allOf")
    if isinstance(branches, list):  # the rule tree takes allOf branches' rules too
        for branch in branches:
            if isinstance(branch, Mapping):
                found |= _scan(branch, memo) & _RULES
    memo[key] = found
    return found


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value)


def _branches(value: Any, tree: SchemaTree) -> tuple[SchemaNode, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(SchemaNode(v, tree) for v in value if isinstance(v, Mapping))
