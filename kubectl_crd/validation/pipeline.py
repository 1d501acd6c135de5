"""The create pipeline of the API server for one custom resource, in its order.

``validate_custom_resource(content, crd)`` runs, on a copy of the decoded object:

0. the body's size: over the server's 3 MiB the request is refused before it is read
   (``validation.requestsize``, looked at only for an object whose copy is big);
1. type meta: the apiVersion's version must exist and be served (a deprecated one
   adds its warning); the kind must be the CRD's;
2. strict decoding (``customresource_handler.go: unstructuredSchemaCoercer.apply``):
   duplicate keys found by the YAML reader, unknown ``metadata`` fields, fields the
   schema prunes (sorted), unknown fields in embedded ObjectMeta; errors under
   ``Strict``, warnings under ``Warn``, nothing under ``Ignore``;
3. pruning, dropping nulls of non-nullable fields, ObjectMeta coercion, defaulting,
   and, with a status subresource, dropping ``.status`` (``strategy.go: PrepareForCreate``);
4. the strategy's ``Validate`` (``registry/customresource/strategy.go``, ``validator.go``):
   ObjectMeta, the OpenAPI schema, the scale subresource paths, embedded resources,
   list types, then the CEL rules (``cel/``), which the server skips after a
   blocking error.

With ``old`` (the stored object) the request is an update (``strategy.go:
PrepareForUpdate``, ``ValidateUpdate``), the stored object read as the server reads
it, pruned and defaulted with the current schema: with a status subresource the old
``.status`` is kept; transition rules (``oldSelf``) run; and an error at a value
equal to its old value is ratcheted (``ratcheting.go``, KEP-4008): schema errors
are dropped, CEL errors become warnings.

``prepare`` replaces that status split with the caller's own ``PrepareForCreate`` /
``PrepareForUpdate`` (``validation.admission`` passes the fields the server sets and
the status subresource's strategy), run on the decoded, pruned, defaulted copy just
before validation, as ``rest.BeforeCreate`` / ``BeforeUpdate`` run it.

A create that passes every stage may still be refused by etcd for its stored size (the
same module): that error comes last, and is ``blocked`` after any other.

Stages after the first failing one still run, but their errors are marked
``blocked``: the server would have answered with the earlier stage's errors alone.
"""

from __future__ import annotations

import marshal
import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from kubectl_crd.io.positions import locate
from kubectl_crd.model.crd import CRDVersion, CustomResourceDefinition
from kubectl_crd.model.errors import InputError, Location
from kubectl_crd.model.govalues import bad_value, go_print, go_type
from kubectl_crd.model.versions import kube_version_sort_key
from kubectl_crd.validation import paths
from kubectl_crd.validation.cel.availability import NOT_CHECKED, engine_missing
from kubectl_crd.validation.cel.tree import has_rules
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.defaulting import apply_defaults
from kubectl_crd.validation.listtypes import validate_list_types
from kubectl_crd.validation.objectmeta import (
    CUSTOM_RESOURCE_UPDATE,
    coerce_embedded,
    coerce_metadata,
    decode_metadata,
    dedup_owner_references,
    embedded_coercion_error,
    embedded_metadata_unknown,
    finalizer_warnings,
    generated_name,
    update_meta_errors,
    validate_embedded,
    validate_object_meta,
)
from kubectl_crd.validation.openapi import validate_schema
from kubectl_crd.validation.paths import Chain
from kubectl_crd.validation.pruning import drop_non_nullable_nulls, prune
from kubectl_crd.validation.requestsize import (
    body_refusal,
    body_size,
    may_be_too_big,
    storage_refusal,
)
from kubectl_crd.validation.results import (
    BLOCKING_REASONS,
    FieldError,
    FieldValidation,
    Reason,
    Stage,
    ValidationResult,
)
from kubectl_crd.validation.schemas import compile_schema

CEL_NOT_RUN = (
    "<nil>: Invalid value: null: some validation rules were not checked because the object "
    "was invalid; correct the existing errors to complete validation"
)


def _locator(content: Any) -> Callable[[Chain], Location | None]:
    def where(chain: Chain) -> Location | None:
        return locate(content, paths.segments(chain))

    return where


