"""API-server-equivalent validation of custom resources, as a library.

``validate_custom_resource(content, crd)`` takes a decoded object (a ``YamlMap``
from ``kubectl_crd.io`` keeps file:line:column) and a CRD, runs the API server's
create pipeline on a copy, and returns a ``ValidationResult``: the object as the
server would store it (pruned, defaulted), its ``FieldError``s with the server's
field path, reason and message, and warnings. Commands (validate, get, scale
--local, sample, the dev loop) call it; printers read its plain data.

One module per stage, each naming the upstream file it mirrors:

- ``admission``: what the server does to an object on a write (``Admission``: create,
  update, status update, delete; the fields it sets, the status split, finalizers)
- ``pipeline``: the order of the stages, strictness, blocking, creates and updates
- ``cel``: the x-kubernetes-validations rules (the engine loads only when a CRD has them)
- ``compiled``: a version's schema as a tree of ``SchemaNode``s
- ``schemas``: ``compile_schema``, each version's tree built once, its defaults pruned
- ``pruning``: unknown fields, pruned defaults, nulls of non-nullable fields
- ``defaulting``: structural defaulting
- ``builtin_defaulting``: built-in kinds' ``SetDefaults_*`` and their registries' create-time fields
- ``objectmeta``: metadata decoding and validation, embedded resources
- ``names``: DNS-1123 names, label keys and values, with their messages
- ``openapi``: kube-openapi's schema validation and its field errors
- ``formats``: the string formats the server checks
- ``regexps``: Go regular expressions through RE2
- ``listtypes``: list-type set and map uniqueness
- ``typed``: the typed conversion of a server-side apply's patch (structured-merge-diff),
  with the built-in kinds' schemas (``builtin_types.json``, by ``hack/builtin_types.py``)
- ``paths``: where a node is, and the server's spellings of it
- ``results``: the result data (``ValidationResult``, ``FieldError``, reasons, stages)
- ``listing``: ``get -f``'s rows, each file object as the server would store it
- ``scaling``: ``scale --local``, an object with new spec replicas, checked
"""

from kubectl_crd.validation.admission import Admission, AdmissionResult
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.pipeline import CEL_NOT_RUN, validate_custom_resource
from kubectl_crd.validation.results import (
    BLOCKING_REASONS,
    FieldError,
    FieldValidation,
    Reason,
    Stage,
    ValidationResult,
)
from kubectl_crd.validation.schemas import compile_schema

__all__ = [
    "BLOCKING_REASONS",
    "CEL_NOT_RUN",
    "Admission",
    "AdmissionResult",
    "FieldError",
    "FieldValidation",
    "Reason",
    "SchemaNode",
    "Stage",
    "ValidationResult",
    "compile_schema",
    "validate_custom_resource",
]
