"""Structural defaulting, as ``apiextensions-apiserver/pkg/apiserver/schema/defaulting/algorithm.go``.

A property that is missing, or null where the schema is not nullable, gets a deep
copy of its (already pruned) default; then every present value is defaulted in turn,
so defaults inside defaults, list items and additionalProperties values all apply.
A null list item or map value of a non-nullable schema takes that schema's default.
"""

from __future__ import annotations

import copy
from typing import Any

from kubectl_crd.validation.compiled import SchemaNode


def _copy(default: Any) -> Any:
    """A default for one more place: a mapping or list copied, a scalar itself
    (immutable; ``copy.deepcopy`` of one costs a dispatch per field defaulted)."""
    if isinstance(default, dict | list):
        return copy.deepcopy(default)
    return default


def apply_defaults(obj: Any, node: SchemaNode | None) -> None:
    if node is None or not node.subtree_defaults:
        return
    if isinstance(obj, dict):
        for key, prop in node.defaulted_properties:
            if key not in obj or (obj[key] is None and not prop.nullable):
                obj[key] = _copy(prop.default)
        # then inside each value (those just defaulted too), where a default can apply
        for key, prop in node.defaults_below:
            value = obj.get(key)
            if isinstance(value, dict | list):
                apply_defaults(value, prop)
        additional = node.additional
        if additional is not None:  # a structural schema has no properties beside it
            for key, value in obj.items():
                if value is None and not additional.nullable:
                    value = obj[key] = _copy(additional.default)
                if isinstance(value, dict | list):
                    apply_defaults(value, additional)
    elif isinstance(obj, list):
        items = node.items
        if items is None:
            return
        for position, value in enumerate(obj):
            if value is None and not items.nullable:
                value = obj[position] = _copy(items.default)
            if isinstance(value, dict | list):
                apply_defaults(value, items)