def validate_custom_resource(
    content: Any,
    crd: CustomResourceDefinition,
    *,
    version: CRDVersion | None = None,
    field_validation: str = FieldValidation.STRICT,
    decode_errors: Sequence[InputError] = (),
    rules: bool = True,
    old: Any = None,
    prepare: Callable[[Any], None] | None = None,
    status_update: bool = False,
    old_read: bool = False,
) -> ValidationResult:
    """Validate one decoded object as a server-side create of it would.

    ``content`` is a decoded document (a ``YamlMap`` keeps positions); it is not
    changed. ``version`` defaults to the one named by its apiVersion.
    ``decode_errors`` are the reader's duplicate-key errors for this document.
    ``rules=False`` leaves the CEL rules out (they are then not checked at all).
    ``old`` makes it an update of that stored object (a decoded mapping).
    ``prepare`` changes the decoded, defaulted copy in place before validation, instead
    of the main resource's status split (see the module docstring).
    ``status_update``: the update is a ``/status`` write (with ``old``), validated as
    ``validator.go: ValidateStatusUpdate`` validates it: the schema stage checks
    ``.status`` alone against the status schema (its errors worded from there).
    ``old_read``: ``old`` is already a copy read with the schema of the version
    validated (pruned, its non-nullable nulls dropped, defaulted: ``_read_back``, as
    admission's ``read`` of an object stored in that version makes it).
    """
    where = _locator(content)
    errors: list[FieldError] = []
    warnings: list[str] = []
    blocked = False

    def add(stage: str, field: str, reason: str, message: str, location: Location | None) -> None:
        errors.append(FieldError(field, reason, message, stage, location, blocked))

    if not isinstance(content, dict):
        # the reader refuses such documents; a caller passing one gets a result, not a crash
        message = "Object 'Kind' is missing in the document: it is not a mapping"
        add(Stage.DECODING, "", Reason.BAD_REQUEST, message, None)
        return ValidationResult(object=content, errors=tuple(errors))

    obj, packed = _copied(content)
    # 0. the body's size (handlers/rest.go limitedReadBody, before anything is decoded);
    # serialized only when the copy's size says it may be near a limit (requestsize)
    big = may_be_too_big(packed)
    refusal = body_refusal(body_size(obj)) if big else None
    if refusal is not None:
        add(Stage.REQUEST, "", Reason.REQUEST_ENTITY_TOO_LARGE, refusal, where(None))
        blocked = True

    # 1. type meta ------------------------------------------------------------------
    api_version = content.get("apiVersion")
    kind = content.get("kind")
    if version is None:
        group, _, name = str(api_version or "").rpartition("/")
        version = crd.version(name) if group == crd.group else None
        if version is None:
            message = (
                f"apiVersion: Invalid value: {bad_value(str(api_version or ''))}: "
                f"{crd.name} serves no such version "
                f"(it has {', '.join(crd.group + '/' + v.name for v in crd.versions)})"
            )
            add(
                Stage.TYPE_META,
                "apiVersion",
                Reason.INVALID,
                message,
                where((None, "apiVersion", False)),
            )
            return ValidationResult(object=content, errors=tuple(errors))
    if not version.served:
        message = (
            f'apiVersion: Invalid value: "{crd.group}/{version.name}": '
            f"version {version.name} of {crd.name} is not served"
        )
        add(
            Stage.TYPE_META,
            "apiVersion",
            Reason.INVALID,
            message,
            where((None, "apiVersion", False)),
        )
        return ValidationResult(object=content, errors=tuple(errors))
    if version.deprecated:
        warnings.append(version.deprecation_warning or _default_deprecation(crd, version.name))
    # another kind is the strategy's finding (customresource/validator.go: Validate,
    # before the schema), a 422 beside the others; the schema coercer then neither
    # prunes, coerces nor defaults (customresource_handler.go: unstructuredSchemaCoercer
    # applies the schema only to the CRD's own kind)
    own_kind = kind == crd.names.kind
    if not own_kind:
        message = f"kind: Invalid value: {bad_value(kind if isinstance(kind, str) else '')}: must be {crd.names.kind}"
        add(Stage.SCHEMA, "kind", Reason.INVALID, message, where((None, "kind", False)))

    node = compile_schema(version.schema)
    if isinstance(old, dict) and not old_read:
        old = _read_back(old, node)

    # 2. strict decoding --------------------------------------------------------------
    unknown: list[tuple[str, Chain]] = []
    decode_failure = None
    metadata = obj.get("metadata")
    if metadata is not None:
        unknown, decode_failure = decode_metadata(metadata, paths.child(None, "metadata"))
    pruned: list[tuple[str, Chain]] = []
    embedded_unknown: list[tuple[str, Chain]] = []
    coercion = None
    if own_kind:
        pruned = prune(obj, node)
        drop_non_nullable_nulls(obj, node)
        embedded_unknown = embedded_metadata_unknown(node, obj)
        coercion = embedded_coercion_error(node, obj) if decode_failure is None else None
    # A metadata value that ObjectMeta cannot hold fails the request outright
    # (objectmeta/coerce.go returns the json error); strict-decoding findings are
    # then never reported.
    if decode_failure is not None:
        add(
            Stage.DECODING,
            "metadata",
            Reason.BAD_REQUEST,
            decode_failure,
            where((None, "metadata", False)),
        )
        blocked = True
    if coercion is not None:
        field, message, chain = coercion
        add(Stage.DECODING, field, Reason.BAD_REQUEST, message, where(chain))
        blocked = True
    strict: list[FieldError] = []
    if field_validation != FieldValidation.IGNORE:
        for error in decode_errors:
            strict.append(
                FieldError(
                    "",
                    Reason.DUPLICATE_FIELD,
                    error.message,
                    Stage.DECODING,
                    error.location,
                    blocked,
                )
            )
        for path, chain in (*unknown, *pruned, *embedded_unknown):
            text = f"unknown field {_quote(path)}"
            location = _field_location(content, chain)
            if field_validation == FieldValidation.WARN:
                warnings.append(text)
            else:
                strict.append(
                    FieldError(path, Reason.UNKNOWN_FIELD, text, Stage.DECODING, location, blocked)
                )
    errors.extend(strict)
    if strict:
        blocked = True

    # 3. coercion, defaulting, status -------------------------------------------------
    if isinstance(metadata, dict) and decode_failure is None:
        coerce_metadata(metadata)
        duplicates = dedup_owner_references(metadata)
        if duplicates:
            warnings.append(duplicates)
    if own_kind:
        coerce_embedded(node, obj)
        apply_defaults(obj, node)
    if prepare is not None:
        prepare(obj)
    elif version.subresources.status:
        # the main resource never writes status: dropped on create, kept from the
        # old object on update (strategy.go: PrepareForCreate, PrepareForUpdate)
        obj.pop("status", None)
        if isinstance(old, dict) and old.get("status") is not None:
            obj["status"] = old["status"]

    # 4. validation -------------------------------------------------------------------
    validation: list[FieldError] = []

    def found(stage: str, items: Sequence[tuple[str, str, str, Chain]]) -> None:
        for field, reason, message, chain in items:
            validation.append(FieldError(field, reason, message, stage, where(chain), blocked))

    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    # a create's generateName becomes its name before it is validated
    # (apiserver/pkg/registry/rest/create.go: BeforeCreate), so the schema's
    # metadata.name checks and the rules see the generated name ("xxxxx" offline)
    generate = meta.get("generateName")
    named = old is None and not meta.get("name") and isinstance(generate, str) and bool(generate)
    if named:
        meta["name"] = generated_name(str(generate))
    if decode_failure is None:
        if isinstance(old, dict):
            found(
                Stage.OBJECT_META,
                update_meta_errors(meta, old.get("metadata"), CUSTOM_RESOURCE_UPDATE),
            )
        else:
            found(Stage.OBJECT_META, validate_object_meta(meta, None))
        # an update warns only about the finalizers it adds (strategy.go: generateWarningsFromObj)
        old_meta = old.get("metadata") if isinstance(old, dict) else None
        if isinstance(old_meta, dict) and old_meta.get("finalizers"):
            kept = set(old_meta["finalizers"])
            added = [f for f in meta.get("finalizers") or () if f not in kept]
            warnings.extend(finalizer_warnings({"finalizers": added}))
        else:
            warnings.extend(finalizer_warnings(meta))
    if status_update:
        status_node = node.properties.get("status")
        schema_errors = (
            validate_schema(status_node, obj["status"], at="status")
            if status_node is not None and "status" in obj
            else []
        )
    else:
        schema_errors = validate_schema(node, obj)
    if isinstance(old, dict):
        schema_errors = [e for e in schema_errors if not _unchanged(obj, old, e[3], node)]
    found(Stage.SCHEMA, schema_errors)
    scale = version.subresources.scale
    if scale is not None:
        # a /status write checks only the status replicas (customresource/validator.go:
        # ValidateStatusUpdate calls ValidateScaleStatus, not ValidateScaleSpec)
        if not status_update:
            found(Stage.SCALE, _scale_errors(obj, scale.spec_replicas_path))
        found(Stage.SCALE, _scale_errors(obj, scale.status_replicas_path))
    found(Stage.EMBEDDED, validate_embedded(node, obj))
    # an update checks list types only when the old object breaks none of them
    # (apiextensions-apiserver registry/customresource/strategy.go: ValidateUpdate)
    if not (isinstance(old, dict) and validate_list_types(node, old)):
        found(Stage.LIST_TYPE, validate_list_types(node, obj))
    if rules and has_rules(version.schema):
        if engine_missing():
            warnings.append(NOT_CHECKED)
        elif any(e.reason in BLOCKING_REASONS for e in validation):
            validation.append(
                FieldError("<nil>", Reason.INVALID, CEL_NOT_RUN, Stage.CEL, None, blocked)
            )
        else:
            run_rules = _rules_runner()
            # an object that broke its schema's bounds may outrun the cost estimates
            exact = any(e.stage == Stage.SCHEMA for e in validation)
            old_object = old if isinstance(old, dict) else None
            outcome = run_rules(version.schema, obj, old_object, exact=exact)
            for rule_error in outcome.errors:
                validation.append(
                    FieldError(
                        rule_error.field,
                        rule_error.reason,
                        rule_error.message,
                        Stage.CEL,
                        where(rule_error.chain),
                        blocked,
                        transition=rule_error.transition,
                    )
                )
            warnings.extend(outcome.warnings)
    errors.extend(validation)
    if big and old is None and refusal is None:
        # etcd's limits, met by a create that passed everything else (requestsize)
        too_large = storage_refusal(
            obj, group=crd.group, plural=crd.names.plural, namespaced=crd.namespaced
        )
        if too_large is not None:
            # only a valid object is stored: after any other error, etcd is not reached
            stored_blocked = bool(errors)
            errors.append(
                FieldError(
                    "",
                    Reason.STORAGE_TOO_LARGE,
                    too_large,
                    Stage.REQUEST,
                    where(None),
                    stored_blocked,
                )
            )
    if named:
        del meta["name"]  # the object as given: the server's suffix is random
    return ValidationResult(object=obj, errors=tuple(errors), warnings=tuple(warnings))


