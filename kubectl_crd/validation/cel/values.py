"""Decoded JSON values as CEL sees them, typed by their structural schema.

``apiserver/pkg/cel/common/values.go: UnstructuredToVal`` and
``apiextensions-apiserver/.../schema/cel/model``: an object with properties is an
object whose fields are the escaped property names (undeclared and unescapable
ones are not visible; a reserved word under its own name too; a null field is
absent); additionalProperties make a map keyed by the raw keys;
``number`` values are doubles even when written as integers; strings of format
``date-time``/``date`` are timestamps, ``duration`` durations, ``byte`` bytes (read as
kube-openapi's strfmt reads them: ``ParseDateTime``, ``time.Parse`` of a full date,
``ParseDuration``, ``Base64.UnmarshalText``, which takes URL-safe base64), and one
they do not take is an error value (``InvalidFormat``: an error where a rule reads it); a
resource root (the object itself, an embedded resource) shows ``apiVersion``,
``kind`` and only ``metadata.name`` and ``metadata.generateName``
(``model.WithTypeAndObjectMeta``); int-or-string and preserve-unknown-fields values
are dynamic, taken as they are.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import duration_pb2, timestamp_pb2

from kubectl_crd.model.durations import DurationSyntaxError, parse_strfmt_duration
from kubectl_crd.model.gotime import FULL_DATE, LOCAL_TIME, RFC3339, layout_time
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
    invalid: list[InvalidFormat] | None = None,
) -> Any:
    """``value`` converted for the engine under ``schema`` (None: dynamic).

    ``memo`` keeps the conversions of one object's run of its rules (by the ids of the
    value and the schema, both alive throughout): a node below another with rules is
    converted once, as part of the one above. ``invalid`` collects the
    ``InvalidFormat`` values made (the engine takes none: ``rules`` swaps them); without
    it such a value is its string."""
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
            return _container(value, schema, resource_root, memo, invalid)
        key = (id(value), id(schema), resource_root)
        converted = memo.get(key)
        if converted is None:
            converted = memo[key] = _container(value, schema, resource_root, memo, invalid)
        return converted
    if kind == "number" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind == "string" and isinstance(value, str) and schema.format:
        formatted = _formatted(value, schema.format)
        if type(formatted) is InvalidFormat:
            if invalid is None:
                return value  # a caller that runs no rules strictly: the string
            invalid.append(formatted)
        return formatted
    return value


def _container(
    value: dict[str, Any] | list[Any],
    schema: SchemaNode,
    resource_root: bool,
    memo: Conversions | None,
    invalid: list[InvalidFormat] | None = None,
) -> Any:
    """``to_cel`` of an object or a list of its schema's type."""
    if isinstance(value, list):
        return [to_cel(v, schema.items, False, memo, invalid) for v in value]
    if resource_root or schema.embedded:
        return _resource(value, schema, memo, invalid)
    if schema.properties:
        return _object(value, schema, memo, invalid)
    if schema.additional is not None:
        additional = schema.additional
        if invalid is None:
            return {str(k): to_cel(v, additional, False, memo) for k, v in value.items()}
        out = {}
        for key, item in value.items():
            before = len(invalid)
            out[str(key)] = to_cel(item, additional, False, memo, invalid)
            if len(invalid) != before:
                _name_invalid(invalid, before, str(key))
        return out
    if schema.preserve_unknown:
        return dynamic(value)
    return {}


def _object(
    value: dict[str, Any],
    schema: SchemaNode,
    memo: Conversions | None,
    invalid: list[InvalidFormat] | None = None,
) -> dict[str, Any]:
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
            if unconverted:
                converted = item
            elif invalid is None:
                converted = to_cel(item, child, False, memo)
            else:
                before = len(invalid)
                converted = to_cel(item, child, False, memo, invalid)
                if len(invalid) != before:
                    _name_invalid(invalid, before, names[0])
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


def _name_invalid(invalid: list[InvalidFormat], before: int, field: str) -> None:
    """Name the invalid values a field's conversion added (of a list, the list's
    field) after the nearest field above them, the name a rule reads them by."""
    for each in invalid[before:]:
        if not each.field:
            each.field = field


def _resource(
    value: dict[str, Any],
    schema: SchemaNode,
    memo: Conversions | None,
    invalid: list[InvalidFormat] | None = None,
) -> dict[str, Any]:
    out = _object(value, schema, memo, invalid) if schema.properties else {}
    for key in _ROOT_FIELDS:
        if key in value:
            out[key] = dynamic(value[key])
    metadata = value.get("metadata")
    if isinstance(metadata, dict):
        out["metadata"] = {k: dynamic(metadata[k]) for k in _META_FIELDS if k in metadata}
    else:
        out.pop("metadata", None)
    return out


class InvalidFormat:
    """A string of format ``duration``, ``date``, ``date-time`` or ``byte`` that the
    type does not take: the server's value is the error ``message``
    (``valuesunstructured.go``: ``types.NewErr("Invalid duration %s: %v", ...)``),
    which a rule meets where it reads the field. ``field``: the property it is the
    value of (of the list it is in), set by ``to_cel``'s object."""

    __slots__ = ("field", "message", "text")

    def __init__(self, text: str, message: str) -> None:
        self.text = text
        self.message = message
        self.field = ""

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is InvalidFormat
            and other.text == self.text
            and other.message == self.message
        )

    def __hash__(self) -> int:
        return hash((self.text, self.message))

    def __repr__(self) -> str:
        return f"InvalidFormat({self.text!r}, {self.message!r})"


def _formatted(value: str, format_name: str) -> Any:
    if format_name in ("date-time", "datetime"):
        if not value:
            return _timestamp(0, value)  # strfmt.NewDateTime: the Unix epoch
        # ParseDateTime: RFC3339Micro, RFC3339Millis, RFC3339, RFC3339Nano (time.Parse of
        # RFC3339 takes what those three do), then ISO8601LocalTime, whose error it keeps
        nanoseconds, _ = layout_time(value, RFC3339)
        if nanoseconds is None:
            nanoseconds, problem = layout_time(value, LOCAL_TIME)
            if nanoseconds is None:
                return InvalidFormat(
                    value, f"Invalid date-time formatted string {value}: {problem}"
                )
        return _timestamp(nanoseconds, value)
    if format_name == "date":
        nanoseconds, problem = layout_time(value, FULL_DATE)
        if nanoseconds is None:
            return InvalidFormat(value, f"Invalid date formatted string {value}: {problem}")
        return _timestamp(nanoseconds, value)
    if format_name == "duration":
        try:
            nanoseconds = parse_strfmt_duration(value)
        except DurationSyntaxError as exc:
            return InvalidFormat(value, f"Invalid duration {value}: {exc}")
        duration = duration_pb2.Duration()
        duration.FromNanoseconds(nanoseconds)
        return duration
    if format_name == "byte":
        from kubectl_crd.validation.decoding import go_base64

        decoded, problem = go_base64(value, url=True)
        if problem is not None:
            return InvalidFormat(value, f"Invalid byte formatted string {value}: {problem}")
        return decoded
    return value


def _timestamp(nanoseconds: int, text: str) -> Any:
    """A protobuf Timestamp; one out of its range (before year 1 or past 9999, which
    Go's time.Parse reads: "0000-01-01") the engine cannot hold: ``text``, the string."""
    stamp = timestamp_pb2.Timestamp()
    try:
        stamp.FromNanoseconds(nanoseconds)
    except ValueError:
        return text
    return stamp


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
