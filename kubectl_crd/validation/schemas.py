"""Each CRD version's schema made ready once per run: compiled, with its defaults pruned.

The API server prunes every ``default`` of a structural schema when the CRD is
written (``structuraldefaulting.PruneDefaults``, ``apiextensions-apiserver``'s
``pkg/apiserver/schema/defaulting/prune.go``), so a default with unknown fields is
stored without them. Here a default is pruned once, when a stage first reads it
(``compiled`` builds the tree lazily; ``pruning`` does the work). Kept apart from
both so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.validation.compiled import SchemaNode, SchemaTree
from kubectl_crd.validation.pruning import pruned_default

_cache: dict[int, tuple[Mapping[str, Any], SchemaNode]] = {}


def compile_schema(schema: Mapping[str, Any]) -> SchemaNode:
    """The compiled tree of a version's ``openAPIV3Schema``, built once per mapping."""
    key = id(schema)
    cached = _cache.get(key)
    if cached is not None and cached[0] is schema:
        return cached[1]
    node = SchemaNode(schema, SchemaTree(prune_default=pruned_default))
    _cache[key] = (schema, node)
    return node


def conforms(value: Any, schema: Mapping[str, Any]) -> bool:
    """Whether ``value`` passes the OpenAPI stage against ``schema`` (types, enum, RE2
    patterns, formats, bounds, required, junctors): the check ``kubectl crd sample``
    chooses its candidate values with (``SampleOptions.schema_check``)."""
    from kubectl_crd.validation.openapi import validate_schema

    return not validate_schema(compile_schema(schema), value)