_MISSING = object()


@cache
def _rules_runner() -> Callable[..., Any]:
    """``cel.rules.run_rules``, imported on first use (the engine loads only for a CRD
    that has rules) and then kept: an import statement costs ~0.5 us an object."""
    from kubectl_crd.validation.cel.rules import run_rules

    return run_rules


def _read_back(old: dict[str, Any], node: SchemaNode) -> dict[str, Any]:
    """The stored object as an update's validation sees it. The server reads it through
    the CRD's storage codec (``crdhandler.go: crdConversionRESTOptionsGetter``), whose
    ``schemaCoercingDecoder`` prunes it and drops its non-nullable nulls, and whose
    ``unstructuredDefaulter`` defaults it, with the schema served now: an object
    stored before the CRD gained a default or lost a field compares with the update
    (ratcheting, ``oldSelf``) as if written today."""
    stored, _ = _copied(old)
    prune(stored, node)
    drop_non_nullable_nulls(stored, node)
    apply_defaults(stored, node)
    return dict(stored)


def _copied(content: Any) -> tuple[Any, int]:
    """A deep copy of the decoded document that the stages may change, as plain dicts
    and lists, and the length of its marshal (version 2) form, a bound on its JSON size
    (``requestsize.may_be_too_big``): plain values (the parsed-value cache's) through
    marshal, in C, several times faster than a walk; version 2 writes no references, so
    an alias's copies are not shared. A document with positions is copied without them:
    every error is located in ``content`` (``where``), never in the copy, and the copy
    is what admission stores, so plain saves it a second walk (~9 us a CronTab)."""
    if type(content) is dict:
        try:
            blob = marshal.dumps(content, 2)
        except ValueError:  # something marshal cannot write: walk it
            pass
        else:
            if _HUGE_INT.search(blob) is None:
                return marshal.loads(blob), len(blob)
    copy = _plain_tree(content)
    try:
        return copy, len(marshal.dumps(copy, 2))
    except ValueError:  # a value no JSON decoder makes: no size to tell
        return copy, 0


