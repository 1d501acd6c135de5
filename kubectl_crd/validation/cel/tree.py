"""The x-kubernetes-validations of a schema as a tree parallel to it, built once.

``apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go: NewValidator``: a
node for every schema node that has rules or has them below it, through
properties, items, additionalProperties and allOf branches (whose rules see the
value with the surrounding schema's type). Pure data: the engine compiles the
rules later, when a value first reaches them (``programs``), so a CRD whose rules are
never run never loads the engine.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubectl_crd.model.govalues import go_json
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.schemas import compile_schema

# CEL string literals, so that ``oldSelf`` inside one does not count as a use.
_STRINGS = re.compile(
    r"""(?:[rRbB]{0,2})(?:'''.*?'''|\"\"\".*?\"\"\"|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")""",
    re.DOTALL,
)
_OLD_SELF = re.compile(r"(?<![\w.])oldSelf\b")


def uses_old_self(expression: str) -> bool:
    """Whether a rule is a transition rule: it names ``oldSelf`` outside string literals."""
    return bool(_OLD_SELF.search(_STRINGS.sub("''", expression)))


@dataclass(frozen=True, slots=True)
class Rule:
    """One ``ValidationRule`` of ``x-kubernetes-validations``."""

    rule: str
    message: str = ""
    message_expression: str = ""
    reason: str = ""
    field_path: str = ""
    optional_old_self: bool = False

    @property
    def transition(self) -> bool:
        return uses_old_self(self.rule)

    @property
    def error_string(self) -> str:
        """``validation.go: ruleErrorString``: the message, else the rule, trimmed."""
        return self.message.strip() or self.rule.strip()

    @property
    def default_message(self) -> str:
        """``validation.go: ruleMessageOrDefault``."""
        message = self.message.strip()
        return message if message else f"failed rule: {self.rule.strip()}"


NOT_ESTIMATED = -1


class RuleNode:
    """The rules at one schema node and the nodes below that have rules."""

    __slots__ = (
        "additional",
        "all_of",
        "estimate",
        "items",
        "programs",
        "properties",
        "resource_root",
        "rules",
        "runs",
        "schema",
        "type_name",
    )

    def __init__(
        self,
        schema: SchemaNode,
        type_name: str,
        rules: tuple[Rule, ...],
        resource_root: bool,
    ) -> None:
        self.schema = schema
        # what field.Invalid prints as the value: the structural schema's type
        # ("" for int-or-string and untyped nodes)
        self.type_name = type_name
        self.rules = rules
        self.resource_root = resource_root
        self.properties: dict[str, RuleNode] = {}
        self.items: RuleNode | None = None
        self.additional: RuleNode | None = None
        self.all_of: tuple[RuleNode, ...] = ()
        self.programs: Any = None  # filled by programs.compiled_rules on first use
        # the estimated cost of running all the node's rules and messages once
        # (typing.estimate_rules; NOT_ESTIMATED before, None when it cannot be told)
        self.estimate: int | None = NOT_ESTIMATED
        self.runs = 0  # of a tree's root: the objects validated against it (rules.run_rules)


def node_rules(raw: Mapping[str, Any]) -> tuple[Rule, ...]:
    """The ``x-kubernetes-validations`` entries of one raw schema node."""
    found = raw.get("x-kubernetes-validations")
    if not isinstance(found, list):
        return ()
    rules = []
    for entry in found:
        if not isinstance(entry, Mapping):
            continue
        rules.append(
            Rule(
                rule=str(entry.get("rule") or ""),
                message=str(entry.get("message") or ""),
                message_expression=str(entry.get("messageExpression") or ""),
                reason=str(entry.get("reason") or ""),
                field_path=str(entry.get("fieldPath") or ""),
                optional_old_self=entry.get("optionalOldSelf") is True,
            )
        )
    return tuple(rules)


def rule_json(rule: Rule) -> str:
    """``json.Marshal`` of the internal ``apiextensions.ValidationRule``, in its field order."""
    reason = go_json(rule.reason) if rule.reason else "null"
    optional = "true" if rule.optional_old_self else "null"
    return (
        f'{{"Rule":{go_json(rule.rule)},"Message":{go_json(rule.message)},'
        f'"MessageExpression":{go_json(rule.message_expression)},"Reason":{reason},'
        f'"FieldPath":{go_json(rule.field_path)},"OptionalOldSelf":{optional}}}'
    )


def _type_name(raw: Mapping[str, Any]) -> str:
    return str(raw.get("type") or "")


def _build(
    validation: Mapping[str, Any],
    schema: SchemaNode,
    type_name: str,
    resource_root: bool,
) -> RuleNode | None:
    if not schema.has_rules:
        return None  # no rule here or below: the subtree's nodes need not be compiled
    node = RuleNode(schema, type_name, node_rules(validation), resource_root)
    items = validation.get("items")
    if isinstance(items, Mapping) and schema.items is not None:
        node.items = _build(items, schema.items, _type_name(items), schema.items.embedded)
    properties = validation.get("properties")
    if isinstance(properties, Mapping):
        for name, raw in properties.items():
            child = schema.properties.get(str(name))
            if child is None or not isinstance(raw, Mapping):
                continue  # only the structural spine carries rules
            built = _build(raw, child, _type_name(raw), child.embedded)
            if built is not None:
                node.properties[str(name)] = built
    additional = validation.get("additionalProperties")
    if isinstance(additional, Mapping) and schema.additional is not None:
        node.additional = _build(
            additional,
            schema.additional,
            _type_name(additional),
            schema.additional.embedded,
        )
    all_of = validation.get("allOf")
    if isinstance(all_of, list):
        branches = [
            _build(branch, schema, type_name, resource_root)
            for branch in all_of
            if isinstance(branch, Mapping)
        ]
        node.all_of = tuple(b for b in branches if b is not None)
    if node.rules or node.items or node.additional or node.properties or node.all_of:
        return node
    return None


_cache: dict[int, tuple[Mapping[str, Any], RuleNode | None]] = {}


def mentions_rules(value: Any) -> bool:
    """Whether ``x-kubernetes-validations`` appears anywhere in a raw schema: a cheap
    look before compiling it (a ``default`` or ``example`` may hold the word too, so
    ``rule_tree`` has the last word)."""
    if isinstance(value, Mapping):
        return "x-kubernetes-validations" in value or any(mentions_rules(v) for v in value.values())
    if isinstance(value, list):
        return any(mentions_rules(v) for v in value)
    return False


def has_rules(schema: Mapping[str, Any]) -> bool:
    """Whether a version's schema has any x-kubernetes-validations rule to run."""
    return rule_tree(schema) is not None


def subtree_rules(schema: Mapping[str, Any]) -> RuleNode | None:
    """The rule tree of one schema node, a resource root only when it is an embedded
    resource (``cel.NewValidator(s, isResourceRoot, ...)`` as the server's default
    check builds it, ``defaulting/validation.go``); not cached."""
    compiled = compile_schema(schema)
    return _build(schema, compiled, _type_name(schema), compiled.embedded)


def rule_tree(schema: Mapping[str, Any]) -> RuleNode | None:
    """The rule tree of a version's ``openAPIV3Schema``, or None when it has no rules."""
    key = id(schema)
    cached = _cache.get(key)
    if cached is not None and cached[0] is schema:
        return cached[1]
    tree = _build(schema, compile_schema(schema), _type_name(schema), True)
    _cache[key] = (schema, tree)
    return tree
