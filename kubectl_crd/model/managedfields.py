"""``metadata.managedFields``: which fields a manager owns, and moving them to its apply.

The dev loop creates an absent child with a POST (cheaper for the server than a
server-side apply that creates) and applies it from then on. A create records its fields
under the manager's ``Update`` entry, and an apply leaves fields other entries own alone:
before an apply that leaves one of those fields out, the ``Update`` entry's fields become
the manager's ``Apply`` entry's, as kubectl moves a client-side applier's fields before
its first server-side apply (client-go's ``util/csaupgrade``: the entries rewritten by a
patch conditional on the resourceVersion). Then the object is owned as if it had been
applied from the start: a field the next apply leaves out is removed.

A create can own more than was sent: what the server defaulted in the body (a custom
resource's schema defaults) is the creator's. ``owns_only`` tells whether it did; such a
child is moved at once, and its apply releases those fields (the server defaults them
again, now no manager's, as after an apply).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["APPLY", "UPDATE", "fields_moved_to_apply", "owns_only", "update_entry"]

APPLY = "Apply"
UPDATE = "Update"


def _is(entry: Any, manager: str, operation: str) -> bool:
    return (
        isinstance(entry, Mapping)
        and entry.get("manager") == manager
        and entry.get("operation") == operation
        and not entry.get("subresource")
    )


def update_entry(obj: Mapping[str, Any], manager: str) -> Mapping[str, Any] | None:
    """``manager``'s ``Update`` entry of the object itself (not of a subresource)."""
    entries = (obj.get("metadata") or {}).get("managedFields") or ()
    return next((entry for entry in entries if _is(entry, manager, UPDATE)), None)


def _union(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Two ``fieldsV1`` tries as one (a member of either is a member)."""
    merged = dict(a)
    for step, below in b.items():
        merged[step] = _union(merged.get(step) or {}, below or {})
    return merged


def _as_applied(fields: Mapping[str, Any], item: bool = False) -> dict[str, Any]:
    """An ``Update``'s field set as an apply of the same fields writes it: a map or
    struct the update added is a member of its set (structured-merge-diff's
    ``typed/compare.go``, its ``"."`` beside its fields), not of an apply's
    (``typed/tofieldset.go``: leaves, list items, empty maps)."""
    shown: dict[str, Any] = {}
    for step, below in fields.items():
        if step == "." and not item and len(fields) > 1:
            continue
        shown[step] = _as_applied(below or {}, item=not step.startswith("f:"))
    return shown


def fields_moved_to_apply(obj: Mapping[str, Any], manager: str) -> list[dict[str, Any]] | None:
    """The object's ``managedFields`` with ``manager``'s ``Update`` entries of the object
    itself folded into its ``Apply`` entry (made from the first of them when it has
    none); None when there is no such ``Update`` entry. Other managers' entries, and
    subresources', are kept as they are."""
    entries = (obj.get("metadata") or {}).get("managedFields") or []
    moved = [entry for entry in entries if _is(entry, manager, UPDATE)]
    if not moved:
        return None
    kept = [dict(entry) for entry in entries if not _is(entry, manager, UPDATE)]
    applied = next((entry for entry in kept if _is(entry, manager, APPLY)), None)
    if applied is None:
        applied = {**moved[0], "operation": APPLY, "fieldsV1": {}}
        kept.append(applied)
    fields: Mapping[str, Any] = applied.get("fieldsV1") or {}
    for entry in moved:
        fields = _union(fields, _as_applied(entry.get("fieldsV1") or {}))
    applied["fieldsV1"] = fields
    applied["fieldsType"] = "FieldsV1"
    return kept


def owns_only(fields: Mapping[str, Any], obj: Any) -> bool:
    """Whether every field of the ``fieldsV1`` trie ``fields`` is in ``obj``: ``f:``
    a mapping's key, ``k:`` the item of a list with those key values, ``v:`` a set's
    value, ``i:`` a list's index (structured-merge-diff's path elements)."""
    for step, below in fields.items():
        if step == ".":
            continue
        prefix, _, rest = step.partition(":")
        value: Any
        if prefix == "f":
            if not isinstance(obj, Mapping) or obj.get(rest) is None:
                return False
            value = obj[rest]
        elif prefix in ("k", "v", "i") and isinstance(obj, Sequence) and not isinstance(obj, str):
            value = _item(prefix, rest, obj)
            if value is None:
                return False
        else:
            return False
        if below and not owns_only(below, value):
            return False
    return True


def _item(prefix: str, rest: str, items: Sequence[Any]) -> Any:
    if prefix == "i":
        index = int(rest)
        return items[index] if 0 <= index < len(items) else None
    try:
        wanted = json.loads(rest)
    except ValueError:
        return None
    if prefix == "v":
        return wanted if wanted in items else None
    if not isinstance(wanted, Mapping):
        return None
    for item in items:
        if isinstance(item, Mapping) and all(item.get(k) == v for k, v in wanted.items()):
            return item
    return None
