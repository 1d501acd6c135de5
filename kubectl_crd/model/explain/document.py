"""``explain -o json|yaml``: the explained schema node, with its path, as plain data.

The shape (keys in this order)::

    group, version, kind, resource   what was explained
    path                             "spec.replicas" ("" for the resource itself),
                                     a dot inside a field name written "\\."
    type                             kubectl's type name ("integer", "[]Object", ...)
    required                         listed in the parent's ``required``
    declared                         the CRD declares the node (False: the API server
                                     adds it, e.g. metadata; then ``schema`` is the
                                     published one, its reference followed)
    schema                           the node as the CRD declares it, unchanged
    notes                            what the schema cannot tell, in words

Pure: stdlib only.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.model.explain.details import declared_node, effective_schema, escape_field
from kubectl_crd.model.explain.plaintext import type_guess
from kubectl_crd.model.explain.target import ExplainTarget
from kubectl_crd.model.schema import plain


def node_document(target: ExplainTarget) -> dict[str, Any]:
    """The explained node and where it is (see the module doc for the shape)."""
    raw = declared_node(target)
    schema = raw if raw is not None else effective_schema(target.published, target.schema)
    step = target.field
    return {
        "group": target.gvk.group,
        "version": target.gvk.version,
        "kind": target.gvk.kind,
        "resource": target.crd.names.plural,
        "path": ".".join(escape_field(name) for name in target.path),
        "type": type_guess(target.published, target.schema),
        "required": step.required if step else False,
        "declared": raw is not None,
        "schema": plain(schema),
        "notes": target.notes(),
    }