#: an integer of 5 or more 15-bit digits in marshal's output (``l`` and a 4-byte digit
#: count, negative for a negative number): one that may fall outside int64, which the
#: copy then looks for (a string may hold these bytes too; that costs a walk, no more)
_HUGE_INT = re.compile(rb"l(?:[\x05-\xff]\x00\x00\x00|[\x00-\xfb]\xff\xff\xff)", re.DOTALL)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _decoded(value: Any) -> Any:
    """A scalar as the server decodes it: an integer outside int64 is a float64
    (``apimachinery/pkg/util/json: convertNumber`` falls back to ``Float64``)."""
    if type(value) is int and not _INT64_MIN <= value <= _INT64_MAX:
        return float(value)
    return value


def _plain_tree(node: Any) -> Any:
    """A deep copy of ``node`` with every mapping a ``dict`` and every list a ``list``,
    without recursion (``io.positions.copy_tree``'s walk, less the positions); an
    alias's copies are not shared, as go-yaml decodes every alias anew."""
    if not isinstance(node, dict | list):
        return node
    root: Any = {} if isinstance(node, dict) else []
    pending: list[tuple[Any, Any]] = [(node, root)]
    pop, push = pending.pop, pending.append
    while pending:
        original, copy = pop()
        if isinstance(original, dict):
            for key, value in original.items():
                if isinstance(value, dict | list):
                    child: Any = {} if isinstance(value, dict) else []
                    push((value, child))
                    value = child
                copy[key] = _decoded(value)
        else:
            for value in original:
                if isinstance(value, dict | list):
                    child = {} if isinstance(value, dict) else []
                    push((value, child))
                    value = child
                copy.append(_decoded(value))
    return _decoded(root)


