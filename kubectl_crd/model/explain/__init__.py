"""Explaining a CRD's fields: kubectl explain's semantics as pure, renderer-neutral code.

The pipeline, one module per step:

- ``published``: the OpenAPI v3 schema kube-apiserver publishes for a CRD version
  (what kubectl explain really reads), rebuilt from the CRD.
- ``fieldpath``: ``RESOURCE.a.b`` parsed as kubectl does, and the walk through
  properties, items, map values, ``allOf`` and ``$ref``.
- ``target``: ``resolve_target`` gives an ``ExplainTarget`` (CRD, version, published
  schema, the field steps, the parent's ``required``, notes) for any renderer.
- ``plaintext``: kubectl's default layout, byte for byte.

Another output format is a function of an ``ExplainTarget``; it can reuse
``field_entries`` (the FIELDS list), ``type_guess`` and ``description``.
"""

from kubectl_crd.model.explain.fieldpath import (
    FieldPathSyntaxError,
    FieldStep,
    parse_fields,
    resolve,
    walk,
)
from kubectl_crd.model.explain.plaintext import (
    RenderError,
    description,
    render_body,
    render_header,
    render_plaintext,
    type_guess,
)
from kubectl_crd.model.explain.published import PublishedSchema, Schema, definition_name, publish
from kubectl_crd.model.explain.target import (
    ExplainLookupError,
    ExplainTarget,
    field_entries,
    resolve_target,
    schema_notes,
)

__all__ = [
    "ExplainLookupError",
    "ExplainTarget",
    "FieldPathSyntaxError",
    "FieldStep",
    "PublishedSchema",
    "RenderError",
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
