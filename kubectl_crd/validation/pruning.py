"""Pruning: drop what the schema does not declare, and name it for strict decoding.

Mirrors ``apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go``: the
root is an embedded resource (``apiVersion``, ``kind`` and ``metadata`` are left to
ObjectMeta coercion), ``x-kubernetes-preserve-unknown-fields`` keeps unknown keys but
still prunes inside declared ones, and the pruned paths come back sorted, as the
server lists them in ``strict decoding error: unknown field "spec.foo"``. Defaults
are pruned the same way, each on first use (``defaulting/prune.go``).
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.validation import paths
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.paths import Chain

_META_FIELDS = frozenset({"apiVersion", "kind", "metadata"})


def prune(obj: Any, node: SchemaNode | None, *, root: bool = True) -> list[tuple[str, Chain]]:
    """Remove unknown fields in place; return ``(path, chain)`` of each, sorted by path."""
    found: list[tuple[str, Chain]] = []
    _prune(obj, node, None, root, found)
    found.sort(key=lambda item: item[0])
    return found


def _record(chain: Chain, key: str, found: list[tuple[str, Chain]]) -> None:
    where = paths.child(chain, key)
    found.append((paths.dotted(where), where))


def _prune(
    obj: Any, node: SchemaNode | None, chain: Chain, embedded: bool, found: list[tuple[str, Chain]]
) -> None:
    if node is not None and node.preserve_unknown:
        # the root is an embedded resource whatever its schema says (PruneWithOptions
        # marks it so), and skipPrune leaves an embedded resource's metadata alone too
        _skip_prune(obj, node, chain, found, embedded=embedded or node.embedded)
        return
    if isinstance(obj, dict):
        if node is None:
            for key in list(obj):
                _record(chain, key, found)
                del obj[key]
            return
        embedded = embedded or node.embedded
        properties = node.properties
        additional = node.additional
        for key in list(obj):
            if embedded and key in _META_FIELDS:
                continue
            prop = properties.get(key)
            if prop is None:
                prop = additional
            if prop is not None:
                value = obj[key]
                if isinstance(value, dict | list):  # nothing to prune in a scalar
                    _prune(value, prop, paths.child(chain, key), False, found)
            else:
                if key not in _META_FIELDS or chain is not None:
                    _record(chain, key, found)
                del obj[key]
    elif isinstance(obj, list):
        items = node.items if node is not None else None
        for position, value in enumerate(obj):
            _prune(value, items, paths.index(chain, position), False, found)


def _skip_prune(
    obj: Any, node: SchemaNode, chain: Chain, found: list[tuple[str, Chain]], *, embedded: bool
) -> None:
    if isinstance(obj, dict):
        for key, value in obj.items():
            if embedded and key in _META_FIELDS:
                continue
            prop = node.properties.get(key)
            if prop is not None:
                _prune(value, prop, paths.child(chain, key), False, found)
            elif node.additional is not None:
                _prune(value, node.additional, paths.child(chain, key), False, found)
    elif isinstance(obj, list):
        items = node.items
        for position, value in enumerate(obj):
            if items is not None:
                _skip_prune(
                    value, items, paths.index(chain, position), found, embedded=items.embedded
                )


def pruned_default(value: Any, node: SchemaNode) -> Any:
    """A node's default pruned against the node itself (``defaulting/prune.go``), which
    the server does when the CRD is written; ``value`` is the caller's copy."""
    _prune(value, node, None, node.embedded, [])
    return value


def drop_non_nullable_nulls(obj: Any, node: SchemaNode | None) -> None:
    """Delete ``null`` map values of non-nullable fields without a default.

    ``defaulting/prunenulls.go``; list items are never deleted, and a field with a
    default keeps its null for defaulting to replace. Nothing is dropped where no
    schema applies, so such parts are not walked.
    """
    if node is None:
        return
    if isinstance(obj, dict):
        for key in list(obj):
            value = obj[key]
            schema = node.properties.get(key) or node.additional
            if (
                value is None
                and schema is not None
                and not schema.nullable
                and not schema.has_default
            ):
                del obj[key]
            elif schema is not None and isinstance(value, dict | list):
                drop_non_nullable_nulls(value, schema)
    elif isinstance(obj, list):
        items = node.items
        if items is None:
            return
        for value in obj:
            if isinstance(value, dict | list):
                drop_non_nullable_nulls(value, items)