def default_as_read(obj: Any, version: CRDVersion, *, created: bool = False) -> None:
    """Default ``obj`` (a stored object, plain) as the API server does when it reads it
    back from etcd: the storage decoder applies the structural defaults again
    (``apiextensions-apiserver: customresource_handler.go``, the storage codec's
    ``schemaCoercingConverter`` and defaulting), so a default of ``status``, which a
    create drops, is there when the object is read.

    ``created``: ``obj`` is what ``validate_custom_resource`` just stored, defaulted but
    for the status it dropped, so only a ``status`` default can change it."""
    if created and not read_adds_status(obj, version):
        return
    apply_defaults(obj, compile_schema(version.schema))


def read_adds_status(obj: Any, version: CRDVersion) -> bool:
    """Whether reading back ``obj``, just created (defaulted but for the status a
    status subresource dropped), would change it: only a ``status`` default can."""
    if not isinstance(obj, dict) or "status" in obj:
        return False
    status = compile_schema(version.schema).properties.get("status")
    return status is not None and status.has_default


def _unchanged(obj: Any, old: Any, chain: Chain, node: SchemaNode) -> bool:
    """Whether the ratcheting validator drops an error reported at ``chain``.

    ``apiextensions-apiserver/pkg/apiserver/validation/ratcheting.go`` validates each
    node it can correlate with an old value and turns its subtree's errors into warnings
    when the two DeepEqual (``apiserver/pkg/cel/common/equality.go``). A property
    correlates when both objects have it; a list item only in a
    ``x-kubernetes-list-type: map`` list, with the old item of the same keys (set and
    atomic list items never). So the error goes when the deepest node on its path that
    still correlates is unchanged: a changed item of an atomic list keeps its error
    unless the whole list is unchanged.
    """
    new_value: Any = obj
    old_value: Any = old
    current: SchemaNode | None = node
    for segment in paths.segments(chain):
        if current is None:
            break
        if isinstance(segment, int):
            if (
                current.list_type != "map"
                or current.items is None
                or not isinstance(new_value, list)
                or not isinstance(old_value, list)
                or segment >= len(new_value)
            ):
                break
            matched = _same_keys(new_value[segment], old_value, current.map_keys)
            if matched is _MISSING:
                break
            new_value, old_value = new_value[segment], matched
            current = current.items
        else:
            if not (
                isinstance(new_value, dict)
                and isinstance(old_value, dict)
                and segment in new_value
                and segment in old_value
            ):
                break
            sub = current.properties.get(segment) or current.additional
            if sub is None:
                break
            new_value, old_value = new_value[segment], old_value[segment]
            current = sub
    return _deep_equal(new_value, old_value, current)


