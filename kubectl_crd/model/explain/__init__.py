"""Explaining a CRD's fields: kubectl explain's semantics as pure, renderer-neutral code.

Two families of modules. **kubectl parity**, the pipeline behind byte-identical output:

- ``published``: the OpenAPI v3 schema kube-apiserver publishes for a CRD version
  (what kubectl explain really reads), rebuilt from the CRD; ``metav1`` holds the
  ``meta/v1`` definitions it adds, captured from the server.
- ``fieldpath``: ``RESOURCE.a.b`` parsed as kubectl does, and the walk through
  properties, items, map values, ``allOf`` and ``$ref``.
- ``target``: ``resolve_target`` gives an ``ExplainTarget`` (CRD, version, published
  schema, the field steps, the parent's ``required``, notes) for any renderer.
- ``plaintext``: kubectl's default layout, byte for byte, with ``gotext`` for the Go
  text behaviours it depends on (word wrap, template whitespace).

**Our extras**, what kubectl explain leaves out:

- ``details``: the facts beyond kubectl (defaults, bounds, CEL rules, list types, the
  resource's versions, printer columns and subresources) as plain data; ``detailtext``
  lays them out as styled lines (``model.styled``) after kubectl's output.
- ``document``: ``-o json|yaml``, the explained node and its path as plain data.
- ``markdown``: ``-o markdown``, reference documentation for a README.
- ``finder``: the pure half of ``-i``, every field path and fuzzy ranking.

Another output format is a function of an ``ExplainTarget``; it can reuse
``field_entries`` (the FIELDS list), ``type_guess`` and ``description``.
"""

from kubectl_crd.model.explain.fieldpath import (
    FieldStep,
    parse_fields,
    resolve,
    walk,
)
from kubectl_crd.model.explain.plaintext import (
    description,
    render_body,
    render_header,
    render_plaintext,
    type_guess,
)
from kubectl_crd.model.explain.published import PublishedSchema, definition_name, publish
from kubectl_crd.model.explain.target import (
    ExplainTarget,
    field_entries,
    resolve_target,
    schema_notes,
)
from kubectl_crd.model.schema import Schema

__all__ = [
    "ExplainTarget",
    "FieldStep",
    "PublishedSchema",
    "Schema",
    "definition_name",
    "description",
    "field_entries",
    "parse_fields",
    "publish",
    "render_body",
    "render_header",
    "render_plaintext",
    "resolve",
    "resolve_target",
    "schema_notes",
    "type_guess",
    "walk",
]
