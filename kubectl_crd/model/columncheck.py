"""Printer-column paths checked against the schema they read: will a column ever show?

``additionalPrinterColumns`` are JSONPaths the API server never checks against the
schema: a typo shows as an empty column forever. A path made of fields and indexes
(``.spec.replicas``, ``.status.conditions[0].type``, ``.spec.items[*].name``) is walked
through the schema: a field the schema does not have (where nothing else is kept:
no additionalProperties, no preserve-unknown-fields) can never match, and a column
type that cannot render the schema's type (``integer`` over a string) is flagged.
Paths with filters, wildcards over maps or recursive descent are not walked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_STEP = re.compile(r"\.([A-Za-z0-9_\-]+)|\[(\*|-?\d+)\]|\['([^']*)'\]")
#: column type -> the schema types it renders meaningfully
_RENDERS = {
    "integer": ("integer", "number"),
    "number": ("integer", "number"),
    "boolean": ("boolean",),
    "date": ("string",),
}


def check_column_path(json_path: str, column_type: str, schema: Mapping[str, Any]) -> str:
    """ "" when the path can match, else why it cannot (or "not checked: ...")."""
    path = json_path.strip()
    if path.startswith("{") and path.endswith("}"):
        path = path[1:-1]
    steps = list(_STEP.finditer(path))
    if not steps or "".join(m.group(0) for m in steps) != path:
        return "not checked: only paths of fields and indexes are walked"
    node: Any = schema
    walked = ""
    for match in steps:
        field = match.group(1) if match.group(1) is not None else match.group(3)
        if field is not None:
            if walked in ("", ".metadata") and field in ("metadata", "apiVersion", "kind"):
                return ""  # ObjectMeta and type meta are always there
            properties = node.get("properties") if isinstance(node, Mapping) else None
            if isinstance(properties, Mapping) and field in properties:
                node = properties[field]
            elif _keeps_anything(node):
                return ""
            else:
                return f"never matches: the schema has no field {field!r} at {walked or '.'}"
            walked += f".{field}"
        else:
            if not isinstance(node, Mapping) or node.get("type") != "array":
                return f"never matches: {walked} is not an array"
            node = node.get("items") or {}
            walked += match.group(0)
    wanted = _RENDERS.get(column_type)
    actual = node.get("type") if isinstance(node, Mapping) else None
    if wanted and actual and actual not in wanted:
        return f"type {column_type!r} over a schema {actual!r}"
    return ""


def _keeps_anything(node: Any) -> bool:
    if not isinstance(node, Mapping):
        return False
    return (
        node.get("x-kubernetes-preserve-unknown-fields") is True
        or node.get("additionalProperties") not in (None, False)
        or node.get("x-kubernetes-int-or-string") is True
        or not node.get("type")
    )