def _same_keys(item: Any, old_items: list[Any], keys: tuple[str, ...]) -> Any:
    """The old item with ``item``'s map keys (``common.MakeMapList``), or ``_MISSING``."""
    if not isinstance(item, dict):
        return _MISSING
    wanted = tuple(item.get(k) for k in keys)
    for old_item in old_items:
        if isinstance(old_item, dict) and tuple(old_item.get(k) for k in keys) == wanted:
            return old_item
    return _MISSING


def _deep_equal(value: Any, old: Any, node: SchemaNode | None) -> bool:
    """``CorrelatedObject.CachedDeepEqual``: Go's DeepEqual of decoded JSON (1 is not
    1.0 nor true), except that a map-type list's items are compared by their keys."""
    if type(value) is not type(old):
        return False
    if isinstance(value, dict):
        if value.keys() != old.keys():
            return False
        for key, item in value.items():
            sub = None if node is None else node.properties.get(key) or node.additional
            if not _deep_equal(item, old[key], sub):
                return False
        return True
    if isinstance(value, list):
        if len(value) != len(old):
            return False
        items = None if node is None else node.items
        if node is not None and node.list_type == "map" and items is not None:
            for item in value:
                matched = _same_keys(item, old, node.map_keys)
                if matched is _MISSING or not _deep_equal(item, matched, items):
                    return False
            return True
        return all(_deep_equal(a, b, items) for a, b in zip(value, old, strict=True))
    return bool(value == old)


def _default_deprecation(crd: CustomResourceDefinition, deprecated: str) -> str:
    """``customresource_handler.go: defaultDeprecationWarning``."""
    message = f"{crd.group}/{deprecated} {crd.names.kind} is deprecated"
    rank = kube_version_sort_key(deprecated)
    newer = [
        v.name
        for v in crd.versions
        if v.served and not v.deprecated and kube_version_sort_key(v.name) < rank
    ]
    if newer:
        message += f"; use {crd.group}/{min(newer, key=kube_version_sort_key)} {crd.names.kind}"
    return message


def _quote(text: str) -> str:
    from kubectl_crd.model.govalues import go_quote

    return go_quote(text)


def _field_location(content: Any, chain: Chain) -> Location | None:
    from kubectl_crd.io.positions import locate_field

    return locate_field(content, paths.segments(chain))


def _scale_errors(obj: Any, json_path: str) -> list[tuple[str, str, str, Chain]]:
    """``validator.go: ValidateScaleSpec/Status`` with ``unstructured.NestedInt64``."""
    if not json_path:
        return []
    fields = _path_fields(json_path)
    value: Any = obj
    chain: Chain = None
    for position, key in enumerate(fields):
        if value is None:
            return []  # NestedFieldNoCopy: a null on the way is "not found", no error
        if not isinstance(value, dict):
            # unstructured.NestedFieldNoCopy: a non-map on the way is an error
            where = "." + ".".join(fields[: position + 1])
            message = (
                f"{where} accessor error: {go_print(value)} is of the type "
                f"{go_type(value)}, expected map[string]interface{{}}"
            )
            return [(json_path, Reason.INVALID, f"{json_path}: Invalid value: 0: {message}", chain)]
        if key not in value:
            return []
        value = value[key]
        chain = paths.child(chain, key)
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            return [
                (
                    json_path,
                    Reason.INVALID,
                    f"{json_path}: Invalid value: {value}: should be a non-negative integer",
                    chain,
                )
            ]
        if value > 2**31 - 1:
            return [
                (
                    json_path,
                    Reason.INVALID,
                    f"{json_path}: Invalid value: {value}: should be less than or equal to 2147483647",
                    chain,
                )
            ]
        return []
    # a null at the end is found, and not an int64: an error (a null on the way is not)
    type_name = go_type(value)
    shown = go_print(value)
    dotted = "." + ".".join(fields)
    message = f"{dotted} accessor error: {shown} is of the type {type_name}, expected int64"
    return [(json_path, Reason.INVALID, f"{json_path}: Invalid value: 0: {message}", chain)]


@cache
def _path_fields(json_path: str) -> tuple[str, ...]:
    """The fields of a scale path such as ``.spec.replicas`` (a CRD has two)."""
    return tuple(json_path.removeprefix(".").split("."))
