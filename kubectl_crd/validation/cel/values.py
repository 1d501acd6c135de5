"""Decoded JSON values as CEL sees them, typed by their structural schema.

``apiserver/pkg/cel/common/values.go: UnstructuredToVal`` and
``apiextensions-apiserver/.../schema/cel/model``: an object with properties is an
object whose fields are the escaped property names (undeclared and unescapable
ones are not visible; a reserved word under its own name too; a null field is
absent); additionalProperties make a map keyed by the raw keys;
``number`` values are doubles even when written as integers; strings of format
``date-time``/``date`` are timestamps, ``duration`` durations, ``byte`` bytes; a
resource root (the object itself, an embedded resource) shows ``apiVersion``,
``kind`` and only ``metadata.name`` and ``metadata.generateName``
(``model.WithTypeAndObjectMeta``); int-or-string and preserve-unknown-fields values
are dynamic, taken as they are.
"""

from __future__ import annotations

import base64
import binascii
import datetime
from typing import Any

from google.protobuf import duration_pb2, timestamp_pb2

from kubectl_crd.model.durations import DurationSyntaxError, parse_strfmt_duration
from kubectl_crd.validation.cel.escaping import field_names
from kubectl_crd.validation.compiled import SchemaNode

#: One object's values as converted, by the ids of the value and its schema and
#: whether it is a resource's root (``to_cel``'s memo)
Conversions = dict[tuple[int, int, bool], Any]

_ROOT_FIELDS = ("apiVersion", "kind")
_META_FIELDS = ("name", "generateName")
#: the prefix of the key an object's null field is kept under (``_object``): a space
#: keeps it from any escaped name (the engine cuts a key at a NUL: no NUL here)
NULL_FIELD = " null:"


def to_cel(
    value: Any,
    schema: SchemaNode | None,
    resource_root: bool = False,
    memo: Conversions | None = None,
) -> Any:
    """``value`` converted for the engine under ``schema`` (None: dynamic).

    ``memo`` keeps the conversions of one object's run of its rules (by the ids of the
    value and the schema, both alive throughout): a node below another with rules is
    converted once, as part of the one above."""
    if value is None:
        return None
    if schema is None:
        return dynamic(value)
    types = schema.types
    if len(types) != 1:
        return dynamic(value)  # int-or-string and untyped nodes
    kind = types[0]
    if (kind == "object" and isinstance(value, dict)) or (
        kind == "array" and isinstance(value, list)
    ):
        if memo is None:
            return _container(value, schema, resource_root, memo)
        key = (id(value), id(schema), resource_root)
        converted = memo.get(key)
        if converted is None:
            converted = memo[key] = _container(value, schema, resource_root, memo)
        return converted
    if kind == "number" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind == "string" and isinstance(value, str) and schema.format:
        return _formatted(value, schema.format)
    return value


def _container(
    value: dict[str, Any] | list[Any],
    schema: SchemaNode,
    resource_root: bool,
    memo: Conversions | None,
) -> Any:
    """``to_cel`` of an object or a list of its schema's type."""
    if isinstance(value, list):
        return [to_cel(v, schema.items, False, memo) for v in value]
    if resource_root or schema.embedded:
        return _resource(value, schema, memo)
    if schema.properties:
        return _object(value, schema, memo)
    if schema.additional is not None:
        additional = schema.additional
        return {str(k): to_cel(v, additional, False, memo) for k, v in value.items()}
    if schema.preserve_unknown:
        return dynamic(value)
    return {}


def _object(value: dict[str, Any], schema: SchemaNode, memo: Conversions | None) -> dict[str, Any]:
    fields = _fields(schema)
    out: dict[str, Any] = {}
    for key, item in value.items():
        field = fields.get(key)
        if field is not None:
            names, child, unconverted = field
            if item is None:
                # an object's null field is absent to rules (``has`` is false, selecting it
                # is "no such key") but still counts in its size, so {"a": null} != {}
                # (``apiserver/pkg/cel/common/valuesunstructured.go: unstructuredMap.Find,
                # Equal``): kept under a name no rule can spell
                out[NULL_FIELD + key] = None
                continue
            converted = item if unconverted else to_cel(item, child, False, memo)
            for name in names:  # a reserved word twice: ``escaping.field_names``
                out[name] = converted
    return out


#: ``_fields`` of each object schema met, by its id (schema nodes live as long as their
#: compiled schema, kept by ``schemas.compile_schema``)
_FIELD_PLANS: dict[int, tuple[SchemaNode, dict[str, tuple[tuple[str, ...], SchemaNode, bool]]]] = {}


def _fields(schema: SchemaNode) -> dict[str, tuple[tuple[str, ...], SchemaNode, bool]]:
    """The properties rules can see, by name: the CEL names, the schema, and whether
    ``to_cel`` gives any value back as it is (the one type integer, boolean, or string
    without a format), so that it is not called for those."""
    found = _FIELD_PLANS.get(id(schema))
    if found is None or found[0] is not schema:
        plan = {}
        for key, child in schema.properties.items():
            names = field_names(key)
            if names:
                types = child.types
                unconverted = len(types) == 1 and (
                    types[0] in ("integer", "boolean")
                    or (types[0] == "string" and not child.format)
                )
                plan[key] = (names, child, unconverted)
        found = _FIELD_PLANS[id(schema)] = (schema, plan)
    return found[1]


def _resource(
    value: dict[str, Any], schema: SchemaNode, memo: Conversions | None
) -> dict[str, Any]:
    out = _object(value, schema, memo) if schema.properties else {}
    for key in _ROOT_FIELDS:
        if key in value:
            out[key] = dynamic(value[key])
    metadata = value.get("metadata")
    if isinstance(metadata, dict):
        out["metadata"] = {k: dynamic(metadata[k]) for k in _META_FIELDS if k in metadata}
    else:
        out.pop("metadata", None)
    return out


def _formatted(value: str, format_name: str) -> Any:
    if format_name in ("date-time", "datetime"):
        parsed = _datetime(value)
        if parsed is not None:
            stamp = timestamp_pb2.Timestamp()
            stamp.FromDatetime(parsed)
            return stamp
    elif format_name == "date":
        try:
            day = datetime.date.fromisoformat(value)
        except ValueError:
            return value
        stamp = timestamp_pb2.Timestamp()
        stamp.FromDatetime(datetime.datetime(day.year, day.month, day.day))
        return stamp
    elif format_name == "duration":
        try:
            nanoseconds = parse_strfmt_duration(value)
        except DurationSyntaxError:
            return value
        duration = duration_pb2.Duration()
        duration.FromNanoseconds(nanoseconds)
        return duration
    elif format_name == "byte":
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            return value
    return value


def _datetime(text: str) -> datetime.datetime | None:
    try:
        parsed = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(datetime.UTC).replace(tzinfo=None)
    return parsed


def dynamic(value: Any) -> Any:
    """A value under preserve-unknown-fields or int-or-string: JSON as it is.

    As plain dicts and lists: the engine takes no subclasses (the reader's
    position-keeping mappings are ones).
    """
    if isinstance(value, dict):
        return {str(k): dynamic(v) for k, v in value.items()}
    if isinstance(value, list):
        return [dynamic(v) for v in value]
    return value
